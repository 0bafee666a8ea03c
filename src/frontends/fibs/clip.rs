//! The lines a FIBS server sends a CLIP client ("FIBS Client Protocol
//! Detailed Specification", rev. 1.3, with BaldLies's `CLIP-BUGS`), read
//! into the events a bot acts on, and the `move` command it answers with.
//!
//! CLIP numbers its own lines (`1` welcome, `2` own info, `5` who info,
//! ...); a game is followed through `board:` lines (with `set boardstyle
//! 3`) and a few lines of plain text, which are matched here by their
//! fixed wording. Every other line is [`Event::Other`]. Nothing here
//! panics on any input.

use crate::rules::Step;

/// The longest line read; a FIBS line is far shorter.
pub const MAX_LINE: usize = 4096;

/// What a server line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `1 NAME LASTLOGIN HOST`: logged in as NAME.
    Welcome {
        /// The name logged in.
        name: String,
    },
    /// `2 NAME allowpip autoboard autodouble automove away bell crawford
    /// double experience greedy moreboards moves notify rating ratings
    /// ready redoubles report silent timezone`: the toggles that matter.
    OwnInfo(Toggles),
    /// `5 NAME OPPONENT WATCHING READY AWAY ...`: a player's state (sent
    /// for everyone at login, then whenever it changes).
    Who {
        /// The player.
        name: String,
        /// Ready to play.
        ready: bool,
        /// Playing a match now.
        playing: bool,
    },
    /// A `board:` line.
    Board(String),
    /// `NAME wants to play a N point match with you.` (`length` `None`:
    /// an unlimited match, or a saved match to resume).
    Invitation {
        /// Who invites.
        from: String,
        /// The match length.
        length: Option<u32>,
    },
    /// `** Player NAME has joined you for a N point match.` (or an
    /// unlimited one, or `NAME has joined you. Your running match was loaded.`).
    Joined {
        /// Who joined.
        who: String,
    },
    /// `Starting a new game with NAME.`
    NewGame,
    /// `It's your turn. Please roll or double.`
    RollOrDouble,
    /// `NAME doubles. Type 'accept' or 'reject'.`
    Doubled,
    /// `NAME accepts the double. The cube shows N.` (the other side
    /// accepted our double: we roll next).
    DoubleAccepted,
    /// `NAME wants to resign. You will win N points. Type 'accept' or 'reject'.`
    ResignOffered {
        /// The points we would win.
        points: u32,
    },
    /// `Type 'join' if you want to play the next game, ...`.
    NextGame,
    /// `You win the N point match A-B .` or `NAME wins the N point match A-B .`
    MatchOver {
        /// Whether we won it.
        won: bool,
    },
    /// `** ...`: the server refused a command (or says something of note).
    Refused(String),
    /// Anything else.
    Other,
}

/// The toggles of a `2` line a bot needs set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Toggles {
    /// A board after every move.
    pub autoboard: bool,
    /// Asked whether to double before each roll.
    pub double: bool,
    /// Bear off automatically where it is forced.
    pub greedy: bool,
    /// Ready to play (invitations are refused otherwise).
    pub ready: bool,
}

fn flag(tok: Option<&&str>) -> Option<bool> {
    match tok {
        Some(&"1") => Some(true),
        Some(&"0") => Some(false),
        _ => None,
    }
}

/// Reads one server line (its line end removed).
pub fn parse_line(line: &str) -> Event {
    let line = line.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    if line.len() > MAX_LINE {
        return Event::Other;
    }
    if line.starts_with("board:") {
        return Event::Board(line.to_string());
    }
    let toks: Vec<&str> = line.split_whitespace().collect();
    match toks.as_slice() {
        ["1", name, ..] => {
            return Event::Welcome {
                name: (*name).to_string(),
            };
        }
        ["5", name, opponent, _watching, ready, ..] => {
            return Event::Who {
                name: (*name).to_string(),
                ready: *ready == "1",
                playing: *opponent != "-",
            };
        }
        ["2", _name, rest @ ..] if rest.len() >= 16 => {
            // allowpip autoboard autodouble automove away bell crawford
            // double experience greedy moreboards moves notify rating
            // ratings ready ...
            if let (Some(autoboard), Some(double), Some(greedy), Some(ready)) = (
                flag(rest.get(1)),
                flag(rest.get(7)),
                flag(rest.get(9)),
                flag(rest.get(15)),
            ) {
                return Event::OwnInfo(Toggles {
                    autoboard,
                    double,
                    greedy,
                    ready,
                });
            }
            return Event::Other;
        }
        _ => {}
    }
    if let Some(rest) = line.strip_prefix("** ") {
        if let Some(who) = rest
            .strip_prefix("Player ")
            .and_then(|r| r.split_once(" has joined you"))
            .map(|(w, _)| w)
        {
            return Event::Joined {
                who: who.to_string(),
            };
        }
        return Event::Refused(rest.to_string());
    }
    if let Some(who) = line
        .strip_prefix("Player ")
        .and_then(|r| r.split_once(" has joined you"))
        .map(|(w, _)| w)
        .or_else(|| line.strip_suffix(" has joined you. Your running match was loaded."))
    {
        return Event::Joined {
            who: who.to_string(),
        };
    }
    if line.starts_with("Starting a new game with ") {
        return Event::NewGame;
    }
    if line == "It's your turn. Please roll or double." {
        return Event::RollOrDouble;
    }
    if line.ends_with(" doubles. Type 'accept' or 'reject'.") {
        return Event::Doubled;
    }
    if line.contains(" accepts the double. The cube shows ") && !line.starts_with("You ") {
        return Event::DoubleAccepted;
    }
    if let Some((_, rest)) = line.split_once(" wants to resign. You will win ") {
        // `N point.` or `N points.`, then the question.
        let points = rest
            .split_once(' ')
            .filter(|(_, tail)| {
                (tail.starts_with("point. ") || tail.starts_with("points. "))
                    && tail.ends_with("Type 'accept' or 'reject'.")
            })
            .and_then(|(n, _)| n.parse::<u32>().ok());
        return match points {
            Some(points) => Event::ResignOffered { points },
            None => Event::Other,
        };
    }
    if line.starts_with("Type 'join' if you want to play the next game") {
        return Event::NextGame;
    }
    if let Some((who, rest)) = line.split_once(" wants to play ")
        && !who.contains(' ')
    {
        let length = rest
            .strip_prefix("a ")
            .and_then(|r| r.split_once(" point match with you"))
            .and_then(|(n, _)| n.parse::<u32>().ok());
        if length.is_some() || rest.starts_with("an unlimited match with you") {
            return Event::Invitation {
                from: who.to_string(),
                length,
            };
        }
    }
    if let Some((who, _)) = line.split_once(" wants to resume a saved match with you")
        && !who.contains(' ')
    {
        return Event::Invitation {
            from: who.to_string(),
            length: None,
        };
    }
    if line.starts_with("You win the ") && line.contains(" point match ") {
        return Event::MatchOver { won: true };
    }
    if let Some((who, _)) = line.split_once(" wins the ")
        && !who.contains(' ')
        && line.contains(" point match ")
    {
        return Event::MatchOver { won: false };
    }
    Event::Other
}

