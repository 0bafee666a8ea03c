#!/usr/bin/env python3
"""gulbara's cube decisions against gnubg 2-ply's verdicts on real games.

    scripts/cube_verdicts.py [--ply P] [--list] [--set 'KEY VALUE' ...] [--save F] FILE.mat ...
    scripts/cube_verdicts.py [--ply P] [--list] [--set 'KEY VALUE' ...] --load F [--load F ...]
    scripts/cube_verdicts.py [--ply P] [--list] [--set 'KEY VALUE' ...] --texts FILE.txt ...

gnubg analyses the cube decisions of each .mat file (gnubg 2-ply, cubeful,
the Jacoby rule off, no beavers) and exports the analysis as text; every
"... on roll, cube decision?" it writes (the doubles either side made: the
decisions not to double are not written so) is read back with its Position
ID and Match ID (which carry the score and the cube) and gnubg's cubeful
equities of no double, double/take and double/pass; so is every answer to a
double, with the taker's equities of taking and passing. gulbara is asked the same decision
(`position gnubgid ID:MatchID`, `go cube`, at engine.ply P). Prints how often
the two agree on doubling, gulbara's wrong and missed doubles by gnubg's
verdict, and what gulbara's choices cost by gnubg's equities (mEMG per
decision); the same for the take decisions. --list prints every disagreement. --save keeps gnubg's verdicts in a
JSON file, --load reads them back (gzipped too, F.json.gz) instead of asking gnubg again; --texts reads
gnubg's own text exports of matches it has analysed with those settings
(`export match text F` after `analyse match`) instead of the .mat files.
--costs F writes every decision asked, with gulbara's answer and what it cost,
for pairing two settings decision by decision (scripts/cube_paired.py).

A saved verdict is [ID, no double, double/take, double/pass, chances, doubler]:
the equities the side deciding's (no double is null for an answer to a
double), chances gnubg 2-ply's cubeless win, gammon, backgammon of that side
then of the other (null where gnubg printed none; files saved before
2026-12-07 have only the first four fields), doubler the name of the player
who doubled in the game (gnubg or gulbara).

Needs gnubg (GNUBG=path overrides /usr/games/gnubg) and a release build
(GULBARA=path overrides target/release/gulbara).
"""
import argparse
import glob
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile


