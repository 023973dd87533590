#!/usr/bin/env python3
"""Training positions per core-hour of several datagen styles, side by side.

Each style is one single-threaded `tarpon datagen` process; all run at once,
so they share the machine's load alike, and each is stopped when it has used
the same CPU time (user + system, read from /proc), not wall time: the figure
holds on a loaded machine. The data files are kept, so nets trained on equal
CPU-hours of each style can be matched (nets/LEDGER.md, "Throughput").

    python3 arena/datagen_throughput.py --tarpon target/release/tarpon \\
        --cpu-seconds 1800 --out-dir $DATA/tput \\
        --style old="--nodes 5000 --seed 601" \\
        --style soft1200="--soft-nodes 1200 --nodes 10000 --seed 602" \\
        -- --book $BOOKS/noob_3moves.epd --random-plies 4 --net nets/default.nnue \\
           --syzygy $SYZYGY

Everything after `--` is passed to every process. A style's file is
`OUT_DIR/NAME.bin`; an existing file is appended to (datagen's own rule), and
its CPU time is not known, so start with an empty directory.
"""

import argparse
import os
import shlex
import signal
import subprocess
import sys
import time

RECORD_SIZE = 32
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU time of a running process (its threads included)."""
    with open(f"/proc/{pid}/stat") as f:
        # The command name may hold spaces; the fields after it are fixed.
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def positions(path):
    return os.path.getsize(path) // RECORD_SIZE if os.path.exists(path) else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tarpon", required=True)
    parser.add_argument("--cpu-seconds", type=float, required=True)
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--style", action="append", required=True, metavar="NAME=OPTIONS")
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("common", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    common = args.common[1:] if args.common[:1] == ["--"] else args.common
    os.makedirs(args.out_dir, exist_ok=True)

    runs = []
    for style in args.style:
        name, _, options = style.partition("=")
        out = os.path.join(args.out_dir, f"{name}.bin")
        if positions(out):
            sys.exit(f"{out} already holds data; use an empty --out-dir")
        command = [args.tarpon, "datagen", "--out", out, "--positions", "1000000000",
                   "--threads", "1", "--quiet", *shlex.split(options), *common]
        log = open(os.path.join(args.out_dir, f"{name}.log"), "w")
        log.write(shlex.join(command) + "\n")
        log.flush()
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                   preexec_fn=lambda: os.nice(args.nice))
        runs.append({"name": name, "out": out, "process": process, "cpu": 0.0})
        print(f"{name}: pid {process.pid}: {shlex.join(command)}", flush=True)

    # Ctrl-C or a TERM ends every run early and still prints the table.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while any(r["process"].poll() is None for r in runs):
            time.sleep(5)
            for r in runs:
                if r["process"].poll() is not None:
                    continue
                r["cpu"] = cpu_seconds(r["process"].pid)
                if r["cpu"] >= args.cpu_seconds:
                    r["process"].send_signal(signal.SIGTERM)
                    r["process"].wait()
            line = ", ".join(f"{r['name']} {positions(r['out'])} pos {r['cpu']:.0f} cpu-s"
                             for r in runs)
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        for r in runs:
            if r["process"].poll() is None:
                r["cpu"] = cpu_seconds(r["process"].pid)
                r["process"].send_signal(signal.SIGTERM)
                r["process"].wait()
    print(file=sys.stderr)

    base = None
    print("| style | positions | CPU s | positions per core-hour | ratio |")
    print("|---|---|---|---|---|")
    for r in runs:
        n = positions(r["out"])
        rate = n / r["cpu"] * 3600 if r["cpu"] else 0.0
        base = base or rate
        print(f"| {r['name']} | {n} | {r['cpu']:.0f} | {rate:,.0f} | {rate / base:.2f} |")


if __name__ == "__main__":
    main()
