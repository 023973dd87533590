#!/usr/bin/env bash
# Perft speed of tarpon against Stockfish 15.1, side by side in one run.
#
# Runs Stockfish `go perft DEPTH` from the start position and tarpon in
# several configurations, interleaved round by round (sf, tarpon, tarpon...,
# sf, tarpon, ...) so that load from other processes hits all of them alike.
# Prints every run's wall time, then per configuration the median time, the
# median Mnps and the median over rounds of (Stockfish time / tarpon time)
# measured in the same round.
#
# Usage: arena/perft-vs-stockfish.sh [rounds] [depth]   (defaults: 5, 7)
# Stockfish's time includes its start-up (loading its net), shown separately.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-5}
DEPTH=${2:-7}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
TARPON=target/release/tarpon

cargo build --release --quiet
[ -x "$STOCKFISH" ] || { echo "no Stockfish at $STOCKFISH" >&2; exit 1; }

CONFIGS=(
    "sf"
    "tarpon --threads 1"
    "tarpon"
    "tarpon --threads 1 --hash 0"
    "tarpon --hash 0"
)

now() { date +%s.%N; }

# Runs one configuration once; prints "seconds nodes".
run_once() {
    local config=$1 start end out
    start=$(now)
    if [ "$config" = sf ]; then
        out=$(printf 'go perft %s\nquit\n' "$DEPTH" | "$STOCKFISH")
    else
        # shellcheck disable=SC2086
        out=$("$TARPON" perft "$DEPTH" ${config#tarpon})
    fi
    end=$(now)
    local nodes
    nodes=$(grep -o 'Nodes searched: [0-9]*' <<<"$out" | grep -o '[0-9]*$')
    echo "$(echo "$end - $start" | bc -l) $nodes"
}

startup=$( { start=$(now); echo quit | "$STOCKFISH" >/dev/null; end=$(now); printf "%.3f" "$(echo "$end - $start" | bc -l)"; } )
echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# Stockfish: $("$STOCKFISH" <<<quit | head -1); start-up alone ${startup} s"
echo "# tarpon $(git rev-parse --short HEAD), depth $DEPTH, $ROUNDS rounds"

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq "$ROUNDS"); do
    for i in "${!CONFIGS[@]}"; do
        read -r secs nodes < <(run_once "${CONFIGS[$i]}")
        printf 'round %d  %-28s %8.3f s  %s nodes\n' "$round" "${CONFIGS[$i]}" "$secs" "$nodes"
        echo "$round $i $secs $nodes" >>"$results"
    done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" "${CONFIGS[@]}" <<'PY'
import sys, statistics
path, configs = sys.argv[1], sys.argv[2:]
rows = [l.split() for l in open(path)]
time = {(int(r), int(i)): float(s) for r, i, s, _ in rows}
nodes = {int(i): int(n) for _, i, _, n in rows}
rounds = sorted({r for r, _ in time})
if len(set(nodes.values())) != 1:
    sys.exit(f"node counts differ: {nodes}")
print(f"\n{'configuration':30} {'median s':>9} {'Mnps':>8} {'speed vs sf':>12}")
for i, name in enumerate(configs):
    t = statistics.median(time[r, i] for r in rounds)
    ratio = statistics.median(time[r, 0] / time[r, i] for r in rounds)
    print(f"{name:30} {t:9.3f} {nodes[i] / t / 1e6:8.1f} {ratio:11.2f}x")
PY
