#!/usr/bin/env python3
"""Checks longnardi.py against LongNardi's own engine on sample positions.

LongNardi's C++ core and its torch-free inference (the C API its iOS app
uses) are built by the user into a shared library from a clone of their
repository (scripts/yardsticks/README.md gives the command; nothing of
theirs is in this repository). This program loads that library with ctypes,
hands it the network's weights in their torch-free blob format (written here
from the weights longnardi.py reads), and compares, on positions from games
of random legal plays by our engine:

0. the end of every legal play, as longnardi.py finds it, with our engine's;
1. the network's value of every position, for each side, from their
   inference (`nardi_set_position`, `nardi_evaluate_position`) and from
   longnardi.py's encoder and network: this is the 0-ply bot's judgement;
2. the one-roll look-ahead value of every play of a random roll, from their
   `nardi_analyze_dice` and from longnardi.py's look-ahead, matched by the
   end position. Cases where their rules and ours give different sets of
   plays are counted and skipped.

It exits with status 1 when a difference exceeds --tolerance.
"""

import argparse
import ctypes
import os
import random
import struct
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import longnardi as L  # noqa: E402

Board = ctypes.c_byte * 24


def write_blob(sd, path):
    """Their torch-free weight blob: "NRDW", version 1, model kind 2 (the
    residual network), the tensor count, then per tensor its name, its
    dimensions and its float32 data, all little-endian."""
    with open(path, "wb") as fh:
        fh.write(b"NRDW")
        fh.write(struct.pack("<III", 1, 2, len(sd)))
        for name, arr in sd.items():
            nb = name.encode()
            fh.write(struct.pack("<I", len(nb)))
            fh.write(nb)
            fh.write(struct.pack("<I", arr.ndim))
            for d in arr.shape:
                fh.write(struct.pack("<I", d))
            fh.write(np.asarray(arr, dtype="<f4").tobytes())


def their_board(counts):
    """Their board: 2 rows of 12, White's path first (its head at row 0,
    column 0), so White's point q is at distance 24 - q along it."""
    b = Board()
    for q in range(1, 25):
        d = 24 - q
        b[d] = counts[q - 1]
    return b


def from_their(b):
    return [b[24 - q] for q in range(1, 25)]


