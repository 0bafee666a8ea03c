#!/usr/bin/env python3
"""A yardstick: johannesnorbertwolf/tavli's Plakoto network as a gulbara engine.

`gulbara match` starts this program as one of its engines. It speaks the part
of our protocol the match runner uses (ubgi, isready, set, position, dice,
go, newgame, quit) and keeps one of OUR engines as a child process: the child
knows the position and lists the legal plays (`legal`) and the position after
each (`show`), so the rules are ours throughout. The outside network only
chooses among those plays: it judges each play's end from the side then on
roll and keeps the play that leaves that side the lowest win chance (its
"1-ply", our 0-ply). A play that ends the game for the mover scores 1.

The network (tavli's `gold_v11`, AGPL-3.0) is not part of this repository. Its
weights are read from the path given with --weights (a PyTorch `.pth` zip,
read here without torch). The encoder below is written from the network's
published description (tavli's ai/REFERENCE.md, "board_encoder.py",
version unary_v3): 26 slots of 18 numbers each (colour bit, pinned by us,
pinned by them, unary count) from the side on roll's view, then 18 summary
features. Nothing of tavli's code is copied. It is a yardstick only: never a
source of labels, targets or inputs.

Usage: see scripts/yardsticks/README.md.
"""

import argparse
import os
import sys

import numpy as np

import adapter
from adapter import Child, read_torch_zip

PIECES = 15
BOARD = 24
HOME = 6
SLOTS = BOARD + 2  # 0: the opponent's borne-off slot, 25: ours
POINT = 3 + PIECES  # colour bit, pinned by us, pinned by them, unary count
RAW = SLOTS * POINT
SMART = 18
INPUTS = RAW + SMART  # 486


# ---------------------------------------------------------------- weights


def load_weights(path):
    """The four Linear layers of a tavli checkpoint, as float64 numpy arrays
    (the checkpoint read by adapter.read_torch_zip)."""
    obj = read_torch_zip(path)
    sd = obj["state_dict"] if isinstance(obj, dict) and "state_dict" in obj else obj
    if isinstance(obj, dict) and obj.get("encoder_version", "unary_v3") != "unary_v3":
        raise ValueError(f"{path}: encoder {obj.get('encoder_version')}, only unary_v3 is read")
    layers = []
    i = 0
    while f"layers.{i}.weight" in sd:
        w, b = sd[f"layers.{i}.weight"], sd[f"layers.{i}.bias"]
        layers.append((np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)))
        i += 1
    if not layers or layers[0][0].shape[1] != INPUTS or layers[-1][0].shape[0] != 1:
        raise ValueError(f"{path}: not a {INPUTS}-input, one-output MLP")
    return layers


def forward(layers, x):
    """Win chances of the side on roll for a batch of encoded positions."""
    h = x
    for k, (w, b) in enumerate(layers):
        h = h @ w.T + b
        if k + 1 < len(layers):
            h = np.maximum(h, 0.0)
    return 1.0 / (1.0 + np.exp(-h[:, 0]))


# ---------------------------------------------------------------- positions


def parse_position(text):
    """Our position text (protocol/NOTATION.md) as (counts, side, pins).

    counts: 24 signed counts in White's numbering (White positive), the count
    on a pinned point being the pinner's; side: 'w' or 'b'; pins: set of
    White-numbered points where a checker lies pinned.
    """
    words = text.split()
    counts = [int(c) if c else 0 for c in words[0].split(",")]
    if len(counts) != 24:
        raise ValueError(f"bad position: {text}")
    side = words[1]
    pins = set()
    for w in words[4:]:
        if w.startswith("pins="):
            pins = {int(p) for p in w[5:].split(",") if p}
    return counts, side, pins


