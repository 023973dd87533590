#!/bin/sh
# tarpon bench NPS (PST evaluator, or whatever TARPON_ARGS asks for, e.g.
# TARPON_ARGS="--eval nnue --net sf15.nnue") next to `stockfish bench` NPS,
# interleaved in one run so both see the same machine load; prints each run
# with its ratio, the medians, and the median of the rounds' ratios. On a
# shared host whose speed drifts between rounds, the median of the ratios is
# the steadier figure: the two runs of one round see nearly the same load,
# while the two medians may come from rounds under different loads.
# Usage (from the crate root, after `cargo build --release`):
#   [TARPON_ARGS=...] arena/bench_nps_vs_stockfish.sh [rounds=5] [stockfish=/usr/games/stockfish]
set -eu
ROUNDS=${1:-5}
SF=${2:-/usr/games/stockfish}
TARPON=${TARPON:-target/release/tarpon}
TARPON_ARGS=${TARPON_ARGS:-}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
T=$(mktemp); S=$(mktemp); R=$(mktemp)
for i in $(seq "$ROUNDS"); do
    # shellcheck disable=SC2086 # TARPON_ARGS is a list of arguments
    t=$("$TARPON" bench $TARPON_ARGS | tail -1 | awk '{print $3}')
    s=$("$SF" bench 2>&1 | awk -F: '/Nodes\/second/ {gsub(/ /, "", $2); print $2}')
    r=$(awk "BEGIN {printf \"%.3f\", $t/$s}")
    echo "round $i: tarpon $t nps, stockfish $s nps, ratio $r"
    echo "$t" >>"$T"; echo "$s" >>"$S"; echo "$r" >>"$R"
done
tm=$(median <"$T"); sm=$(median <"$S")
echo "median: tarpon $tm nps, stockfish $sm nps, ratio $(awk "BEGIN {printf \"%.3f\", $tm/$sm}")"
echo "median of the rounds' ratios: $(sort -n "$R" | awk '{a[NR]=$1} END {printf "%.3f\n", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')"
rm -f "$T" "$S" "$R"
