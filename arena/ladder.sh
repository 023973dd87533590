#!/bin/sh
# The strength ladder: one tarpon configuration against the Debian engines and
# Stockfish at calibrated UCI_Elo levels, 5s+0.05s, one thread and 16 MB hash
# each, random UHO openings played twice with colours swapped. One report per
# pairing in arena/results/<label>_vs_<opponent>.md, PGNs in arena/pgn/.
#
# Usage (from the crate root, after `cargo build --release`):
#   arena/ladder.sh SPEC LABEL [GAMES=100] [OPPONENT ...]
#   SPEC:     the arena's engine shortcut, e.g. tarpon:pst or tarpon:nnue=nets/x.nnue
#   LABEL:    file-name prefix of the reports, e.g. tarpon-pst
#   OPPONENT: any of fairymax phalanx gnuchess glaurung toga stockfish-eloNNNN
#             (default: the whole ladder)
# Each pairing's seed is fixed, so a rerun plays the same openings; SEED=N
# picks other openings (to add games to a pairing, with another LABEL).
# CONCURRENCY=2 plays two games at once (default 1).
set -eu
SPEC=$1
LABEL=$2
GAMES=${3:-100}
shift 2
[ $# -gt 0 ] && shift
OPPONENTS=${*:-fairymax phalanx gnuchess glaurung toga stockfish-elo1700 stockfish-elo1900 stockfish-elo2100 stockfish-elo2300}
TARPON=${TARPON:-target/release/tarpon}
mkdir -p arena/pgn arena/results
. arena/ladder_match.sh

opponent() {
    case $1 in
    fairymax) echo "cmd=/usr/games/fairymax proto=xboard name=Fairy-Max" ;;
    phalanx) echo "cmd=/usr/games/phalanx proto=xboard name=Phalanx" ;;
    gnuchess) echo "cmd=/usr/games/gnuchess args=--uci name=GNU-Chess" ;;
    glaurung) echo "cmd=/usr/games/glaurung name=Glaurung option.Threads=1 option.OwnBook=false option.Hash=16" ;;
    toga) echo "cmd=/usr/games/toga2 name=Toga-II option.OwnBook=false option.Hash=16" ;;
    stockfish-elo*) stockfish_rung "${1#stockfish-elo}" ;;
    *) echo "unknown opponent $1" >&2; exit 2 ;;
    esac
}

# A fixed seed per opponent: reruns and other nets get the same openings.
seed() { printf '%s' "$1" | cksum | cut -d' ' -f1; }

for opp in $OPPONENTS; do
    # shellcheck disable=SC2046 # the engine spec is a list of key=value words
    ladder_match "${SEED:-$(seed "$opp")}" "$GAMES" "${LABEL}_vs_$opp" \
        --engine "$SPEC" --engine $(opponent "$opp")
done
