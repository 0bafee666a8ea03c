#!/usr/bin/env python3
"""Why our Plakoto network loses to tavli's gold_v11: pins, read from match records.

Reads the records that `gulbara match --records DIR` writes (one game a file), replays
each game's plays with the yardstick adapter's own move code (every record of a match is
checked move by move: a play the position cannot take stops the study), and prints:

  outcomes DIR NAME          per game, for the engine named NAME and its opponent: how
                             often it wins and loses double, how many of its checkers get
                             pinned (new pins a game), the most pinned at once, passes
  calibration DIR NAME N     over NAME's before-roll positions of the first N games: our
                             shipped network's equity (`eval`) and double-loss chance
                             against the actual result, by how many of NAME's checkers
                             lie pinned (needs --gulbara)
  pin-rate DIR N PLAYER...   over every decision of the first N games where some legal
                             play pins a checker: the share in which each PLAYER's choice
                             pins. A PLAYER is `played` (the play in the record), a
                             weights file or `shipped` (our engine at 0-ply with them), or
                             `tavli:PATH` (gold_v11 at its 1-ply, as the adapter plays it)

    B=target/release/gulbara
    python3 data/training/plakoto/pin_study.py outcomes /tmp/rec gulbara-0ply
    python3 data/training/plakoto/pin_study.py --gulbara $B calibration /tmp/rec gulbara-0ply 600
    python3 data/training/plakoto/pin_study.py --gulbara $B pin-rate /tmp/self 150 played \
        shipped tavli:/tmp/gold_v11.pth

The positions are the records' only; nothing here is written anywhere. gold_v11 is a
yardstick: it only says which play it would choose.
"""

import argparse
import collections
import glob
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../scripts/yardsticks"))

import numpy as np  # noqa: E402

import tavli_plakoto as tavli  # noqa: E402
from adapter import Child  # noqa: E402

START = [-15] + [0] * 22 + [15]


def games(folder):
    """(names by side, winner side, points, [(side, roll, play)]) of each finished game."""
    files = sorted(glob.glob(os.path.join(folder, "game-*.txt")))
    if not files:
        sys.exit(f"{folder}: no game-*.txt records")
    for f in files:
        text = open(f).read()
        players = re.search(r"White : (\S+)\s+Black : (\S+)", text)
        result = re.search(r"Wins (\d+) points? \((White|Black)\)", text)
        if not players or not result:
            continue  # stuck, drawn or unfinished
        seq = []
        for line in text.splitlines():
            m = re.match(r"\s*\d+\)\s(.*)$", line)
            if not m:
                continue
            parts = [p.strip() for p in re.split(r"\s{2,}", m.group(1).strip())]
            for side, part in zip("wb", parts):
                if part == "--":
                    continue
                roll, _, play = part.partition(": ")
                seq.append((side, roll, play))
        names = {"w": players.group(1), "b": players.group(2)}
        yield f, names, "w" if result.group(2) == "White" else "b", int(result.group(1)), seq


def replay(path, seq):
    """Every position before a play, as (side, counts, pins, roll, play), then the end."""
    counts, pins, states = list(START), set(), []
    for side, roll, play in seq:
        states.append((side, list(counts), set(pins), roll, play))
        try:
            counts, pins = tavli.apply_play(counts, side, pins, play)
        except ValueError as e:
            sys.exit(f"{path}: {e}")
    states.append((None, counts, pins, None, None))
    return states


def sign(side):
    return 1 if side == "w" else -1


def pinned_of(counts, pins, side):
    """Checkers of `side` lying pinned."""
    return sum(1 for q in pins if counts[q - 1] * sign(side) < 0)


def pinned_by(counts, pins, side):
    """Checkers of the other side that `side` pins."""
    return sum(1 for q in pins if counts[q - 1] * sign(side) > 0)


def text(counts, side, pins):
    s = ",".join(str(v) for v in counts) + f" {side} 5 5"
    return s + (" pins=" + ",".join(str(q) for q in sorted(pins)) if pins else "")


def outcomes(args):
    acc = collections.defaultdict(list)
    for path, names, winner, points, seq in games(args.dir):
        if args.name not in names.values():
            sys.exit(f"{path}: no player named {args.name}")
        mine = "w" if names["w"] == args.name else "b"
        states = replay(path, seq)
        for who, label in ((mine, args.name), ("b" if mine == "w" else "w", "opponent")):
            new = 0
            before = set()
            for _, counts, pins, _, _ in states:
                now = {q for q in pins if counts[q - 1] * sign(who) < 0}
                new += len(now - before)
                before = now
            acc[f"{label}: checkers newly pinned a game"].append(new)
            acc[f"{label}: most pinned at once"].append(max(pinned_of(c, p, who) for _, c, p, _, _ in states))
            acc[f"{label}: passes a game"].append(sum(1 for s in states if s[0] == who and s[4] == "pass"))
        acc[f"{args.name}: wins"].append(winner == mine)
        acc[f"{args.name}: double wins"].append(winner == mine and points == 2)
        acc[f"{args.name}: double losses"].append(winner != mine and points == 2)
    for key, values in acc.items():
        print(f"{key:45s} {statistics.mean(values):7.3f}  ({len(values)} games)")


