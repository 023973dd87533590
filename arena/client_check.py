#!/usr/bin/env python3
"""The engine as its clients meet it: python-chess, lichess-bot's engine
wrapper, fastchess and cutechess-cli, each driving `tarpon` and counting what they complain
about. Exits non-zero on any complaint.

    python3 arena/client_check.py [--tarpon target/release/tarpon]
        [--lichess-bot DIR]      # a lichess-bot checkout (its lib/ is imported)
        [--fastchess PATH] [--cutechess PATH] [--book FILE.epd --games N]

Checks, for each client:
- python-chess: no warning or error in its log over a game of `play` calls
  (clock, movetime, nodes, depth), a MultiPV `analyse` and a `ponder` search;
  every played move is the first move of the PV the engine reported last.
- lichess-bot: its UCIEngine starts tarpon with the default config's options,
  plays a game through `search` (the call a lichess game makes), and reads
  the engine's name and statistics.
- fastchess: a match of tarpon against itself with no warning in its output
  (e.g. "Bestmove does not match beginning of last PV").
- cutechess-cli: the same match, no warning, illegal move, disconnect or stall.
"""

import argparse
import logging
import os
import subprocess
import sys
import tempfile

import chess
import chess.engine


class Complaints(logging.Handler):
    """Collects every warning or error a library logs."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def check_move(result, board, where, problems):
    pv = result.info.get("pv") or []
    if not pv or pv[0] != result.move:
        problems.append(f"{where}: played {result.move}, last PV {[m.uci() for m in pv]} ({board.fen()})")


def python_chess(tarpon):
    problems = []
    limits = [
        chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.02, black_inc=0.02),
        chess.engine.Limit(time=0.03),
        chess.engine.Limit(nodes=7777),
        chess.engine.Limit(depth=6),
    ]
    with chess.engine.SimpleEngine.popen_uci([tarpon]) as engine:
        engine.configure({"Hash": 16, "Threads": 1})
        board = chess.Board()
        ply = 0
        while not board.is_game_over(claim_draw=True) and ply < 120:
            limit = limits[ply % len(limits)]
            result = engine.play(board, limit, info=chess.engine.INFO_ALL)
            check_move(result, board, f"python-chess ply {ply} {limit}", problems)
            board.push(result.move)
            ply += 1
        infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=8), multipv=3)
        if len(infos) != 3 or any("pv" not in i or "score" not in i for i in infos):
            problems.append(f"python-chess: MultiPV 3 analysis gave {infos}")
        result = engine.play(chess.Board(), chess.engine.Limit(time=0.2), ponder=True, info=chess.engine.INFO_ALL)
        check_move(result, chess.Board(), "python-chess ponder", problems)
        print(f"python-chess {chess.__version__}: {ply} plies played, engine id {engine.id.get('name')}")
    return problems


def lichess_bot(tarpon, checkout):
    sys.path.insert(0, checkout)
    import yaml  # lichess-bot's own dependency
    from lib import config, engine_wrapper

    with open(os.path.join(checkout, "config.yml.default")) as f:
        raw = yaml.safe_load(f)
    raw["token"] = ""
    raw["engine"]["dir"] = os.path.dirname(os.path.abspath(tarpon))
    raw["engine"]["name"] = os.path.basename(tarpon)
    raw["engine"]["protocol"] = "uci"
    config.insert_default_values(raw)
    cfg = config.Configuration(raw)
    problems = []
    with engine_wrapper.create_engine(cfg) as engine:
        board = chess.Board()
        for ply in range(40):
            if board.is_game_over():
                break
            result = engine.search(board, chess.engine.Limit(time=0.05), False, False, None)
            check_move(result, board, f"lichess-bot ply {ply}", problems)
            board.push(result.move)
        stats = engine.get_stats()
        print(f"lichess-bot: engine '{engine.name()}', {len(board.move_stack)} plies, stats {stats}")
        if not engine.name().startswith("tarpon"):
            problems.append(f"lichess-bot: engine name {engine.name()!r}")
    return problems


def self_play_match(runner, path, tarpon, time_control, book, games, extra=()):
    """A match of tarpon against itself under `runner` (fastchess and
    cutechess-cli take the same options); every complaint it prints."""
    command = [
        path,
        "-engine", f"cmd={tarpon}", "name=tarpon-a",
        "-engine", f"cmd={tarpon}", "name=tarpon-b",
        "-each", "proto=uci", f"tc={time_control}", "option.Hash=16",
        "-openings", f"file={os.path.abspath(book)}", "format=epd", "order=random",
        "-rounds", str(games // 2), "-games", "2", "-repeat", *extra,
    ]
    # fastchess writes its config.json into the working directory.
    with tempfile.TemporaryDirectory() as scratch:
        out = subprocess.run(command, capture_output=True, text=True, timeout=3600, cwd=scratch)
    text = out.stdout + out.stderr
    complaints = [line for line in text.splitlines()
                  if any(w in line.lower() for w in ("warning", "illegal", "disconnect", "stall", "unexpected"))]
    finished = text.count("Finished game")
    print(f"{runner}: {finished} games finished, {len(complaints)} warnings")
    problems = [f"{runner}: {c}" for c in complaints]
    if out.returncode != 0 or finished != games:
        problems.append(f"{runner}: exit {out.returncode}, {finished} of {games} games finished")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tarpon", default="target/release/tarpon")
    parser.add_argument("--lichess-bot", dest="lichess_bot")
    parser.add_argument("--fastchess")
    parser.add_argument("--cutechess")
    parser.add_argument("--book")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    tarpon = os.path.abspath(args.tarpon)

    complaints = Complaints()
    logging.getLogger().addHandler(complaints)
    problems = python_chess(tarpon)
    if args.lichess_bot:
        problems += lichess_bot(tarpon, args.lichess_bot)
    problems += [f"logged: {m}" for m in complaints.records]
    if args.fastchess:
        problems += self_play_match("fastchess", args.fastchess, tarpon, "2+0.02", args.book, args.games,
                                    ("-concurrency", "1"))
    if args.cutechess:
        problems += self_play_match("cutechess-cli", args.cutechess, tarpon, "4+0.04", args.book, args.games)
    for p in problems:
        print("PROBLEM", p)
    print("clean" if not problems else f"{len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
