#!/usr/bin/env python3
"""A yardstick: HaykGar/LongNardi's long-nardy networks as a gulbara engine.

`gulbara match` starts this program as one of its engines. It speaks the part
of our protocol the match runner uses (ubgi, isready, set, position, dice,
go, newgame, quit) and keeps one of OUR engines as a child process: the child
knows the position and lists the legal plays (`legal`), so the rules are ours
throughout. The outside network only chooses among those plays.

Two ways of choosing, as LongNardi's own bots do:

* 0-ply (their "greedy"): every play's end is judged by the network from the
  mover's side, and the best is played;
* --lookahead (their "lookahead", one roll deep): for every play, each of
  the opponent's 21 rolls is answered by the reply the network likes least
  for the mover (the reply's end judged from the mover's side); the play with
  the best average over the rolls, weighted 1/36 or 2/36, is played. A roll
  the opponent cannot play counts the play's end itself.

* --as-trained (not one of their bots): 0-ply, but every play's end is
  judged for the opponent, on roll there, as their TD training values
  positions, and the play leaving the opponent the least is played.

A play that bears off the mover's last checker is always played (worth 2
when the opponent has borne off none, else 1); a reply that bears off the
opponent's last checker counts as that loss.

The networks (LongNardi has no licence) are not part of this repository:
their weights are read from the path given with --weights (a PyTorch `.pt`
state dict of their ResNardiNet, read here without torch). The encoder below
is written from the networks' published description (LongNardi's README,
"Feature extraction" and "Feature pipelines"): a 6 x 25 matrix, the mover's
and the opponent's three occupancy planes over the 24 points counted from
the mover's head (occupied, made, checkers beyond two), then a column of six
numbers (borne off, pip counts, checkers not yet home, for each side), all
divided by 15. Nothing of LongNardi's code is copied. It is a yardstick only:
never a source of labels, targets or inputs.

Usage: see scripts/yardsticks/README.md.
"""

import argparse
import os

# one thread for the matrix products: the adapter shares the machine with the
# engines of the match
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pickle
import sys
import zipfile

import numpy as np

import adapter
from adapter import read_torch_zip

PIECES = 15
POINTS = 24
SCALE = 15.0
ROWS = 6
COLS = POINTS + 1
CONV_OUT = 8
KERNEL = 5
# the 21 rolls and their chances
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
ROLL_P = np.array([(1.0 if a == b else 2.0) / 36.0 for a, b in ROLLS])


# ---------------------------------------------------------------- weights


# name -> shape of the state dict of LongNardi's residual network (one residual
# block of two 5-wide convolutions and a 1x1 projection, 6 -> 8 channels; a
# LayerNorm over the 8 x 24 outputs; then 198 -> 64 -> 16 -> 4)
SHAPES = {
    "res_block.conv1.weight": (CONV_OUT, ROWS, KERNEL),
    "res_block.conv1.bias": (CONV_OUT,),
    "res_block.conv2.weight": (CONV_OUT, CONV_OUT, KERNEL),
    "res_block.conv2.bias": (CONV_OUT,),
    "res_block.proj.weight": (CONV_OUT, ROWS, 1),
    "res_block.proj.bias": (CONV_OUT,),
    "norm.weight": (CONV_OUT * POINTS,),
    "norm.bias": (CONV_OUT * POINTS,),
    "trunk.0.weight": (64, CONV_OUT * POINTS + ROWS),
    "trunk.0.bias": (64,),
    "trunk.3.weight": (16, 64),
    "trunk.3.bias": (16,),
    "trunk.6.weight": (4, 16),
    "trunk.6.bias": (4,),
    "scores": (4,),
}


