#!/usr/bin/env python3
"""How long `go movetime N` takes, as a GUI sees it: the time from writing
the `go` line to reading `bestmove`, for N = 300, 1000, 2000 on the start
position and a middlegame, a few runs each. Prints a Markdown table.

Usage: arena/movetime_check.py [TARPON] [RUNS]   (default target/release/tarpon, 3)
"""
import statistics
import subprocess
import sys
import time

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"


def main():
    tarpon = sys.argv[1] if len(sys.argv) > 1 else "target/release/tarpon"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    engine = subprocess.Popen([tarpon], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("tarpon closed its output")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    overhead = 10
    print(f"Move Overhead {overhead} ms (the default); window [N - {overhead} - 30, N]\n")
    print("| position | movetime (ms) | answered after (ms), runs | in window |")
    print("|---|---|---|---|")
    for name, position in [("start", "position startpos"), ("middlegame", f"position fen {MIDDLEGAME}")]:
        for movetime in [300, 1000, 2000]:
            took = []
            for _ in range(runs):
                send("ucinewgame")
                send(position)
                send("isready")
                until("readyok")
                start = time.monotonic()
                send(f"go movetime {movetime}")
                until("bestmove")
                took.append(round((time.monotonic() - start) * 1000))
            ok = all(movetime - overhead - 30 <= t <= movetime for t in took)
            print(f"| {name} | {movetime} | {', '.join(map(str, took))} (median {statistics.median(took):.0f}) | {'yes' if ok else 'NO'} |")
    send("quit")
    engine.wait()


if __name__ == "__main__":
    main()
