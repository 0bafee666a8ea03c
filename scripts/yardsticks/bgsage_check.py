#!/usr/bin/env python3
"""Checks bgsage_player.py's mapping of our positions to bgsage's boards.

Run with the Python of bgsage's virtual environment (see
scripts/yardsticks/README.md). Three parts, printed:

1. Hand-checked positions, each with the side on roll's chances before its
   roll: bgsage's (its 1-ply, raw networks and bear-off database) and our
   engine's (`eval` with no dice, our 0-ply). Each is given twice, as written
   and mirrored (the colours swapped, the other side on roll), which must
   give the same numbers in both engines: the Black side of the mapping is
   checked against the White side. The expected values are worked out by
   hand where the position allows it (the bear-off) and stated as a range
   where it does not; a value outside its range fails the check.
2. Random games (random legal plays of our engine): at every decision each
   legal play's end found by bgsage_player.apply_play is compared with our
   engine's own end (`show` after the play, mapped by to_sage), and the set
   of ends with bgsage's move generator (`bgsage.possible_moves`).
3. Over the positions of those games before each roll: bgsage's cubeless
   equity for the side on roll against ours, their mean difference and the
   mean absolute difference, apart for contact and race.

Exits with status 1 when a check fails. Nothing of bgsage's code is copied;
it is called as a library.
"""

import argparse
import os
import random
import sys

os.environ.setdefault("BGBOT_MULTIPLY_THREADS", "1")

import adapter  # noqa: E402
from bgsage_player import POINTS, apply_play, parse_position, to_sage  # noqa: E402

# (name, position text, bounds on the side on roll's chances: field -> (lo, hi))
HAND = [
    (
        "the starting position, White on roll",
        "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 w 0 0",
        # the side on roll is a little ahead; gammons about one game in
        # six or seven each way
        {"win": (0.50, 0.56), "gammon_win": (0.10, 0.20), "gammon_loss": (0.09, 0.18)},
    ),
    (
        "White on the bar and two behind Black's five-point prime (Black's 2-6)",
        # White: 1 on the bar, 2 on its 24, 4 on its 13, 3 on its 8, 5 on
        # its 6; Black: 2 on each of its 2..6 (White's 19..23), 5 on its 13
        "0,0,0,0,0,5,0,3,0,0,0,-5,4,0,0,0,0,0,-2,-2,-2,-2,-2,2 w 10 10 bar=1,0",
        # White enters only with a 1 (11 rolls in 36) and its three back
        # checkers stay behind the prime: well under even, gammons likely
        {"win": (0.03, 0.30), "gammon_loss": (0.20, 0.80)},
    ),
    (
        "a bear-off: White's last three on its 1 point, Black's 15 on its 1 point",
        "3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15 w 20 20",
        # White is off in two turns at most, Black needs eight: White wins;
        # it wins a gammon only with a doublet now (6/36), when Black has
        # had no turn to bear one off (by hand)
        {"win": (0.999, 1.0), "gammon_win": (6 / 36 - 0.01, 6 / 36 + 0.01), "backgammon_win": (0.0, 0.001)},
    ),
    (
        "a race far ahead: White 5 each on its 4, 5, 6 (75 pips), Black 15 on its 13..18 (231)",
        "0,0,0,5,5,5,-2,-2,-3,-3,-3,-2,0,0,0,0,0,0,0,0,0,0,0,0 w 30 30",
        # contact is broken and White is 156 pips ahead: a sure win, and a
        # gammon unless Black gets a checker home and off in time: likely
        {"win": (0.995, 1.0), "gammon_win": (0.5, 1.0)},
    ),
]

FIELDS = ("win", "gammon_win", "backgammon_win", "gammon_loss", "backgammon_loss")
OUR_WORDS = ("win", "winmars", "winbg", "losemars", "losebg")