def encode(counts, side, pins):
    """tavli's unary_v3 input vector for the side `side` ('w'/'b') on roll.

    The view: our checkers start on slot 1 and run up to slot 24, our home is
    slots 19..24 and slot 25 holds what we have borne off; the opponent runs
    down from slot 24, its home is 1..6 and slot 0 holds its borne-off ones.
    Our point p (in the on-roll side's numbering, 24 = our start) is slot
    25 - p.
    """
    x = np.zeros(INPUTS)
    sign = 1 if side == "w" else -1
    # per slot: (owner: +1 us / -1 them / 0, owner's count, pinned flag)
    slot = [(0, 0, False)] * SLOTS
    on_board = {1: 0, -1: 0}
    for q in range(1, 25):
        c = counts[q - 1] * sign  # positive: ours
        pinned = q in pins
        p = q if side == "w" else 25 - q
        if c != 0:
            owner = 1 if c > 0 else -1
            slot[25 - p] = (owner, abs(c), pinned)
            on_board[owner] += abs(c)
            if pinned:
                on_board[-owner] += 1
    borne_us = PIECES - on_board[1]
    borne_them = PIECES - on_board[-1]
    if borne_us:
        slot[25] = (1, borne_us, False)
    if borne_them:
        slot[0] = (-1, borne_them, False)

    for s, (owner, n, pinned) in enumerate(slot):
        if n == 0:
            continue
        base = s * POINT
        if owner < 0:
            x[base] = 1.0
        if pinned and owner > 0:
            x[base + 1] = 1.0
        if pinned and owner < 0:
            x[base + 2] = 1.0
        x[base + 3 : base + 3 + n] = 1.0

    # the 18 summary features, from their descriptions
    pip = {1: 0, -1: 0}
    blots = {1: 0, -1: 0}
    held = {1: 0, -1: 0}
    pinned_n = {1: 0, -1: 0}  # checkers of this side lying pinned
    own_home = {1: 0, -1: 0}
    other_home = {1: 0, -1: 0}
    best_run = {1: 0, -1: 0}
    run = {1: 0, -1: 0}
    for s in range(1, 25):
        owner, n, pinned = slot[s]
        mine = {1: 0, -1: 0}
        if owner:
            mine[owner] = n
            if pinned:
                mine[-owner] = 1
                pinned_n[-owner] += 1
        pip[1] += mine[1] * (25 - s)
        pip[-1] += mine[-1] * s
        if owner and n == 1:
            blots[owner] += 1
        for who in (1, -1):
            if owner == who and n >= 2:
                run[who] += 1
                best_run[who] = max(best_run[who], run[who])
            else:
                run[who] = 0
        if owner and n >= 2:
            held[owner] += 1
        if 19 <= s <= 24:
            own_home[1] += mine[1]
            other_home[-1] += mine[-1]
        elif 1 <= s <= 6:
            own_home[-1] += mine[-1]
            other_home[1] += mine[1]
    f = x[RAW:]
    f[0] = pip[1] / (PIECES * BOARD)
    f[1] = pip[-1] / (PIECES * BOARD)
    f[2] = blots[1] / PIECES
    f[3] = blots[-1] / PIECES
    f[4] = held[1] / PIECES
    f[5] = held[-1] / PIECES
    f[6] = pinned_n[1] / PIECES
    f[7] = pinned_n[-1] / PIECES
    f[8] = own_home[1] / PIECES
    f[9] = own_home[-1] / PIECES
    f[10] = other_home[1] / PIECES
    f[11] = other_home[-1] / PIECES
    f[12] = borne_us / PIECES
    f[13] = borne_them / PIECES
    f[14] = best_run[1] / HOME
    f[15] = best_run[-1] / HOME
    f[16] = (pip[1] - pip[-1]) / (PIECES * BOARD)
    f[17] = (borne_us - borne_them) / PIECES
    return x


# ---------------------------------------------------------------- protocol


def choose(child, layers):
    """The network's play for the pending dice, as bestmove words."""
    here = child.show()
    position = here["position"][0]
    pending = here.get("pending", [""])[0].split()
    if len(pending) < 2 or pending[0] != "dice":
        raise RuntimeError(f"no dice pending: {pending}")
    roll = pending[1]
    plays = [l[5:] for l in child.sync(["legal"]) if l.startswith("play ")]
    if not plays or plays == ["pass"]:
        return "pass"
    if len(plays) == 1:
        return plays[0]
    mover = position.split()[1]
    # every play's end, asked in chunks small enough that neither pipe fills
    # while the other side waits (a doublet can have hundreds of plays)
    scores = np.zeros(len(plays))
    batch, where = [], []
    for i in range(len(plays)):
        if i % 32 == 0:
            child.send(
                line
                for play in plays[i : i + 32]
                for line in (f"position board {position} moves {roll} {play}", "show")
            )
        fields = {}
        for line in child.until(lambda l: l == "showok" or l.startswith("error ")):
            if line.startswith("error "):
                raise RuntimeError(f"{line} (play {plays[i]})")
            key, _, rest = line.partition(" ")
            fields.setdefault(key, []).append(rest)
        if "result" in fields:
            r = fields["result"][0].split()
            scores[i] = 1.0 if r[:2] == ["winner", mover] else (0.5 if "draw" in r else 0.0)
            continue
        counts, side, pins = parse_position(fields["position"][0])
        batch.append(encode(counts, side, pins))
        where.append(i)
    if batch:
        v = forward(layers, np.array(batch))
        for i, vi in zip(where, v):
            scores[i] = 1.0 - vi  # the opponent is on roll after our play
    child.sync([f"position board {position}", f"dice {roll[0]} {roll[1]}"])
    return plays[int(np.argmax(scores))]


def serve(args):
    layers = load_weights(args.weights)
    child = Child([args.gulbara])
    child.sync(["set game.variant plakoto"])
    adapter.serve(
        child,
        "tavli-gold_v11 (yardstick adapter)",
        "scripts/yardsticks of gulbara; network by tavli's authors",
        lambda: choose(child, layers),
        args.log,
    )


def dump(args):
    """Prints the encoded inputs of a position (for hand checks) and the value."""
    counts, side, pins = parse_position(args.position)
    x = encode(counts, side, pins)
    for s in range(SLOTS):
        v = x[s * POINT : (s + 1) * POINT]
        if v.any():
            print(f"slot {s:2d} colour {int(v[0])} pin_us {int(v[1])} pin_them {int(v[2])} count {int(v[3:].sum())}")
    print("smart " + " ".join(f"{v:.4f}" for v in x[RAW:]))
    if args.weights:
        print(f"value {forward(load_weights(args.weights), x[None, :])[0]:.6f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weights", help="tavli checkpoint (.pth), e.g. gold_v11.pth")
    ap.add_argument(
        "--gulbara",
        default=os.environ.get("GULBARA", "target/release/gulbara"),
        help="our engine, asked for the legal plays (default target/release/gulbara)",
    )
    ap.add_argument("--log", help="append the commands received and any error to this file")
    ap.add_argument("--dump", dest="position", help="print the inputs of this position text and exit")
    args = ap.parse_args()
    if args.position:
        dump(args)
    elif not args.weights:
        ap.error("--weights is required to play")
    else:
        serve(args)


if __name__ == "__main__":
    main()
