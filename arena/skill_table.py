#!/usr/bin/env python3
"""The strength table of tarpon's playing levels, from the reports of
arena/skill_ladder.sh (arena/results/skill/levelNN_vs_stockfish-eloXXXX.md)
and the full-strength ladder (arena/results/tarpon-pst_vs_stockfish-eloXXXX.md).

Stockfish's UCI_Elo labels are not a consistent scale at 5s+0.05s (its 1700
level is about 565 Elo below its 1900 level, not 200), so a level's Elo is not
simply "rung + difference". Instead one weighted least-squares fit places
every level, full-strength tarpon and every Stockfish rung on one logistic
scale from all matches at once (each match says strength(a) - strength(b) =
its Elo difference, weight 1/error^2), anchored at Stockfish UCI_Elo 1900 =
1900: the rung where tarpon's full strength sits and where the labels agree
with the 2100 rung (200 apart by label, 191 +- 95 measured). Some levels are
played against two rungs; they tie the rungs to each other, and so do the
rungs' own matches against each other (arena/rung_ladder.sh, reports in
arena/results/rungs/), which pin them far tighter.

The levels' fitted values are then made monotone (weighted
pool-adjacent-violators): a stronger setting must not map below a weaker one,
and 40-game matches are too noisy to order neighbours on their own. Matches
scored 0% or 100% carry no finite difference and are left out.

A re-fit after the search has moved (`--refit DIR`, the reports of
`SKILL_DIR=DIR arena/skill_ladder.sh ...`) keeps the Stockfish rungs where
the fit above placed them: they are Stockfish's strength, which no change
to tarpon moves. Each level measured in DIR is placed from its own matches
against those fixed rungs (its error adds the rung's in quadrature), levels
not measured in DIR are interpolated between their measured neighbours, and
the result is made monotone as before.

Usage: python3 arena/skill_table.py [--refit DIR] [--rust]
  prints the tables of docs/measurements.md; --rust prints the level Elo array for
  src/uci/strength.rs.
"""
import glob
import math
import re
import sys

ANCHOR_RUNG = 1900


def parse(path):
    text = open(path).read()
    g = re.search(r"Games: (\d+), Wins: (\d+), Draws: (\d+), Losses: (\d+)", text)
    games, wins, draws, losses = map(int, g.groups())
    penta = [int(x) for x in re.search(r"Ptnml\(0-2\): \[([^\]]*)\]", text).group(1).split(",")]
    elo = re.search(r"Elo: ([-+]?[\d.]+|[-+]?inf) \+/- ([\d.]+|n/a)", text)
    diff = float(elo.group(1))
    err = float(elo.group(2)) if elo.group(2) != "n/a" else penta_error(penta)
    return dict(games=games, wins=wins, draws=draws, losses=losses, penta=penta,
                diff=diff, err=err)


def penta_error(penta):
    """95% half-width of the Elo difference from pentanomial counts (delta
    method), for scores where the arena prints no error bar."""
    n = sum(penta)
    scores = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * s for c, s in zip(penta, scores)) / n
    if mean <= 0 or mean >= 1:
        return math.inf
    var = sum(c * (s - mean) ** 2 for c, s in zip(penta, scores)) / n
    slope = 400 / math.log(10) / (mean * (1 - mean))
    return 1.96 * math.sqrt(var / n) * slope


def read_matches(skill_dir="skill", full_strength=True):
    """[(a, b, match)]: a's strength minus b's is match['diff']."""
    matches = []
    for path in sorted(glob.glob(f"arena/results/{skill_dir}/level*_vs_stockfish-elo*.md")):
        m = re.search(r"level(\d+)_vs_stockfish-elo(\d+)\.md$", path)
        matches.append((f"level {int(m.group(1))}", f"SF {m.group(2)}", parse(path)))
    if not full_strength:
        return matches
    for path in sorted(glob.glob("arena/results/tarpon-pst_vs_stockfish-elo*.md")):
        rung = re.search(r"elo(\d+)\.md$", path).group(1)
        matches.append(("full strength", f"SF {rung}", parse(path)))
    # Rung against rung (arena/rung_ladder.sh): Stockfish's strength alone.
    for path in sorted(glob.glob("arena/results/rungs/stockfish-elo*_vs_stockfish-elo*.md")):
        low, high = re.search(r"elo(\d+)_vs_stockfish-elo(\d+)\.md$", path).groups()
        matches.append((f"SF {low}", f"SF {high}", parse(path)))
    return matches


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(matches):
    """Weighted least squares; returns ({player: (elo, 95% half-width)}, used)."""
    used = [(a, b, m) for a, b, m in matches if math.isfinite(m["diff"]) and math.isfinite(m["err"])]
    anchor = f"SF {ANCHOR_RUNG}"
    players = sorted({p for a, b, _ in used for p in (a, b)} - {anchor})
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    normal = [[0.0] * n for _ in range(n)]
    rhs = [0.0] * n
    for a, b, m in used:
        w = 1 / m["err"] ** 2
        row = [0.0] * n
        target = m["diff"]
        for p, sign in ((a, 1), (b, -1)):
            if p == anchor:
                target -= sign * ANCHOR_RUNG
            else:
                row[index[p]] += sign
        for i in range(n):
            rhs[i] += w * row[i] * target
            for j in range(n):
                normal[i][j] += w * row[i] * row[j]
    values = solve(normal, rhs)
    result = {anchor: (float(ANCHOR_RUNG), 0.0)}
    for p in players:
        unit = [1.0 if q == p else 0.0 for q in players]
        variance = solve(normal, unit)[index[p]]
        result[p] = (values[index[p]], math.sqrt(variance))
    return result, used