/// The `move` command for `steps` (the mover's numbering, 25 the bar, 0
/// off) of a player whose board direction is `direction`: -1 moves from
/// FIBS's point 24 to 1 (its own numbering), 1 from 1 to 24 (its point `p`
/// is FIBS's `25 - p`). `None` when there is nothing to move.
pub fn move_command(steps: &[Step], direction: i8) -> Option<String> {
    if steps.is_empty() {
        return None;
    }
    let point = |p: u8| -> String {
        match p {
            25 => "bar".into(),
            0 => "off".into(),
            p if direction > 0 => (25 - p).to_string(),
            p => p.to_string(),
        }
    };
    let words: Vec<String> = steps
        .iter()
        .map(|s| format!("{}-{}", point(s.from), point(s.to())))
        .collect();
    Some(format!("move {}", words.join(" ")))
}

/// The direction field (42) of a `board:` line: -1 or 1, `None` when the
/// line has no such field.
pub fn board_direction(line: &str) -> Option<i8> {
    match line.split(':').nth(42) {
        Some("-1") => Some(-1),
        Some("1") => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_of_a_match_are_read() {
        assert_eq!(
            parse_line("1 alice 1041253132 127.0.0.1\r"),
            Event::Welcome {
                name: "alice".into()
            }
        );
        assert_eq!(
            parse_line("2 alice 1 1 0 0 0 0 1 1 0 0 0 0 1 1500.00 0 0 0 0 0 UTC"),
            Event::OwnInfo(Toggles {
                autoboard: true,
                double: true,
                greedy: false,
                ready: false
            })
        );
        assert_eq!(
            parse_line("bob wants to play a 3 point match with you."),
            Event::Invitation {
                from: "bob".into(),
                length: Some(3)
            }
        );
        assert_eq!(
            parse_line("bob wants to play an unlimited match with you."),
            Event::Invitation {
                from: "bob".into(),
                length: None
            }
        );
        assert_eq!(
            parse_line("** Player bob has joined you for a 3 point match."),
            Event::Joined { who: "bob".into() }
        );
        assert_eq!(
            parse_line("bob doubles. Type 'accept' or 'reject'."),
            Event::Doubled
        );
        assert_eq!(
            parse_line("bob accepts the double. The cube shows 2."),
            Event::DoubleAccepted
        );
        assert_eq!(
            parse_line("You accept the double. The cube shows 2."),
            Event::Other
        );
        assert_eq!(
            parse_line("bob wants to resign. You will win 2 points. Type 'accept' or 'reject'."),
            Event::ResignOffered { points: 2 }
        );
        assert_eq!(
            parse_line("Type 'join' if you want to play the next game, type 'leave' if you don't."),
            Event::NextGame
        );
        assert_eq!(
            parse_line("You win the 3 point match 3-1 ."),
            Event::MatchOver { won: true }
        );
        assert_eq!(
            parse_line("bob wins the 3 point match 3-2 ."),
            Event::MatchOver { won: false }
        );
        assert_eq!(
            parse_line("** It's not your turn to move."),
            Event::Refused("It's not your turn to move.".into())
        );
        assert_eq!(
            parse_line("It's your turn. Please roll or double."),
            Event::RollOrDouble
        );
        assert_eq!(
            parse_line("bob says: hi, wants to play a game"),
            Event::Other
        );
    }

    #[test]
    fn moves_are_written_in_the_boards_numbering() {
        let steps = [Step::new(25, 3), Step::new(13, 2), Step::new(2, 2)];
        assert_eq!(
            move_command(&steps, -1).as_deref(),
            Some("move bar-22 13-11 2-off")
        );
        assert_eq!(
            move_command(&steps, 1).as_deref(),
            Some("move bar-3 12-14 23-off")
        );
        assert_eq!(move_command(&[], 1), None);
    }
}
