"""The rule readings where the sources disagree (issue 49), chosen through
the Python API: each reading's legal plays are the engine's protocol's under
the same `set rules.NAME`, and the two readings differ on hand-built
positions (the positions of tests/rules_readings.rs, worked out by hand
there)."""

import pytest

import gulbara
from gulbara import GulbaraError, State

from test_rules import protocol

# (game, [options of the first reading, of the second], position text,
# dice, what holds of the first reading's plays and not of the second's)
READINGS = [
    # Fevga, 1-1: 20/19 makes six in a row with every black checker behind;
    # `duty` allows it, `ban` does not.
    (
        "fevga",
        [{"prime": "duty"}, {"prime": "ban"}],
        "0,0,0,0,9,0,0,-5,0,0,0,-10,0,1,1,1,1,1,0,1,0,0,0,0 w 9 9",
        (1, 1),
        lambda plays: "20/19 5/4 5/4 5/4" in plays,
    ),
    # Fevga, 6-1 with Black's start empty: under `quarter` 13/12 reaches
    # Black's starting quarter and frees the start for 24/18.
    (
        "fevga",
        [{"prime": "ban", "start_rule": "quarter"}, {"prime": "ban", "start_rule": "pass"}],
        "0,0,0,0,0,0,0,-15,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,14 w 9 9",
        (6, 1),
        lambda plays: any("13/12" in p and "24/18" in p for p in plays),
    ),
    # Plakoto and Tapa, 2-1, a checker pinned on White's 5: `home` bears off
    # around it, `refuse` does not bear off.
    *[
        (
            game,
            [{"pinned_bearoff": "home"}, {"pinned_bearoff": "refuse"}],
            "5,5,4,0,-1,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0,0,0,0 w 9 9 pins=5",
            (2, 1),
            lambda plays: any("/off" in p for p in plays),
        )
        for game in ("plakoto", "tapa")
    ],
    # Plakoto and Tapa, 6-5, Black's mother alone on White's 1: 6/1 pins it;
    # at the `step` the game ends there, at the `end` the 6 is played too.
    *[
        (
            game,
            [{"mother_timing": "step"}, {"mother_timing": "end"}],
            "-1,0,0,0,0,10,0,5,0,0,0,0,0,0,-14,0,0,0,0,0,0,0,0,0 w 9 9",
            (6, 5),
            lambda plays: "6/1" in plays,
        )
        for game in ("plakoto", "tapa")
    ],
]


@pytest.mark.parametrize("game,options,text,dice,tells", READINGS)
def test_each_reading_gives_the_protocols_plays_and_the_two_differ(game, options, text, dice, tells):
    lists = []
    for rules in options:
        s = State.from_text(text, game, rules=rules)
        assert all(s.rules[k] == v for k, v in rules.items())
        plays = sorted(p.text for p in s.legal_plays(dice=dice))
        lines = [f"set game.variant {game}"]
        lines += [f"set rules.{k} {v}" for k, v in rules.items()]
        lines += [f"position board {text}", f"dice {dice[0]} {dice[1]}", "legal"]
        answer = protocol(lines)
        assert plays == sorted(l[len("play "):] for l in answer if l.startswith("play ")), rules
        lists.append(plays)
    assert tells(lists[0]), (options[0], lists[0])
    assert not tells(lists[1]), (options[1], lists[1])


def test_the_readings_are_listed_with_their_defaults_and_bad_values_raise():
    assert gulbara.rule_options("fevga")["prime"] == "duty"
    assert gulbara.rule_options("fevga")["start_rule"] == "pass"
    for game in ("plakoto", "tapa"):
        assert gulbara.rule_options(game)["pinned_bearoff"] == "home"
        assert gulbara.rule_options(game)["mother_timing"] == "step"
    with pytest.raises(GulbaraError) as e:
        State.start("plakoto", rules={"mother_timing": "later"})
    assert str(e.value) == "rules.mother_timing must be one of step|end, got 'later'"
    with pytest.raises(GulbaraError, match="rules.prime is not an option of plakoto"):
        State.start("plakoto", rules={"prime": "duty"})


def test_a_reading_holds_over_a_played_game():
    # The mother judged at the end: a game played with it keeps it.
    s = gulbara.opening_throw("plakoto", seed=5).state
    s = State.from_text(s.text, "plakoto", rules={"mother_timing": "end", "pinned_bearoff": "refuse"})
    for _ in range(10):
        if s.is_over:
            break
        if s.pending == "roll":
            s = s.roll(6, 5)
        s = s.play(s.legal_plays()[0])
        assert s.rules["mother_timing"] == "end" and s.rules["pinned_bearoff"] == "refuse"
