#!/usr/bin/env python3
"""Compares two Plakoto networks' `eval` along one game the first plays against itself.

Usage: same_eval.py GULBARA WEIGHTS_A WEIGHTS_B [POSITIONS] [SEED]

Both engines are `GULBARA` over stdio (protocol/SPEC.md), with `engine.weights` set to each file.
The first chooses every play at 0-ply (`go`); after each, both answer `eval` on the position and
the largest difference in any of the printed numbers is reported.
"""
import random
import subprocess
import sys


class Engine:
    def __init__(self, exe, weights):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("set game.variant plakoto")
        self.send(f"set engine.weights {weights}")
        self.send("set engine.race eval")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine ended")
            if line.startswith("error"):
                sys.exit(line.strip())
            if line.startswith(word):
                return line.split()

    def eval(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("eval")
        words = self.until("evaluation")
        return [float(w) for w in words[2::2]]


exe, wa, wb = sys.argv[1:4]
count = int(sys.argv[4]) if len(sys.argv) > 4 else 30
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
a, b = Engine(exe, wa), Engine(exe, wb)
moves, worst, n = [], 0.0, 0
while n < count:
    ea, eb = a.eval(moves), b.eval(moves)
    diff = max(abs(x - y) for x, y in zip(ea, eb))
    worst = max(worst, diff)
    n += 1
    print(f"{n:3} {' '.join(f'{x:.4f}' for x in ea)} | {' '.join(f'{x:.4f}' for x in eb)}")
    roll = f"{rng.randint(1, 6)}{rng.randint(1, 6)}"
    a.send("position startpos moves " + " ".join(moves + [roll]))
    a.send("go")
    best = a.until("bestmove")[1:]
    if best and best[0] in ("(none)", "pass"):
        best = []
    moves += [roll] + best
print(f"{n} positions: largest difference {worst:g}")
for e in (a, b):
    e.send("quit")
