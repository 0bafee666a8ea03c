#!/usr/bin/env python3
"""Points per game ± standard error from the records of unfinished matches.

`gulbara match --records DIR` writes one record per finished game
(game-NNNNNN.txt). When a long match is stopped before its end (the
look-ahead yardsticks are slow), this counts the complete mirrored pairs
(games 2k-1 and 2k, played on the same dice) of one or more such folders,
each pair the mean of its two games, as the match report does (a game
with no winner, stuck or drawn, is left out with its pair):

    python3 scripts/yardsticks/records_ppg.py gulbara-0ply /tmp/la-rec-0 /tmp/la-rec-1

The first argument is the engine's name (`name=` of `--engine`) whose points
are counted. A folder is one match (one seed, or one shard of it).
"""

import glob
import math
import os
import re
import sys


def game_points(text, name):
    """The points `name` won (negative: lost) in one record, or None."""
    players = re.search(r"White : (\S+)\s+Black : (\S+)", text)
    result = re.search(r"Wins (\d+) points? \((White|Black)\)", text)
    if not players or not result:
        return None
    winner = players.group(1) if result.group(2) == "White" else players.group(2)
    if name not in (players.group(1), players.group(2)):
        raise ValueError(f"no engine named {name} in this record")
    points = int(result.group(1))
    return points if winner == name else -points


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name = sys.argv[1]
    pairs = []
    for folder in sys.argv[2:]:
        if not os.path.isdir(folder):
            sys.exit(f"{folder}: not a folder")
        games = {}
        for path in glob.glob(os.path.join(folder, "game-*.txt")):
            number = re.search(r"game-(\d+)\.txt$", path)
            if number:
                with open(path) as f:
                    try:
                        points = game_points(f.read(), name)
                    except ValueError as e:
                        sys.exit(f"{path}: {e}")
                if points is not None:
                    games[int(number.group(1))] = points
        pairs += [
            (games[k], games[k + 1]) for k in sorted(games) if k % 2 == 1 and k + 1 in games
        ]
    n = len(pairs)
    if n < 2:
        sys.exit(f"{n} complete pair(s): too few for a standard error")
    values = [(a + b) / 2 for a, b in pairs]
    mean = sum(values) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    wins = sum((a > 0) + (b > 0) for a, b in pairs)
    print(f"games {2 * n} (complete pairs {n})  {name} wins {wins} - {2 * n - wins}  ppg {mean:+.3f} ± {se:.3f}")


if __name__ == "__main__":
    main()
