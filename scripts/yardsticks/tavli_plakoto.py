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

# One thread for numpy's matrix products: a batch of ends is small, and on a
# machine whose cores are busy, BLAS threads waiting on each other made each
# product some tens of times slower (75 ms instead of 1 ms).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402 (after the thread settings)

import adapter  # noqa: E402
from adapter import Child, read_torch_zip  # noqa: E402

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


def encode_batch(counts, movers, pins):
    """encode() of a batch at once: counts (B, 24) in White's numbering,
    movers (B,) 1 for White on roll and -1 for Black, pins (B, 24) True
    where a checker lies pinned (White's points). The same numbers as
    encode(), position by position (`--check` compares them)."""
    counts = np.asarray(counts, dtype=np.int64)
    movers = np.asarray(movers, dtype=np.int64)
    pins = np.asarray(pins, dtype=bool)
    n_pos = len(counts)
    # slot s (1..24) of the side on roll is White's point 25 - s for White,
    # White's s for Black; counts signed so that ours are positive
    white = movers == 1
    v = np.where(white[:, None], counts[:, ::-1], counts) * movers[:, None]
    pinned = np.where(white[:, None], pins[:, ::-1], pins)
    n = np.abs(v)
    ours, theirs = v > 0, v < 0
    # checkers of each side on each slot, a pinned one under the other's
    mine_us = np.where(ours, n, 0) + (theirs & pinned)
    mine_them = np.where(theirs, n, 0) + (ours & pinned)
    borne_us = PIECES - mine_us.sum(axis=1)
    borne_them = PIECES - mine_them.sum(axis=1)

    x = np.zeros((n_pos, INPUTS))
    unary = np.arange(PIECES)
    board = x[:, : RAW].reshape(n_pos, SLOTS, POINT)
    board[:, 1:25, 0] = theirs
    board[:, 1:25, 1] = ours & pinned
    board[:, 1:25, 2] = theirs & pinned
    board[:, 1:25, 3:] = unary[None, None, :] < n[:, :, None]
    board[:, 25, 3:] = unary[None, :] < borne_us[:, None]
    board[:, 0, 0] = borne_them > 0
    board[:, 0, 3:] = unary[None, :] < borne_them[:, None]

    s = np.arange(1, 25)
    pip_us = mine_us @ (25 - s)
    pip_them = mine_them @ s

    def longest_run(held):
        best = np.zeros(n_pos, dtype=np.int64)
        run = np.zeros(n_pos, dtype=np.int64)
        for k in range(BOARD):
            run = np.where(held[:, k], run + 1, 0)
            best = np.maximum(best, run)
        return best

    f = x[:, RAW:]
    f[:, 0] = pip_us / (PIECES * BOARD)
    f[:, 1] = pip_them / (PIECES * BOARD)
    f[:, 2] = (ours & (n == 1)).sum(axis=1) / PIECES
    f[:, 3] = (theirs & (n == 1)).sum(axis=1) / PIECES
    f[:, 4] = (ours & (n >= 2)).sum(axis=1) / PIECES
    f[:, 5] = (theirs & (n >= 2)).sum(axis=1) / PIECES
    f[:, 6] = (theirs & pinned).sum(axis=1) / PIECES
    f[:, 7] = (ours & pinned).sum(axis=1) / PIECES
    f[:, 8] = mine_us[:, 18:24].sum(axis=1) / PIECES
    f[:, 9] = mine_them[:, 0:6].sum(axis=1) / PIECES
    f[:, 10] = mine_us[:, 0:6].sum(axis=1) / PIECES
    f[:, 11] = mine_them[:, 18:24].sum(axis=1) / PIECES
    f[:, 12] = borne_us / PIECES
    f[:, 13] = borne_them / PIECES
    f[:, 14] = longest_run(ours & (n >= 2)) / HOME
    f[:, 15] = longest_run(theirs & (n >= 2)) / HOME
    f[:, 16] = (pip_us - pip_them) / (PIECES * BOARD)
    f[:, 17] = (borne_us - borne_them) / PIECES
    return x


# ---------------------------------------------------------------- plays


def white_point(side, p):
    """White's number of the mover's point p (Black's 24 is White's 1)."""
    return p if side == "w" else BOARD + 1 - p


