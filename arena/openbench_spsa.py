#!/usr/bin/env python3
"""Writes an OpenBench SPSA tune's result back into src/search/params.rs.

OpenBench shows a tune's current values as `name, value` lines (its
"optimal values"; integers for int parameters). Save them to a file and run

    python3 arena/openbench_spsa.py values.txt            # writes openbench-spsa.patch
    git apply openbench-spsa.patch

Every name must be a parameter of params.rs and every value inside its range;
anything else stops the script with a message and no patch. The patch is
written by spsa.py's patch writer, so both tuners change params.rs alike.
Parameters the file does not name keep their defaults.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spsa  # noqa: E402  (the patch writer)

PARAM_LINE = re.compile(r"^\s*(\w+) = (-?\d+), (-?\d+), (-?\d+), (\d+);")


def declared_params():
    """name -> (min, max) from the search_params! table of params.rs."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", spsa.PARAMS_RS)
    params = {}
    with open(source, encoding="utf-8") as f:
        for line in f:
            m = PARAM_LINE.match(line)
            if m:
                params[m.group(1)] = (int(m.group(3)), int(m.group(4)))
    return params


def read_values(path, params):
    """The tuned values of `path`, checked against the declared parameters."""
    values, errors = {}, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(",")]
            if len(fields) != 2:
                errors.append(f"line {number}: expected 'name, value', got {line!r}")
                continue
            name, value = fields
            if name not in params:
                errors.append(f"line {number}: {name} is not a parameter of {spsa.PARAMS_RS}")
                continue
            try:
                value = round(float(value))
            except ValueError:
                errors.append(f"line {number}: {name} has no number: {value!r}")
                continue
            lo, hi = params[name]
            if not lo <= value <= hi:
                errors.append(f"line {number}: {name} = {value} is outside [{lo}, {hi}]")
                continue
            values[name] = value
    if not values and not errors:
        errors.append(f"{path} holds no values")
    if errors:
        sys.exit("\n".join(f"{path}: {e}" for e in errors))
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("values", help="OpenBench's `name, value` lines")
    ap.add_argument("--out", default="openbench-spsa.patch", help="the patch to write")
    args = ap.parse_args()
    values = read_values(args.values, declared_params())
    spsa.write_patch(values, args.out)


if __name__ == "__main__":
    main()
