#!/bin/sh
# The strength of tarpon's playing levels (`Skill Level` 0-19) on the Stockfish
# ladder: each level against one Stockfish 15.1 UCI_Elo rung, 5s+0.05s, one
# thread and 16 MB hash each, random UHO openings played twice with colours
# swapped (the same conditions as arena/ladder.sh). One report per level in
# arena/results/skill/levelNN_vs_stockfish-eloXXXX.md, PGNs in arena/pgn/skill/.
#
# Usage (from the crate root, after `cargo build --release`):
#   arena/skill_ladder.sh GAMES LEVEL:ELO [LEVEL:ELO ...]
#   e.g. arena/skill_ladder.sh 50 0:1350 1:1350 12:1500
#   CONCURRENCY=2 plays two games at once (default 1).
# Each pairing's seed is fixed, so a rerun plays the same openings.
set -eu
GAMES=$1
shift
TARPON=${TARPON:-target/release/tarpon}
# SKILL_DIR=skill-DATE keeps a re-fit's reports apart from the last fit's.
SKILL_DIR=${SKILL_DIR:-skill}
mkdir -p "arena/pgn/$SKILL_DIR" "arena/results/$SKILL_DIR"
. arena/ladder_match.sh

for pairing in "$@"; do
    level=${pairing%%:*}
    elo=${pairing#*:}
    name=$(printf 'level%02d_vs_stockfish-elo%s' "$level" "$elo")
    # shellcheck disable=SC2046 # the engine spec is a list of key=value words
    ladder_match "$((level * 10000 + elo))" "$GAMES" "$SKILL_DIR/$name" \
        --engine tarpon:pst name="tarpon-skill$level" "option.Skill Level=$level" \
        --engine $(stockfish_rung "$elo")
done
