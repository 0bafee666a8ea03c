//! The games of the family and what each one is: one [`VariantSpec`] per
//! variant, a `const`, read through [`Variant::spec`].
//!
//! Code outside a game's own rules module asks this table (does the game
//! have a bar, can gnubg describe it, what does a backgammon score) and never
//! names a variant, so a new game is one more row here, its rules module,
//! its evaluator inputs and, if it needs them, its notation marks.

use std::fmt;
use std::str::FromStr;

use super::hitting;
use super::options::{
    EXEMPT_ROLLS, ExemptScope, HeadFirstTurn, MotherTiming, Opening, OptionDef, OptionError,
    PinnedBearoff, Prime, RemainderRule, SixBlock, StartRule,
};
use super::position::Position;

/// A game of the family (a rule set).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Gul bara: same-direction running, escalating doublets.
    #[default]
    GulBara,
    /// Long nardy: same-direction running, head and six-block rules.
    LongNardy,
    /// Short nardy: backgammon's board and hitting, oin/mars scoring: Portes'
    /// rules under another name, with its own match equity table.
    ShortNardy,
    /// Standard backgammon.
    Backgammon,
    /// Fevga: the Greek running game on Gul bara's board, with the
    /// starting rule and the limits on walls.
    Fevga,
    /// Portes: Greek backgammon (gammon 2, no backgammon, the winner of
    /// the opening throw rolls afresh, no cube).
    Portes,
    /// Tabla: Bulgarian backgammon (gammon 2, no backgammon, no cube).
    Tabla,
    /// Plakoto: the Greek pinning game.
    Plakoto,
    /// Tapa: the Bulgarian pinning game, a preset of Plakoto's rules.
    Tapa,
}

/// Which way the two sides travel round the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Both sides the same way round, each from its own head (Gul bara, the
    /// nardy board of long nardy): a side's point `p` is the other's `p ± 12`.
    Same,
    /// Towards each other (backgammon): a side's point `p` is the other's
    /// `25 - p`.
    Opposite,
}

/// What landing on a lone opposing checker does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Landing {
    /// Nothing may land there: one checker holds a point (Gul bara, nardy).
    Blocked,
    /// The checker is hit and goes to the bar, from which it must enter
    /// first; plays that hit are written with a `*` (backgammon).
    Hit,
    /// The checker is pinned under the one that landed and cannot move until
    /// it leaves (the pinning games).
    Pin,
}

impl Landing {
    /// Whether checkers can be on the bar.
    pub const fn has_bar(self) -> bool {
        matches!(self, Landing::Hit)
    }

    /// Whether a step that lands on a lone checker is written with a `*`
    /// (as gnubg writes hits).
    pub const fn marks_hits(self) -> bool {
        matches!(self, Landing::Hit)
    }
}

/// The points each kind of win scores.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Scores {
    /// A win after the loser has borne off.
    pub single: u8,
    /// A win before the loser has borne off any checker (mars, gammon).
    pub double: u8,
    /// A gammon while the loser still has a checker on the bar or in the
    /// winner's home (a backgammon), where the game scores it.
    pub triple: Option<u8>,
}

impl Scores {
    /// One point for a single game, two for a gammon (mars, oin), nothing
    /// more: every game but backgammon.
    pub const GAMMON_DOUBLES: Scores = Scores {
        single: 1,
        double: 2,
        triple: None,
    };

    /// The most points one game can be worth.
    pub const fn max(self) -> u8 {
        match self.triple {
            Some(t) => t,
            None => self.double,
        }
    }
}

/// How many checkers may leave the head (the start point) in a turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HeadRule {
    /// Any number.
    Free,
    /// One a turn, except a side's first-turn doublets as the
    /// `head_first_turn` option says (long nardy).
    OnePerTurn,
    /// No second checker leaves until one has passed the opponent's start
    /// (Fevga).
    RunnerFirst,
}

/// Which rows of held points a side may build.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockRule {
    /// Any.
    Free,
    /// No six points in a row with no opposing checker ahead of them, judged
    /// when the `six_block` option says (long nardy).
    NoSixBlock,
    /// As [`BlockRule::NoSixBlock`], and never all six points of the
    /// side's starting quarter (Fevga).
    NoSixBlockNorStartQuarter,
}

/// The rules module that plays a game's steps and stages. Games whose rules
/// are another's with other scores, opening or cube are presets of its
/// module: rows of the table, not modules of their own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RulesModule {
    /// [`super::movegen`] unrestricted: Gul bara.
    Running,
    /// [`super::nardy`]: long nardy's head and six-block rules.
    LongNardy,
    /// [`super::fevga`]: Fevga's starting rule and walls.
    Fevga,
    /// [`super::hitting`]: backgammon's board, bar and hits.
    Hitting,
    /// [`super::pinning`]: backgammon's directions, pins and the mother rule.
    Pinning,
}

