# The ladder's match conditions, shared by arena/ladder.sh and
# arena/skill_ladder.sh (sourced, not run): 5s+0.05s, random UHO openings
# played twice with colours swapped, draw and resign adjudication.
#
# ladder_match SEED GAMES NAME ENGINE-ARGS...
#   NAME: the PGN goes to arena/pgn/NAME.pgn, the report to
#   arena/results/NAME.md. Uses $TARPON, and $CONCURRENCY (default 1).
ladder_match() {
    match_seed=$1
    match_games=$2
    match_name=$3
    shift 3
    "$TARPON" arena "$@" \
        --each tc=5+0.05 \
        --openings file=arena/openings/uho_4060_v2_2000.epd order=random seed="$match_seed" \
        --games 2 --rounds $((match_games / 2)) --concurrency "${CONCURRENCY:-1}" \
        --draw movenumber=40 movecount=8 score=10 \
        --resign movecount=3 score=600 twosided=true \
        --pgn "arena/pgn/$match_name.pgn" \
        --report "arena/results/$match_name.md"
}

# stockfish_rung ELO: the engine spec of Stockfish 15.1 at one UCI_Elo rung
# (one thread, 16 MB), for `--engine $(stockfish_rung ELO)` (unquoted: a
# list of key=value words).
stockfish_rung() {
    echo "cmd=/usr/games/stockfish name=Stockfish-Elo$1 option.Threads=1 option.Hash=16" \
        "option.UCI_LimitStrength=true option.UCI_Elo=$1"
}
