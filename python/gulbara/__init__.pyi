"""Type stubs of the gulbara package (the engine in-process). See docs/PYTHON.md."""

from typing import Callable, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str
GAMES: list[str]
"""The games: gulbara, long_nardy, short_nardy, backgammon, fevga, portes, tabla, plakoto, tapa."""

RuleValues = Mapping[str, Union[str, int]]

class GulbaraError(ValueError):
    """The engine refused a request; the message is the engine's."""

class State:
    """A game state under its rule options. Immutable and hashable."""

    @staticmethod
    def start(game: str, rules: Optional[RuleValues] = None, first: str = "w") -> State: ...
    @staticmethod
    def from_text(text: str, game: str, rules: Optional[RuleValues] = None) -> State: ...
    @staticmethod
    def from_gnubg_id(id: str, game: str = "backgammon", rules: Optional[RuleValues] = None) -> State: ...
    @staticmethod
    def from_xgid(xgid: str, game: str = "backgammon", rules: Optional[RuleValues] = None) -> State: ...
    @staticmethod
    def from_board(
        board: npt.NDArray[np.int8], game: str, rules: Optional[RuleValues] = None, to_move: str = "w"
    ) -> State: ...
    @property
    def game(self) -> str: ...
    @property
    def rules(self) -> dict[str, str]: ...
    @property
    def to_move(self) -> str:
        """'w' or 'b'."""
    @property
    def text(self) -> str:
        """The engine's position text (protocol/NOTATION.md)."""
    @property
    def pending(self) -> str:
        """'roll', 'dice 65', 'dice 55 escalating', 'chain 6', 'remainder 4x2'."""
    @property
    def dice(self) -> Optional[list[int]]: ...
    @property
    def rolls(self) -> tuple[int, int]: ...
    @property
    def pips(self) -> tuple[int, int]:
        """(side to move, opponent)."""
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> Optional[tuple[Optional[str], int]]:
        """(winner 'w'/'b' or None, points) once the game is over."""
    @property
    def board(self) -> npt.NDArray[np.int8]:
        """Shape (2, 26): [mover, opponent] x [off, points 1..24, bar]; a pinned checker is -1."""
    def gnubg_id(self, session: Optional[Session] = None) -> str: ...
    def xgid(self, session: Optional[Session] = None) -> str: ...
    def roll(self, d1: int, d2: int) -> State: ...
    def legal_plays(self, dice: Optional[tuple[int, int]] = None) -> list[Play]: ...
    def play(self, play: Union[Play, str]) -> State: ...

class Play:
    """One legal play of a stage."""

    @property
    def steps(self) -> list[tuple[int, int]]:
        """(from, die) in the mover's numbering; 25 is the bar."""
    @property
    def text(self) -> str: ...
    @property
    def end(self) -> State: ...
    @property
    def before(self) -> State: ...

class Opening:
    throws: list[tuple[int, int]]
    starter: str
    first_roll: Optional[tuple[int, int]]
    state: State

def opening_throw(game: str, seed: int, rules: Optional[RuleValues] = None) -> Opening: ...
def opponent_point(game: str, p: int) -> int: ...
def rule_options(game: str) -> dict[str, str]: ...