/// The evaluators a game uses: its network's input layouts, its hand-written
/// baseline and the self-play trainer that makes its network. Games of one
/// family share a network file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EvalFamily {
    /// Gul bara's (network input layouts 1, 4 and 5, the heuristic
    /// baseline, TD self-play with escalating chains).
    GulBara,
    /// Long nardy's (network input layout 3).
    LongNardy,
    /// The hitting games' (network input layout 2, trained by TD(λ)).
    Hitting,
    /// The pinning games' (the hitting games' baseline and network shape
    /// and inputs, their own weights trained by TD(λ) on Plakoto, then
    /// supervised on rolled-out positions).
    Pinning,
}

/// The network a game plays unless `engine.weights` names another: one
/// weights file shipped inside the binary. Games naming the same one share
/// it (an engine keeps one loaded network per name).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ShippedNet {
    /// `src/eval/gulbara.gbnn`.
    GulBara,
    /// `src/eval/long_nardy.gbnn`.
    LongNardy,
    /// `src/eval/fevga.gbnn` (long nardy's inputs, trained on Fevga).
    Fevga,
    /// `src/eval/backgammon.gbnn` (backgammon, short nardy, Portes, Tabla).
    Backgammon,
    /// `src/eval/plakoto.gbnn` (Plakoto, Tapa).
    Plakoto,
}

impl ShippedNet {
    /// How many there are.
    pub const COUNT: usize = 5;

    /// An index `0..COUNT`.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What the rest of the code needs to know about one game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct VariantSpec {
    /// The protocol's name (`game.variant`, records' `Variant` tag).
    pub name: &'static str,
    /// The name for people.
    pub display_name: &'static str,
    /// Which way the sides travel.
    pub direction: Direction,
    /// What landing on a lone opposing checker does (and so whether a bar
    /// exists and hits are marked).
    pub landing: Landing,
    /// Whether gnubg's board, Position ID, XGID and `.mat` files can
    /// describe the game (15 checkers a side, opposite directions, a bar).
    pub gnubg: bool,
    /// The points each kind of win scores.
    pub scores: Scores,
    /// Whether doublets escalate.
    pub escalating: bool,
    /// The head (mother) rule.
    pub head: HeadRule,
    /// The block rule.
    pub block: BlockRule,
    /// How the first turn is played unless the `opening` option says
    /// otherwise.
    pub opening: Opening,
    /// The rule options, in documentation order.
    pub options: &'static [OptionDef],
    /// Whether the doubling cube is in play unless a session says otherwise.
    pub cube: bool,
    /// The rules module that plays the game.
    pub module: RulesModule,
    /// The game's match equity table for matches without the cube, as
    /// `gulbara met` writes it (from the game's own gammon rates); `None`:
    /// a published table (Kazaross-XG2) serves.
    pub met: Option<&'static str>,
    /// The default session: a match to this many points, 0 for money play.
    pub match_length: u32,
    /// The evaluators and network shape the game uses.
    pub eval: EvalFamily,
    /// Its shipped network's weights.
    pub net: ShippedNet,
    /// The starting position (either side to move: every start is
    /// symmetric).
    pub start: Position,
}

/// Gul bara: same-direction running, escalating doublets.
pub const GUL_BARA: VariantSpec = VariantSpec {
    name: "gulbara",
    display_name: "Gul bara",
    direction: Direction::Same,
    landing: Landing::Blocked,
    gnubg: false,
    scores: Scores::GAMMON_DOUBLES,
    escalating: true,
    head: HeadRule::Free,
    block: BlockRule::Free,
    opening: Opening::Single,
    options: &[
        Opening::OPTION,
        EXEMPT_ROLLS,
        ExemptScope::OPTION,
        RemainderRule::OPTION,
    ],
    cube: false,
    module: RulesModule::Running,
    met: Some(include_str!("met/gulbara.met")),
    match_length: 0,
    eval: EvalFamily::GulBara,
    net: ShippedNet::GulBara,
    start: Position::START,
};

/// Long nardy: the running game with the head and six-block rules.
pub const LONG_NARDY: VariantSpec = VariantSpec {
    name: "long_nardy",
    display_name: "Long nardy",
    direction: Direction::Same,
    landing: Landing::Blocked,
    gnubg: false,
    scores: Scores::GAMMON_DOUBLES,
    escalating: false,
    head: HeadRule::OnePerTurn,
    block: BlockRule::NoSixBlock,
    opening: Opening::Reroll,
    options: &[Opening::OPTION, HeadFirstTurn::OPTION, SixBlock::OPTION],
    cube: false,
    module: RulesModule::LongNardy,
    met: Some(include_str!("met/long_nardy.met")),
    match_length: 0,
    eval: EvalFamily::LongNardy,
    net: ShippedNet::LongNardy,
    start: Position::START,
};