def load_weights(path):
    """The tensors of a LongNardi ResNardiNet state dict, as float32 arrays.

    The checkpoint is read by adapter.read_torch_zip.
    """
    obj = read_torch_zip(path)
    sd = obj.get("state_dict", obj) if isinstance(obj, dict) else None
    if not isinstance(sd, dict):
        raise ValueError(f"{path}: no state dict inside")
    for name, shape in SHAPES.items():
        got = getattr(sd.get(name), "shape", None)
        if got != shape:
            raise ValueError(
                f"{path}: not LongNardi's residual network ({name}: {got}, expected {shape})"
            )
    return {name: sd[name] for name in SHAPES}


def _windows(h, k):
    """The k-wide windows of h (B, 24, C), zero-padded at both ends, as rows
    of a matrix (B * 24, k * C): point l's row holds points l - k//2 ..
    l + k//2, each point's C channels in turn."""
    b, n, c = h.shape
    pad = k // 2
    hp = np.zeros((b, n + 2 * pad, c), dtype=h.dtype)
    hp[:, pad : pad + n] = h
    win = np.lib.stride_tricks.as_strided(
        hp, shape=(b, n, k * c), strides=(hp.strides[0], hp.strides[1], hp.strides[2])
    )
    return win.reshape(b * n, k * c)


def _window_weights(w):
    """A convolution's weights w (Cout, Cin, K) as the matrix (K * Cin, Cout)
    that multiplies the rows of _windows."""
    return np.ascontiguousarray(w.transpose(2, 1, 0).reshape(-1, w.shape[0]))


