#!/usr/bin/env python3
"""Where did an engine drop its points? For every game of PGN that HERO did not
win, Stockfish scores each position (NODES per position, default 30000) and the
script prints HERO's colour, the result, HERO's best Stockfish score during the
game (centipawns, HERO's view) and HERO's worst move: the drop it caused, its
ply, SAN, the scores before and after, the pieces left on the board and HERO's
own comment (its score and depth).

Usage: python3 arena/leaks.py PGN HERO [NODES] [STOCKFISH]
Needs python-chess (`pip install chess`) and Stockfish (/usr/games/stockfish).
"""
import sys

import chess
import chess.engine
import chess.pgn


def worst_move(game, colour, score):
    """The best score `colour` had before one of its moves, and its move that
    lost most: (drop, ply, SAN, before, after, pieces left, its own comment)."""
    board = game.board()
    peak, worst = None, None
    # Score before the hero's move: the one after the opponent's reply, or a
    # fresh search when the hero moves first.
    before = None
    for node in game.mainline():
        if board.turn != colour:
            board.push(node.move)
            before = score(board, colour)
            continue
        if before is None:
            before = score(board, colour)
        board.push(node.move)
        after = score(board, colour)
        peak = before if peak is None else max(peak, before)
        if worst is None or before - after > worst[0]:
            comment = node.comment.split(" ")[0] if node.comment else ""
            worst = (before - after, node.ply(), node.san(), before, after,
                     len(board.piece_map()), comment)
        before = None
    return peak, worst


def main():
    pgn_path, hero = sys.argv[1], sys.argv[2]
    nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 30000
    binary = sys.argv[4] if len(sys.argv) > 4 else "/usr/games/stockfish"
    engine = chess.engine.SimpleEngine.popen_uci(binary)
    engine.configure({"Threads": 1, "Hash": 64})

    def score(board, pov):
        info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
        return info["score"].pov(pov).score(mate_score=10000)

    with open(pgn_path) as pgn:
        games = iter(lambda: chess.pgn.read_game(pgn), None)
        for number, game in enumerate(games, start=1):
            colour = chess.WHITE if game.headers["White"] == hero else chess.BLACK
            result = game.headers["Result"]
            if result == ("1-0" if colour == chess.WHITE else "0-1"):
                continue
            peak, worst = worst_move(game, colour, score)
            side = "white" if colour == chess.WHITE else "black"
            print(f"game {number} {result} {hero} {side} peak {peak} worst {worst}", flush=True)
    engine.quit()


if __name__ == "__main__":
    main()