/// Short nardy: backgammon's board and hitting, oin/mars scoring: Portes'
/// rules under another name, with its own match equity table.
pub const SHORT_NARDY: VariantSpec = VariantSpec {
    name: "short_nardy",
    display_name: "Short nardy",
    met: Some(include_str!("met/short_nardy.met")),
    ..PORTES
};

/// Standard backgammon.
pub const BACKGAMMON: VariantSpec = VariantSpec {
    name: "backgammon",
    display_name: "Backgammon",
    direction: Direction::Opposite,
    landing: Landing::Hit,
    gnubg: true,
    scores: Scores {
        triple: Some(3),
        ..Scores::GAMMON_DOUBLES
    },
    escalating: false,
    head: HeadRule::Free,
    block: BlockRule::Free,
    opening: Opening::Single,
    options: &[Opening::OPTION],
    cube: true,
    module: RulesModule::Hitting,
    met: None,
    match_length: 0,
    eval: EvalFamily::Hitting,
    net: ShippedNet::Backgammon,
    start: hitting::START,
};

/// Fevga: the Greek running game (docs/RULES.md gives the sources): long
/// nardy's board with its own head and block rules.
pub const FEVGA: VariantSpec = VariantSpec {
    name: "fevga",
    display_name: "Fevga",
    head: HeadRule::RunnerFirst,
    block: BlockRule::NoSixBlockNorStartQuarter,
    options: &[
        Opening::OPTION,
        SixBlock::OPTION,
        Prime::OPTION,
        StartRule::OPTION,
    ],
    module: RulesModule::Fevga,
    met: Some(include_str!("met/fevga.met")),
    net: ShippedNet::Fevga,
    ..LONG_NARDY
};

/// Portes: Greek backgammon, a preset of the hitting rules (gammon 2, no
/// backgammon, no cube, the winner of the opening throw rolls afresh).
pub const PORTES: VariantSpec = VariantSpec {
    name: "portes",
    display_name: "Portes",
    scores: Scores::GAMMON_DOUBLES,
    opening: Opening::Reroll,
    cube: false,
    met: Some(include_str!("met/portes.met")),
    ..BACKGAMMON
};

/// Tabla: Bulgarian backgammon, Portes' rules (gammon 2, no backgammon,
/// no cube) with backgammon's opening.
pub const TABLA: VariantSpec = VariantSpec {
    name: "tabla",
    display_name: "Tabla",
    opening: Opening::Single,
    met: Some(include_str!("met/tabla.met")),
    ..PORTES
};

/// Plakoto: the Greek pinning game (docs/RULES.md gives the sources).
pub const PLAKOTO: VariantSpec = VariantSpec {
    name: "plakoto",
    display_name: "Plakoto",
    direction: Direction::Opposite,
    landing: Landing::Pin,
    gnubg: false,
    scores: Scores::GAMMON_DOUBLES,
    escalating: false,
    head: HeadRule::Free,
    block: BlockRule::Free,
    opening: Opening::Reroll,
    options: &[Opening::OPTION, PinnedBearoff::OPTION, MotherTiming::OPTION],
    cube: false,
    module: RulesModule::Pinning,
    met: Some(include_str!("met/plakoto.met")),
    match_length: 0,
    eval: EvalFamily::Pinning,
    net: ShippedNet::Plakoto,
    start: Position::START,
};

/// Tapa: the Bulgarian pinning game, a preset of Plakoto's rules (the
/// opening as Tabla's and Gul bara's).
pub const TAPA: VariantSpec = VariantSpec {
    name: "tapa",
    display_name: "Tapa",
    opening: Opening::Single,
    met: Some(include_str!("met/tapa.met")),
    ..PLAKOTO
};

impl Variant {
    /// Every variant, in documentation order.
    pub const ALL: [Variant; 9] = [
        Variant::GulBara,
        Variant::LongNardy,
        Variant::ShortNardy,
        Variant::Backgammon,
        Variant::Fevga,
        Variant::Portes,
        Variant::Tabla,
        Variant::Plakoto,
        Variant::Tapa,
    ];

    /// Every variant's name (`game.variant`'s values), in the order of [`Variant::ALL`].
    pub const NAMES: [&'static str; Variant::ALL.len()] = {
        let mut names = [""; Variant::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Variant::ALL[i].spec().name;
            i += 1;
        }
        names
    };

    /// The game gnubg itself plays: what a `.mat` file without a `Variant`
    /// tag holds.
    pub const GNUBG_NATIVE: Variant = Variant::Backgammon;

