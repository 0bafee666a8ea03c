#!/usr/bin/env python3
"""Checks that a widened gulbara weights file (GBNN) keeps its start's function.

Usage: same.py NARROW WIDE

Reads both files (layout of src/eval/net/format.rs: w1 as `inputs` rows of `hidden`, then b1,
w2 as `outputs` rows of `hidden`, then b2) and prints how far the wide network's old weights
moved from the narrow one's and the largest output weight of its new hidden units. Exit status 1
if any old weight moved or a new unit's output weight exceeds 1e-20.
"""
import struct
import sys


def read(path):
    data = open(path, "rb").read()
    if data[:4] != b"GBNN":
        sys.exit(f"{path}: not a GBNN weights file")
    fmt, layout, inputs, hidden, outputs, n = struct.unpack("<6I", data[4:28])
    body = data[28 + n:]
    count = inputs * hidden + hidden + outputs * hidden + outputs
    if len(body) != 4 * count:
        sys.exit(f"{path}: {len(body)} bytes of weights, not {inputs}x{hidden}x{outputs}")
    f = struct.unpack(f"<{count}f", body)
    w1 = [f[i * hidden:(i + 1) * hidden] for i in range(inputs)]
    o = inputs * hidden
    b1 = f[o:o + hidden]
    o += hidden
    w2 = [f[o + k * hidden:o + (k + 1) * hidden] for k in range(outputs)]
    b2 = f[o + outputs * hidden:]
    return layout, inputs, hidden, outputs, w1, b1, w2, b2


n = read(sys.argv[1])
w = read(sys.argv[2])
if n[:2] != w[:2] or n[3] != w[3]:
    sys.exit(f"layout/inputs/outputs differ: {n[:4]} against {w[:4]}")
h = n[2]
moved = 0.0
for a, b in zip(n[4], w[4]):
    moved = max(moved, max(abs(x - y) for x, y in zip(a, b[:h])))
moved = max(moved, max(abs(x - y) for x, y in zip(n[5], w[5][:h])))
for a, b in zip(n[6], w[6]):
    moved = max(moved, max(abs(x - y) for x, y in zip(a, b[:h])))
moved = max(moved, max(abs(x - y) for x, y in zip(n[7], w[7])))
new_out = max(abs(x) for row in w[6] for x in row[h:])
new_in = max(abs(x) for row in w[4] for x in row[h:])
print(f"hidden {h} -> {w[2]}: old weights moved at most {moved:g}; "
      f"new units' output weights at most {new_out:g}, input weights at most {new_in:g}")
sys.exit(1 if moved > 0 or new_out > 1e-20 else 0)
