#!/bin/sh
# Lazy SMP: wall time for `tarpon bench <depth>` (47 positions, each searched to
# the depth with a fresh table) with Threads=2 against Threads=1, interleaved,
# medians over rounds. Target: ratio <= 0.75 (needs two otherwise idle cores).
# A position counts as searched to the depth when any thread has completed an
# iteration of that depth (see docs/search.md, Lazy SMP).
# Also prints nodes per thread to reach the depth (all threads' nodes divided
# by the thread count) against the single thread's: the wall-time ratio if
# every thread ran at the single thread's speed, a figure that the machine's
# load distorts much less; and the total NPS of both threads against one.
# If $PAUSE_PID_FILE names a file holding a pid (e.g. a datagen job's), that
# process and its children are stopped while this runs and always resumed on
# exit; by default nothing is paused. The load average is printed before and after.
# Usage (from the crate root, after `cargo build --release`):
#   arena/smp_time_to_depth.sh [depth=13] [rounds=5]
set -eu
DEPTH=${1:-13}
ROUNDS=${2:-5}
TARPON=${TARPON:-target/release/tarpon}
PAUSE_PID_FILE=${PAUSE_PID_FILE:-}
PAUSED=""
if [ -r "$PAUSE_PID_FILE" ]; then
    pid=$(cat "$PAUSE_PID_FILE")
    PAUSED="$pid $(pgrep -P "$pid" | tr '\n' ' ')"
fi
resume() { [ -z "$PAUSED" ] || kill -CONT $PAUSED 2>/dev/null || true; }
trap resume EXIT
trap 'exit 130' INT TERM
if [ -n "$PAUSED" ]; then
    kill -STOP $PAUSED 2>/dev/null || true
    echo "paused $PAUSED"
    sleep 1
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk "BEGIN {printf \"%.3f\", $1/$2}"; }
field() { awk -F: -v k="$1" '$1 ~ k {gsub(/ /, "", $2); print $2}'; }
T1=$(mktemp); T2=$(mktemp); N1=$(mktemp); N2=$(mktemp); S1=$(mktemp); S2=$(mktemp); OUT=$(mktemp)
for i in $(seq "$ROUNDS"); do
    "$TARPON" bench "$DEPTH" --threads 1 >"$OUT"
    one=$(field "Total time" <"$OUT"); n1=$(field "Nodes searched" <"$OUT"); s1=$(field "Nodes/second" <"$OUT")
    "$TARPON" bench "$DEPTH" --threads 2 >"$OUT"
    two=$(field "Total time" <"$OUT"); n2=$(field "Nodes searched" <"$OUT"); s2=$(field "Nodes/second" <"$OUT")
    echo "round $i: 1 thread $one ms ($n1 nodes), 2 threads $two ms ($n2 nodes, $((n2 / 2)) per thread)"
    echo "$one" >>"$T1"; echo "$two" >>"$T2"; echo "$n1" >>"$N1"; echo "$((n2 / 2))" >>"$N2"
    echo "$s1" >>"$S1"; echo "$s2" >>"$S2"
done
m1=$(median <"$T1"); m2=$(median <"$T2"); k1=$(median <"$N1"); k2=$(median <"$N2")
p1=$(median <"$S1"); p2=$(median <"$S2")
echo "depth $DEPTH, $ROUNDS rounds"
echo "median wall: 1 thread $m1 ms, 2 threads $m2 ms, ratio $(ratio "$m2" "$m1")"
echo "median nodes per thread to depth: 1 thread $k1, 2 threads $k2, ratio $(ratio "$k2" "$k1")"
echo "median total NPS: 1 thread $p1, 2 threads $p2, ratio $(ratio "$p2" "$p1")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$T1" "$T2" "$N1" "$N2" "$S1" "$S2" "$OUT"