class Net:
    """LongNardi's residual network, ready to judge batches of inputs."""

    def __init__(self, sd):
        # the first convolution and the 1x1 projection read the same windows:
        # the projection's weights sit at the window's middle point
        proj = np.zeros((CONV_OUT, ROWS, KERNEL), dtype=np.float32)
        proj[:, :, KERNEL // 2] = sd["res_block.proj.weight"][:, :, 0]
        self.m1 = np.concatenate(
            [_window_weights(sd["res_block.conv1.weight"]), _window_weights(proj)], axis=1
        )
        self.b1 = np.concatenate([sd["res_block.conv1.bias"], sd["res_block.proj.bias"]])
        self.m2 = _window_weights(sd["res_block.conv2.weight"])
        self.b2 = sd["res_block.conv2.bias"]
        self.sd = sd

    def __call__(self, x):
        """The value (expected points: single and double wins and losses,
        weighted 1, 2, -1, -2 by the network's softmax) for the side the
        inputs x (B, 6, 25) are encoded for."""
        sd = self.sd
        b = len(x)
        board = x[:, :, :POINTS].transpose(0, 2, 1)  # (B, 24, 6): point by point
        scalars = x[:, :, POINTS]
        h = _windows(board, KERNEL) @ self.m1 + self.b1  # (B * 24, 16)
        conv1 = np.maximum(h[:, :CONV_OUT], 0.0).reshape(b, POINTS, CONV_OUT)
        skip = h[:, CONV_OUT:]
        h = np.maximum(_windows(conv1, KERNEL) @ self.m2 + self.b2 + skip, 0.0)
        # flattened channel by channel, as the LayerNorm's weights are
        h = h.reshape(b, POINTS, CONV_OUT).transpose(0, 2, 1).reshape(b, CONV_OUT * POINTS)
        mean = h.mean(axis=1, keepdims=True)
        var = h.var(axis=1, keepdims=True)
        h = (h - mean) / np.sqrt(var + 1e-5) * sd["norm.weight"] + sd["norm.bias"]
        h = np.concatenate([np.maximum(h, 0.0), scalars], axis=1)
        for k in (0, 3):
            h = h @ sd[f"trunk.{k}.weight"].T + sd[f"trunk.{k}.bias"]
            h = h / (1.0 + np.exp(-np.maximum(h, -60.0)))  # SiLU (no overflow)
        logits = h @ sd["trunk.6.weight"].T + sd["trunk.6.bias"]
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        return p @ sd["scores"]


# ---------------------------------------------------------------- positions

# VIEW[s][i]: the index (White's point - 1) of the point at distance i from
# side s's head along its path (s = 0 White, 1 Black). White's head is its 24
# and it runs down to 1; Black's is White's 12, and it runs 12..1, 24..13.
VIEW = np.array(
    [
        [23 - i for i in range(POINTS)],
        [(11 - i) % POINTS for i in range(POINTS)],
    ]
)
SIGN = np.array([1, -1])
# the opponent's own point (24 = its head) at each distance i from our head
OPP_POINT = np.array([POINTS - ((i - 12) % POINTS) for i in range(POINTS)])
OWN_POINT = np.array([POINTS - i for i in range(POINTS)])


def parse_position(text):
    """Our position text (protocol/NOTATION.md): (24 counts in White's
    numbering, White positive; side 'w' or 'b'; the words after the side)."""
    words = text.split()
    if len(words) < 4:
        raise ValueError(f"bad position: {text}")
    counts = [int(c) if c else 0 for c in words[0].split(",")]
    if len(counts) != POINTS or words[1] not in ("w", "b"):
        raise ValueError(f"bad position: {text}")
    return counts, words[1], words[2:]


# White's point of each side's own point p (index p; 0 unused)
_TO_WHITE = {
    "w": list(range(POINTS + 1)),
    "b": [0] + [p + 12 if p <= 12 else p - 12 for p in range(1, POINTS + 1)],
}


_STEPS = {}  # (side, play) -> its steps as (from, to) indices of White's points, to None for off


def _steps(side, play):
    key = (side, play)
    steps = _STEPS.get(key)
    if steps is None:
        to_white = _TO_WHITE[side]
        steps = []
        for step in play.split():
            a, _, b = step.partition("/")
            to = None if b == "off" else to_white[int(b.rstrip("*"))] - 1
            steps.append((to_white[int(a)] - 1, to))
        if len(_STEPS) < 200_000:
            _STEPS[key] = steps
    return steps


def apply_play(counts, side, play):
    """The counts after `side` plays `play` (steps `from/to` or `from/off` in
    its own numbering). The play comes from our engine's `legal`, so it is
    legal; this only moves the checkers."""
    c = list(counts)
    if play == "pass":
        return c
    sign = 1 if side == "w" else -1
    for q, t in _steps(side, play):
        if c[q] * sign <= 0:
            raise ValueError(f"{play}: no checker of the mover on White's {q + 1}")
        c[q] -= sign
        if t is not None:
            if c[t] * sign < 0:
                raise ValueError(f"{play}: lands on the opponent on White's {t + 1}")
            c[t] += sign
    return c


def encode(counts, perspective):
    """LongNardi's 6 x 25 inputs of a batch of positions, each from the side
    perspective[k] (0 White, 1 Black): counts is (B, 24) in White's numbering.

    Rows 0-2 are that side's planes, rows 3-5 the opponent's, both over the
    24 points in order of distance from that side's head (its head first):
    a checker there, two or more, and the number beyond two. Column 24:
    that side's borne-off checkers, the opponent's, the two pip counts
    (each side's own point numbers times its checkers), and each side's
    checkers not yet in its home (its last six points) nor borne off. All
    divided by 15.
    """
    counts = np.asarray(counts, dtype=np.int64)
    perspective = np.asarray(perspective, dtype=np.int64)
    v = np.take_along_axis(counts, VIEW[perspective], axis=1) * SIGN[perspective][:, None]
    x = np.zeros((len(counts), ROWS, COLS), dtype=np.float32)
    for base, n in ((0, np.maximum(v, 0)), (3, np.maximum(-v, 0))):
        x[:, base, :POINTS] = n >= 1
        x[:, base + 1, :POINTS] = n >= 2
        x[:, base + 2, :POINTS] = np.maximum(n - 2, 0)
    mine = np.maximum(v, 0)
    theirs = np.maximum(-v, 0)
    off_mine = PIECES - mine.sum(axis=1)
    off_theirs = PIECES - theirs.sum(axis=1)
    x[:, 0, POINTS] = off_mine
    x[:, 1, POINTS] = off_theirs
    x[:, 2, POINTS] = mine @ OWN_POINT
    x[:, 3, POINTS] = theirs @ OPP_POINT
    x[:, 4, POINTS] = PIECES - off_mine - mine[:, 18:24].sum(axis=1)
    x[:, 5, POINTS] = PIECES - off_theirs - theirs[:, 6:12].sum(axis=1)
    return x / np.float32(SCALE)


def win_points(counts, side):
    """If `side` has borne off every checker: 2 when the other side has
    borne off none (mars), else 1; None while it still has checkers."""
    sign = 1 if side == "w" else -1
    if any(c * sign > 0 for c in counts):
        return None
    other = sum(-c * sign for c in counts if c * sign < 0)
    return 2.0 if other == PIECES else 1.0


# ---------------------------------------------------------------- protocol


class Child(adapter.Child):
    """Our engine, asked for the rules: legal plays."""

    def legal_many(self, setups):
        """The legal plays of several positions: setups is a list of command
        lists (e.g. `position board ...`, `dice a b`), each followed here by
        `legal`. Sent in chunks small enough that neither pipe fills."""
        result = []
        for k in range(0, len(setups), 16):
            chunk = setups[k : k + 16]
            self.send(line for setup in chunk for line in list(setup) + ["legal"])
            for _ in chunk:
                plays = []
                for line in self.until(
                    lambda l: l.startswith("legal count") or l.startswith("error ")
                ):
                    if line.startswith("error "):
                        raise RuntimeError(line)
                    if line.startswith("play "):
                        plays.append(line[5:])
                result.append(plays)
        return result


class Bot:
    """Chooses plays with the network, at 0-ply or one roll deep."""

    def __init__(self, net, child, lookahead, as_trained=False):
        self.net = net
        self.child = child
        self.lookahead = lookahead
        self.as_trained = as_trained

    def values(self, counts_list, perspective):
        """The network's values for one side of many positions."""
        if not counts_list:
            return np.zeros(0)
        x = encode(counts_list, [perspective] * len(counts_list))
        return self.net(x)

    def choose(self):
        here = self.child.show()
        position = here["position"][0]
        pending = here.get("pending", [""])[0].split()
        if len(pending) < 2 or pending[0] != "dice":
            raise RuntimeError(f"no dice pending: {' '.join(pending)}")
        roll = pending[1]
        plays = [l[5:] for l in self.child.sync(["legal"]) if l.startswith("play ")]
        if not plays or plays == ["pass"]:
            return "pass"
        if len(plays) == 1:
            return plays[0]
        counts, side, rest = parse_position(position)
        mover = 0 if side == "w" else 1
        ends = [apply_play(counts, side, p) for p in plays]
        for play, end in zip(plays, ends):
            if win_points(end, side) is not None:
                return play  # bears off the last checker
        if not self.lookahead:
            if self.as_trained:
                # the end judged for the opponent, on roll there, and negated
                return plays[int(np.argmin(self.values(ends, 1 - mover)))]
            return plays[int(np.argmax(self.values(ends, mover)))]
        try:
            scores = self.lookahead_values(ends, side, rest)
        finally:
            # our engine is set back to the position and the dice to play: the
            # position before the roll (the mover's rolls one fewer), then the dice
            rolls = [int(rest[0]), int(rest[1])]
            rolls[mover] -= 1
            before = " ".join([position.split()[0], side, str(rolls[0]), str(rolls[1])] + rest[2:])
            self.child.sync([f"position board {before}", f"dice {roll[0]} {roll[1]}"])
        return plays[int(np.argmax(scores))]

    def lookahead_values(self, ends, side, rest):
        """For each end (the opponent to roll): the average over the
        opponent's 21 rolls of its reply that leaves the mover the least."""
        mover = 0 if side == "w" else 1
        opp = "b" if side == "w" else "w"
        setups = []
        for end in ends:
            text = ",".join(str(c) for c in end) + " " + opp + " " + " ".join(rest)
            for a, b in ROLLS:
                setups.append([f"position board {text}", f"dice {a} {b}"])
        replies = self.child.legal_many(setups)
        seen = {}  # position after a reply -> its row among the leaves
        leaves = []  # positions after a reply, judged for the mover (each once)
        slots = []  # per (end, roll): a fixed value, or the rows of its leaves
        for k, plays in enumerate(replies):
            end = ends[k // len(ROLLS)]
            if not plays or plays == ["pass"]:
                plays = ["pass"]  # the end itself, the opponent passing
            lost = None
            rows = []
            for play in plays:
                after = apply_play(end, opp, play)
                if "off" in play and (w := win_points(after, opp)) is not None:
                    lost = -w
                    break
                key = tuple(after)
                row = seen.get(key)
                if row is None:
                    row = seen[key] = len(leaves)
                    leaves.append(after)
                rows.append(row)
            slots.append(lost if lost is not None else rows)
        v = self.values(leaves, mover)
        per_roll = np.array(
            [s if not isinstance(s, list) else v[s].min() for s in slots]
        ).reshape(len(ends), len(ROLLS))
        return per_roll @ ROLL_P


def serve(args):
    net = Net(load_weights(args.weights))
    child = Child([args.gulbara])
    child.sync(["set game.variant long_nardy"])
    bot = Bot(net, child, args.lookahead, args.as_trained)
    name = os.path.basename(args.weights).rsplit(".", 1)[0]
    mode = "lookahead" if args.lookahead else ("as-trained" if args.as_trained else "greedy")
    adapter.serve(
        child,
        f"LongNardi-{name}-{mode} (yardstick adapter)",
        "scripts/yardsticks of gulbara; network by LongNardi's author",
        bot.choose,
        args.log,
    )


def dump(args):
    """Prints the inputs of a position for the side on roll (for hand
    checks), and the network's value of it when --weights is given."""
    counts, side, _ = parse_position(args.position)
    x = encode([counts], [0 if side == "w" else 1])[0]
    names = ["mine occupied", "mine made", "mine beyond 2", "theirs occupied", "theirs made", "theirs beyond 2"]
    for r in range(ROWS):
        cells = " ".join(f"{int(round(v * SCALE)):d}" for v in x[r, :POINTS])
        print(f"row {r} {names[r]:16s} {cells}")
    scal = ["off mine", "off theirs", "pips mine", "pips theirs", "not home mine", "not home theirs"]
    print("column 24 " + " ".join(f"{s}={int(round(x[r, POINTS] * SCALE))}" for r, s in enumerate(scal)))
    if args.weights:
        print(f"value {Net(load_weights(args.weights))(x[None])[0]:.6f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weights", help="LongNardi state dict (.pt), e.g. vzg0.pt")
    ap.add_argument(
        "--gulbara",
        default=os.environ.get("GULBARA", "target/release/gulbara"),
        help="our engine, asked for the legal plays (default target/release/gulbara, or $GULBARA)",
    )
    ap.add_argument(
        "--lookahead",
        action="store_true",
        help="their one-roll look-ahead bot instead of the 0-ply (greedy) one",
    )
    ap.add_argument(
        "--as-trained",
        action="store_true",
        help="0-ply judging each end for the opponent, on roll there (as the network was "
        "trained), instead of for the mover as LongNardi's greedy bot does",
    )
    ap.add_argument("--log", help="append the commands received and any error to this file")
    ap.add_argument("--dump", dest="position", help="print the inputs of this position text and exit")
    args = ap.parse_args()
    if args.as_trained and args.lookahead:
        ap.error("--as-trained is a 0-ply mode; --lookahead already judges as trained")
    if not args.position and not args.weights:
        ap.error("--weights is required to play")
    try:
        if args.position:
            dump(args)
        else:
            serve(args)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, pickle.UnpicklingError) as e:
        sys.exit(f"longnardi.py: {e}")


if __name__ == "__main__":
    main()
