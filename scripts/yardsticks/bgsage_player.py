#!/usr/bin/env python3
"""A yardstick: Open Sage (bgsage, Mark Higgins, MPL-2.0) as a gulbara
backgammon engine.

`gulbara match` starts this program as one of its engines. It speaks the part
of our protocol the match runner uses (ubgi, isready, set, position, dice,
go, newgame, quit) and keeps one of OUR engines as a child process: the child
knows the position and lists the legal plays (`legal`), so the rules are ours
throughout. bgsage only chooses among those plays.

bgsage is installed from PyPI into a virtual environment of its own and called
as a library (`bgsage.BgBotAnalyzer`); nothing of its code is in this
repository. Each decision:

* our position (White's numbering, `bar=W,B`) is written as bgsage's board
  of 26 numbers from the mover's side: index p (1..24) is the mover's own
  point p, the mover's checkers positive and the opponent's negative, index
  25 the mover's checkers on the bar, index 0 the opponent's (both as counts);
* every legal play of our engine is moved on that board to its end (the
  steps are in the mover's numbering, which is bgsage's index; a landing on a
  lone opposing checker sends it to index 0);
* bgsage ranks the plays of the same roll by its cubeless equity for the
  mover after the play (`checker_play(..., cubeful=False)`; its equities are
  those of the side that has just moved, so no flip is needed), and the
  first of its ranking that is one of our ends is played. Its list of ends
  and ours must be the same set: if they differ the decision is refused
  with an `error` line (a rules or mapping fault, never hidden).

`--ply 0` (the default) is bgsage's raw networks, its "1-ply" (it counts as
eXtreme Gammon does; gnubg and we call this 0-ply). `--ply 1` is its "2-ply"
(our and gnubg's 1-ply): its own move filter (the 1-ply best five within
0.08), then each survivor's equity averaged over the opponent's 21 rolls.
Both use bgsage's one-sided bear-off database, as bgsage does by default
(`--no-bearoff-db` turns it off). The cube is never touched: the matches
are cubeless money games.

It is a yardstick only: never a source of labels, targets or inputs.
Usage: see scripts/yardsticks/README.md.
"""

import argparse
import os
import sys

# bgsage's N-ply search starts as many threads as there are cores unless this
# says otherwise; the adapter shares the machine with the match's other engine
os.environ.setdefault("BGBOT_MULTIPLY_THREADS", "1")

import adapter  # noqa: E402

POINTS = 24
PIECES = 15
LEVELS = {0: "1ply", 1: "2ply", 2: "3ply"}


def parse_position(text):
    """Our position text (protocol/NOTATION.md): the 24 counts in White's
    numbering (White positive), the side to move, and the bar (White's,
    Black's) from `bar=W,B` (0, 0 when absent)."""
    words = text.split()
    if len(words) < 4 or words[1] not in ("w", "b"):
        raise ValueError(f"bad position: {text}")
    try:
        counts = [int(c) if c else 0 for c in words[0].split(",")]
    except ValueError:
        raise ValueError(f"bad position: {text}") from None
    if len(counts) != POINTS:
        raise ValueError(f"bad position: {text}")
    bar = (0, 0)
    for w in words[4:]:
        if w.startswith("bar="):
            try:
                a, b = (int(x) for x in w[4:].split(","))
            except ValueError:
                raise ValueError(f"bad bar field: {w}") from None
            bar = (a, b)
    return counts, words[1], bar


def to_sage(counts, bar, side):
    """bgsage's 26-number board of our position, from `side`'s view ('w' or
    'b'): index p (1..24) the side's own point p, its checkers positive, the
    other side's negative; index 25 its bar, index 0 the other side's bar
    (both counts, not signed)."""
    board = [0] * 26
    if side == "w":
        for p in range(1, POINTS + 1):
            board[p] = counts[p - 1]
        board[25], board[0] = bar[0], bar[1]
    else:
        # Black's own point q is White's 25 - q; Black's checkers are negative
        for q in range(1, POINTS + 1):
            board[q] = -counts[POINTS - q]
        board[25], board[0] = bar[1], bar[0]
    return board


def apply_play(board, play):
    """The board (bgsage's, from the mover's side) after the mover plays
    `play`, steps `from/to` in the mover's numbering (`bar/to`, `from/off`;
    a `*` marks a hit, which the board shows anyway). The play comes from our
    engine's `legal`: this only moves the checkers, refusing a step that has
    no checker to move or lands on a made point."""
    b = list(board)
    if play == "pass":
        return b
    for step in play.split():
        a, _, t = step.partition("/")
        t = t.rstrip("*")
        src = 25 if a == "bar" else int(a)
        if not 1 <= src <= 25 or b[src] <= 0:
            raise ValueError(f"{play}: no checker of the mover on its {a}")
        b[src] -= 1
        if t == "off":
            continue
        dst = int(t)
        if not 1 <= dst <= POINTS or b[dst] < -1:
            raise ValueError(f"{play}: {step} lands on a made point")
        if b[dst] == -1:
            b[dst] = 0
            b[0] += 1
        b[dst] += 1
    return b