def gnubg_decisions(files):
    gnubg = os.environ.get("GNUBG", "/usr/games/gnubg")
    out = []
    with tempfile.TemporaryDirectory() as work:
        os.mkdir(os.path.join(work, "home"))
        cmds = []
        for i, f in enumerate(files):
            cmds += [
                "set threads 1", "set jacoby off", "set beavers 0",
                "set analysis moves off", "set analysis cube on",
                "set analysis cubedecision evaluation plies 2",
                "set analysis cubedecision evaluation cubeful on",
                "set analysis cubedecision evaluation prune off",
                "set analysis luck off",
                f"import mat {os.path.abspath(f)}", "analyse match",
                f"export match text {work}/m{i}.txt",
            ]
        subprocess.run([gnubg, "-t", "-q"], input="\n".join(cmds) + "\n", text=True,
                       env=dict(os.environ, HOME=os.path.join(work, "home")),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        for name in sorted(glob.glob(os.path.join(work, "m*.txt"))):
            out += decisions_of(open(name, errors="replace").read())
    return out


def decisions_of(text):
    """The cube decisions of one analysed match exported as text by gnubg."""
    out = []
    for block in re.split(r"\nMove number \d+: ", text):
        who = re.match(r"\s*(\S+) on roll, cube decision\?", block)
        answer = re.match(r"\s*(\S+) doubles to \d+", block)
        if answer:
            # The answer to a double: equities from the taker's view.
            pid = re.search(r"Position ID:\s*(\S+)", block)
            mid = re.search(r"Match ID\s*:\s*(\S+)", block)
            dt = re.search(r"\d\. (?:Re)?[Dd]ouble, take\s+([+-]?\d+\.\d+)", block)
            dp = re.search(r"\d\. (?:Re)?[Dd]ouble, pass\s+([+-]?\d+\.\d+)", block)
            if pid and mid and dt and dp:
                out.append((pid.group(1) + ":" + mid.group(1), None,
                            float(dt.group(1)), float(dp.group(1)),
                            chances_of(block), answer.group(1)))
            continue
        if not who:
            continue
        pid = re.search(r"Position ID:\s*(\S+)", block)
        mid = re.search(r"Match ID\s*:\s*(\S+)", block)
        eq = {}
        for k, v in re.findall(r"\d\. (No double|Double, take|Double, pass|No redouble|"
                               r"Redouble, take|Redouble, pass)\s+([+-]?\d+\.\d+)", block):
            eq[k.replace("No redouble", "No double").replace("Redouble", "Double")] = float(v)
        if pid and mid and len(eq) == 3:
            out.append((pid.group(1) + ":" + mid.group(1), eq["No double"],
                        eq["Double, take"], eq["Double, pass"], chances_of(block),
                        who.group(1)))
    return out


def chances_of(block):
    """gnubg's cubeless chances in a cube analysis, the side on roll's: win,
    gammon, backgammon, then the opponent's win, gammon, backgammon."""
    m = re.search(r"cubeless equity[^\n]*\n\s*(\d\.\d+) (\d\.\d+) (\d\.\d+) - "
                  r"(\d\.\d+) (\d\.\d+) (\d\.\d+)", block)
    return [float(x) for x in m.groups()] if m else None


def load_verdicts(paths):
    """The saved verdicts of every file in `paths` (written by --save; plain
    JSON, or gzipped when the name ends in .gz), in order."""
    out = []
    for f in paths:
        with gzip.open(f, "rt") if f.endswith(".gz") else open(f) as fh:
            out.extend(json.load(fh))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ply", default="1")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--save")
    ap.add_argument("--load", action="append", default=[],
                    help="verdicts saved by --save (repeat to join several files)")
    ap.add_argument("--costs", help="write each decision's record to this JSON file: "
                    "[id, 'double' or 'take', gulbara's answer, its cost in EMG, gnubg's answer]")
    ap.add_argument("--texts", action="store_true",
                    help="the files are gnubg's text exports of matches it has analysed")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.load:
        decisions = [tuple(d) for d in load_verdicts(a.load)]
    elif a.texts:
        decisions = [d for f in a.files for d in decisions_of(open(f, errors="replace").read())]
    else:
        decisions = gnubg_decisions(a.files)
    if a.save:
        json.dump(decisions, open(a.save, "w"))
    if not decisions:
        sys.exit("cube_verdicts: gnubg gave no cube decisions")
    gulbara = os.environ.get("GULBARA", "target/release/gulbara")
    p = subprocess.Popen([gulbara], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def answer():
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("cube_verdicts: gulbara ended")
            line = line.strip()
            if line.startswith(("bestcube", "error")):
                return line

    send("set game.variant backgammon")
    send(f"set engine.ply {a.ply}")
    for kv in a.set:
        send(f"set {kv}")
    n = agree = wrong = missed = 0
    cost = 0.0
    takes = take_agree = wrong_takes = wrong_passes = 0
    take_cost = 0.0
    records = []
    for ident, nd, dt, dp in (d[:4] for d in decisions):
        send(f"position gnubgid {ident}")
        send("go cube")
        line = answer()
        if line.startswith("error"):
            continue
        if nd is None:
            # A take decision, the taker's equities: take while the take is
            # worth at least the pass.
            ours = line in ("bestcube take", "bestcube beaver")
            theirs = dt >= dp
            takes += 1
            take_agree += ours == theirs
            wrong_takes += ours and not theirs
            wrong_passes += theirs and not ours
            lost = max(dt, dp) - (dt if ours else dp)
            take_cost += lost
            records.append([ident, "take", "take" if ours else "pass", lost,
                            "take" if theirs else "pass"])
            if a.list and ours != theirs:
                print(f"{'wrong take' if ours else 'wrong pass'} {ident}: gnubg dt {dt:+.3f} dp {dp:+.3f}")
            continue
        ours = line == "bestcube double"
        doubled = min(dt, dp)
        theirs = doubled > nd
        n += 1
        agree += ours == theirs
        wrong += ours and not theirs
        missed += theirs and not ours
        lost = max(nd, doubled) - (doubled if ours else nd)
        cost += lost
        records.append([ident, "double", "double" if ours else "no double", lost,
                        "double" if theirs else "no double"])
        if a.list and ours != theirs:
            print(f"{'wrong double' if ours else 'missed double'} {ident}: gnubg nd {nd:+.3f} dt {dt:+.3f} dp {dp:+.3f}")
    send("quit")
    if a.costs:
        json.dump(records, open(a.costs, "w"))
    print(f"double decisions {n} agreement {100 * agree / max(n, 1):.1f}% wrong doubles {wrong} "
          f"missed doubles {missed} cost {1000 * cost / max(n, 1):.1f} mEMG per decision")
    print(f"take decisions {takes} agreement {100 * take_agree / max(takes, 1):.1f}% wrong takes "
          f"{wrong_takes} wrong passes {wrong_passes} cost {1000 * take_cost / max(takes, 1):.1f} "
          f"mEMG per decision")


if __name__ == "__main__":
    main()
