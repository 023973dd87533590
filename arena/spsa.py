#!/usr/bin/env python3
"""SPSA tuning of tarpon's search parameters with `tarpon arena` matches.

Each iteration k flips a fair coin per parameter (delta = +1 or -1), plays a
small fixed-node match between theta + c_k*delta and theta - c_k*delta (the
same `tune` binary twice, the values passed as `option.NAME=VALUE`, games in
colour-swapped pairs), and moves theta by a_k/c_k * (wins - losses) * delta:
the side that scored better pulls every parameter its way. The gains follow
Spall's schedule as Fishtest and OpenBench apply it, fixed by the run's
planned length N so that the last iteration perturbs by each parameter's
c_end and learns at its r_end:

    c_k = c / (k+1)^0.101            with c = c_end * N^0.101
    a_k = a / (A+k+1)^0.602          with a = r_end * c_end^2 * (A+N)^0.602, A = N/10

Everything a run needs to continue lives in DIR/state.json (theta, the next
iteration, the random generator's state, games played), rewritten after each
iteration: run the same command again and it goes on where it stopped. Each
iteration appends a row to DIR/trajectory.csv; at the end, or with
--write-patch, DIR/final.patch rewrites the defaults in src/search/params.rs
to the rounded theta (apply with `git apply DIR/final.patch`).

The parameters, their defaults, ranges and c_end/r_end come from the binary
itself (`tarpon params`), so the script never disagrees with the build.

Usage:
    cargo build --release --features tune && cp target/release/tarpon tarpon-tune
    python3 arena/spsa.py --engine ./tarpon-tune --params rfp_margin,fp_margin \\
        --iterations 2000 --games 8 --nodes 5000 --dir arena/spsa
"""
import argparse
import csv
import difflib
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101
PARAMS_RS = "src/search/params.rs"


def read_params(engine):
    """name -> dict(default, min, max, c_end, r_end) from `ENGINE params`."""
    out = subprocess.run([engine, "params"], capture_output=True, text=True, check=True).stdout
    params = {}
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            continue
        name, _, default, lo, hi, c_end, r_end = fields
        params[name] = {"default": int(default), "min": int(lo), "max": int(hi),
                        "c_end": float(c_end), "r_end": float(r_end)}
    if not params:
        sys.exit(f"{engine} params printed no parameters")
    return params


def gains(p, k, total):
    """(a_k, c_k) of parameter `p` at iteration k of a run of `total`."""
    big_a = total / 10
    c = p["c_end"] * total ** GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + total) ** ALPHA
    return a / (big_a + k + 1) ** ALPHA, c / (k + 1) ** GAMMA


def clamp(x, p):
    return min(max(x, p["min"]), p["max"])


def play(args, plus, minus, k):
    """(wins, draws, losses) of the theta+ engine against theta-."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.md")

        def engine(name, values):
            return ["--engine", f"cmd={args.engine}", f"name={name}"] + \
                [f"option.{n}={v}" for n, v in list(values.items()) + args.option]

        cmd = [args.engine, "arena", *engine("plus", plus), *engine("minus", minus),
               "--each", f"nodes={args.nodes}",
               "--openings", f"file={args.book}", "order=random", f"seed={args.seed + k}",
               "--games", str(args.games), "--concurrency", str(args.concurrency),
               "--report", report]
        run = subprocess.run(cmd, capture_output=True, text=True)
        text = open(report, encoding="utf-8").read() if os.path.exists(report) else ""
        wdl = re.search(r"Wins: (\d+), Draws: (\d+), Losses: (\d+)", text)
        if run.returncode != 0 or not wdl:
            sys.exit(f"arena failed ({run.returncode}):\n{' '.join(cmd)}\n{run.stdout[-2000:]}"
                     f"{run.stderr[-2000:]}")
        return tuple(int(x) for x in wdl.groups())


def save(path, state):
    """Atomically, so an interrupted run never leaves half a state."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def new_state(args, params):
    names = args.params.split(",") if args.params else list(params)
    unknown = [n for n in names if n not in params]
    if unknown:
        sys.exit(f"not parameters of {args.engine}: {', '.join(unknown)}")
    rng = random.Random(args.seed)
    return {"iterations": args.iterations, "next": 0, "games": 0,
            "theta": {n: float(params[n]["default"]) for n in names},
            "rng": rng.getstate()}