class Chooser:
    """bgsage's choice among our engine's legal plays."""

    def __init__(self, child, ply, model=None, bearoff_db=True):
        # imported here so that --help and the parsing above work without it
        from bgsage import BgBotAnalyzer, WeightConfig

        if ply not in LEVELS:
            raise ValueError(f"--ply {ply}: 0, 1 or 2")
        weights = WeightConfig.from_model(model) if model else None
        self.analyzer = BgBotAnalyzer(
            weights=weights,
            eval_level=LEVELS[ply],
            cubeful=False,
            parallel_threads=0,  # BGBOT_MULTIPLY_THREADS, 1 unless set
            bearoff_db=bearoff_db,
        )
        self.child = child
        self.decisions = 0

    def rank(self, board, d1, d2):
        """bgsage's ends of the roll, best first (tuples), and their
        cubeless equities for the mover."""
        # cube_owner None: its move filter (at 2-ply) ranks by cubeless
        # equity too, not by a cubeful equity with a centred cube
        r = self.analyzer.checker_play(
            board, d1, d2, cube_owner=None, jacoby=False, beaver=False
        )
        return [(tuple(m.board), m.cubeless_equity) for m in r.moves]

    def choose(self):
        here = self.child.show()
        position = here["position"][0]
        pending = here.get("pending", [""])[0].split()
        if len(pending) < 2 or pending[0] != "dice" or len(pending[1]) != 2:
            raise RuntimeError(f"no dice pending: {' '.join(pending)}")
        d1, d2 = int(pending[1][0]), int(pending[1][1])
        plays = [l[5:] for l in self.child.sync(["legal"]) if l.startswith("play ")]
        if not plays or plays == ["pass"]:
            return "pass"
        if len(plays) == 1:
            return plays[0]
        counts, side, bar = parse_position(position)
        pre = to_sage(counts, bar, side)
        ends = {}
        for play in plays:
            ends.setdefault(tuple(apply_play(pre, play)), play)
        ranked = self.rank(pre, d1, d2)
        theirs = {b for b, _ in ranked}
        if theirs != set(ends) or len(ends) != len(plays):
            raise RuntimeError(
                f"bgsage's plays differ from ours at {position} dice {d1}{d2}: "
                f"{len(theirs - set(ends))} of its {len(theirs)} ends are not ours, "
                f"{len(set(ends) - theirs)} of our {len(plays)} not its"
            )
        self.decisions += 1
        return ends[ranked[0][0]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--ply",
        type=int,
        default=0,
        help="0: bgsage's raw networks (its 1-ply); 1: its 2-ply; 2: its 3-ply",
    )
    ap.add_argument("--model", help="a bgsage model name (default: its production model)")
    ap.add_argument(
        "--no-bearoff-db", action="store_true", help="without bgsage's bear-off database"
    )
    ap.add_argument(
        "--gulbara",
        default=os.environ.get("GULBARA", "target/release/gulbara"),
        help="our engine, asked for the rules",
    )
    ap.add_argument("--log", help="append every command received (and errors) here")
    args = ap.parse_args()
    if args.ply not in LEVELS:
        ap.error(f"--ply {args.ply}: 0, 1 or 2")
    if not os.access(args.gulbara, os.X_OK):
        ap.error(f"no engine at {args.gulbara} (cargo build --release, or --gulbara PATH)")
    child = adapter.Child([args.gulbara])
    child.sync(["set game.variant backgammon"])
    try:
        chooser = Chooser(child, args.ply, args.model, not args.no_bearoff_db)
    except ImportError as e:
        child.send(["quit"])
        ap.error(f"bgsage is not installed for {sys.executable} ({e}); see scripts/yardsticks/README.md")
    except (KeyError, ValueError, OSError) as e:
        child.send(["quit"])
        ap.error(f"bgsage could not be set up: {e!r}")
    level = LEVELS[args.ply].replace("ply", "-ply")
    adapter.serve(
        child,
        f"bgsage {level} (yardstick adapter)",
        "scripts/yardsticks of gulbara; Open Sage by Mark Higgins",
        chooser.choose,
        args.log,
    )


if __name__ == "__main__":
    sys.exit(main())