def calibration(args):
    engine = Child([args.gulbara])
    engine.sync(["set game.variant plakoto"])
    bins = collections.defaultdict(list)
    for k, (path, names, winner, points, seq) in enumerate(games(args.dir)):
        if k >= args.games:
            break
        mine = "w" if names["w"] == args.name else "b"
        result = points if winner == mine else -points
        for side, counts, pins, _, _ in replay(path, seq)[:-1]:
            if side != mine:
                continue
            engine.send([f"position board {text(counts, side, pins)}", "eval"])
            line = engine.until(lambda l: l.startswith("evaluation") or l.startswith("error"))[-1]
            if line.startswith("error"):
                sys.exit(line)
            w = line.split()
            equity, lose_double = float(w[w.index("equity") + 1]), float(w[w.index("losemars") + 1])
            bins[min(pinned_of(counts, pins, side), 5)].append((equity, result, lose_double, result == -2))
    print("pinned  positions  network's equity  result (ppg)  network's double loss  double losses")
    for k in sorted(bins):
        v = bins[k]
        mean = [statistics.mean(x[i] for x in v) for i in range(4)]
        print(f"{k}{'+' if k == 5 else ' '}      {len(v):7d}  {mean[0]:+15.3f}  {mean[1]:+12.3f}  {mean[2]:21.3f}  {mean[3]:13.3f}")


def pin_rate(args):
    rules = Child([args.gulbara])
    rules.sync(["set game.variant plakoto"])
    players = []
    for p in args.players:
        if p == "played":
            players.append((p, None))
        elif p.startswith("tavli:"):
            players.append((p, tavli.load_weights(p[6:])))
        else:
            child = Child([args.gulbara])
            child.sync(["set game.variant plakoto", "set engine.ply 1"] + ([] if p == "shipped" else [f"set engine.weights {p}"]))
            players.append((p, child))
    could = 0
    pins_chosen = collections.Counter()
    for k, (path, _names, _winner, _points, seq) in enumerate(games(args.dir)):
        if k >= args.games:
            break
        for side, counts, pins, roll, play in replay(path, seq)[:-1]:
            if play == "pass":
                continue
            here = [f"position board {text(counts, side, pins)}", f"dice {roll[0]} {roll[1]}"]
            plays = [l[5:] for l in rules.sync(here + ["legal"]) if l.startswith("play ")]
            base = pinned_by(counts, pins, side)
            ends = [tavli.apply_play(counts, side, pins, p) for p in plays]
            gains = [pinned_by(c, p, side) - base for c, p in ends]
            if len(plays) < 2 or max(gains) <= 0:
                continue
            could += 1
            for name, player in players:
                if player is None:
                    chosen = play
                elif isinstance(player, list):  # gold_v11: the end leaving the opponent least
                    opp = -sign(side)
                    x = tavli.encode_batch([c for c, _ in ends], [opp] * len(ends), [[q in p for q in range(1, 25)] for _, p in ends])
                    value = 1.0 - tavli.forward(player, x)
                    for i, (c, p) in enumerate(ends):
                        if tavli.mover_off(c, side, p):
                            value[i] = 2.0
                    chosen = plays[int(np.argmax(value))]
                else:
                    player.sync(here)
                    player.send(["go"])
                    line = player.until(lambda l: l.startswith("bestmove") or l.startswith("error"))[-1]
                    if line.startswith("error"):
                        sys.exit(line)
                    chosen = line.split(" ", 1)[1]
                c, p = tavli.apply_play(counts, side, pins, chosen)
                pins_chosen[name] += pinned_by(c, p, side) - base > 0
    print(f"decisions where a play pins: {could} (first {args.games} games of {args.dir})")
    for name, _ in players:
        print(f"{name:50s} pins in {pins_chosen[name]:6d}  {pins_chosen[name] / max(could, 1):.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gulbara", default=os.environ.get("GULBARA", "target/release/gulbara"))
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("outcomes")
    a.add_argument("dir")
    a.add_argument("name")
    a = sub.add_parser("calibration")
    a.add_argument("dir")
    a.add_argument("name")
    a.add_argument("games", type=int)
    a = sub.add_parser("pin-rate")
    a.add_argument("dir")
    a.add_argument("games", type=int)
    a.add_argument("players", nargs="+")
    args = ap.parse_args()
    {"outcomes": outcomes, "calibration": calibration, "pin-rate": pin_rate}[args.cmd](args)


if __name__ == "__main__":
    main()
