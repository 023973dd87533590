#!/usr/bin/env python3
"""An independent match client (python-chess) to cross-check `tarpon arena`.

python-chess speaks UCI to both engines, keeps the clocks (wall time from
`go` to `bestmove`, measured here), judges the rules, and computes the Elo,
its 95% error bar from pentanomial pair statistics, on its own; nothing is
shared with tarpon's arena code. Same adjudication rules as the arena run it
is compared with (resign: 3 moves at 600 cp both agreeing; draw: from move
40, 8 moves each within 10 cp).

Usage (from the crate root, after `cargo build --release`), on the clock:
  python3 arena/pychess_match.py --pairs 50 --tc 5+0.05 \
      --first target/release/tarpon --first-option Eval=pst \
      --second /usr/games/stockfish --second-option UCI_LimitStrength=true \
      --second-option UCI_Elo=2000 --book arena/openings/uho_4060_v2_2000.epd
or at fixed nodes (--first-nodes N --second-nodes M; the clock is then ignored).
"""

import argparse
import math
import random
import time

import chess
import chess.engine

MARGIN = 0.1  # seconds of tolerance on the clock, as the arena's default


def parse_options(pairs):
    out = {}
    for p in pairs or []:
        k, v = p.split("=", 1)
        out[k] = v
    return out


def play_game(engines, fen, base, inc, nodes):
    """engines[0] plays White; nodes[i] is a fixed node budget for engines[i]
    (None: play on the clock). Returns the result string and a reason."""
    board = chess.Board(fen)
    clocks = [base, base]
    quiet = 0
    losing = [0, 0]
    winning = [0, 0]
    while True:
        outcome = board.outcome(claim_draw=False)
        if outcome is None and board.can_claim_threefold_repetition():
            return "1/2-1/2", "threefold"
        if outcome is not None:
            return outcome.result(), outcome.termination.name
        side = 0 if board.turn == chess.WHITE else 1
        if nodes[side] is not None:
            limit = chess.engine.Limit(nodes=nodes[side])
        else:
            limit = chess.engine.Limit(white_clock=max(clocks[0], 0), black_clock=max(clocks[1], 0),
                                       white_inc=inc, black_inc=inc)
        start = time.monotonic()
        try:
            result = engines[side].play(board, limit, info=chess.engine.INFO_SCORE)
        except chess.engine.EngineError as e:
            return ("0-1" if side == 0 else "1-0"), f"engine error {e}"
        elapsed = time.monotonic() - start
        clocks[side] -= elapsed
        if nodes[side] is None and clocks[side] < -MARGIN:
            return ("0-1" if side == 0 else "1-0"), "time forfeit"
        clocks[side] += inc
        move = result.move
        if move is None or move not in board.legal_moves:
            return ("0-1" if side == 0 else "1-0"), "illegal move"
        score = result.info.get("score")
        cp = None
        if score is not None:
            cp = score.relative.score(mate_score=100000)
        fullmove = board.fullmove_number
        board.push(move)
        # Draw adjudication.
        quiet = quiet + 1 if cp is not None and abs(cp) <= 10 else 0
        if fullmove >= 40 and quiet >= 16:
            return "1/2-1/2", "draw adjudication"
        # Resign adjudication, both engines agreeing.
        losing[side] = losing[side] + 1 if cp is not None and cp <= -600 else 0
        winning[side] = winning[side] + 1 if cp is not None and cp >= 600 else 0
        for loser in (0, 1):
            if losing[loser] >= 3 and winning[1 - loser] >= 3:
                return ("0-1" if loser == 0 else "1-0"), "resign adjudication"


def elo(score):
    return -400 * math.log10(1 / score - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=50)
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--first", required=True)
    ap.add_argument("--first-option", action="append")
    ap.add_argument("--second", required=True)
    ap.add_argument("--second-option", action="append")
    ap.add_argument("--first-nodes", type=int)
    ap.add_argument("--second-nodes", type=int)
    ap.add_argument("--book", required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    base, inc = (float(x) for x in args.tc.split("+"))
    lines = [l.split() for l in open(args.book) if l.strip()]
    fens = [" ".join(l[:4]) + " 0 1" for l in lines]
    rng = random.Random(args.seed)
    engines = [chess.engine.SimpleEngine.popen_uci(args.first),
               chess.engine.SimpleEngine.popen_uci(args.second)]
    engines[0].configure(parse_options(args.first_option))
    engines[1].configure(parse_options(args.second_option))
    wdl = [0, 0, 0]
    penta = [0] * 5
    try:
        for pair in range(args.pairs):
            fen = rng.choice(fens)
            pair_points = 0.0
            for first_white in (True, False):
                order = engines if first_white else engines[::-1]
                nodes = [args.first_nodes, args.second_nodes]
                if not first_white:
                    nodes.reverse()
                result, reason = play_game(order, fen, base, inc, nodes)
                if result == "1/2-1/2":
                    pts = 0.5
                elif (result == "1-0") == first_white:
                    pts = 1.0
                else:
                    pts = 0.0
                wdl[0 if pts == 1 else 1 if pts == 0.5 else 2] += 1
                pair_points += pts
                print(f"game {2 * pair + (1 if first_white else 2)}: {result} {reason}", flush=True)
            penta[int(round(pair_points * 2))] += 1
    finally:
        for e in engines:
            e.quit()
    n = sum(penta)
    mu = sum(i / 4 * c for i, c in enumerate(penta)) / n
    var = sum(c * (i / 4 - mu) ** 2 for i, c in enumerate(penta)) / n
    se = math.sqrt(var / n)
    lo, hi = mu - 1.959964 * se, mu + 1.959964 * se
    games = sum(wdl)
    score = (wdl[0] + 0.5 * wdl[1]) / games
    print(f"Games: {games}, Wins: {wdl[0]}, Draws: {wdl[1]}, Losses: {wdl[2]}, score {score:.4f}")
    print(f"Ptnml(0-2): {penta}")
    print(f"Elo: {elo(score):+.1f} +/- {(elo(hi) - elo(lo)) / 2:.1f} (95%)")


if __name__ == "__main__":
    main()
