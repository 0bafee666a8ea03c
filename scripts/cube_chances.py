#!/usr/bin/env python3
"""Where gulbara's cube goes wrong: its cubeless chances against gnubg's.

    scripts/cube_chances.py [--ply P] [--depth D] [--set 'KEY VALUE' ...] [--rollout N [--seed S]]
        [--phase NAME] [--limit K] --load F [--load F ...]

F is a file of gnubg 2-ply's cube verdicts saved by `scripts/cube_verdicts.py
--save` (plain or gzipped JSON, with gnubg's cubeless chances: saved since
2026-12-07). For every double decision in it (not the answers), gulbara is asked
the decision (`go cube` at engine.ply P, default 1, with the --set keys) and its
cubeless chances at the depth its cube is judged at (`eval` at engine.ply D,
default 2: 1-ply, where a 0-ply player's cube is judged by default), and the
decision is classed by gnubg's verdict: right double, wrong double, missed
double, right no double. Prints, per class and per phase (race; contact with
the side on roll at most 120 pips or more), how many, the mean of gulbara's
minus gnubg's chance of winning, of winning a gammon and of losing a gammon
(points of probability, ± standard error), and what the class cost in EMG.

With --rollout N each double decision is also rolled out by gulbara itself (N
games of 0-ply players played to the end, `rollout games N seed S`), and two
more lines per class and phase say where the network's chances stand against
its own rollouts: the rollout's minus gnubg's, and the network's (at engine.ply
D) minus the rollout's. --phase keeps only the decisions of the phases whose
name starts with it (e.g. `contact, on roll >`). Ctrl-C stops it and prints
what the decisions asked so far say.

Needs a release build (GULBARA=path overrides target/release/gulbara).
"""
import argparse
import base64
import collections
import os
import subprocess
import sys

from cube_verdicts import load_verdicts  # the saved verdicts' reader (this folder)


def checkers(pid):
    """gnubg's Position ID: the side not on roll's 25 counts, then the side on
    roll's (index 24 the bar), each point's checkers as ones ended by a zero."""
    bits = [(byte >> i) & 1 for byte in base64.b64decode(pid + "==") for i in range(8)]
    sides = [[0] * 25, [0] * 25]
    side = point = 0
    for bit in bits:
        if side > 1:
            break
        if bit:
            sides[side][point] += 1
        else:
            point += 1
            if point == 25:
                side, point = side + 1, 0
    return sides[1], sides[0]


def phase(pid):
    me, them = checkers(pid)
    mine = max((i for i in range(25) if me[i]), default=-1)
    theirs = max((i for i in range(25) if them[i]), default=-1)
    if mine < 0 or theirs < 0 or mine + theirs <= 23:
        return "race"
    pips = sum((i + 1) * n for i, n in enumerate(me))
    return "contact, on roll <= 120 pips" if pips <= 120 else "contact, on roll > 120 pips"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ply", default="1")
    ap.add_argument("--depth", default="2",
                    help="the engine.ply the chances are asked at: the cube's depth (default 2, "
                    "1-ply, the default cube depth of a 0-ply player)")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--load", action="append", required=True)
    ap.add_argument("--rollout", type=int, default=0,
                    help="also roll each double decision out, N games (default 0: no rollouts)")
    ap.add_argument("--seed", type=int, default=1, help="the rollouts' dice seed")
    ap.add_argument("--phase", default="", help="only the phases whose name starts with this")
    ap.add_argument("--limit", type=int, default=0, help="only the first K double decisions kept")
    a = ap.parse_args()
    verdicts = load_verdicts(a.load)
    gulbara = os.environ.get("GULBARA", "target/release/gulbara")
    # Its own session: a Ctrl-C stops this script, which then ends gulbara with `quit`.
    p = subprocess.Popen([gulbara], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         start_new_session=True,
                         bufsize=1)

    def ask(*lines):
        p.stdin.write("".join(line + "\n" for line in lines))
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("cube_chances: gulbara ended")
            w = line.split()
            if w and w[0] in ("bestcube", "evaluation", "error", "readyok", "rolloutok"):
                return w

    w = ask("set game.variant backgammon", f"set engine.ply {a.ply}",
            *[f"set {kv}" for kv in a.set], "isready")
    if w[0] != "readyok":
        sys.exit("cube_chances: gulbara refused a setting: " + " ".join(w))
    rows = collections.defaultdict(list)
    asked = 0
    try:
        for d in verdicts:
            if a.limit and asked >= a.limit:
                break
            if len(d) < 5 or d[1] is None or d[4] is None:
                continue
            ident, nd, dt, dp, theirs_chances = d[:5]
            ph = phase(ident.split(":")[0])
            if not ph.startswith(a.phase):
                continue
            asked += 1
            w = ask(f"position gnubgid {ident}", "go cube")
            if w[0] == "error":
                continue
            ours = w[1] == "double"
            w = ask(f"set engine.ply {a.depth}", "eval")
            p.stdin.write(f"set engine.ply {a.ply}\n")
            if w[0] == "error":
                continue
            e = dict(zip(w[1::2], w[2::2]))
            doubled = min(dt, dp)
            theirs = doubled > nd
            cls = ("right double" if theirs else "wrong double") if ours else \
                ("missed double" if theirs else "right no double")
            cost = max(nd, doubled) - (doubled if ours else nd)
            net = (float(e["win"]), float(e["winmars"]), float(e["losemars"]))
            gnubg = (theirs_chances[0], theirs_chances[1], theirs_chances[4])
            row = tuple(x - y for x, y in zip(net, gnubg)) + (cost,)
            for key in ((cls, ph, ""), (cls, "all", "")):
                rows[key].append(row)
            if a.rollout:
                w = ask(f"rollout games {a.rollout} seed {a.seed}")
                if w[0] != "rolloutok":
                    sys.exit("cube_chances: the rollout failed: " + " ".join(w))
                r = dict(zip(w[1::2], w[2::2]))
                rolled = (float(r["win"]), float(r["winmars"]), float(r["losemars"]))
                for what, x, y in (("rollout - gnubg", rolled, gnubg),
                                   ("network - rollout", net, rolled)):
                    row = tuple(u - v for u, v in zip(x, y)) + (cost,)
                    for key in ((cls, ph, what), (cls, "all", what)):
                        rows[key].append(row)
    except KeyboardInterrupt:
        # Stopped by hand (Ctrl-C): print what the decisions asked so far say.
        print(f"cube_chances: stopped after {asked} decisions", file=sys.stderr)
    try:
        p.stdin.write("quit\n")
        p.stdin.flush()
    except (BrokenPipeError, OSError):
        pass  # gulbara ended with the interrupt
    print(f"gulbara's chances at engine.ply {a.depth} minus gnubg's 2-ply cubeless (and, with "
          "--rollout, gulbara's rollout minus gnubg's, the network's minus the rollout's), in "
          "points of probability")
    for key in sorted(rows):
        r = rows[key]
        n = len(r)

        def mean_se(i):
            m = sum(x[i] for x in r) / n
            v = sum((x[i] - m) ** 2 for x in r) / (n - 1) if n > 1 else 0.0
            return f"{100 * m:+.2f} ± {100 * (v / n) ** 0.5:.2f}"
        label = f"{key[0]:15s} {key[1]:29s}" + f" {key[2]:17s}"
        cost = "" if key[2] else f"; cost {sum(x[3] for x in r):.2f} EMG"
        print(f"{label} {n:5d}: win {mean_se(0)}, win gammon {mean_se(1)}, "
              f"lose gammon {mean_se(2)}{cost}")


if __name__ == "__main__":
    main()
