#!/bin/sh
# Issue 62's threads table: an engine with Threads=2 against itself with
# Threads=1 at 10s+0.1s, 16 MB hash each, UHO openings in colour-swapped
# pairs, played out (no adjudication), one game at a time so the two-thread
# side has both cores of a two-core machine while it thinks. Run it once for
# tarpon and once for Stockfish with the same seed: the same openings, so the
# two gains compare. Needs two otherwise idle cores; nothing else may run.
# Usage (from the crate root, after `cargo build --release`):
#   arena/threads_elo.sh ENGINE NAME SEED ROUNDS REPORT
#   arena/threads_elo.sh target/release/tarpon tarpon 71 50 arena/results/threads_2v1_10s_3bbd928_played_out.md
#   arena/threads_elo.sh /usr/games/stockfish sf15 71 50 arena/results/sf_threads_2v1_10s_seed71_played_out.md
# ROUNDS pairs make 2 x ROUNDS games; PGN=FILE also keeps the games.
set -eu
if [ $# -ne 5 ]; then
    sed -n '2,/^set/p' "$0" | sed '$d'
    exit 2
fi
ENGINE=$1
NAME=$2
SEED=$3
ROUNDS=$4
REPORT=$5
TARPON=${TARPON:-target/release/tarpon}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$TARPON" arena \
    --engine cmd="$ENGINE" name="$NAME-2t" option.Threads=2 \
    --engine cmd="$ENGINE" name="$NAME-1t" option.Threads=1 \
    --each tc=10+0.1 option.Hash=16 \
    --openings file=arena/openings/uho_4060_v2_2000.epd order=random seed="$SEED" \
    --games 2 --rounds "$ROUNDS" --concurrency 1 \
    --report "$REPORT" ${PGN:+--pgn "$PGN"}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