def mirror(text):
    """The position with the colours swapped: Black's checkers where White's
    were (White's p becomes White's 25 - p), the other side on roll, the
    roll counts and the bar swapped."""
    counts, side, bar = parse_position(text)
    words = text.split()
    m = [-counts[POINTS - p] for p in range(1, POINTS + 1)]
    out = [",".join(str(c) for c in m), "b" if side == "w" else "w", words[3], words[2]]
    if bar != (0, 0):
        out.append(f"bar={bar[1]},{bar[0]}")
    return " ".join(out)



class Ours(adapter.Child):
    def probs(self, text):
        """Our engine's chances for the side on roll of `text`, before its roll."""
        self.sync([f"position board {text}"])
        self.send(["eval"])
        line = self.until(lambda l: l.startswith("evaluation") or l.startswith("error "))[-1]
        if line.startswith("error "):
            raise RuntimeError(f"{line} ({text})")
        w = line.split()
        vals = {w[i]: float(w[i + 1]) for i in range(1, len(w) - 1, 2)}
        return [vals[k] for k in OUR_WORDS], vals["equity"]

    def legal_ends(self, text, d1, d2):
        """Our legal plays at `text` with the roll d1 d2, and each play's end
        as our engine gives it: (position text, the result line or None)."""
        plays = [
            l[5:]
            for l in self.sync([f"position board {text}", f"dice {d1} {d2}", "legal"])
            if l.startswith("play ")
        ]
        ends = []
        if plays == ["pass"]:
            return plays, ends
        # asked in chunks small enough that neither pipe fills while the
        # other side waits (a doublet can have hundreds of plays)
        for k in range(0, len(plays), 32):
            chunk = plays[k : k + 32]
            self.send(
                line
                for play in chunk
                for line in (f"position board {text} moves {d1}{d2} {play}", "show")
            )
            for play in chunk:
                f = self.read_show(f" (play {play})")
                ends.append((f["position"][0], f.get("result", [None])[0]))
        return plays, ends


def sage_probs(analyzer, board):
    """bgsage's chances for the side on roll of `board` (its view), before
    its roll: the board seen by the other side, as the end of its play (what
    bgsage's networks judge), and the chances turned round. (bgsage's
    `cube_action` gives the same numbers but reads its weights on every call.)"""
    from bgsage import flip_board, invert_probs

    r = analyzer.post_move_analytics(flip_board(board), cube_owner="centered", jacoby=False)
    return invert_probs(r.probs.to_list()), -r.cubeless_equity


def fmt(p):
    return " ".join(f"{n} {v:.4f}" for n, v in zip(FIELDS, p))


def hand_part(ours, analyzer):
    bad = 0
    print("1. hand-checked positions: the side on roll's chances before its roll")
    for name, text, bounds in HAND:
        print(f"\n{name}\n  {text}")
        for label, t in (("as written", text), ("mirrored  ", mirror(text))):
            counts, side, bar = parse_position(t)
            sp, se = sage_probs(analyzer, to_sage(counts, bar, side))
            op, oe = ours.probs(t)
            print(f"  {label} bgsage  {fmt(sp)} equity {se:+.4f}")
            print(f"  {label} ours    {fmt(op)} equity {oe:+.4f}")
            for k, (lo, hi) in bounds.items():
                i = FIELDS.index(k)
                for who, p in (("bgsage", sp), ("ours", op)):
                    if not lo <= p[i] <= hi:
                        print(f"  FAIL {who} {label.strip()}: {k} {p[i]:.4f} outside {lo:.4f}..{hi:.4f}")
                        bad += 1
        print("  expected: " + ", ".join(f"{k} {lo:.3f}..{hi:.3f}" for k, (lo, hi) in bounds.items()))
    return bad


