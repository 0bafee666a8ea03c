#!/usr/bin/env python3
"""Backgammon positions of a kind self-play rarely reaches: a side bearing off is hit.

One side (the *bearer*) has borne off some checkers and has one or two on the bar,
sometimes one more still out in the opponent's half, the rest in its home board. The
other side holds a home board of three to six points and has its remaining checkers
spread over the board, a few of them in the bearer's home (the checkers that hit). Either
side may be on roll. docs/TRAINING.md ("Bearing off against contact") says why, and
docs/journal/training.md (the same name, under "Moved from TRAINING.md on 2026-12-07") has
the commands: the network read such positions as easy wins and doubled into a redouble war
against gnubg.

Writes a positions file for `gulbara label`: the header line, then one position text a
line (no kind word: none of `gulbara positions`' kinds fits), in White's numbering as
docs/NOTATION.md gives it. Usage:

    scripts/bearoff_contact_positions.py COUNT SEED > positions.txt
"""

import random
import sys


def one(rng):
    """One position: (24 counts in White's numbering, side to move, bar W, bar B)."""
    board = [0] * 25  # 1..24, White's numbering; White moves down to its home 1..6
    # The bearer is White here; Black holds the board (its home: points 19..24).
    on_bar = 1 if rng.random() < 0.7 else 2
    out = 1 if rng.random() < 0.35 else 0
    off = rng.randint(3, 12)
    home = 15 - off - on_bar - out
    if home < 1:
        off -= 1 - home
        home = 1
    made = rng.sample(range(19, 25), rng.randint(3, 6))
    black = 15
    for p in made:
        n = 3 if rng.random() < 0.25 else 2
        # At least two checkers stay for the hitters and the rest.
        n = min(n, black - 2)
        if n < 2:
            break
        board[p] = -n
        black -= n
    # The checkers that hit: one to three in White's home.
    hitters = min(black, rng.randint(1, 3))
    white_home_points = rng.sample(range(1, 7), 6)
    hitter_points = white_home_points[:hitters]
    for p in hitter_points:
        board[p] -= 1
    black -= hitters
    # White's home checkers on the other home points.
    free = [p for p in range(1, 7) if board[p] == 0]
    for _ in range(home):
        board[rng.choice(free)] += 1
    # A White checker still out in Black's half, on a point Black does not hold.
    if out:
        open_points = [p for p in range(13, 25) if board[p] == 0]
        board[rng.choice(open_points)] += 1
    # Black's other checkers: its outfield, White's outfield, the rest of its home.
    spots = [p for p in range(7, 25) if board[p] <= 0]
    for _ in range(black):
        board[rng.choice(spots)] -= 1
    to_move = "w" if rng.random() < 0.6 else "b"
    counts = board[1:]
    if rng.random() < 0.5:
        # The same position with the colours swapped: Black is the bearer.
        counts = [-c for c in reversed(counts)]
        to_move = "b" if to_move == "w" else "w"
        return counts, to_move, 0, on_bar
    return counts, to_move, on_bar, 0


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        count, seed = int(sys.argv[1]), int(sys.argv[2])
    except ValueError:
        sys.exit("COUNT and SEED are whole numbers")
    if count < 1:
        sys.exit("COUNT must be at least 1")
    rng = random.Random(seed)
    print(
        f"# gulbara positions variant=backgammon bearoff-contact count={count} seed={seed}"
        f" positions={count}"
    )
    for _ in range(count):
        counts, to_move, bar_w, bar_b = one(rng)
        white = sum(c for c in counts if c > 0) + bar_w
        black = -sum(c for c in counts if c < 0) + bar_b
        assert max(white, black) == 15 and min(white, black) <= 12
        text = ",".join(str(c) for c in counts)
        print(f"{text} {to_move} 0 0 bar={bar_w},{bar_b}")


if __name__ == "__main__":
    main()
