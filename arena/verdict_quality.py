#!/usr/bin/env python3
"""How good are `tarpon play`'s verdicts? (docs/play.md, "Verdict quality")

Two steps, so the slow reference runs once:

  reference: sample positions from real games (PGN files given), each with the
      move played there, and judge each move with Stockfish at a fixed depth:
      the best move's score, and the played move's own score (`searchmoves`).
      Also, for a blunder-rich sample, the same positions with a seeded random
      legal move instead of the game move. Writes JSON lines.
  compare: start `tarpon play`, ask it for the verdict of each move with the
      page's own search and time budget (`POST /api/judge`), and report
      class agreement, the confusion table, blunder recall, and how often the
      reference's best move got called a mistake or worse.

  python3 arena/verdict_quality.py reference --stockfish stockfish --depth 16 \
      --games 300 --random 100 --out ref.jsonl [--resume] GAMES.pgn...
  python3 arena/verdict_quality.py compare --tarpon target/release/tarpon ref.jsonl

Needs python-chess (`pip install chess`). Fixed depth: machine load changes
only how long it takes, never the answer.
"""
import argparse, json, math, os, random, socket, subprocess, sys, time, urllib.request

import chess, chess.engine, chess.pgn

CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder"]


def win_percent(cp):
    """Lichess's winning chances, 0..100, for the side the score belongs to."""
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def score_cp(pov_score):
    return pov_score.score(mate_score=100000)


def classify(loss, played_best):
    """The same thresholds as src/play/verdict.rs (Win% points lost)."""
    if played_best:
        return "best"
    if loss >= 15:
        return "blunder"
    if loss >= 10:
        return "mistake"
    if loss >= 5:
        return "inaccuracy"
    return "good"


def sample_positions(paths, count, seed):
    rng = random.Random(seed)
    candidates = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    if 8 <= ply <= 100:
                        candidates.append((board.fen(), move.uci()))
                    board.push(move)
    rng.shuffle(candidates)
    return candidates[:count]


def reference(args):
    rng = random.Random(args.seed + 1)
    positions = [(f, m, "game") for f, m in sample_positions(args.pgn, args.games, args.seed)]
    for fen, _ in sample_positions(args.pgn, args.random, args.seed + 2):
        board = chess.Board(fen)
        positions.append((fen, rng.choice(list(board.legal_moves)).uci(), "random"))
    # A deep reference takes hours: an interrupted run picks up where its
    # file ends (the sample is the same for the same arguments).
    done = 0
    if args.resume and os.path.exists(args.out):
        with open(args.out) as f:
            done = sum(1 for line in f if line.strip())
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(depth=args.depth)
    with open(args.out, "a" if done else "w") as out:
        for i, (fen, played, source) in enumerate(positions):
            if i < done:
                continue
            board = chess.Board(fen)
            engine.configure({"Clear Hash": None})
            info = engine.analyse(board, limit)
            best = info["pv"][0].uci()
            best_cp = score_cp(info["score"].pov(board.turn))
            if played == best:
                played_cp = best_cp
            else:
                info2 = engine.analyse(board, limit, root_moves=[chess.Move.from_uci(played)])
                played_cp = score_cp(info2["score"].pov(board.turn))
            best_cp = max(best_cp, played_cp)
            loss = max(0.0, win_percent(best_cp) - win_percent(played_cp))
            row = dict(fen=fen, move=played, source=source, best=best, best_cp=best_cp,
                       played_cp=played_cp, loss=round(loss, 2),
                       verdict=classify(loss, played == best))
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"{i + 1}/{len(positions)} {row['verdict']}", file=sys.stderr)
    engine.quit()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base, path, body):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def compare(args):
    rows = [json.loads(line) for line in open(args.reference)]
    port = free_port()
    server = subprocess.Popen([args.tarpon, "play", "--port", str(port), "--puzzles", os.devnull],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdout.readline()  # "listening on ..."
    base = f"http://127.0.0.1:{port}"
    confusion = {(a, b): 0 for a in CLASSES for b in CLASSES}
    seconds = []
    try:
        for i, row in enumerate(rows):
            start = time.time()
            state = post(base, "/api/judge", {"fen": row["fen"], "move": row["move"]})
            seconds.append(time.time() - start)
            ours = state["verdict"]["class"]
            ours = "best" if ours == "great" else ours
            confusion[(row["verdict"], ours)] += 1
            print(f"{i + 1}/{len(rows)} ref {row['verdict']} ours {ours}", file=sys.stderr)
    finally:
        server.terminate()
    report(rows, confusion, seconds)


def report(rows, confusion, seconds):
    n = len(rows)
    agree = sum(confusion[(c, c)] for c in CLASSES)
    within_one = sum(v for (a, b), v in confusion.items()
                     if abs(CLASSES.index(a) - CLASSES.index(b)) <= 1)
    blunders = sum(confusion[("blunder", b)] for b in CLASSES)
    caught = confusion[("blunder", "blunder")]
    bad = ("mistake", "blunder")
    best_called_bad = sum(confusion[("best", b)] for b in bad)
    good_called_bad = sum(confusion[(a, b)] for a in ("best", "good") for b in bad)
    print(f"positions: {n} ({sum(r['source'] == 'game' for r in rows)} game moves, "
          f"{sum(r['source'] == 'random' for r in rows)} random legal moves)")
    print(f"class agreement: {agree}/{n} = {100 * agree / n:.1f}%")
    print(f"within one class: {within_one}/{n} = {100 * within_one / n:.1f}%")
    print(f"blunder recall: {caught}/{blunders} = {100 * caught / max(1, blunders):.1f}%")
    print(f"reference-best moves called mistake or blunder: {best_called_bad}")
    print(f"reference best/good moves called mistake or blunder: {good_called_bad}")
    if seconds:
        seconds.sort()
        print(f"verdict time: median {seconds[len(seconds) // 2]:.2f}s, "
              f"max {seconds[-1]:.2f}s")
    print("\nreference \\ tarpon | " + " | ".join(CLASSES) + " |")
    print("|---" * (len(CLASSES) + 1) + "|")
    for a in CLASSES:
        print(f"| {a} | " + " | ".join(str(confusion[(a, b)]) for b in CLASSES) + " |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="step", required=True)
    r = sub.add_parser("reference")
    r.add_argument("pgn", nargs="+")
    r.add_argument("--stockfish", default="stockfish")
    r.add_argument("--depth", type=int, default=16)
    r.add_argument("--games", type=int, default=300)
    r.add_argument("--random", type=int, default=100)
    r.add_argument("--seed", type=int, default=63)
    r.add_argument("--out", required=True)
    r.add_argument("--resume", action="store_true",
                   help="keep the rows already in --out and go on after them")
    c = sub.add_parser("compare")
    c.add_argument("reference")
    c.add_argument("--tarpon", default="target/release/tarpon")
    args = p.parse_args()
    reference(args) if args.step == "reference" else compare(args)


if __name__ == "__main__":
    main()
