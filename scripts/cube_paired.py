#!/usr/bin/env python3
"""Two settings' cube decisions compared decision by decision.

    scripts/cube_paired.py BASE.json OTHER.json

BASE and OTHER are what `scripts/cube_verdicts.py --costs F` wrote for the
same saved verdicts (`--load`) at two settings: every decision asked, with
gulbara's answer, its cost by gnubg's equities and gnubg's answer. Prints, for the double
decisions, the take decisions and both together: how many, how many were
answered differently, each setting's cost in mEMG per decision, and OTHER's
cost minus BASE's, paired, with its standard error (negative: OTHER loses
less); then the wrong and missed doubles and wrong takes and passes of each.
"""
import json
import math
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    base, other = (json.load(open(f)) for f in sys.argv[1:])
    if len(base) != len(other) or any(a[:2] != b[:2] for a, b in zip(base, other)):
        sys.exit("cube_paired: the two files are not the same decisions in the same order")
    for kind in ("double", "take", None):
        pairs = [(a, b) for a, b in zip(base, other) if kind is None or a[1] == kind]
        n = len(pairs)
        if n == 0:
            continue
        d = [b[3] - a[3] for a, b in pairs]
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        se = math.sqrt(var / n)
        differ = sum(a[2] != b[2] for a, b in pairs)
        ca = 1000 * sum(a[3] for a, _ in pairs) / n
        cb = 1000 * sum(b[3] for _, b in pairs) / n
        label = {"double": "doubles", "take": "takes", None: "all"}[kind]
        print(f"{label}: {n} decisions, {differ} answered differently; {ca:.2f} -> {cb:.2f} mEMG "
              f"per decision; difference {1000 * mean:+.2f} +- {1000 * se:.2f} "
              f"({mean / se if se else 0:+.1f} se)")
    for name, recs in (("base", base), ("other", other)):
        wd = sum(r[1:3] == ["double", "double"] and r[4] != "double" for r in recs)
        md = sum(r[1:3] == ["double", "no double"] and r[4] == "double" for r in recs)
        wt = sum(r[1:3] == ["take", "take"] and r[4] != "take" for r in recs)
        wp = sum(r[1:3] == ["take", "pass"] and r[4] == "take" for r in recs)
        print(f"{name}: wrong doubles {wd}, missed doubles {md}, wrong takes {wt}, wrong passes {wp}")


if __name__ == "__main__":
    main()
