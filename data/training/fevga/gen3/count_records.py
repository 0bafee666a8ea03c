#!/usr/bin/env python3
"""ppg of NAME over the finished games of a --records folder: count.py DIR NAME"""
import sys, re, os, math
d, name = sys.argv[1:3]
res = {}
for f in sorted(os.listdir(d)):
    t = open(os.path.join(d, f)).read()
    m = re.search(r"White : (\S+)\s+Black : (\S+)", t)
    w = re.search(r"Wins (\d+) points? \((White|Black)\)", t)
    if not (m and w):
        continue
    n = int(re.search(r"(\d+)", f).group(1))
    pts = int(w.group(1))
    winner = m.group(1) if w.group(2) == "White" else m.group(2)
    res[n] = pts if winner == name else -pts
pairs = [res[k] + res[k + 1] for k in sorted(res) if k % 2 == 1 and k + 1 in res]
g = 2 * len(pairs)
mean = sum(pairs) / g
var = sum((p / 2 - mean) ** 2 for p in pairs) / max(len(pairs) - 1, 1)
wins = sum(1 for k in res if res[k] > 0)
print(f"{len(res)} games finished, {g} in whole pairs: ppg {mean:+.3f} ± {math.sqrt(var / len(pairs)):.3f} (pairs); wins {wins} of {len(res)}")