    /// What the game is.
    pub const fn spec(self) -> &'static VariantSpec {
        match self {
            Variant::GulBara => &GUL_BARA,
            Variant::LongNardy => &LONG_NARDY,
            Variant::ShortNardy => &SHORT_NARDY,
            Variant::Backgammon => &BACKGAMMON,
            Variant::Fevga => &FEVGA,
            Variant::Portes => &PORTES,
            Variant::Tabla => &TABLA,
            Variant::Plakoto => &PLAKOTO,
            Variant::Tapa => &TAPA,
        }
    }

    /// Whether doublets escalate.
    pub const fn escalating(self) -> bool {
        self.spec().escalating
    }

    /// Games' names joined by commas, as a rotation is written
    /// (`portes,plakoto,fevga`).
    pub fn list_text(games: &[Variant]) -> String {
        games
            .iter()
            .map(|v| v.spec().name)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The rule options of this variant, in documentation order.
    pub const fn options(self) -> &'static [OptionDef] {
        self.spec().options
    }

    /// The rule option names of this variant, in documentation order.
    pub fn option_names(self) -> impl Iterator<Item = &'static str> {
        self.options().iter().map(|o| o.name)
    }

    /// Whether `name` is one of this variant's rule options.
    pub fn has_option(self, name: &str) -> bool {
        self.option_names().any(|n| n == name)
    }
}

// The table's promises, checked when the crate builds: each row's module
// plays the board the row describes, and gnubg's own game is one gnubg can
// describe.
const _: () = {
    let mut i = 0;
    while i < Variant::ALL.len() {
        let spec = Variant::ALL[i].spec();
        // The module plays the board the row describes.
        let hitting_module = matches!(spec.module, RulesModule::Hitting);
        let pinning_module = matches!(spec.module, RulesModule::Pinning);
        assert!(hitting_module == matches!(spec.landing, Landing::Hit));
        assert!(pinning_module == matches!(spec.landing, Landing::Pin));
        assert!(
            (hitting_module || pinning_module) == matches!(spec.direction, Direction::Opposite)
        );
        assert!(
            matches!(spec.head, HeadRule::Free)
                == !matches!(spec.module, RulesModule::LongNardy | RulesModule::Fevga)
        );
        // gnubg's formats know a bar and opposite directions only.
        assert!(
            !spec.gnubg
                || (matches!(spec.landing, Landing::Hit)
                    && matches!(spec.direction, Direction::Opposite))
        );
        i += 1;
    }
    assert!(Variant::GNUBG_NATIVE.spec().gnubg);
};

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spec().name)
    }
}

impl FromStr for Variant {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<Self, OptionError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.spec().name == s)
            .ok_or_else(|| OptionError::NotOneOf {
                option: "game.variant",
                words: &Variant::NAMES,
                got: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
            assert_eq!(
                Variant::ALL
                    .iter()
                    .filter(|w| w.spec().name == v.spec().name)
                    .count(),
                1
            );
        }
        assert_eq!(
            "chess".parse::<Variant>().unwrap_err().to_string(),
            "game.variant must be one of gulbara|long_nardy|short_nardy|backgammon|fevga|portes|tabla|plakoto|tapa, got 'chess'"
        );
    }

    #[test]
    fn options_follow_the_rules() {
        for v in Variant::ALL {
            let s = v.spec();
            let has = |n: &str| v.has_option(n);
            assert!(has("opening"), "{v}");
            assert_eq!(
                has("head_first_turn"),
                s.head == HeadRule::OnePerTurn,
                "{v}"
            );
            assert_eq!(has("six_block"), s.block != BlockRule::Free, "{v}");
            let fevga = s.module == RulesModule::Fevga;
            let pinning = s.module == RulesModule::Pinning;
            assert_eq!(has("prime"), fevga, "{v}");
            assert_eq!(has("start_rule"), fevga, "{v}");
            assert_eq!(has("pinned_bearoff"), pinning, "{v}");
            assert_eq!(has("mother_timing"), pinning, "{v}");
            for n in ["exempt_rolls", "exempt_scope", "remainder"] {
                assert_eq!(has(n), s.escalating, "{v} {n}");
            }
            assert!(s.scores.single < s.scores.double, "{v}");
            assert!(s.scores.max() >= s.scores.double, "{v}");
        }
    }

    #[test]
    fn the_start_holds_fifteen_a_side_on_the_right_board() {
        for v in Variant::ALL {
            let s = v.spec();
            assert_eq!(s.start.own.off(), 0, "{v}");
            assert_eq!(s.start.own, s.start.opp, "{v}: a symmetric start");
            assert_eq!(
                crate::rules::ruleset::check_position(v, s.start),
                Ok(()),
                "{v}"
            );
            // The hitting games start spread (backgammon's 2-5-3-5), the
            // others all on the start point.
            let on_head = s.start.own.at(24) == 15;
            assert_eq!(on_head, s.landing != Landing::Hit, "{v}");
        }
    }
}
