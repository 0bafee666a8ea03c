#!/usr/bin/env python3
"""The coefficients of the play evaluation's sigmoid (src/eval/arith/mod.rs).

For |x| in [k/2, (k+1)/2), k = 0..31, sigmoid(|x|) is a quartic in the local
f = 2|x| - k, interpolated at the five Chebyshev nodes of [0, 1) in f64 and
rounded to f32. Beyond 16 the last segment is held at its end (sigmoid(16)
is 1 - 1.1e-7). Negative x use 1 - sigmoid(|x|).

Run: python3 scripts/sigmoid_table.py > /tmp/table.rs   (prints the Rust
constants and, on stderr, the largest error against the exact sigmoid over
400,001 points of [-20, 20] with the evaluation done in f32 as the Rust
code does it).
"""
import math
import struct
import sys

SEGMENTS = 32
WIDTH = 0.5
DEGREE = 4


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                q = m[r][c] / m[c][c]
                m[r] = [x - q * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def segment(k):
    nodes = [0.5 - 0.5 * math.cos((2 * j + 1) * math.pi / (2 * (DEGREE + 1))) for j in range(DEGREE + 1)]
    a = [[f ** e for e in range(DEGREE + 1)] for f in nodes]
    b = [sigmoid((k + f) * WIDTH) for f in nodes]
    return [f32(c) for c in solve(a, b)]


COEFS = [segment(k) for k in range(SEGMENTS)]
LAST = f32(SEGMENTS - 2.0 ** -19)


def evaluate(x):
    a = f32(abs(x))
    t = min(f32(a * (1 / WIDTH)), LAST)
    i = int(t)
    f = f32(t - i)
    c = COEFS[i]
    y = c[DEGREE]
    for e in range(DEGREE - 1, -1, -1):
        y = f32(f32(y * f) + c[e])
    return y if x >= 0 else f32(1.0 - y)


def shortest(v):
    for p in range(1, 12):
        s = "%.*e" % (p, v)
        if f32(float(s)) == v:
            return s
    return repr(v)


def main():
    print("/// The sigmoid's quartic per half-unit segment of |x|, coefficient by")
    print("/// coefficient (`scripts/sigmoid_table.py` wrote them).")
    print("const SIGMOID_COEFS: [[f32; %d]; %d] = [" % (SEGMENTS, DEGREE + 1))
    for e in range(DEGREE + 1):
        print("    [")
        for k in range(SEGMENTS):
            print("        %s," % shortest(COEFS[k][e]))
        print("    ],")
    print("];")
    worst = 0.0
    for n in range(-200000, 200001):
        x = f32(n * 20 / 200000)
        worst = max(worst, abs(evaluate(x) - sigmoid(x)))
    print("largest error %.3g" % worst, file=sys.stderr)


main()
