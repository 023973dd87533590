#!/usr/bin/env python3
"""How much of its clock each engine spent, from a `tarpon arena` PGN.

The arena writes every move's comment as `{score/depth time}` (e.g.
`{+0.35/16 0.29s}`). For each engine this sums the times over its games and
sets them beside what the clock gave it: the base time plus one increment
per move played (from the `TimeControl` tag, `base+inc` in seconds). A
large gap is time left unspent at the end of the game; the first-N-moves
column shows how an engine front-loads its thinking.

Usage: python3 arena/time_use.py GAMES.pgn [FIRST_MOVES]
Needs python-chess (`pip install chess`).
"""
import re
import sys
from collections import defaultdict

import chess.pgn

TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    first = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    # name -> [games, moves, used, available, used in the first moves]
    totals = defaultdict(lambda: [0, 0, 0.0, 0.0, 0.0])
    with open(sys.argv[1], encoding="utf-8") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            base, _, inc = game.headers.get("TimeControl", "").partition("+")
            try:
                base, inc = float(base), float(inc or 0)
            except ValueError:
                continue  # not a clock game: nothing to compare with
            names = (game.headers["White"], game.headers["Black"])
            moves, used, early = [0, 0], [0.0, 0.0], [0.0, 0.0]
            for ply, node in enumerate(game.mainline()):
                side = ply % 2
                found = TIME.search(node.comment or "")
                if found:
                    seconds = float(found.group(1))
                    moves[side] += 1
                    used[side] += seconds
                    if moves[side] <= first:
                        early[side] += seconds
            for side, name in enumerate(names):
                t = totals[name]
                t[0] += 1
                t[1] += moves[side]
                t[2] += used[side]
                t[3] += base + inc * moves[side]
                t[4] += early[side]
    if not totals:
        sys.exit("no clock games with timed comments found")
    print(f"{'engine':<20} {'games':>5} {'moves':>6} {'used s':>7} {'had s':>7} "
          f"{'share':>6} {'first ' + str(first):>9}")
    for name, (games, moves, used, had, early) in sorted(totals.items()):
        print(f"{name:<20} {games:>5} {moves / games:>6.1f} {used / games:>7.2f} "
              f"{had / games:>7.2f} {used / had:>6.1%} {early / games:>9.2f}")


if __name__ == "__main__":
    main()
