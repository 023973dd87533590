#!/bin/sh
# Lazy SMP: wall time for `tarpon bench <depth>` (47 positions, each searched to
# the depth with a fresh table) with Threads=2 against Threads=1, interleaved,
# medians over rounds. Target: ratio <= 0.75 (needs two otherwise idle cores).
# Also prints the main thread's node count to reach the depth with a helper
# against the single thread's: what the wall-time ratio would be if both
# threads ran at full speed on their own cores, a figure the machine's load
# cannot distort.
# Usage (from the crate root, after `cargo build --release`):
#   arena/smp_time_to_depth.sh [depth=12] [rounds=5]
set -eu
DEPTH=${1:-12}
ROUNDS=${2:-5}
TARPON=${TARPON:-target/release/tarpon}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
field() { awk -F: -v k="$1" '$1 ~ k {gsub(/ /, "", $2); print $2}'; }
A=$(mktemp); B=$(mktemp); N1=$(mktemp); N2=$(mktemp); OUT=$(mktemp)
for i in $(seq "$ROUNDS"); do
    "$TARPON" bench "$DEPTH" --threads 1 >"$OUT"
    one=$(field "Total time" <"$OUT"); n1=$(field "Nodes searched" <"$OUT")
    "$TARPON" bench "$DEPTH" --threads 2 >"$OUT"
    two=$(field "Total time" <"$OUT"); n2=$(field "Main thread" <"$OUT")
    echo "round $i: 1 thread $one ms ($n1 nodes), 2 threads $two ms (main thread $n2 nodes)"
    echo "$one" >>"$A"; echo "$two" >>"$B"; echo "$n1" >>"$N1"; echo "$n2" >>"$N2"
done
m1=$(median <"$A"); m2=$(median <"$B"); k1=$(median <"$N1"); k2=$(median <"$N2")
echo "median wall: 1 thread $m1 ms, 2 threads $m2 ms, ratio $(awk "BEGIN {printf \"%.3f\", $m2/$m1}")"
echo "median main-thread nodes to depth: 1 thread $k1, 2 threads $k2, ratio $(awk "BEGIN {printf \"%.3f\", $k2/$k1}")"
rm -f "$A" "$B" "$N1" "$N2" "$OUT"