def apply_play(counts, side, pins, play):
    """(counts, pins) after `side` plays `play` (steps `from/to`, `from/off`
    in its own numbering, as our engine's `legal` lists them). The play is
    legal; this only moves the checkers: leaving a point whose pinned
    checker then has no pinner frees it, landing on a lone opposing checker
    pins it. A step the position cannot take raises ValueError."""
    c = list(counts)
    pins = set(pins)
    if play == "pass":
        return c, pins
    sign = 1 if side == "w" else -1
    for step in play.split():
        a, slash, b = step.partition("/")
        try:
            q = white_point(side, int(a))
            t = None if b == "off" else white_point(side, int(b.rstrip("*")))
        except ValueError:
            raise ValueError(f"{play}: bad step {step}") from None
        if not slash or not 1 <= q <= BOARD or (t is not None and not 1 <= t <= BOARD):
            raise ValueError(f"{play}: bad step {step}")
        if c[q - 1] * sign <= 0:
            raise ValueError(f"{play}: no free checker of the mover on White's {q}")
        c[q - 1] -= sign
        if c[q - 1] == 0 and q in pins:
            pins.discard(q)
            c[q - 1] = -sign
        if t is not None:
            there = c[t - 1] * sign
            if there >= 0:
                c[t - 1] += sign
            elif there == -1 and t not in pins:
                c[t - 1] = sign
                pins.add(t)
            else:
                raise ValueError(f"{play}: lands on a closed point, White's {t}")
    return c, pins


def mover_off(counts, side, pins):
    """Whether `side` has no checker left on the board (it has won)."""
    sign = 1 if side == "w" else -1
    on = sum(1 for k, v in enumerate(counts) if v * sign > 0)
    under = sum(1 for q in pins if counts[q - 1] * sign < 0)
    return on == 0 and under == 0


def mother_pinned(counts, pins):
    """Whether a side's checker lies pinned on its own start (White's 24 for
    White, White's 1 for Black): the mother rule may then end the game, and
    only our engine judges it (its exception and draw)."""
    return (1 in pins and counts[0] > 0) or (BOARD in pins and counts[BOARD - 1] < 0)


# ---------------------------------------------------------------- protocol


def end_by_engine(child, position, roll, play, mover):
    """The mover's score of a play's end as our engine judges it: 1 won,
    0.5 drawn, 0 lost, or None with the end's position text while the game
    goes on."""
    fields = child.show([f"position board {position} moves {roll} {play}"], f" (play {play})")
    if "result" in fields:
        r = fields["result"][0].split()
        return (1.0 if r[:2] == ["winner", mover] else (0.5 if "draw" in r else 0.0)), None
    return None, fields["position"][0]


def choose(child, layers):
    """The network's play for the pending dice, as bestmove words.

    One `show` and one `legal` per decision; every play's end is found here
    (apply_play) and all ends are valued in one batch. Only an end with a
    mother pinned (the mother rule, its exception and its draw) is asked of
    our engine."""
    child.send(["show", "legal", "isready"])
    fields, plays = {}, []
    for line in child.until(lambda l: l == "readyok")[:-1]:
        if line.startswith("error "):
            raise RuntimeError(line)
        if line.startswith("play "):
            plays.append(line[5:])
        else:
            key, _, rest = line.partition(" ")
            fields.setdefault(key, []).append(rest)
    if "position" not in fields:
        raise RuntimeError("our engine's show gave no position")
    position = fields["position"][0]
    pending = fields.get("pending", [""])[0].split()
    if len(pending) < 2 or pending[0] != "dice":
        raise RuntimeError(f"no dice pending: {pending}")
    roll = pending[1]
    if not plays or plays == ["pass"]:
        return "pass"
    if len(plays) == 1:
        return plays[0]
    counts, mover, pins = parse_position(position)
    scores = np.zeros(len(plays))
    ends, where = [], []
    asked = False
    for i, play in enumerate(plays):
        end, end_pins = apply_play(counts, mover, pins, play)
        if mover_off(end, mover, end_pins):
            scores[i] = 1.0
            continue
        if mother_pinned(end, end_pins):
            asked = True
            score, text = end_by_engine(child, position, roll, play, mover)
            if score is not None:
                scores[i] = score
                continue
            end, _, end_pins = parse_position(text)
        ends.append((end, end_pins))
        where.append(i)
    if asked:
        child.sync([f"position board {position}", f"dice {roll[0]} {roll[1]}"])
    if ends:
        opp = -1 if mover == "w" else 1  # the opponent is on roll after our play
        x = encode_batch(
            [e for e, _ in ends],
            [opp] * len(ends),
            [[q in p for q in range(1, BOARD + 1)] for _, p in ends],
        )
        v = forward(layers, x)
        scores[where] = 1.0 - v
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