def sample_positions(child, games, rng):
    """Positions before each roll of `games` games of random legal plays;
    on the way, every legal play's end as longnardi.py finds it (moving the
    checkers of the play) is compared with our engine's (`show`). Returns
    the positions and the number of plays compared."""
    out, compared = [], 0
    for _ in range(games):
        child.sync(["position startpos"])
        while True:
            f = child.show()
            if "result" in f:
                break
            before = f["position"][0]
            out.append(before)
            counts, side, _ = L.parse_position(before)
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            child.sync([f"dice {a} {b}"])
            plays = [l[5:] for l in child.sync(["legal"]) if l.startswith("play ")]
            for play in plays:
                child.sync([f"position board {before} moves {a}{b}" + ("" if play == "pass" else " " + play)])
                got = child.show()
                end = L.apply_play(counts, side, play)
                if L.parse_position(got["position"][0])[0] != end:
                    sys.exit(f"{before} {a}{b} {play}: our engine's end differs from longnardi.py's")
                won = "result" in got and got["result"][0].split()[1] == side
                if won != (L.win_points(end, side) is not None):
                    sys.exit(f"{before} {a}{b} {play}: the end of the game is read differently")
                compared += 1
            play = rng.choice(plays)
            child.sync([f"position board {before} moves {a}{b}" + ("" if play == "pass" else " " + play)])
    return out, compared


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", required=True, help="LongNardi's C API built as a shared library")
    ap.add_argument("--weights", required=True, help="their state dict (.pt), e.g. vzg0.pt")
    ap.add_argument("--gulbara", default=os.environ.get("GULBARA", "target/release/gulbara"))
    ap.add_argument("--games", type=int, default=4, help="games of random plays to sample (4)")
    ap.add_argument("--cases", type=int, default=40, help="positions whose look-ahead is compared (40)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tolerance", type=float, default=1e-4)
    args = ap.parse_args()

    sd = L.load_weights(args.weights)
    net = L.Net(sd)
    lib = ctypes.CDLL(args.lib)
    lib.nardi_create.restype = ctypes.c_void_p
    lib.nardi_last_error.restype = ctypes.c_char_p
    h = ctypes.c_void_p(lib.nardi_create())
    with tempfile.TemporaryDirectory() as tmp:
        blob = os.path.join(tmp, "model.nardiw")
        write_blob(sd, blob)
        if lib.nardi_load_model(h, blob.encode()) != 0:
            sys.exit(f"their engine refused the blob: {lib.nardi_last_error(h).decode()}")

    rng = random.Random(args.seed)
    child = L.Child([args.gulbara])
    child.sync(["set game.variant long_nardy", "set rules.head_first_turn fixed_4_6"])
    positions, compared = sample_positions(child, args.games, rng)
    print(f"ends: {compared} legal plays moved as our engine moves them")

    bad = False
    worst, n = 0.0, 0
    val = ctypes.c_float()
    for pos in positions:
        counts, _, _ = L.parse_position(pos)
        for s, name in ((0, "w"), (1, "b")):
            if L.win_points(counts, name) is not None:
                continue
            if lib.nardi_set_position(h, their_board(counts), ctypes.c_int(s)) != 0:
                sys.exit(lib.nardi_last_error(h).decode())
            lib.nardi_evaluate_position(h, ctypes.byref(val))
            mine = net(L.encode([counts], [s]))[0]
            worst, n = max(worst, abs(mine - val.value)), n + 1
    print(f"values: {n} (position, side) pairs from {len(positions)} positions, largest difference {worst:.2e}")
    bad |= worst > args.tolerance

    bot = L.Bot(net, child, True)
    worst, n, cases, skipped, same = 0.0, 0, 0, 0, 0
    out_board = Board()
    for pos in rng.sample(positions, min(len(positions), args.cases)):
        counts, side, rest = L.parse_position(pos)
        s = 0 if side == "w" else 1
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        lib.nardi_set_position(h, their_board(counts), ctypes.c_int(s))
        theirs = {}
        for i in range(lib.nardi_analyze_dice(h, ctypes.c_int(a), ctypes.c_int(b))):
            lib.nardi_analyzed_move(h, ctypes.c_int(i), out_board, ctypes.byref(val))
            theirs[tuple(from_their(out_board))] = val.value
        child.sync([f"position board {pos}", f"dice {a} {b}"])
        plays = [l[5:] for l in child.sync(["legal"]) if l.startswith("play ")]
        ends = [L.apply_play(counts, side, p) for p in plays]
        if plays == ["pass"] or any(L.win_points(e, side) is not None for e in ends):
            continue  # nothing to choose, or a win that both play at once
        if set(map(tuple, ends)) != set(theirs):
            skipped += 1
            continue
        # the rolls after this roll, as the adapter reads them from `show`
        after_roll = [str(int(rest[0]) + (s == 0)), str(int(rest[1]) + (s == 1))] + rest[2:]
        ours = dict(zip(map(tuple, ends), bot.lookahead_values(ends, side, after_roll)))
        for e, v in ours.items():
            worst, n = max(worst, abs(v - theirs[e])), n + 1
        cases += 1
        same += max(ours, key=ours.get) == max(theirs, key=theirs.get)
    print(
        f"look-ahead: {n} plays in {cases} (position, roll) cases, largest difference {worst:.2e}; "
        f"the same best play in {same}; {skipped} skipped (their rules and ours give different plays)"
    )
    bad |= worst > args.tolerance or cases == 0
    child.send(["quit"])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
