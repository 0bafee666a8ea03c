"""Positions, IDs, board arrays and the rules, against hand-checked facts,
a naive reference and the engine's own protocol."""

import itertools
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gulbara
from gulbara import GulbaraError, Session, State

ROOT = Path(__file__).resolve().parents[2]


def gulbara_binary():
    """The engine's binary, built by `cargo build --release` (CI builds it
    before it runs pytest)."""
    path = Path(os.environ.get("GULBARA_BIN", ROOT / "target" / "release" / "gulbara"))
    if not path.exists():
        pytest.fail(f"the engine's binary {path} is missing: cargo build --release first")
    return path


def protocol(lines):
    """The engine's answers to protocol lines, over its stdin."""
    out = subprocess.run(
        [str(gulbara_binary())],
        input="\n".join(lines + ["quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.splitlines()


def naive_start_plays(d1, d2):
    """Backgammon's start, White to play d1-d2 (different dice, no hit
    possible): every end position a naive search over both orders
    reaches, as sorted tuples of (point, count)."""
    own = {24: 2, 13: 5, 8: 3, 6: 5}
    # Black's checkers in White's numbering: points with two or more are closed.
    closed = {1, 12, 17, 19}
    ends = set()
    for first, second in ((d1, d2), (d2, d1)):
        for a in [p for p in own if p - first >= 1 and p - first not in closed]:
            after = dict(own)
            after[a] -= 1
            after[a - first] = after.get(a - first, 0) + 1
            for b in [p for p, n in after.items() if n and p - second >= 1 and p - second not in closed]:
                end = dict(after)
                end[b] -= 1
                end[b - second] = end.get(b - second, 0) + 1
                ends.add(tuple(sorted((p, n) for p, n in end.items() if n)))
    return ends


def test_start_65_has_the_seven_plays_of_a_naive_search_and_of_the_protocol():
    s = State.start("backgammon")
    plays = s.legal_plays(dice=(6, 5))
    texts = [p.text for p in plays]
    # Hand-checked: 13/7 13/8, 13/7/2, 13/7 8/3, 24/18 13/8, 24/18/13,
    # 24/18 8/3, 8/2 8/3 (24/19 and 6/1 land on Black's points).
    assert len(plays) == 7
    ends = set()
    for p in plays:
        row = p.end.board[1]  # after the play Black is to move: White is row 1
        ends.add(tuple((pt, int(row[pt])) for pt in range(1, 25) if row[pt]))
    assert ends == naive_start_plays(6, 5)
    answer = protocol(["set game.variant backgammon", "position startpos", "dice 65", "legal"])
    assert [l[len("play "):] for l in answer if l.startswith("play ")] == texts
    assert "legal count 7 playable 2" in answer


def test_every_game_opens_and_lists_the_protocols_legal_plays():
    for game in gulbara.GAMES:
        o = gulbara.opening_throw(game, seed=7)
        s = o.state if o.first_roll else o.state.roll(3, 1)
        plays = s.legal_plays()
        assert plays, game
        ends = [p.end for p in plays]
        assert len(set(ends)) == len(ends), game
        roll = o.first_roll or (3, 1)
        side = "b" if o.starter == "b" else "w"
        answer = protocol(
            [
                f"set game.variant {game}",
                f"position startpos {side}",
                f"dice {roll[0]}{roll[1]}",
                "legal",
            ]
        )
        assert [l[len("play "):] for l in answer if l.startswith("play ")] == [p.text for p in plays], game


def test_a_play_applies_and_matches_the_move_words():
    s = State.start("backgammon").roll(6, 5)
    by_text = {p.text: p for p in s.legal_plays()}
    after = s.play(by_text["24/18 13/8"])
    assert after == s.play("24/18 13/8")
    assert after.to_move == "b" and after.pending == "roll"
    assert after.pips == (167, 156)
    with pytest.raises(GulbaraError, match="no legal way to play it with the dice left"):
        s.play("24/18 24/19")
    other = State.start("backgammon").roll(3, 1)
    with pytest.raises(GulbaraError, match="not one of this state's"):
        other.play(by_text["24/18 13/8"])


def test_gnubg_ids_round_trip_from_the_start():
    s = State.start("backgammon")
    gid = s.gnubg_id()
    assert gid.split(":")[0] == "4HPwATDgc/ABMA"
    assert State.from_gnubg_id(gid) == s
    assert State.from_gnubg_id("4HPwATDgc/ABMA") == s
    rolled = s.roll(6, 5)
    # The dice travel in the Match ID, as the protocol's `show` writes it.
    assert rolled.gnubg_id() == "4HPwATDgc/ABMA:cAkXAAAAAAAE"
    back = State.from_gnubg_id(rolled.gnubg_id())
    assert back.pending == "dice 65" and back.board.tolist() == rolled.board.tolist()
    x = rolled.xgid()
    assert x == "XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:0:10"
    assert State.from_xgid(x).board.tolist() == rolled.board.tolist()


def test_a_match_id_carries_the_session():
    m = Session.match_to(7, score=(2, 4), cube_value=2, owner="b")
    s = State.start("backgammon")
    gid = s.gnubg_id(m)
    back = Session.from_gnubg_id(gid)
    assert (back.kind, back.length, back.score, back.cube_value, back.owner) == ("match", 7, (2, 4), 2, "b")
    xb = Session.from_xgid(s.xgid(m))
    assert (xb.length, xb.score, xb.cube_value, xb.owner) == (7, (2, 4), 2, "b")


def test_position_text_round_trips_in_every_game():
    for game in gulbara.GAMES:
        s = gulbara.opening_throw(game, seed=3).state
        for _ in range(6):
            if s.is_over:
                break
            if s.pending == "roll":
                s = s.roll(5, 2)
            s = s.play(s.legal_plays()[0])
            assert State.from_text(s.text, game) == s, game


def test_board_arrays_round_trip_and_bad_boards_raise():
    s = State.start("backgammon")
    b = s.board
    assert b.dtype == np.int8 and b.shape == (2, 26)
    # The mover's 24-point holds two, its 6-point five; nothing off.
    assert b[0, 24] == 2 and b[0, 6] == 5 and b[0, 0] == 0 and b[0, 25] == 0
    assert State.from_board(b, "backgammon") == s
    bad = b.copy()
    bad[0, 24] = 1  # 14 checkers in play, none borne off
    with pytest.raises(GulbaraError, match="off must be 1"):
        State.from_board(bad, "backgammon")
    bad[0, 24] = 3
    with pytest.raises(GulbaraError, match="16 checkers, more than 15"):
        State.from_board(bad, "backgammon")
    shared = b.copy()
    shared[0, 19] = 1  # Black holds White's 19 (its own 6)
    shared[0, 0] = -1
    with pytest.raises(GulbaraError):
        State.from_board(shared, "backgammon")
    with pytest.raises(GulbaraError, match="2 rows of 26"):
        State.from_board(np.zeros((3, 26), dtype=np.int8), "backgammon")


def test_a_pinned_checker_is_minus_one_in_plakoto():
    s = State.from_text("1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1 w 0 0 pins=1", "plakoto")
    rows = s.board
    assert -1 in rows[1].tolist()
    assert State.from_board(rows, "plakoto", to_move="w") .board.tolist() == rows.tolist()


def test_rule_options_and_the_engines_messages():
    assert gulbara.rule_options("long_nardy")["six_block"] == "end_of_turn"
    s = State.start("long_nardy", rules={"six_block": "per_step"})
    assert s.rules["six_block"] == "per_step"
    with pytest.raises(GulbaraError) as e:
        State.start("long_nardy", rules={"six_block": "sometimes"})
    assert str(e.value) == "rules.six_block must be one of end_of_turn|per_step, got 'sometimes'"
    with pytest.raises(GulbaraError, match="is not an option of backgammon"):
        State.start("backgammon", rules={"remainder": "lost"})
    with pytest.raises(GulbaraError, match="must be one of"):
        State.start("chess")
    with pytest.raises(GulbaraError, match="bad position"):
        State.from_text("not a position", "backgammon")
    with pytest.raises(GulbaraError, match="must roll"):
        State.start("backgammon").legal_plays()
    with pytest.raises(GulbaraError, match="bad dice"):
        State.start("backgammon").roll(7, 1)


def test_the_game_over_and_its_result():
    # White has one checker left on its 1-point; Black has borne off none,
    # all in its own home (White's 24-point): a gammon.
    s = State.from_text("1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15 w 0 0", "backgammon")
    assert not s.is_over and s.result is None
    end = s.play("21 1/off")
    assert end.is_over
    assert end.result == ("w", 2)
    # Black's checkers in White's home (White's 6-point): a backgammon.
    bg = State.from_text("1,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 w 0 0", "backgammon")
    assert bg.play("21 1/off").result == ("w", 3)
    # The same race in long nardy: a mars, worth 2.
    ln = State.from_text("1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15 w 0 0", "long_nardy")
    assert ln.is_over or ln.play("21 1/off").result == ("w", 2)
    with pytest.raises(GulbaraError, match="over"):
        end.roll(2, 1)


def test_the_opening_throw_is_the_seeds():
    a = gulbara.opening_throw("backgammon", seed=11)
    b = gulbara.opening_throw("backgammon", seed=11)
    assert (a.throws, a.starter, a.first_roll) == (b.throws, b.starter, b.first_roll)
    w, bl = a.throws[-1]
    assert w != bl and a.starter == ("w" if w > bl else "b")
    assert all(x == y for x, y in a.throws[:-1])
    # Long nardy rerolls: the starter rolls anew.
    n = gulbara.opening_throw("long_nardy", seed=11)
    assert n.first_roll is None and n.state.pending == "roll"


def test_every_option_of_every_game_is_accepted():
    for game in gulbara.GAMES:
        for name, value in gulbara.rule_options(game).items():
            s = State.start(game, rules={name: value})
            assert s.rules[name] == value
    names = list(itertools.chain.from_iterable(gulbara.rule_options(g) for g in gulbara.GAMES))
    assert "head_first_turn" in names and "remainder" in names


@pytest.mark.parametrize("option", ["needs_second", "fixed_3_4_6", "fixed_4_6", "any_double"])
def test_long_nardys_head_rule_options_give_the_protocols_plays(option):
    lines = [f"set game.variant long_nardy", f"set rules.head_first_turn {option}", "position startpos"]
    counts = {}
    for d in (3, 4, 6):
        s = State.start("long_nardy", rules={"head_first_turn": option})
        plays = s.legal_plays(dice=(d, d))
        answer = protocol(lines + [f"dice {d}{d}", "legal"])
        assert [l[len("play "):] for l in answer if l.startswith("play ")] == [p.text for p in plays]
        counts[d] = (len(plays), max(len(p.steps) for p in plays))
    # Hand-checked: 6-6 is blocked after two checkers (the opponent's head on 12);
    # 3-3 takes a second checker off the head only where the option lets it.
    assert counts[6] == (1, 2)
    if option == "fixed_4_6":
        assert counts[3] == (1, 3)
    else:
        assert counts[3] == (2, 4)
