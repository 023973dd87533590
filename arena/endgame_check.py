#!/usr/bin/env python3
"""Does tarpon mate a bare king without tablebases? (issue 28)

Generates seeded random won starts of KQvK, KRvK, KBBvK (bishops on both
colours) and KBNvK, and plays each to the end by the rules: tarpon, with no
SyzygyPath, has the extra material; Stockfish defends with Syzygy tables
(so it picks the longest resistance). A game ends in checkmate, stalemate,
the fifty-move rule, threefold repetition or insufficient material (the
defender took a piece). Prints per class: starts, won / drawn / lost for
tarpon, the average plies to mate of the won games, and why the others
were drawn.

Every start is a tablebase win for tarpon under the fifty-move rule (not a
cursed win), with no piece of tarpon's next to the defending king, and
(unless --side random) tarpon to move.

Usage:
  python3 arena/endgame_check.py TARPON SYZYGY_DIR [--starts 40] [--seed 1]
      [--movetime 0.1] [--nodes N] [--classes KQvK,KRvK,KBBvK,KBNvK]
      [--side strong|random] [--stockfish /usr/games/stockfish]
      [--option NAME=VALUE ...] [--verbose]

  TARPON      the engine binary (e.g. target/release/tarpon)
  SYZYGY_DIR  Stockfish's tables (e.g. ../shared/data/syzygy or
              tests/data/syzygy; 3-4 pieces are enough)
  --nodes     tarpon searches this many nodes a move instead of --movetime
              (reproducible); Stockfish always gets --movetime
  --option    a UCI option for tarpon, e.g. --option Eval=pst

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install
stockfish`, /usr/games/stockfish).
"""
import argparse
import collections
import random
import sys

import chess
import chess.engine
import chess.syzygy

CLASSES = {
    "KQvK": [chess.QUEEN],
    "KRvK": [chess.ROOK],
    "KBBvK": [chess.BISHOP, chess.BISHOP],
    "KBNvK": [chess.BISHOP, chess.KNIGHT],
}


def random_start(rng, pieces, side, tables):
    """A random legal position: a colour chosen at random has a king and
    `pieces`, the other a bare king; a tablebase win for the strong side."""
    while True:
        strong = rng.choice([chess.WHITE, chess.BLACK])
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(pieces))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, strong))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, not strong))
        bishop_colours = []
        for sq, role in zip(squares[2:], pieces):
            if role == chess.BISHOP:
                bishop_colours.append(chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES != 0)
            board.set_piece_at(sq, chess.Piece(role, strong))
        if len(bishop_colours) == 2 and bishop_colours[0] == bishop_colours[1]:
            continue
        board.turn = strong if side == "strong" else rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_valid() or board.is_game_over():
            continue
        # Nothing of the attacker's next to the defending king: no piece
        # hangs at the start.
        if board.attacks_mask(squares[1]) & board.occupied_co[strong]:
            continue
        wdl = tables.probe_wdl(board)
        if wdl == (2 if board.turn == strong else -2):
            return board, strong


def result(board):
    """None while the game goes on, else (winner or None, reason)."""
    if board.is_checkmate():
        return (not board.turn, "checkmate")
    if board.is_stalemate():
        return (None, "stalemate")
    if board.is_insufficient_material():
        return (None, "insufficient material")
    if board.halfmove_clock >= 100:
        return (None, "fifty moves")
    if board.is_repetition(3):
        return (None, "threefold")
    return None


def play(start, strong, tarpon, stockfish, tarpon_limit, stockfish_limit, game_id):
    """Plays one game out; returns (outcome, reason, plies)."""
    board = start.copy()
    plies = 0
    while True:
        over = result(board)
        if over is not None:
            winner, reason = over
            outcome = "won" if winner == strong else "lost" if winner is not None else "drawn"
            return outcome, reason, plies
        engine, limit = (tarpon, tarpon_limit) if board.turn == strong else (stockfish, stockfish_limit)
        move = engine.play(board, limit, game=game_id).move
        board.push(move)
        plies += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tarpon")
    parser.add_argument("syzygy")
    parser.add_argument("--starts", type=int, default=40, help="starts per class (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds a move (default 0.1)")
    parser.add_argument("--nodes", type=int, help="tarpon: nodes a move instead of --movetime")
    parser.add_argument("--classes", default=",".join(CLASSES))
    parser.add_argument("--side", choices=["strong", "random"], default="strong",
                        help="who moves first: tarpon (default) or either at random")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    args = parser.parse_args()

    classes = [c.strip() for c in args.classes.split(",") if c.strip()]
    unknown = [c for c in classes if c not in CLASSES]
    if unknown:
        sys.exit(f"unknown class {unknown}; known: {', '.join(CLASSES)}")
    tables = chess.syzygy.open_tablebase(args.syzygy)
    rng = random.Random(args.seed)

    tarpon = chess.engine.SimpleEngine.popen_uci(args.tarpon)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        options = dict(o.split("=", 1) for o in args.option)
        if options:
            tarpon.configure(options)
        stockfish.configure({"SyzygyPath": args.syzygy})
        tarpon_limit = (chess.engine.Limit(nodes=args.nodes) if args.nodes
                        else chess.engine.Limit(time=args.movetime))
        stockfish_limit = chess.engine.Limit(time=args.movetime)

        rows = []
        game_id = 0
        for name in classes:
            counts = collections.Counter()
            reasons = collections.Counter()
            mate_plies = []
            for _ in range(args.starts):
                start, strong = random_start(rng, CLASSES[name], args.side, tables)
                game_id += 1
                outcome, reason, plies = play(start, strong, tarpon, stockfish,
                                              tarpon_limit, stockfish_limit, game_id)
                counts[outcome] += 1
                if outcome == "won":
                    mate_plies.append(plies)
                else:
                    reasons[reason] += 1
                if args.verbose:
                    print(f"{name} {start.fen()} -> {outcome} ({reason}) in {plies} plies",
                          flush=True)
            average = f"{sum(mate_plies) / len(mate_plies):.1f}" if mate_plies else "-"
            why = ", ".join(f"{n} {r}" for r, n in reasons.most_common()) or "-"
            rows.append((name, args.starts, counts["won"], counts["drawn"], counts["lost"],
                         average, why))
    finally:
        tarpon.quit()
        stockfish.quit()

    limit = f"{args.nodes} nodes" if args.nodes else f"{args.movetime} s"
    print(f"tarpon {args.tarpon} ({limit} a move) vs Stockfish with Syzygy "
          f"({args.movetime} s a move), seed {args.seed}, {args.side} side to move")
    print("| class | starts | won | drawn | lost | avg plies to mate | not won because |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main()
