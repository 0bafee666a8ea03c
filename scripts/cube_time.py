#!/usr/bin/env python3
"""How long a backgammon cube decision takes at each depth, through the protocol.

    scripts/cube_time.py [--positions N] [--every K] [--rounds R] [--ply P ...]

Takes every K-th position of generation 2's self-play positions
(data/training/backgammon/gen2/positions.txt.gz, the `best` lines), before the roll,
up to N of them, and asks one engine (`gulbara`, stdio) `go cube` in money play with
the cube on at each `engine.cube_ply` given (default 1, 2 and 3), interleaved position
by position, the order reversed every other round. Prints per depth the median wall time
of a `go cube` (from sending it to reading `bestcube`), its quartiles and its maximum, in
milliseconds. The engine plays its checkers at engine.ply 1. The first decision pays for
loading the network and the bear-off tables: the maximum of the first depth asked.

Needs a release build (GULBARA=path overrides target/release/gulbara).
"""
import argparse
import gzip
import os
import statistics
import subprocess
import time


def positions(n, every):
    out = []
    path = os.path.join(os.path.dirname(__file__), "..", "data", "training", "backgammon",
                        "gen2", "positions.txt.gz")
    with gzip.open(path, "rt") as f:
        best = 0
        for line in f:
            kind, _, text = line.rstrip("\n").partition("\t")
            if kind != "best":
                continue
            best += 1
            if best % every:
                continue
            board, side = text.split()[:2]
            out.append(f"position board {board} {side} 0 0")
            if len(out) == n:
                break
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--ply", type=int, action="append", choices=[1, 2, 3])
    a = ap.parse_args()
    plies = a.ply or [1, 2, 3]
    binary = os.environ.get("GULBARA", "target/release/gulbara")
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("cube_time: gulbara ended")
            line = line.rstrip("\n")
            if line.startswith("error"):
                raise SystemExit(f"cube_time: {line}")
            if line.startswith(prefix):
                return line

    for c in ["set game.variant backgammon", "newsession type money cube on", "set engine.ply 1"]:
        send(c)
    send("isready")
    until("readyok")
    times = {cp: [] for cp in plies}
    for r in range(a.rounds):
        order = plies if r % 2 == 0 else plies[::-1]
        for pos in positions(a.positions, a.every):
            send(pos)
            for cp in order:
                send(f"set engine.cube_ply {cp}")
                send("isready")
                until("readyok")
                start = time.perf_counter()
                send("go cube")
                until("bestcube")
                times[cp].append(time.perf_counter() - start)
    send("quit")
    p.wait()
    for cp in plies:
        v = sorted(times[cp])
        n = len(v)
        print(f"engine.cube_ply {cp}: median {1000 * statistics.median(v):.2f} ms, "
              f"quartiles {1000 * v[n // 4]:.2f}..{1000 * v[3 * n // 4]:.2f} ms, "
              f"max {1000 * v[-1]:.1f} ms over {n} decisions")


if __name__ == "__main__":
    main()
