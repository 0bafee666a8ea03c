#!/usr/bin/env python3
"""Checks that two versions of longnardi.py's look-ahead bot choose alike.

A change made only for speed must not change a single choice. This program
loads two copies of longnardi.py (each beside its own adapter.py), replays
the games of `gulbara match --records` folders through our engine to find
the position before every roll and the roll, and on a sample of those
positions asks both bots for their play (`choose`, each with its own child
engine) and for the look-ahead value of every play (`lookahead_values`):

    git show 76c122c:scripts/yardsticks/longnardi.py > /tmp/ln-old/longnardi.py
    git show 76c122c:scripts/yardsticks/adapter.py > /tmp/ln-old/adapter.py
    python3 scripts/yardsticks/longnardi_same.py --old /tmp/ln-old/longnardi.py \\
        --new scripts/yardsticks/longnardi.py --weights /tmp/vzg0.pt \\
        --positions 300 --seed 5180 /tmp/la-rec-5180

It prints the plays that differ, then how many positions gave the same
play, the largest difference of a play's value, and the CPU time of each
version's `choose`; it exits with status 1 when a play differs or a value
differs by more than --tolerance.
"""

import argparse
import glob
import importlib.util
import os
import random
import re
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

RULES = ["set game.variant long_nardy", "set rules.head_first_turn fixed_4_6"]


def load(path, name):
    """longnardi.py at `path`, with the adapter.py beside it."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    sys.modules.pop("adapter", None)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
        sys.modules.pop("adapter", None)
    return module


def positions(child, folders):
    """(position before the roll, roll) of every turn of the records'
    games, found by replaying their plays (`position startpos ... moves`)."""
    out = []
    files = sorted(f for d in folders for f in glob.glob(os.path.join(d, "game-*.txt")))
    for path in files:
        with open(path) as fh:
            text = fh.read()
        starter = re.search(r"starter (White|Black)", text)
        if not starter:
            continue
        base = "position startpos " + ("w" if starter.group(1) == "White" else "b")
        moves = []
        for line in text.splitlines():
            turn = re.match(r"\s*\d+\)\s+(.*)", line)
            if not turn:
                continue
            for part in re.split(r"\s{2,}", turn.group(1).strip()):
                m = re.match(r"(\d)(\d):\s*(.*)", part)
                if not m:
                    continue  # `--`: that side had no turn there
                here = child.show([base + (" moves " + " ".join(moves) if moves else "")], f" ({path})")
                if "result" in here:
                    break
                out.append((here["position"][0], m.group(1) + m.group(2)))
                # a roll with nothing to play is passed by the engine itself
                moves += [m.group(1) + m.group(2)] + [w for w in m.group(3).split() if w != "pass"]
    return out


def judge(module, child, bot, position, roll):
    """The bot's play in the position before `roll`, and the look-ahead
    value of each legal play (None when there is nothing to compare: one
    play, or a play that wins at once)."""
    setup = [f"position board {position}", f"dice {roll[0]} {roll[1]}"]
    child.sync(setup)
    start = child.show()
    t = time.process_time()
    play = bot.choose()
    spent = time.process_time() - t
    if child.show() != start:
        raise RuntimeError(f"{position} {roll}: choose did not set our engine back")
    counts, side, rest = module.parse_position(start["position"][0])
    plays = [l[5:] for l in child.sync(["legal"]) if l.startswith("play ")]
    ends = [module.apply_play(counts, side, p) for p in plays]
    values = None
    if len(plays) > 1 and not any(module.win_points(e, side) is not None for e in ends):
        values = np.asarray(bot.lookahead_values(ends, side, rest), dtype=np.float64)
        child.sync(setup)
    return play, values, spent


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True, help="the reference longnardi.py")
    ap.add_argument("--new", required=True, help="the changed longnardi.py")
    ap.add_argument("--weights", required=True, help="LongNardi state dict (.pt), e.g. vzg0.pt")
    ap.add_argument("--gulbara", default=os.environ.get("GULBARA", "target/release/gulbara"))
    ap.add_argument("--positions", type=int, default=200, help="positions sampled (200)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sample")
    ap.add_argument("--tolerance", type=float, default=1e-5)
    ap.add_argument("records", nargs="+", help="folders of `gulbara match --records`")
    args = ap.parse_args()

    sides = []
    for path, name in ((args.old, "longnardi_old"), (args.new, "longnardi_new")):
        module = load(path, name)
        child = module.Child([args.gulbara])
        child.sync(RULES)
        net = module.Net(module.load_weights(args.weights))
        sides.append((module, child, module.Bot(net, child, True)))
    cases = positions(sides[0][1], args.records)
    random.Random(args.seed).shuffle(cases)
    cases = cases[: args.positions]

    same, compared, worst, cpu = 0, 0, 0.0, [0.0, 0.0]
    for position, roll in cases:
        got = []
        for k, (module, child, bot) in enumerate(sides):
            play, values, spent = judge(module, child, bot, position, roll)
            cpu[k] += spent
            got.append((play, values))
        if got[0][0] == got[1][0]:
            same += 1
        else:
            print(f"different: {position} roll {roll}: old {got[0][0]}, new {got[1][0]}")
        if got[0][1] is not None:
            compared += 1
            worst = max(worst, float(np.abs(got[0][1] - got[1][1]).max()))
    print(
        f"{len(cases)} positions: the same play in {same}; {compared} with more than one play, "
        f"largest difference of a play's look-ahead value {worst:.2e}; "
        f"CPU time of choose: old {cpu[0]:.1f} s, new {cpu[1]:.1f} s"
    )
    for _, child, _ in sides:
        child.send(["quit"])
    sys.exit(0 if same == len(cases) and worst <= args.tolerance else 1)


if __name__ == "__main__":
    main()
