#!/usr/bin/env python3
"""Self-play check of tarpon's UCI behaviour through an independent client.

python-chess drives two tarpon processes, judges every move's legality and
every game's end by the rules itself (never trusting the engine), and keeps
the clocks: each move's thinking time is the wall time from sending `go` to
receiving `bestmove`, measured here, so pipe and client overhead count
against the engine.

The engines run with `Move Overhead` 50 ms (option --move-overhead): on
this shared 2-core machine, at a load average above 10, a process often
waits tens of milliseconds to be scheduled, and the overhead is how a GUI
user tells an engine about such latency.

Margin policy: a side loses on time when its clock falls below -MARGIN_MS
(default 50 ms, like a GUI's small tolerance for the operating system);
every overrun within the margin is counted and reported too, so nothing is
hidden. Games longer than MAX_PLIES plies are adjudicated drawn (they only
bound the run time; the count is reported).

Usage (from the crate root, after `cargo build --release`):
  python3 arena/selfplay_check.py --games 200 --base 1 --inc 0.01
  python3 arena/selfplay_check.py --games 100 --base 10 --inc 0.1 --threads 2
Writes a summary to arena/results/ and the PGN to arena/pgn/.
"""

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import time

import chess
import chess.engine
import chess.pgn

MAX_PLIES = 400


def load_openings(path, count, seed):
    with open(path) as f:
        fens = [line.split(" c")[0].strip() for line in f if line.strip()]
    rng = random.Random(seed)
    return rng.sample(fens, count)


def fen_of_epd(epd):
    fields = epd.split()
    board = chess.Board(" ".join(fields[:4]) + " 0 1")
    return board


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def start_engine(path, options):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=30)
    engine.configure(options)
    return engine


def play_game(engines, opening, base_ms, inc_ms, margin_ms, stats):
    """engines: (white, black). Returns the PGN game."""
    board = fen_of_epd(opening)
    game = chess.pgn.Game()
    game.setup(board)
    node = game
    clocks = {chess.WHITE: base_ms, chess.BLACK: base_ms}
    # A new game object makes python-chess send `ucinewgame`.
    game_key = object()
    result, reason = None, None
    while result is None:
        side = board.turn
        engine = engines[0] if side == chess.WHITE else engines[1]
        limit = chess.engine.Limit(
            white_clock=max(clocks[chess.WHITE], 0) / 1000,
            black_clock=max(clocks[chess.BLACK], 0) / 1000,
            white_inc=inc_ms / 1000,
            black_inc=inc_ms / 1000,
        )
        started = time.monotonic()
        try:
            played = engine.play(board, limit, game=game_key)
        except chess.engine.EngineError as e:
            # python-chess raises on a bestmove that is not legal here.
            stats["illegal_moves"] += 1
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"illegal move: {e}"
            break
        except (chess.engine.EngineTerminatedError, TimeoutError) as e:
            stats["crashes"] += 1
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"engine died: {e}"
            break
        spent = (time.monotonic() - started) * 1000
        clocks[side] -= spent
        stats["min_clock_ms"] = min(stats["min_clock_ms"], clocks[side])
        stats["max_move_ms"] = max(stats["max_move_ms"], spent)
        if clocks[side] < -margin_ms:
            stats["time_losses"] += 1
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"time forfeit ({clocks[side]:.0f} ms)"
            break
        if clocks[side] < 0:
            stats["overruns_within_margin"] += 1
        clocks[side] += inc_ms
        move = played.move
        if move is None or not board.is_legal(move):
            stats["illegal_moves"] += 1
            result = "0-1" if side == chess.WHITE else "1-0"
            reason = f"illegal move {move}"
            break
        node = node.add_variation(move)
        board.push(move)
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
            reason = outcome.termination.name.lower()
        elif board.ply() >= MAX_PLIES:
            stats["adjudicated_long"] += 1
            result, reason = "1/2-1/2", f"adjudicated draw after {MAX_PLIES} plies"
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    return game