def check(args):
    """Plays games of random legal plays with our engine and compares, for
    every legal play of every position, the end apply_play finds with our
    engine's `show` after it (and whether the game is over), and
    encode_batch with encode on every end. Exits 1 on any difference."""
    rng = np.random.default_rng(args.seed)
    child = Child([args.gulbara])
    child.sync(["set game.variant plakoto", "position startpos"])
    start = child.show()["position"][0]
    plays_n = positions = over = asked = worst = 0
    bad = []
    for _game in range(args.check):
        position = start
        for _turn in range(1000):
            a, b = (int(d) for d in rng.integers(1, 7, size=2))
            roll = f"{a}{b}"
            plays = [
                l[5:]
                for l in child.sync([f"position board {position}", f"dice {a} {b}", "legal"])
                if l.startswith("play ")
            ]
            counts, mover, pins = parse_position(position)
            positions += 1
            ends, texts = [], []
            for play in plays if plays != ["pass"] else []:
                end, end_pins = apply_play(counts, mover, pins, play)
                score, text = end_by_engine(child, position, roll, play, mover)
                plays_n += 1
                if mother_pinned(end, end_pins):
                    asked += 1
                if score is not None:
                    over += 1
                    if not (mover_off(end, mover, end_pins) or mother_pinned(end, end_pins)):
                        bad.append(f"{position} {roll} {play}: our engine ends the game, the adapter does not")
                    continue
                if mover_off(end, mover, end_pins):
                    bad.append(f"{position} {roll} {play}: the adapter ends the game, our engine does not")
                    continue
                e_counts, e_side, e_pins = parse_position(text)
                if (e_counts, e_pins) != (end, end_pins) or e_side == mover:
                    bad.append(f"{position} {roll} {play}: adapter {end} {sorted(end_pins)}, engine {text}")
                ends.append((e_counts, e_side, e_pins))
                texts.append(text)
            if ends:
                xb = encode_batch(
                    [c for c, _, _ in ends],
                    [1 if sd == "w" else -1 for _, sd, _ in ends],
                    [[q in p for q in range(1, BOARD + 1)] for _, _, p in ends],
                )
                for k, (c, sd, p) in enumerate(ends):
                    d = float(np.abs(xb[k] - encode(c, sd, p)).max())
                    worst = max(worst, d)
                    if d > 1e-12:
                        bad.append(f"{texts[k]}: encode_batch differs from encode by {d}")
            if not plays or plays == ["pass"]:
                score, text = end_by_engine(child, position, roll, "", mover)
            else:
                score, text = end_by_engine(child, position, roll, plays[int(rng.integers(len(plays)))], mover)
            if score is not None:
                break
            position = text
    print(
        f"ends: {plays_n} legal plays in {positions} positions of {args.check} games "
        f"moved as our engine moves them ({over} ending the game, {asked} with a mother pinned)"
    )
    print(f"inputs: encode_batch against encode, largest difference {worst:.3g}")
    for line in bad[:20]:
        print("differs: " + line)
    child.send(["quit"])
    child.p.wait(timeout=5)
    if bad:
        sys.exit(1)


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
    ap.add_argument(
        "--check",
        type=int,
        metavar="GAMES",
        help="compare the adapter's ends and batch inputs with our engine's on GAMES random games",
    )
    ap.add_argument("--seed", type=int, default=1, help="the random games' seed for --check")
    args = ap.parse_args()
    if args.position:
        dump(args)
    elif args.check:
        check(args)
    elif not args.weights:
        ap.error("--weights is required to play")
    else:
        serve(args)


if __name__ == "__main__":
    main()
