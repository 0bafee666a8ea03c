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
import itertools
import os

# one thread for the matrix products: the adapter shares the machine with the
# engines of the match
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pickle
import sys
import threading
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


def _conv_matrix(w):
    """A 5-wide convolution over the 24 points (zero-padded at both ends),
    weights w (Cout, Cin, K), as the matrix (Cin * 24, Cout * 24) that
    multiplies inputs flattened channel by channel (channel c's point l at
    c * 24 + l) into outputs flattened the same way: output o at point l
    takes w[o, c, j] times input c at point l + j - K // 2."""
    cout, cin, k = w.shape
    m = np.zeros((cin, POINTS, cout, POINTS), dtype=np.float32)
    for j in range(k):
        for l in range(POINTS):
            p = l + j - k // 2
            if 0 <= p < POINTS:
                m[:, p, :, l] = w[:, :, j].T
    return m.reshape(cin * POINTS, cout * POINTS)


def _point_major(cout):
    """For an array flattened channel by channel (channel o's point l at
    o * 24 + l), the indices that take it point by point (point l's
    channel o at l * cout + o)."""
    return np.arange(cout * POINTS).reshape(cout, POINTS).T.reshape(-1)


# the points whose outputs one banded block of a convolution gives, and
# the points (two more on either side, within the board) that it reads
GROUP = 6
GROUPS = [
    (g, g + GROUP, max(0, g - KERNEL // 2), min(POINTS, g + GROUP + KERNEL // 2))
    for g in range(0, POINTS, GROUP)
]


def _band(m, cin, cout, a, b, r0, r1):
    """The block of a point-by-point convolution matrix m (cin channels in,
    cout out per point) giving output points a..b-1 from input points
    r0..r1-1: (first column, end column, the block, first row, end row)."""
    block = np.ascontiguousarray(m[r0 * cin : r1 * cin, a * cout : b * cout])
    return a * cout, b * cout, block, r0 * cin, r1 * cin


class Net:
    """LongNardi's residual network, ready to judge batches of inputs.

    Everything over the board is laid out point by point. A convolution is
    a banded matrix over the 24 points (_conv_matrix): it is multiplied a
    block of six output points at a time, each block reading its ten input
    points only. A few large matrix products are much faster in numpy than
    the convolutions' many small ones."""

    def __init__(self, sd):
        # the first convolution and the 1x1 projection read the same inputs:
        # the projection is a 1-wide convolution; rows and columns point by
        # point (the point's 6 planes; its 8 convolution outputs, then its 8
        # projection outputs)
        c1 = _conv_matrix(sd["res_block.conv1.weight"])
        pr = _conv_matrix(sd["res_block.proj.weight"])
        rows = _point_major(ROWS)
        cols = _point_major(CONV_OUT)
        m1 = np.concatenate(
            [
                c1[rows][:, cols].reshape(-1, POINTS, CONV_OUT),
                pr[rows][:, cols].reshape(-1, POINTS, CONV_OUT),
            ],
            axis=2,
        ).reshape(ROWS * POINTS, 2 * CONV_OUT * POINTS)
        # the projection's bias carries the second convolution's too (both
        # are added to the second convolution's outputs)
        b1 = np.concatenate(
            [
                np.tile(sd["res_block.conv1.bias"], (POINTS, 1)),
                np.tile(sd["res_block.proj.bias"] + sd["res_block.conv2.bias"], (POINTS, 1)),
            ],
            axis=1,
        ).reshape(-1)
        m2 = _conv_matrix(sd["res_block.conv2.weight"])[cols][:, cols]
        # per block: its columns of the outputs, its matrix, its rows of the inputs
        self.blocks1 = [_band(m1, ROWS, 2 * CONV_OUT, *g) for g in GROUPS]
        self.blocks2 = [_band(m2, CONV_OUT, CONV_OUT, *g) for g in GROUPS]
        self.b1 = b1
        self.norm_w = sd["norm.weight"][cols]
        self.norm_b = sd["norm.bias"][cols]
        w0 = sd["trunk.0.weight"].T
        w0 = np.concatenate([w0[: CONV_OUT * POINTS][cols], w0[CONV_OUT * POINTS :]])
        self.trunk = [(np.ascontiguousarray(w0), sd["trunk.0.bias"])] + [
            (np.ascontiguousarray(sd[f"trunk.{k}.weight"].T), sd[f"trunk.{k}.bias"]) for k in (3, 6)
        ]
        self.sd = sd

    def __call__(self, x):
        """The value (expected points: single and double wins and losses,
        weighted 1, 2, -1, -2 by the network's softmax) for the side the
        inputs x (B, 6, 25) are encoded for."""
        x = np.asarray(x, dtype=np.float32)
        board = x[:, :, :POINTS].transpose(0, 2, 1).reshape(len(x), POINTS * ROWS)
        return self.judge(board, x[:, :, POINTS])

    def judge(self, board, scalars):
        """The values of inputs given as the board (B, 24 * 6: point by
        point, each point's six planes in turn) and the column of scalars
        (B, 6), as encode_board gives them. Large batches go through in
        blocks of CHUNK rows, small enough for the processor's cache."""
        blocks = [
            self._block(board[k : k + self.CHUNK], scalars[k : k + self.CHUNK])
            for k in range(0, len(board), self.CHUNK)
        ]
        return np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)

    CHUNK = 512

    def _block(self, board, scalars):
        b = len(board)
        h1 = np.empty((b, 2 * CONV_OUT * POINTS), dtype=np.float32)
        for c0, c1, m, r0, r1 in self.blocks1:
            h1[:, c0:c1] = board[:, r0:r1] @ m
        h1 += self.b1
        h1 = h1.reshape(b, POINTS, 2 * CONV_OUT)
        conv1 = np.maximum(h1[:, :, :CONV_OUT], 0.0).reshape(b, CONV_OUT * POINTS)
        h = np.empty((b, CONV_OUT * POINTS), dtype=np.float32)
        for c0, c1, m, r0, r1 in self.blocks2:
            h[:, c0:c1] = conv1[:, r0:r1] @ m
        h += h1[:, :, CONV_OUT:].reshape(b, CONV_OUT * POINTS)  # the projection
        np.maximum(h, 0.0, out=h)
        mean = h.mean(axis=1, keepdims=True)
        h -= mean
        var = np.mean(h * h, axis=1, keepdims=True)
        h /= np.sqrt(var + 1e-5)
        h *= self.norm_w
        h += self.norm_b
        h = np.concatenate([np.maximum(h, 0.0, out=h), scalars], axis=1)
        for w, bias in self.trunk[:2]:
            h = h @ w
            h += bias
            h /= 1.0 + np.exp(-np.maximum(h, -60.0))  # SiLU (no overflow)
        w, bias = self.trunk[2]
        logits = h @ w
        logits += bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        return p @ self.sd["scores"]


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


def apply_play(counts, side, play, check=True):
    """The counts after `side` plays `play` (steps `from/to` or `from/off` in
    its own numbering). The play comes from our engine's `legal`, so it is
    legal; this only moves the checkers (and checks, unless `check` is
    false, that each step leaves a point of the mover's for one not the
    opponent's)."""
    c = list(counts)
    if play == "pass":
        return c
    sign = 1 if side == "w" else -1
    for q, t in _steps(side, play):
        if check and c[q] * sign <= 0:
            raise ValueError(f"{play}: no checker of the mover on White's {q + 1}")
        c[q] -= sign
        if t is not None:
            if check and c[t] * sign < 0:
                raise ValueError(f"{play}: lands on the opponent on White's {t + 1}")
            c[t] += sign
    return c


_PLAY_ID = {}  # (side, play) -> its row in _TABLE
_LINE_IDS = {}  # side -> {`play ...` line of `legal`: its play's row}
# per play (row): its change to the counts (24, White's numbering), and
# whether it bears off; row 0 is unused (a play's row is never false), rows
# from "n" on are room to grow
_TABLE = {
    "n": 1,
    "delta": np.zeros((1024, POINTS), dtype=np.int8),
    "off": np.zeros(1024, dtype=bool),
}


def _play_id(side, play):
    """The row of `side`'s play (steps in its own numbering, or `pass`) in
    the table of the plays' changes to the counts."""
    key = (side, play)
    k = _PLAY_ID.get(key)
    if k is None:
        k = _PLAY_ID[key] = _TABLE["n"]
        if k == len(_TABLE["off"]):
            for name in ("delta", "off"):
                _TABLE[name] = np.concatenate([_TABLE[name], np.zeros_like(_TABLE[name])])
        _TABLE["delta"][k] = apply_play([0] * POINTS, side, play, check=False)
        _TABLE["off"][k] = play != "pass" and "off" in play
        _TABLE["n"] = k + 1
    return k


def _forget_plays():
    """Empties the table of plays (kept below a few hundred thousand)."""
    _PLAY_ID.clear()
    _LINE_IDS.clear()
    _TABLE["n"] = 1


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


# the six planes of a point holding count c (c + 15 indexes; positive: the
# checkers of the side the inputs are for), divided by 15 as encode divides
_PLANES = np.array(
    [
        [c >= 1, c >= 2, max(c - 2, 0), -c >= 1, -c >= 2, max(-c - 2, 0)]
        for c in range(-PIECES, PIECES + 1)
    ],
    dtype=np.float32,
) / np.float32(SCALE)


def encode_board(counts, perspective):
    """encode's inputs of a batch of positions all from the same side
    (perspective 0 White, 1 Black), laid out for Net.judge: the board
    (B, 24 * 6) point by point and the column of scalars (B, 6)."""
    v = np.asarray(counts, dtype=np.int8)[:, VIEW[perspective]]
    if SIGN[perspective] < 0:
        v = -v
    board = _PLANES[v.astype(np.intp) + PIECES].reshape(len(v), POINTS * ROWS)
    # small whole numbers: exact in float32, as are their sums
    mine = np.maximum(v, 0).astype(np.float32)
    theirs = np.maximum(-v, 0).astype(np.float32)
    scal = np.empty((len(v), ROWS), dtype=np.float32)
    scal[:, 0] = PIECES - mine.sum(axis=1)
    scal[:, 1] = PIECES - theirs.sum(axis=1)
    scal[:, 2] = mine @ _OWN_POINT
    scal[:, 3] = theirs @ _OPP_POINT
    scal[:, 4] = PIECES - scal[:, 0] - mine[:, 18:24].sum(axis=1)
    scal[:, 5] = PIECES - scal[:, 1] - theirs[:, 6:12].sum(axis=1)
    scal /= np.float32(SCALE)
    return board, scal


_OWN_POINT = OWN_POINT.astype(np.float32)
_OPP_POINT = OPP_POINT.astype(np.float32)


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

    def legal_many(self, setups, convert=None, known=None):
        """The legal plays of several positions: setups is a list of command
        lists (e.g. `position board ...`, `dice a b`), each followed here by
        `legal`. All are sent at once by a second thread, then `isready`,
        while this one reads the answers (so neither pipe can fill up with
        nobody reading it); any `error` line raises once all is read.
        Each play is its words after `play`, or what `convert` makes of its
        whole line (without the newline); with `known`, a dict of such
        lines, its value for a line in it that is true, else `convert`'s.

        The answers are read in large blocks straight from the pipe, not
        line by line: this needs nothing left unread in the pipe's reader
        (true after any `sync`, which reads up to the last `readyok`)."""
        lines = [line for setup in setups for line in list(setup) + ["legal"]]
        writer = threading.Thread(target=self.send, args=(lines + ["isready"],))
        writer.start()
        fd = self.p.stdout.fileno()
        chunks, tail = [], b""
        try:
            while not tail.endswith(b"readyok\n"):
                data = os.read(fd, 1 << 16)
                if not data:
                    raise RuntimeError("our engine closed its output")
                chunks.append(data)
                tail = tail[-16:] + data[-16:]
        finally:
            writer.join()
        text = b"".join(chunks).decode()
        if text.startswith("error ") or "\nerror " in text:
            raise RuntimeError(next(l for l in text.split("\n") if l.startswith("error ")))
        if convert is None:
            convert = lambda line: line[5:]  # noqa: E731
        get = (known if known is not None else {}).get
        # each answer: its play lines, then `legal count ...`, whose rest
        # begins the next part
        result = [
            [get(l) or convert(l) for l in part.split("\n") if l.startswith("play ")]
            for part in text.split("legal count")[:-1]
        ]
        if len(result) != len(setups):
            raise RuntimeError(f"{len(result)} legal lists for {len(setups)} positions")
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
        if len(counts_list) == 0:
            return np.zeros(0)
        return self.net.judge(*encode_board(counts_list, perspective))

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
        if _TABLE["n"] > 300_000:
            _forget_plays()
        line_ids = _LINE_IDS.setdefault(opp, {})

        def play_id(line):
            k = line_ids[line] = _play_id(opp, line[5:])
            return k

        replies = self.child.legal_many(setups, play_id, line_ids)
        # every reply as a row: the end it is played from, and its play's
        # change to the counts (a play moves the same checkers from
        # whatever position it is played)
        for k, plays in enumerate(replies):
            if not plays:
                replies[k] = [_play_id(opp, "pass")]  # the end itself, the opponent passing
        lengths = np.array([len(plays) for plays in replies])
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        slot = np.repeat(np.arange(len(replies)), lengths)
        ids = np.fromiter(
            itertools.chain.from_iterable(replies), dtype=np.int64, count=int(lengths.sum())
        )
        delta = _TABLE["delta"][ids]
        before = np.asarray(ends, dtype=np.int8)[slot // len(ROLLS)]
        after = before + delta
        # the plays came from our engine's `legal`; checked here as a whole:
        # a point a reply changes holds none of the mover's checkers, before
        # or after it
        sign = -1 if opp == "b" else 1
        if np.any((delta != 0) & ((before * sign < 0) | (after * sign < 0))):
            raise ValueError("a reply moves onto or from a point of the other side")
        # a reply bearing off the opponent's last checker: the slot counts
        # that loss (2 when the mover has borne off none)
        opp_left = np.maximum(after * sign, 0).sum(axis=1)
        mover_left = np.maximum(-after * sign, 0).sum(axis=1)
        won = (opp_left == 0) & _TABLE["off"][ids]
        lost = np.zeros(len(replies))
        lost[slot[won]] = np.where(mover_left[won] == PIECES, -2.0, -1.0)
        # each distinct position after a reply judged once
        keys = np.ascontiguousarray(after).view(np.dtype((np.void, POINTS)))[:, 0]
        uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        v = self.values(after[first], mover)
        per_slot = np.minimum.reduceat(v[inverse.reshape(-1)], starts)
        per_slot = np.where(lost != 0, lost, per_slot)
        return per_slot.reshape(len(ends), len(ROLLS)) @ ROLL_P


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
