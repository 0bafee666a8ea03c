# Lists every distinct legal play gnubg finds for a batch of backgammon
# positions and rolls, as the gnubg Position IDs of the positions after the
# play (still seen by the side that moved). Used by tests/gnubg_compare.rs.
#
# Runs inside GNU Backgammon, once for the whole batch:
#
#   GNUBG_LEGAL_IN=cases.txt GNUBG_LEGAL_OUT=ends.txt \
#       gnubg -t -q -r -p scripts/gnubg_legal.py </dev/null
#
# Input, one case a line: `a b s0 s1 ... s25`: the dice, then gnubg's
# `set board simple` board from the side on roll's view: s0 its bar,
# s1..s24 points 1..24 in its numbering (positive its checkers, negative the
# opponent's), s25 the opponent's bar (a positive count).
#
# Output, one line a case, in order: `ok N ID|TEXT...` (N ends, possibly 0
# when nothing can be played; TEXT is gnubg's own text of the play, as its
# hint writes it, with its spaces written as commas) or `error MESSAGE`,
# then a last line `done`.
#
# What matters about gnubg (1.07):
# - both players must be human, or `new game` lets gnubg play its side;
# - `set board simple` takes the board from the side on roll's view;
#   gnubg.board() then returns (opponent, side on roll), each in its own
#   numbering (index 0..23 points 1..24, index 24 the bar), and
#   gnubg.positionid(board) writes board[0] (the opponent) first;
# - hint(n) returns at most n moves (deduplicated by the position after the
#   move), the best first, and an empty list when nothing can be played;
#   the list is cut at n silently, so n is far above any real count;
# - a move's text (e.g. `bar/22* 13/7*/5`, `6/off(2)`) is turned into
#   (from, to) pairs by gnubg.parsemove (25 is the bar, 0 is off), applied
#   here in order; a hit is a single opposing checker on the landing point;
# - `set threads 1`: with gnubg's worker threads, each hint mostly waits.

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(sys._getframe().f_code.co_filename)))

import gnubg  # noqa: E402
import gnubg_batch  # noqa: E402

LIMIT = 100000


def apply_move(board, pairs):
    """Returns (opponent, mover) after the steps, or raises ValueError."""
    opp = list(board[0])
    me = list(board[1])
    for frm, to in pairs:
        src = 24 if frm == 25 else frm - 1
        if not 1 <= frm <= 25 or me[src] == 0:
            raise ValueError("no checker on %d" % frm)
        me[src] -= 1
        if to > 0:
            if to > 24:
                raise ValueError("bad destination %d" % to)
            there = 24 - to  # the opponent's point 25 - to
            if opp[there] > 1:
                raise ValueError("lands on a made point %d" % to)
            if opp[there] == 1:
                opp[there] = 0
                opp[24] += 1
            me[to - 1] += 1
    return (tuple(opp), tuple(me))


def expected_board(simple):
    me = [0] * 25
    opp = [0] * 25
    me[24] = simple[0]
    opp[24] = simple[25]
    for p in range(1, 25):
        n = simple[p]
        if n > 0:
            me[p - 1] = n
        elif n < 0:
            opp[24 - p] = -n
    return (tuple(opp), tuple(me))


def one_case(line):
    fields = [int(x) for x in line.split()]
    if len(fields) != 28:
        raise ValueError("expected 28 numbers, got %d" % len(fields))
    a, b = fields[0], fields[1]
    simple = fields[2:]
    gnubg.command("set board simple " + " ".join(str(x) for x in simple))
    board = gnubg.board()
    want = expected_board(simple)
    if tuple(map(tuple, board)) != want:
        raise ValueError("gnubg took the board as %r" % (board,))
    gnubg.command("set dice %d %d" % (a, b))
    moves = gnubg.hint(LIMIT)["hint"]
    if len(moves) >= LIMIT:
        raise ValueError("hint list cut at %d" % LIMIT)
    ids = []
    texts = []
    for m in moves:
        after = apply_move(board, gnubg.parsemove(m["move"]))
        ids.append(gnubg.positionid(after))
        texts.append(m["move"].strip().replace(" ", ","))
    if len(set(ids)) != len(ids):
        raise ValueError("gnubg listed one end twice")
    return "ok %d %s" % (len(ids), " ".join("%s|%s" % p for p in zip(ids, texts)))


gnubg_batch.run(
    "gnubg_legal.py",
    "GNUBG_LEGAL_IN",
    "GNUBG_LEGAL_OUT",
    [
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set evaluation chequerplay evaluation plies 0",
        # With worker threads each hint waits on them: 5x slower here.
        "set threads 1",
        "new game",
    ],
    one_case,
)
