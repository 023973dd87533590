#!/usr/bin/env bash
# Perft speed of tarpon against Stockfish 15.1, side by side in one run.
#
# Runs Stockfish `go perft DEPTH` from the start position and tarpon in
# several configurations, interleaved round by round (sf, tarpon, tarpon...,
# sf, tarpon, ...) so that load from other processes hits all of them alike.
# Prints every run's wall and CPU time, then per configuration the median
# wall time, the median Mnps and the median over rounds of (Stockfish time /
# tarpon time) measured in the same round, for wall time and for CPU time
# (user + system; less disturbed by other load, but blind to threading).
#
# Usage: [TARPON=path/to/build] arena/perft-vs-stockfish.sh [rounds] [depth]   (defaults: 5, 7)
# Stockfish's time includes its start-up (loading its net), shown separately.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-5}
DEPTH=${2:-7}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
TARPON=${TARPON:-target/release/tarpon}

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

# Runs one configuration once; prints "wall-seconds cpu-seconds nodes".
run_once() {
    local config=$1 start end out cpu
    cpu=$(mktemp)
    start=$(now)
    if [ "$config" = sf ]; then
        out=$(printf 'go perft %s\nquit\n' "$DEPTH" | /usr/bin/time -f '%U %S' -o "$cpu" "$STOCKFISH")
    else
        # shellcheck disable=SC2086
        out=$(/usr/bin/time -f '%U %S' -o "$cpu" "$TARPON" perft "$DEPTH" ${config#tarpon})
    fi
    end=$(now)
    local nodes
    nodes=$(grep -o 'Nodes searched: [0-9]*' <<<"$out" | grep -o '[0-9]*$')
    echo "$(echo "$end - $start" | bc -l) $(awk '{print $1 + $2}' "$cpu") $nodes"
    rm -f "$cpu"
}

startup=$( { start=$(now); echo quit | "$STOCKFISH" >/dev/null; end=$(now); printf "%.3f" "$(echo "$end - $start" | bc -l)"; } )
echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# Stockfish: $("$STOCKFISH" <<<quit | head -1); start-up alone ${startup} s"
echo "# tarpon $(git rev-parse --short HEAD), depth $DEPTH, $ROUNDS rounds"

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq "$ROUNDS"); do
    for i in "${!CONFIGS[@]}"; do
        read -r secs cpu nodes < <(run_once "${CONFIGS[$i]}")
        printf 'round %d  %-28s %8.3f s wall %8.3f s cpu  %s nodes\n' \
            "$round" "${CONFIGS[$i]}" "$secs" "$cpu" "$nodes"
        echo "$round $i $secs $cpu $nodes" >>"$results"
    done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" "${CONFIGS[@]}" <<'PY'
import sys, statistics
path, configs = sys.argv[1], sys.argv[2:]
rows = [l.split() for l in open(path)]
time = {(int(r), int(i)): float(s) for r, i, s, _, _ in rows}
cpu = {(int(r), int(i)): float(c) for r, i, _, c, _ in rows}
nodes = {int(i): int(n) for _, i, _, _, n in rows}
rounds = sorted({r for r, _ in time})
if len(set(nodes.values())) != 1:
    sys.exit(f"node counts differ: {nodes}")
print(f"\n{'configuration':30} {'median s':>9} {'Mnps':>8} {'speed vs sf':>12} {'cpu vs sf':>10}")
for i, name in enumerate(configs):
    t = statistics.median(time[r, i] for r in rounds)
    ratio = statistics.median(time[r, 0] / max(time[r, i], 0.001) for r in rounds)
    cpu_ratio = statistics.median(cpu[r, 0] / max(cpu[r, i], 0.01) for r in rounds)
    print(f"{name:30} {t:9.3f} {nodes[i] / t / 1e6:8.1f} {ratio:11.2f}x {cpu_ratio:9.2f}x")
PY