def random_part(ours, analyzer, games, seed, by_engine):
    """Games on random dice, their plays random or our engine's (0-ply):
    the mapping of every legal play's end, and the values."""
    import bgbot_cpp
    from bgsage import possible_moves

    rng = random.Random(seed)
    decisions = plays_checked = bad_end = bad_set = 0
    diffs = {"contact": [], "race": []}
    for _ in range(games):
        ours.sync(["position startpos"])
        text = ours.show()["position"][0]
        while True:
            counts, side, bar = parse_position(text)
            pre = to_sage(counts, bar, side)
            sp, se = sage_probs(analyzer, pre)
            op, oe = ours.probs(text)
            diffs["race" if bgbot_cpp.is_race(pre) else "contact"].append(se - oe)
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays, ends = ours.legal_ends(text, d1, d2)
            if plays == ["pass"]:
                # a roll token straight after a roll forfeits the turn; the
                # second roll is left pending, the other side to move
                ours.sync([f"position board {text} moves {d1}{d2} 11"])
                text = ours.show()["position"][0]
                continue
            decisions += 1
            mine = set()
            for play, (end_text, result) in zip(plays, ends):
                plays_checked += 1
                ec, _, eb = parse_position(end_text)
                theirs_end = to_sage(ec, eb, side)  # still from the mover's side
                got = apply_play(pre, play)
                if got != theirs_end:
                    bad_end += 1
                    if bad_end <= 5:
                        print(f"  end differs: {text} {d1}{d2} {play}: {got} / our engine {theirs_end}")
                mine.add(tuple(got))
            gen = {tuple(b) for b in possible_moves(pre, d1, d2)}
            if gen != mine:
                bad_set += 1
                if bad_set <= 5:
                    print(f"  plays differ: {text} {d1}{d2}: bgsage {len(gen)}, ours {len(mine)}")
            if by_engine:
                ours.sync([f"position board {text}", f"dice {d1} {d2}"])
                ours.send(["go"])
                line = ours.until(lambda l: l.startswith("bestmove") or l.startswith("error "))[-1]
                if not line.startswith("bestmove "):
                    raise RuntimeError(f"{line} ({text} {d1}{d2})")
                k = plays.index(line[9:])
            else:
                k = rng.randrange(len(plays))
            if ends[k][1] is not None:
                break
            text = ends[k][0]
    print(
        f"\n2. games on random dice, {'our 0-ply' if by_engine else 'random'} plays: {games}, {decisions} decisions, {plays_checked} legal plays; "
        f"ends moved as our engine moves them: {plays_checked - bad_end}/{plays_checked}; "
        f"the same set of ends as bgsage's move generator: {decisions - bad_set}/{decisions}"
    )
    print("\n3. equity of the side on roll before its roll, bgsage 1-ply minus our 0-ply:")
    for k, d in diffs.items():
        if d:
            n = len(d)
            print(
                f"  {k:8s} {n:5d} positions  mean {sum(d) / n:+.4f}  "
                f"mean |difference| {sum(abs(x) for x in d) / n:.4f}"
            )
    return bad_end + bad_set


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gulbara", default=os.environ.get("GULBARA", "target/release/gulbara"))
    ap.add_argument("--games", type=int, default=20, help="random games for parts 2 and 3")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--moves",
        choices=("random", "engine"),
        default="random",
        help="the games' plays: random legal plays, or our engine's 0-ply choices",
    )
    args = ap.parse_args()
    if not os.access(args.gulbara, os.X_OK):
        ap.error(f"no engine at {args.gulbara} (cargo build --release, or --gulbara PATH)")
    from bgsage import BgBotAnalyzer

    analyzer = BgBotAnalyzer(eval_level="1ply", cubeful=False)
    ours = Ours([args.gulbara])
    ours.sync(["set game.variant backgammon", "set engine.ply 1"])
    bad = hand_part(ours, analyzer)
    bad += random_part(ours, analyzer, args.games, args.seed, args.moves == "engine")
    ours.send(["quit"])
    ours.p.wait(timeout=5)
    print("\nok" if bad == 0 else f"\nFAILED: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
