#!/usr/bin/env python3
"""The first engine's points per game in `gulbara match --out` files.

    scripts/paired_ppg.py A.json [B.json]
    scripts/paired_ppg.py --pool A.json B.json ...

One file: its ppg ± standard error over the mirrored pairs (a pair's two
games share their dice, so the pair is the unit), counted from the pairs the
file holds (a stopped match's partial file too). Two files played on the
same seed: each one's figure over the pairs both hold, and their difference
paired by pair (B − A), whose standard error is that of the per-pair
differences. With --pool: the pairs of every file (matches on different
seeds) as one sample. Files ending in .xz are read through xz.
"""

import json
import lzma
import math
import sys


def pair_points(path):
    """{pair number: the first engine's mean points over the pair's games}."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        data = json.load(f)
    out = {}
    for p in data["pairs"]:
        games = p["games"]
        if not games or any(g.get("forfeit") for g in games):
            continue
        # `points` is already the first engine's (negative when it lost).
        out[p["pair"]] = sum(g["points"] for g in games) / len(games)
    return out, data


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(v / n)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--pool":
        xs = []
        for path in sys.argv[2:]:
            d, _ = pair_points(path)
            xs.extend(d.values())
        m, se = mean_se(xs)
        print(f"{len(sys.argv) - 2} files, {2 * len(xs)} games: {m:+.4f} ± {se:.4f} ppg")
        return
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    a, da = pair_points(sys.argv[1])
    if len(sys.argv) == 2:
        m, se = mean_se(list(a.values()))
        print(f"{sys.argv[1]}: {2 * len(a)} games, seed {da.get('seed')}: {m:+.4f} ± {se:.4f} ppg")
        return
    b, db = pair_points(sys.argv[2])
    if da.get("seed") != db.get("seed"):
        print(f"warning: seeds differ ({da.get('seed')}, {db.get('seed')}): not paired")
    both = sorted(set(a) & set(b))
    if len(both) < 2:
        sys.exit("fewer than two pairs in both files")
    for name, d in ((sys.argv[1], a), (sys.argv[2], b)):
        m, se = mean_se([d[k] for k in both])
        print(f"{name}: {m:+.4f} ± {se:.4f} ppg")
    m, se = mean_se([b[k] - a[k] for k in both])
    print(f"over {2 * len(both)} games (both files' pairs): B − A {m:+.4f} ± {se:.4f} ppg (paired)")


if __name__ == "__main__":
    main()
