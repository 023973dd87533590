#!/usr/bin/env python3
"""Measures `tarpon scan photo` on ray-traced photos (arena/scan/photo_scene.py).

For each camera, one photo of the starting position calibrates; then N
positions from real games (seeded plies of a PGN collection) are rendered
with the same camera and light, read, and compared square by square with the
truth: empty, white piece or black piece.

    python3 arena/scan/photo_eval.py --tarpon target/release/tarpon --games GAMES.pgn \
        --positions 20 --seed 1 --work /tmp/photo-eval [--camera NAME]... [--find-corners]

Photos already in the work folder (same names, with their .corners) are reused.

Needs povray (Debian's `povray`) and python-chess. Prints one table row a camera.
"""

import argparse
import json
import os
import random
import subprocess
import sys

import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))

# Where the camera stands: (location, look_at, angle). "steep" is a phone held
# high over White's side; "oblique" a seated player's view.
CAMERAS = {
    "steep": ("4.3,12.5,-3.2", "4,0,3.6", 48.0),
    "oblique": ("4.6,8.2,-5.6", "4,0,3.7", 52.0),
}


def positions(pgn_path, count, seed):
    rng = random.Random(seed)
    games = []
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            moves = list(game.mainline_moves())
            if len(moves) >= 20:
                games.append(moves)
    chosen = []
    for _ in range(count):
        moves = rng.choice(games)
        board = chess.Board()
        for move in moves[: rng.randint(10, min(len(moves), 90))]:
            board.push(move)
        chosen.append(board.board_fen())
    return chosen


def render(placement, out_png, camera, seed, width, height):
    location, look_at, angle = CAMERAS[camera]
    pov = out_png[:-4] + ".pov"
    corners_file = out_png[:-4] + ".corners"
    if os.path.exists(out_png) and os.path.exists(corners_file):
        # Rendered before with the same name: the work folder is a cache.
        with open(corners_file) as f:
            return f.read().strip()
    corners = subprocess.run(
        [sys.executable, os.path.join(HERE, "photo_scene.py"), placement, pov, "--camera", location,
         "--look-at", look_at, "--angle", str(angle), "--seed", str(seed),
         "--width", str(width), "--height", str(height)],
        check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run(["povray", f"+I{pov}", f"+O{out_png}", f"+W{width}", f"+H{height}", "+A0.1", "-D"],
                   check=True, capture_output=True)
    with open(corners_file, "w") as f:
        f.write(corners + "\n")
    return corners


def occupancy(placement):
    out = []
    for row in placement.split("/"):
        for ch in row:
            if ch.isdigit():
                out += ["."] * int(ch)
            else:
                out.append("W" if ch.isupper() else "B")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tarpon", required=True)
    parser.add_argument("--games", required=True)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", required=True)
    parser.add_argument("--camera", action="append", choices=sorted(CAMERAS))
    parser.add_argument("--width", type=int, default=960)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--find-corners", action="store_true",
                        help="give no --corners: tarpon finds each photo's (and the start photo's) itself")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    chosen = positions(args.games, args.positions, args.seed)
    print("| camera | squares right | empty right | white right | black right | boards exact | in doubt |")
    print("|---|---|---|---|---|---|---|")
    for camera in args.camera or sorted(CAMERAS):
        start = os.path.join(args.work, f"{camera}-start.png")
        corners = render("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", start, camera, args.seed, args.width, args.height)
        right = total = exact = doubtful = 0
        by_kind = {k: [0, 0] for k in ".WB"}
        for n, placement in enumerate(chosen):
            png = os.path.join(args.work, f"{camera}-{n}.png")
            render(placement, png, camera, args.seed * 1000 + n, args.width, args.height)
            given = [] if args.find_corners else ["--corners", corners]
            result = subprocess.run([args.tarpon, "scan", "photo", png, *given, "--start", start,
                                     "--format", "json"], capture_output=True, text=True)
            if result.returncode not in (0, 2):
                sys.exit(f"{png}: {result.stderr.strip()}")
            reading = json.loads(result.stdout)
            called = [s["occupant"] for s in reading["squares"]]
            truth = occupancy(placement)
            for c, t in zip(called, truth):
                by_kind[t][1] += 1
                by_kind[t][0] += c == t
            hits = sum(c == t for c, t in zip(called, truth))
            right += hits
            total += 64
            exact += hits == 64
            doubtful += len(reading["doubtful"])
            if hits < 64:
                wrong = [f"{chess.SQUARE_NAMES[chess.square_mirror(i)]}:{t}->{c}"
                         for i, (c, t) in enumerate(zip(called, truth)) if c != t]
                print(f"  {camera} {n} {placement}: {' '.join(wrong)}", file=sys.stderr)
        kinds = " | ".join(f"{by_kind[k][0]}/{by_kind[k][1]}" for k in ".WB")
        print(f"| {camera} | {right}/{total} = {100 * right / total:.2f} % | {kinds} | "
              f"{exact}/{len(chosen)} | {doubtful} |")


if __name__ == "__main__":
    main()
