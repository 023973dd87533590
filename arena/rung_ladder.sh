#!/bin/sh
# Stockfish 15.1's UCI_Elo rungs against each other, under the ladder's
# conditions (arena/ladder_match.sh: 5s+0.05s, random UHO openings played twice
# with colours swapped). The playing levels are measured against these rungs,
# so the distance between two rungs is what a level's label rests on; the
# levels alone tie the rungs only loosely (a level played against two rungs).
# arena/skill_table.py's full fit reads the reports from arena/results/rungs/.
#
# Usage (from the crate root, after `cargo build --release`):
#   arena/rung_ladder.sh GAMES ELO:ELO [ELO:ELO ...]
#   e.g. CONCURRENCY=4 arena/rung_ladder.sh 200 1500:1700 1350:1500
# Stockfish's UCI_Elo chooses its move at a fixed depth and spends the rest of
# its clock searching on, so several games at once do not change its moves.
set -eu
GAMES=$1
shift
TARPON=${TARPON:-target/release/tarpon}
mkdir -p arena/pgn/rungs arena/results/rungs
. arena/ladder_match.sh

for pairing in "$@"; do
    low=${pairing%%:*}
    high=${pairing#*:}
    # shellcheck disable=SC2046 # the engine spec is a list of key=value words
    ladder_match "$((low * 10000 + high))" "$GAMES" "rungs/stockfish-elo${low}_vs_stockfish-elo${high}" \
        --engine $(stockfish_rung "$low") --engine $(stockfish_rung "$high")
done