def write_summary(out, args, tc, stats, terminations, started, planned):
    """Rewritten after every game, so a run cut short still leaves its count."""
    summary = {
        "command": "python3 " + " ".join(sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "engine": args.engine,
        "commit": args.commit,
        "time_control": tc,
        "threads": args.threads,
        "margin_ms": args.margin_ms,
        "move_overhead_ms": args.move_overhead,
        "max_plies": MAX_PLIES,
        "openings": args.openings,
        "elapsed_s": round(time.time() - started),
        "games_planned": planned,
        **stats,
        "min_clock_ms": round(stats["min_clock_ms"], 1),
        "max_move_ms": round(stats["max_move_ms"], 1),
        "terminations": terminations,
    }
    with open(out, "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", default="target/release/tarpon")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--base", type=float, default=1.0, help="seconds")
    parser.add_argument("--inc", type=float, default=0.01, help="seconds")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--margin-ms", type=float, default=50.0)
    parser.add_argument("--move-overhead", type=int, default=50,
                        help="UCI Move Overhead in ms: the latency the engine must allow for")
    parser.add_argument("--openings", default=os.path.join(
        os.environ.get("DATA_DIR", "../shared/data"), "openings", "noob_3moves.epd"),
        help="EPD book (default: $DATA_DIR/openings/noob_3moves.epd, DATA_DIR ../shared/data)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="summary file (default: arena/results/...)")
    args = parser.parse_args()

    # The commit the run starts from (HEAD may move while it runs).
    args.commit = git_commit()
    tc = f"{args.base:g}+{args.inc:g}"
    out = args.out or f"arena/results/selfplay_{tc}_t{args.threads}.json"
    os.makedirs(os.path.dirname(out), exist_ok=True)
    os.makedirs("arena/pgn", exist_ok=True)
    pgn_path = f"arena/pgn/selfplay_{tc}_t{args.threads}.pgn"

    openings = load_openings(args.openings, (args.games + 1) // 2, args.seed)
    options = {"Threads": args.threads, "Hash": args.hash, "Move Overhead": args.move_overhead}
    engines = [start_engine(args.engine, options) for _ in range(2)]

    stats = {
        "games": 0, "white_wins": 0, "black_wins": 0, "draws": 0,
        "time_losses": 0, "illegal_moves": 0, "crashes": 0,
        "overruns_within_margin": 0, "adjudicated_long": 0,
        "min_clock_ms": float("inf"), "max_move_ms": 0.0,
    }
    terminations = {}
    started = time.time()
    with open(pgn_path, "w") as pgn:
        for i in range(args.games):
            opening = openings[i // 2]
            for k, e in enumerate(engines):
                # A crashed engine is counted once and replaced.
                if e.protocol.returncode.done():
                    engines[k] = start_engine(args.engine, options)
            # Each opening twice, the processes swapping colours.
            pair = (engines[0], engines[1]) if i % 2 == 0 else (engines[1], engines[0])
            game = play_game(pair, opening, args.base * 1000, args.inc * 1000, args.margin_ms, stats)
            game.headers["Event"] = f"tarpon self-play check {tc} Threads={args.threads}"
            game.headers["Round"] = str(i + 1)
            game.headers["White"] = f"tarpon#{0 if i % 2 == 0 else 1}"
            game.headers["Black"] = f"tarpon#{1 if i % 2 == 0 else 0}"
            print(game, file=pgn, end="\n\n")
            pgn.flush()
            stats["games"] += 1
            result = game.headers["Result"]
            key = {"1-0": "white_wins", "0-1": "black_wins"}.get(result, "draws")
            stats[key] += 1
            reason = game.headers["Termination"]
            reason_key = reason.split(" (")[0].split(":")[0]
            terminations[reason_key] = terminations.get(reason_key, 0) + 1
            print(f"game {i + 1}/{args.games}: {result} ({reason})  "
                  f"time losses {stats['time_losses']} illegal {stats['illegal_moves']} "
                  f"min clock {stats['min_clock_ms']:.0f} ms", flush=True)
            summary = write_summary(out, args, tc, stats, terminations, started, args.games)
    for e in engines:
        try:
            e.quit()
        except chess.engine.EngineTerminatedError:
            pass

    print(json.dumps(summary, indent=2))
    ok = summary["time_losses"] == 0 and summary["illegal_moves"] == 0 and summary["crashes"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
