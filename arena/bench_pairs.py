#!/usr/bin/env python3
"""Bench speed of one tarpon build against another, in many short pairs.

Runs `A bench ARGS` and `B bench ARGS` back to back, N times, swapping which
goes first every other pair, and prints the median of the N speed ratios A/B
with a 95 % interval for it (the order statistics a sign test gives). Short
benches (depth 9: about half a second) interleave finely, so that both runs of
a pair meet nearly the same load on a host whose speed drifts.

The interval assumes pairs are independent, which drift on a shared host
makes only roughly true: run the build against itself (A = B) to see how far
the median strays on the day. Both builds must search the same tree, or the
ratio compares different work; the script refuses when their node counts
differ.

Usage: arena/bench_pairs.py N path/to/A path/to/B [bench arguments...]
  e.g. arena/bench_pairs.py 60 target/tarpon-pgo target/release/tarpon 9 --eval pst
"""

import math
import re
import statistics
import subprocess
import sys


def bench(binary: str, args: list[str]) -> tuple[int, int]:
    """The node count and nodes per second of one bench run."""
    out = subprocess.run(
        [binary, "bench", *args], capture_output=True, text=True, check=True
    ).stdout
    found = re.findall(r"^(\d+) nodes (\d+) nps$", out, re.MULTILINE)
    if not found:
        sys.exit(f"{binary} bench printed no 'N nodes M nps' line")
    nodes, nps = found[-1]
    return int(nodes), int(nps)


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pairs, a, b, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    if pairs < 1:
        sys.exit("N must be at least 1")
    ratios = []
    for i in range(pairs):
        if i % 2 == 0:
            (nodes_a, nps_a), (nodes_b, nps_b) = bench(a, args), bench(b, args)
        else:
            (nodes_b, nps_b), (nodes_a, nps_a) = bench(b, args), bench(a, args)
        if nodes_a != nodes_b:
            sys.exit(f"different trees: {nodes_a} nodes against {nodes_b}")
        ratios.append(nps_a / nps_b)
    ratios.sort()
    # The k-th smallest and largest ratios bound the median with about 95 %
    # confidence (normal approximation to the binomial of a sign test).
    k = max(0, int(pairs / 2 - 1.96 * math.sqrt(pairs) / 2))
    print(
        f"pairs {pairs}: median ratio {statistics.median(ratios):.4f}, "
        f"95 % interval [{ratios[k]:.4f}, {ratios[pairs - 1 - k]:.4f}], "
        f"A faster in {sum(r > 1 for r in ratios)}"
    )


if __name__ == "__main__":
    main()
