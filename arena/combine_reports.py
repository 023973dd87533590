#!/usr/bin/env python3
"""Pool several `tarpon arena` reports of the same pairing into one Elo figure.

Sums the `Ptnml(0-2)` pair counts and W/D/L of the first pairing in each
report and applies the arena's own formula (src/arena/stats.rs, `estimate`):
the score's 95% interval from the pentanomial variance, mapped to logistic
Elo, the error bar being half the interval's width. As a check on the copy
of the formula, each report's own Elo line is recomputed and printed beside
the one the arena wrote.

A run cut short before the arena wrote its report (a killed session) still
left its PGN: give it as `NAME=GAMES.pgn` and its games are scored from
NAME's side, the two games of each opening (same FEN, colours swapped)
making a pair; a lone game counts in W/D/L but in no pair. PGN input needs
python-chess (`pip install chess`), read as `arena/time_use.py` reads it.

When the first report ran an SPRT (logistic bounds), the pooled pairs'
log-likelihood ratio is printed too, by the arena's formula (`Sprt::llr`):
an SPRT stopped at a session's end can go on in a second run of the same
command with another opening seed, and the two decide together.

Usage: python3 arena/combine_reports.py REPORT.md|NAME=GAMES.pgn [...]
"""
import math
import re
import sys

Z95 = 1.959963984540054
# White's points for each finished game's result.
POINTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}


def elo(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def moments(counts):
    """(pairs, mean pair score, its variance) of pentanomial counts."""
    n = sum(counts)
    values = [i / 4 for i in range(5)]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    return n, mean, var


def estimate(pairs):
    """(Elo, error) from pentanomial counts, as the arena computes them."""
    n, mean, var = moments(pairs)
    stderr = math.sqrt(var / n)
    lo = min(max(mean - Z95 * stderr, 1e-12), 1 - 1e-12)
    hi = min(max(mean + Z95 * stderr, 1e-12), 1 - 1e-12)
    return elo(mean), (elo(hi) - elo(lo)) / 2, elo(lo), elo(hi)


def score_from_elo(e):
    return 1.0 / (1.0 + 10.0 ** (-e / 400.0))


def llr(pairs, elo0, elo1):
    """The arena's GSPRT log-likelihood ratio (logistic Elo bounds)."""
    n, mean, var = moments([max(c, 1e-3) for c in pairs])  # the arena's regularized counts
    mu0, mu1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * ((mean - mu0) ** 2 - (mean - mu1) ** 2) / (2 * var)


def read_report(path):
    text = open(path, encoding="utf-8").read()
    wdl = re.search(r"Wins: (\d+), Draws: (\d+), Losses: (\d+)", text)
    ptnml = re.search(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", text)
    line = re.search(r"Elo: (\S+) \+/- (\S+) \(95%\)", text)
    if not (wdl and ptnml and line):
        sys.exit(f"{path}: no W/D/L, Ptnml and Elo lines found")
    # (elo0, elo1, alpha, beta) of a logistic SPRT, when the run had one.
    sprt = re.search(r"SPRT \(logistic Elo[^)]*\): elo0=(\S+) elo1=(\S+) alpha=(\S+) beta=(\S+):", text)
    bounds = tuple(float(x) for x in sprt.groups()) if sprt else None
    return [int(x) for x in wdl.groups()], [int(x) for x in ptnml.groups()], line.groups(), bounds


def read_pgn(name, path):
    """W/D/L and pentanomial counts of NAME's games in an arena PGN."""
    import chess.pgn  # only this input needs python-chess, as time_use.py does

    by_opening = {}
    wdl = [0, 0, 0]
    with open(path, encoding="utf-8") as pgn:
        while (tags := chess.pgn.read_headers(pgn)) is not None:
            result = tags.get("Result")
            if name not in (tags.get("White"), tags.get("Black")) or result not in POINTS:
                continue
            white = tags["White"] == name
            points = POINTS[result] if white else 1.0 - POINTS[result]
            wdl[{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
            sides = by_opening.setdefault(tags.get("FEN", "startpos"), ([], []))
            sides[0 if white else 1].append(points)
    if sum(wdl) == 0:
        sys.exit(f"{path}: no finished games of {name}")
    pairs = [0] * 5
    for as_white, as_black in by_opening.values():
        for first, second in zip(as_white, as_black):
            pairs[round((first + second) * 2)] += 1
    return wdl, pairs, None, None


def main(paths):
    if not paths:
        sys.exit(__doc__)
    total_wdl, total_pairs, first_bounds = [0, 0, 0], [0] * 5, None
    for i, path in enumerate(paths):
        if path.endswith(".pgn") and "=" in path:
            wdl, pairs, reported, bounds = read_pgn(*path.split("=", 1))
        else:
            wdl, pairs, reported, bounds = read_report(path)
        if i == 0:
            first_bounds = bounds
        e, err, _, _ = estimate(pairs)
        source = "scored from the PGN" if reported is None else "report: {} +/- {}".format(*reported)
        print(f"{path}: {wdl[0]}/{wdl[1]}/{wdl[2]} Ptnml {pairs} "
              f"Elo {e:+.1f} +/- {err:.1f} ({source})")
        total_wdl = [a + b for a, b in zip(total_wdl, wdl)]
        total_pairs = [a + b for a, b in zip(total_pairs, pairs)]
    e, err, lo, hi = estimate(total_pairs)
    print(f"pooled: {sum(total_wdl)} games {total_wdl[0]}/{total_wdl[1]}/{total_wdl[2]} "
          f"Ptnml {total_pairs} Elo {e:+.1f} +/- {err:.1f} (95% interval {lo:+.0f} to {hi:+.0f})")
    if first_bounds:
        elo0, elo1, alpha, beta = first_bounds
        lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
        value = llr(total_pairs, elo0, elo1)
        verdict = "H1" if value >= upper else "H0" if value <= lower else "no decision"
        print(f"pooled SPRT elo0={elo0:g} elo1={elo1:g}: LLR {value:.2f} [{lower:.2f}, {upper:.2f}] -> {verdict}")


if __name__ == "__main__":
    main(sys.argv[1:])
