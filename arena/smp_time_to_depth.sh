#!/bin/sh
# Lazy SMP: wall time for `tarpon bench <depth>` (47 positions, each searched to
# the depth with a fresh table) with Threads=2 against Threads=1, interleaved,
# medians over rounds. Target: ratio <= 0.75.
# Usage (from the crate root, after `cargo build --release`):
#   arena/smp_time_to_depth.sh [depth=12] [rounds=5]
set -eu
DEPTH=${1:-12}
ROUNDS=${2:-5}
TARPON=${TARPON:-target/release/tarpon}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
A=$(mktemp); B=$(mktemp)
ms() { "$TARPON" bench "$DEPTH" --threads "$1" | awk -F: '/Total time/ {gsub(/ /, "", $2); print $2}'; }
for i in $(seq "$ROUNDS"); do
    one=$(ms 1); two=$(ms 2)
    echo "round $i: 1 thread $one ms, 2 threads $two ms"
    echo "$one" >>"$A"; echo "$two" >>"$B"
done
m1=$(median <"$A"); m2=$(median <"$B")
echo "median: 1 thread $m1 ms, 2 threads $m2 ms, ratio $(awk "BEGIN {printf \"%.3f\", $m2/$m1}")"
rm -f "$A" "$B"
