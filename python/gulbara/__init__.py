"""gulbara: the engine for the tables games, in-process.

Positions and the rules (`State`, `Play`), the engine (`Engine`: best
plays and hints, evaluations of one position or a numpy batch, cube
decisions, rollouts), sessions and match equity tables (`Session`,
`met`), games and matches between engines (`play_game`, `play_match`)
and a reinforcement-learning environment (`Env`), for every game in
`GAMES`. See docs/PYTHON.md.
"""

from ._gulbara import (
    GAMES,
    Chances,
    CubeDecision,
    Engine,
    Env,
    GameResult,
    GulbaraError,
    Hint,
    MatchResult,
    Opening,
    Play,
    RolloutResult,
    Session,
    State,
    __version__,
    met,
    met_name,
    mwc,
    opening_throw,
    opponent_point,
    play_game,
    play_match,
    rule_options,
)

__all__ = [
    "GAMES",
    "Chances",
    "CubeDecision",
    "Engine",
    "Env",
    "GameResult",
    "GulbaraError",
    "Hint",
    "MatchResult",
    "Opening",
    "Play",
    "RolloutResult",
    "Session",
    "State",
    "__version__",
    "met",
    "met_name",
    "mwc",
    "opening_throw",
    "opponent_point",
    "play_game",
    "play_match",
    "rule_options",
]
