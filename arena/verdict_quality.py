#!/usr/bin/env python3
"""How good are `tarpon play`'s verdicts? (docs/play.md, "Verdict quality")

Two steps, so the slow reference runs once:

  reference: sample positions from real games (PGN files given), each with the
      move played there, and judge each move with a deep search at a fixed
      depth or node count (Stockfish, or tarpon itself): the best move's score,
      and the played move's own score (`searchmoves`). Also, for a
      blunder-rich sample, the same positions with a seeded random legal move
      instead of the game move. Writes JSON lines. `--from REF` judges the
      positions and moves of an earlier reference instead of sampling; `--shard
      i/n` judges every n-th of them, so n processes share the cores;
      `--shuffle SEED` takes them in a random order, so a run stopped early
      has judged a fair sample.
  compare: start `tarpon play`, ask it for the verdict of each move with the
      page's own search and time budget (`POST /api/judge`), and report
      class agreement, the confusion table, blunder recall, and how often the
      reference's best move got called a mistake or worse.

  python3 arena/verdict_quality.py reference --stockfish stockfish --depth 16 \
      --games 300 --random 100 --out ref.jsonl [--resume] GAMES.pgn...
  python3 arena/verdict_quality.py compare --tarpon target/release/tarpon ref.jsonl
  python3 arena/verdict_quality.py compare --think-ms 3000 ref.jsonl   # learner thinks 3 s
  python3 arena/verdict_quality.py reference --engine target/release/tarpon \
      --nodes 32000000 --from ref.jsonl --shard 0/2 --out tarpon-ref.0.jsonl
  python3 arena/verdict_quality.py score rows.jsonl tarpon-ref.jsonl

  score: the report of a `compare --rows` file against another reference of
      the same positions (no search: the page's verdicts are the rows').
  python3 arena/verdict_quality.py scale --tarpon target/release/tarpon --depth 12 ref.jsonl

  scale: search each reference position with tarpon (UCI, fixed depth), the
      best move and the played move, and fit the factor k that puts tarpon's
      centipawns on the reference's scale: k minimises the squared Win% error
      over both scores (mates left out). `CP_SCALE` in
      src/explain/game/verdict.rs holds the factor; fit it on a reference
      sample other than the one `compare` reports on.

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


MATE = 90000  # python-chess scores a mate as 100000 less its distance


def classify(loss, played_best, best_cp, played_cp):
    """The same rules as `move_label` in src/explain/game/verdict.rs: Win%
    points lost, except that a forced mate allowed or let go is judged by the
    other score (lichess's MateAdvice)."""
    if played_best:
        return "best"
    by_other = lambda cp: "inaccuracy" if cp > 999 else "mistake" if cp > 700 else "blunder"
    if best_cp >= MATE and played_cp <= -MATE:
        return "blunder"
    if abs(best_cp) < MATE and played_cp <= -MATE:
        return by_other(-best_cp)
    if best_cp >= MATE and abs(played_cp) < MATE:
        return by_other(played_cp)
    if loss >= 15:
        return "blunder"
    if loss >= 10:
        return "mistake"
    if loss >= 5:
        return "inaccuracy"
    return "good"


def reference_class(row):
    """A reference row's class by today's rules (older files stored theirs)."""
    return classify(row["loss"], row["move"] == row["best"], row["best_cp"], row["played_cp"])


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


def reference_positions(args):
    """(fen, move, source) of every position the reference judges."""
    if args.source_reference:
        rows = [json.loads(line) for line in open(args.source_reference)]
        return [(r["fen"], r["move"], r["source"]) for r in rows]
    if not args.pgn:
        sys.exit("reference: give PGN files to sample from, or --from REF")
    rng = random.Random(args.seed + 1)
    positions = [(f, m, "game") for f, m in sample_positions(args.pgn, args.games, args.seed)]
    for fen, _ in sample_positions(args.pgn, args.random, args.seed + 2):
        board = chess.Board(fen)
        positions.append((fen, rng.choice(list(board.legal_moves)).uci(), "random"))
    return positions


def reference(args):
    positions = reference_positions(args)
    if args.shuffle is not None:
        # A slow reference stopped early then still judges a fair sample.
        random.Random(args.shuffle).shuffle(positions)
    shard, shards = (int(x) for x in args.shard.split("/"))
    if not 0 <= shard < shards:
        sys.exit("--shard: i/n with 0 <= i < n")
    positions = positions[shard::shards]
    # A deep reference takes hours: an interrupted run picks up where its
    # file ends (the sample is the same for the same arguments).
    done = 0
    if args.resume and os.path.exists(args.out):
        with open(args.out) as f:
            done = sum(1 for line in f if line.strip())
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 64})
    limit = (chess.engine.Limit(nodes=args.nodes) if args.nodes
             else chess.engine.Limit(depth=args.depth))
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
                       verdict=classify(loss, played == best, best_cp, played_cp),
                       depth=info.get("depth"), seconds=round(info.get("time", 0), 2))
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
    server = subprocess.Popen([args.tarpon, "play", "--port", str(port), "--puzzles", os.devnull,
                               "--verdict-ms", str(args.verdict_ms)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdout.readline()  # "listening on ..."
    base = f"http://127.0.0.1:{port}"
    confusion = {(a, b): 0 for a in CLASSES for b in CLASSES}
    seconds = []
    rows_out = open(args.rows, "w") if args.rows else None
    try:
        for i, row in enumerate(rows):
            start = time.time()
            request = {"fen": row["fen"], "move": row["move"]}
            if args.think_ms:
                request["think_ms"] = args.think_ms
            state = post(base, "/api/judge", request)
            # The verdict's own time: what the learner waits after the move.
            seconds.append(time.time() - start - args.think_ms / 1000)
            ours = state["verdict"]["class"]
            ours = "best" if ours == "great" else ours
            confusion[(reference_class(row), ours)] += 1
            if rows_out:
                verdict = state["verdict"]
                rows_out.write(json.dumps(dict(row, ours=ours, our_loss=verdict.get("loss"),
                                               our_best=verdict.get("best_uci"), depth=verdict.get("depth"),
                                               our_best_score=verdict.get("best_score"),
                                               our_played_score=verdict.get("played_score"),
                                               seconds=round(seconds[-1], 3))) + "\n")
            print(f"{i + 1}/{len(rows)} ref {row['verdict']} ours {ours}", file=sys.stderr)
    finally:
        server.terminate()
        if rows_out:
            rows_out.close()
    report(rows, confusion, seconds)


def score(args):
    reference = {(r["fen"], r["move"]): r for r in map(json.loads, open(args.reference))}
    rows = [json.loads(line) for line in open(args.rows)]
    # A reference stopped early (--shuffle) covers a sample of the rows.
    rows = [r for r in rows if (r["fen"], r["move"]) in reference]
    confusion = {(a, b): 0 for a in CLASSES for b in CLASSES}
    judged = []
    for row in rows:
        ref = reference[(row["fen"], row["move"])]
        confusion[(reference_class(ref), row["ours"])] += 1
        judged.append(ref)
    report(judged, confusion, [r["seconds"] for r in rows if "seconds" in r])


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


def scale(args):
    rows = [json.loads(line) for line in open(args.reference)]
    engine = chess.engine.SimpleEngine.popen_uci(args.tarpon)
    engine.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(depth=args.depth)
    pairs = []  # (tarpon cp, reference cp)
    for i, row in enumerate(rows):
        board = chess.Board(row["fen"])
        for move, ref in ((row["best"], row["best_cp"]), (row["move"], row["played_cp"])):
            if abs(ref) >= 10000:
                continue
            info = engine.analyse(board, limit, root_moves=[chess.Move.from_uci(move)])
            ours = info["score"].pov(board.turn)
            if not ours.is_mate():
                pairs.append((ours.score(), ref))
        print(f"{i + 1}/{len(rows)}", file=sys.stderr)
    engine.quit()

    def error(k):
        return sum((win_percent(k * t) - win_percent(r)) ** 2 for t, r in pairs) / len(pairs)

    best_k = min((k / 100 for k in range(50, 301)), key=error)
    print(f"scores: {len(pairs)} from {len(rows)} positions, tarpon at depth {args.depth}")
    print(f"RMS Win% error: {math.sqrt(error(1.0)):.2f} at k = 1.00, "
          f"{math.sqrt(error(best_k)):.2f} at k = {best_k:.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="step", required=True)
    r = sub.add_parser("reference")
    r.add_argument("pgn", nargs="*")
    r.add_argument("--engine", "--stockfish", dest="engine", default="stockfish",
                   help="the UCI engine that judges (one thread, 64 MB hash)")
    r.add_argument("--depth", type=int, default=16)
    r.add_argument("--nodes", type=int, help="search this many nodes instead of --depth")
    r.add_argument("--from", dest="source_reference",
                   help="judge the positions and moves of this reference file")
    r.add_argument("--shard", default="0/1", help="i/n: judge positions i, i+n, i+2n, ...")
    r.add_argument("--shuffle", type=int, metavar="SEED",
                   help="judge the positions in this seed's random order")
    r.add_argument("--games", type=int, default=300)
    r.add_argument("--random", type=int, default=100)
    r.add_argument("--seed", type=int, default=63)
    r.add_argument("--out", required=True)
    r.add_argument("--resume", action="store_true",
                   help="keep the rows already in --out and go on after them")
    c = sub.add_parser("compare")
    c.add_argument("reference")
    c.add_argument("--tarpon", default="target/release/tarpon")
    c.add_argument("--verdict-ms", type=int, default=600,
                   help="the page's verdict budget (tarpon play --verdict-ms)")
    c.add_argument("--think-ms", type=int, default=0,
                   help="the learner thinks this long before each move, the page "
                        "preparing the verdict meanwhile (0: the move comes at once)")
    c.add_argument("--rows", help="write each position with both verdicts here (JSON lines)")
    o = sub.add_parser("score")
    o.add_argument("rows", help="a `compare --rows` file")
    o.add_argument("reference")
    k = sub.add_parser("scale")
    k.add_argument("reference")
    k.add_argument("--tarpon", default="target/release/tarpon")
    k.add_argument("--depth", type=int, default=12)
    args = p.parse_args()
    {"reference": reference, "compare": compare, "score": score,
     "scale": scale}[args.step](args)


if __name__ == "__main__":
    main()