class Session:
    """Money play or a match to N: score, Crawford, the cube. Immutable."""

    @staticmethod
    def money(
        cube: bool = True, jacoby: bool = False, beavers: bool = False, cube_value: int = 1, owner: str = "center"
    ) -> Session: ...
    @staticmethod
    def match_to(
        length: int,
        score: tuple[int, int] = (0, 0),
        cube_value: int = 1,
        owner: str = "center",
        crawford: Optional[bool] = None,
        cube: bool = True,
        crawford_rule: bool = True,
    ) -> Session: ...
    @staticmethod
    def from_gnubg_id(id: str, game: str = "backgammon", rules: Optional[RuleValues] = None) -> Session: ...
    @staticmethod
    def from_xgid(xgid: str, game: str = "backgammon", rules: Optional[RuleValues] = None) -> Session: ...
    @property
    def kind(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def cube_value(self) -> int: ...
    @property
    def owner(self) -> str: ...
    @property
    def crawford(self) -> bool: ...
    @property
    def post_crawford(self) -> bool: ...
    @property
    def cube(self) -> bool: ...
    @property
    def doubled_by(self) -> Optional[str]: ...
    @property
    def winner(self) -> Optional[str]: ...
    def scored(self, winner: str, points: int) -> Session: ...
    def doubled(self, side: str) -> Session: ...

def met(game: str = "backgammon", cube: bool = True, length: Optional[int] = None) -> npt.NDArray[np.float64]: ...
def met_name(game: str = "backgammon", cube: bool = True) -> str: ...
def mwc(away: int, opp_away: int, post_crawford: bool = False, game: str = "backgammon", cube: bool = True) -> float: ...

class Chances:
    win: float
    win_mars: float
    lose_mars: float
    win_bg: float
    lose_bg: float
    equity: float
    def astuple(self) -> tuple[float, float, float, float, float]: ...

class Hint:
    @property
    def steps(self) -> list[tuple[int, int]]: ...
    @property
    def text(self) -> str: ...
    @property
    def end(self) -> State: ...
    @property
    def chances(self) -> Chances: ...
    @property
    def equity(self) -> float: ...
    @property
    def worth(self) -> Optional[float]: ...
    @property
    def worth_kind(self) -> Optional[str]: ...
    @property
    def ply(self) -> int: ...

class CubeDecision:
    action: str
    doubles: bool
    answer: str
    no_double: float
    double_take: float
    double_pass: float
    unit: str
    chances: Chances

class RolloutResult:
    games: int
    equity: float
    se: float
    chances: tuple[float, float, float, float, float]
    raw_equity: float
    raw_se: float
    play: Optional[str]

class Engine:
    """A game, its evaluator and its search settings."""

    def __init__(
        self,
        game: str = "backgammon",
        ply: int = 1,
        rules: Optional[RuleValues] = None,
        eval: str = "net",
        weights: Optional[str] = None,
        options: Optional[Mapping[str, Union[str, int]]] = None,
    ) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def settings(self) -> dict[str, str]: ...
    def best_play(
        self,
        state: State,
        dice: Optional[tuple[int, int]] = None,
        ply: Optional[int] = None,
        session: Optional[Session] = None,
    ) -> Hint: ...
    def hints(
        self,
        state: State,
        n: int = 5,
        dice: Optional[tuple[int, int]] = None,
        ply: Optional[int] = None,
        session: Optional[Session] = None,
    ) -> list[Hint]: ...
    def evaluate(self, state: State, ply: int = 1) -> Chances: ...
    def evaluate_batch(self, boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        """(n, 2, 26) boards in, (n, 5) chances out: win, win_mars, lose_mars, win_bg, lose_bg."""
    def cube(self, state: State, session: Optional[Session] = None) -> Optional[CubeDecision]: ...
    def rollout(
        self,
        state: State,
        games: int = 1296,
        truncate: int = 0,
        ply: int = 1,
        seed: int = 0,
        luck: bool = True,
        threads: int = 1,
        plays: Optional[Sequence[Union[Play, Hint]]] = None,
        max_seconds: Optional[float] = None,
        every: int = 0,
        progress: Optional[Callable[[list[RolloutResult]], object]] = None,
    ) -> list[RolloutResult]: ...

class GameResult:
    winner: Optional[str]
    points: int
    result_points: int
    dropped: bool
    forfeit: Optional[str]
    openings: list[tuple[int, int]]
    turns: list[str]
    final_state: State

class MatchResult:
    winner: Optional[str]
    score: tuple[int, int]
    games: list[GameResult]

Player = Union[Engine, str]

def play_game(
    white: Player,
    black: Player,
    seed: int = 0,
    game: Optional[str] = None,
    rules: Optional[RuleValues] = None,
    session: Optional[Session] = None,
) -> GameResult: ...
def play_match(
    white: Player,
    black: Player,
    length: int,
    seed: int = 0,
    game: Optional[str] = None,
    rules: Optional[RuleValues] = None,
    cube: bool = True,
) -> MatchResult: ...

class Env:
    """Self-play by stages: reset, legal actions, step, reward."""

    def __init__(self, game: str, seed: int = 0, rules: Optional[RuleValues] = None) -> None: ...
    def reset(self, seed: Optional[int] = None) -> State: ...
    @property
    def state(self) -> State: ...
    @property
    def done(self) -> bool: ...
    @property
    def to_move(self) -> str: ...
    @property
    def returns(self) -> tuple[int, int]: ...
    def legal_actions(self) -> list[int]: ...
    def num_actions(self) -> int: ...
    def plays(self) -> list[Play]: ...
    def afterstates(self) -> npt.NDArray[np.int8]: ...
    def observation(self) -> npt.NDArray[np.int8]: ...
    def step(self, action: int) -> tuple[State, int, bool]: ...