def write_patch(theta, path):
    """A unified diff of params.rs with the tuned defaults, for `git apply`."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", PARAMS_RS)
    old = open(source, encoding="utf-8").read().splitlines(keepends=True)
    new = []
    for line in old:
        m = re.match(r"(\s*)(\w+) = (-?\d+),", line)
        if m and m.group(2) in theta:
            line = f"{m.group(1)}{m.group(2)} = {round(theta[m.group(2)])},{line[m.end():]}"
        new.append(line)
    diff = difflib.unified_diff(old, new, "a/" + PARAMS_RS, "b/" + PARAMS_RS)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(diff)
    print(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="a tarpon built with --features tune")
    ap.add_argument("--params", help="comma-separated names (default: all); new runs only")
    ap.add_argument("--iterations", type=int, default=1000,
                    help="planned length N, fixes the gains; new runs only")
    ap.add_argument("--run", type=int, help="play at most this many iterations now")
    ap.add_argument("--games", type=int, default=8, help="games per iteration (even)")
    ap.add_argument("--nodes", type=int, default=5000, help="nodes per move")
    ap.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--book", default="arena/openings/uho_4060_v2_2000.epd")
    ap.add_argument("--seed", type=int, default=1, help="perturbations and opening order")
    ap.add_argument("--option", action="append", default=[], type=lambda s: tuple(s.split("=", 1)),
                    metavar="NAME=VALUE", help="a UCI option for both engines, e.g. Eval=pst")
    ap.add_argument("--dir", default="arena/spsa", help="state.json, trajectory.csv, final.patch")
    ap.add_argument("--write-patch", action="store_true", help="write final.patch now and stop")
    args = ap.parse_args()
    if args.games < 2 or args.games % 2:
        sys.exit("--games must be even: openings are played in colour-swapped pairs")

    params = read_params(args.engine)
    os.makedirs(args.dir, exist_ok=True)
    state_path = os.path.join(args.dir, "state.json")
    csv_path = os.path.join(args.dir, "trajectory.csv")
    patch_path = os.path.join(args.dir, "final.patch")
    if os.path.exists(state_path):
        state = json.load(open(state_path, encoding="utf-8"))
        print(f"resuming at iteration {state['next']} of {state['iterations']}")
    else:
        state = new_state(args, params)
    names = list(state["theta"])
    if args.write_patch:
        return write_patch(state["theta"], patch_path)

    rng = random.Random()
    # JSON turned the generator's nested tuples into lists.
    version, internal, gauss = state["rng"]
    rng.setstate((version, tuple(internal), gauss))
    if not os.path.exists(csv_path):
        with open(csv_path, "w", newline="") as f:
            csv.writer(f).writerow(["iteration", "games", "wins", "draws", "losses", *names])

    total, played = state["iterations"], 0
    while state["next"] < total and (args.run is None or played < args.run):
        k, theta = state["next"], state["theta"]
        plus, minus, step = {}, {}, {}
        for n in names:
            p = params[n]
            a_k, c_k = gains(p, k, total)
            delta = rng.choice((-1, 1))
            plus[n] = round(clamp(theta[n] + c_k * delta, p))
            minus[n] = round(clamp(theta[n] - c_k * delta, p))
            step[n] = (a_k / c_k * delta, p)
        wins, draws, losses = play(args, plus, minus, k)
        for n, (gain, p) in step.items():
            theta[n] = clamp(theta[n] + gain * (wins - losses), p)
        state.update(next=k + 1, games=state["games"] + wins + draws + losses,
                     rng=rng.getstate())
        save(state_path, state)
        with open(csv_path, "a", newline="") as f:
            csv.writer(f).writerow([k + 1, state["games"], wins, draws, losses,
                                    *(f"{theta[n]:.3f}" for n in names)])
        shown = " ".join(f"{n}={theta[n]:.3f} [played {plus[n]} vs {minus[n]}]" for n in names)
        print(f"iter {k + 1}/{total} W{wins} D{draws} L{losses} games {state['games']}: {shown}",
              flush=True)
        played += 1
    if state["next"] >= total:
        write_patch(state["theta"], patch_path)


if __name__ == "__main__":
    main()