def refit(skill_dir):
    """Levels measured in `skill_dir` against the rungs the full fit placed:
    ({level: (elo, 95% half-width)}, {level: True if measured}, matches)."""
    rungs, _ = fit(read_matches())
    rungs = {p: v for p, v in rungs.items() if p.startswith("SF ")}
    matches = read_matches(skill_dir, full_strength=False)
    measured = {}
    for a, b, m in matches:
        if not (math.isfinite(m["diff"]) and math.isfinite(m["err"])) or b not in rungs:
            continue
        elo = rungs[b][0] + m["diff"]
        err = math.hypot(m["err"], rungs[b][1])
        measured.setdefault(int(a.split()[1]), []).append((elo, err))
    placed = {}
    for level, points in measured.items():
        w = sum(1 / e ** 2 for _, e in points)
        placed[level] = (sum(v / e ** 2 for v, e in points) / w, math.sqrt(1 / w))
    known = sorted(placed)
    for level in range(0, 20):
        if level in placed or not known:
            continue
        below = [k for k in known if k < level]
        above = [k for k in known if k > level]
        if below and above:
            lo, hi = below[-1], above[0]
            t = (level - lo) / (hi - lo)
            elo = placed[lo][0] * (1 - t) + placed[hi][0] * t
            err = max(placed[lo][1], placed[hi][1])
        else:
            elo, err = placed[below[-1] if below else above[0]]
        placed[level] = (elo, err)
    return placed, {lv: lv in measured for lv in placed}, matches, rungs


def print_refit(skill_dir):
    placed, measured, matches, rungs = refit(skill_dir)
    levels = sorted(placed)
    mono = monotone([(placed[lv][0], 1 / placed[lv][1] ** 2) for lv in levels])
    if "--rust" in sys.argv:
        print(", ".join(str(round(v)) for v in mono))
        return
    print("| level | games: opponent W / D / L (Elo diff ± 95%) | Elo ± 95% (rung's error included) | UCI_Elo maps here |")
    print("|---|---|---|---|")
    for level, value in zip(levels, mono):
        played = "; ".join(
            f"{m['games']} vs {b}: {m['wins']} / {m['draws']} / {m['losses']} ({m['diff']:+.0f} ± {m['err']:.0f})"
            for a, b, m in matches if a == f"level {level}") or "interpolated between its neighbours"
        elo, err = placed[level]
        print(f"| {level} | {played} | {elo:.0f} ± {err:.0f} | {value:.0f} |")
    print()
    print("| Stockfish 15.1 rung (held where the full fit placed it) | Elo ± 95% |")
    print("|---|---|")
    for p in sorted(rungs, key=lambda p: int(p.split()[1])):
        print(f"| `UCI_Elo={p.split()[1]}` | {rungs[p][0]:.0f} ± {rungs[p][1]:.0f} |")


def monotone(points):
    """Weighted isotonic (non-decreasing) fit of [(y, weight)]."""
    blocks = []  # [sum w*y, sum w, count]
    for y, w in points:
        blocks.append([w * y, w, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            b = blocks.pop()
            blocks[-1] = [blocks[-1][0] + b[0], blocks[-1][1] + b[1], blocks[-1][2] + b[2]]
    out = []
    for s, w, n in blocks:
        out += [s / w] * n
    return out


def main():
    if "--refit" in sys.argv:
        print_refit(sys.argv[sys.argv.index("--refit") + 1])
        return
    matches = read_matches()
    placed, used = fit(matches)
    levels = sorted((int(p.split()[1]), p) for p in placed if p.startswith("level "))
    mono = monotone([(placed[p][0], 1 / placed[p][1] ** 2) for _, p in levels])
    if "--rust" in sys.argv:
        print(", ".join(str(round(v)) for v in mono))
        return
    print("| level | games: opponent W / D / L (Elo diff ± 95%) | fitted Elo ± 95% | UCI_Elo maps here |")
    print("|---|---|---|---|")
    for (level, p), value in zip(levels, mono):
        played = "; ".join(
            f"{m['games']} vs {b}: {m['wins']} / {m['draws']} / {m['losses']} ({m['diff']:+.0f} ± {m['err']:.0f})"
            for a, b, m in matches if a == p)
        elo, err = placed[p]
        print(f"| {level} | {played} | {elo:.0f} ± {err:.0f} | {value:.0f} |")
    full = placed.get("full strength")
    if full:
        print(f"| 20 (full) | the ladder | {full[0]:.0f} ± {full[1]:.0f} | — |")
    print()
    print("| Stockfish 15.1 rung | fitted Elo ± 95% |")
    print("|---|---|")
    for p in sorted((p for p in placed if p.startswith("SF ")), key=lambda p: int(p.split()[1])):
        elo, err = placed[p]
        print(f"| `UCI_Elo={p.split()[1]}` | {elo:.0f} ± {err:.0f} |")
    left_out = [f"{a} vs {b}" for a, b, m in matches if (a, b, m) not in used]
    if left_out:
        print()
        print("Left out (no finite difference): " + ", ".join(left_out))


if __name__ == "__main__":
    main()
