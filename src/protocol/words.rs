//! The word cursor a command's `parse` reads: the words of a line after its
//! command word, one at a time, with the argument grammars (numbers, dice,
//! sides, `on`/`off`). The cursor and the grammars are nom parsers; a
//! command ends its `parse` with [`Words::finish`], which refuses words
//! left over.

use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{one_of, space0};
use nom::combinator::{all_consuming, map_res, rest, value, verify};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::error::{ProtocolError, quote};
use crate::rules::Side;

/// Whether `c` separates words: a space or a tab.
pub(super) fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One word: a run of characters other than spaces and tabs, after any spaces.
fn word(i: &str) -> IResult<&str, &str> {
    preceded(space0, take_till1(is_space)).parse(i)
}

/// What `grammar` reads from the whole of `w`, if it reads all of it.
fn whole<'w, T>(
    w: &'w str,
    grammar: impl Parser<&'w str, Output = T, Error = nom::error::Error<&'w str>>,
) -> Option<T> {
    all_consuming(grammar).parse(w).ok().map(|(_, v)| v)
}

/// The words of a line not read yet.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    rest: &'a str,
}

impl<'a> Words<'a> {
    /// The words of `text`.
    pub fn new(text: &'a str) -> Words<'a> {
        Words { rest: text }
    }

    /// The next word, read.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<&'a str> {
        let (rest, w) = word(self.rest).ok()?;
        self.rest = rest;
        Some(w)
    }

    /// The next word, left unread.
    pub fn peek(&self) -> Option<&'a str> {
        word(self.rest).ok().map(|(_, w)| w)
    }

    /// Reads the next word if it is `w`; whether it was.
    pub fn next_is(&mut self, w: &str) -> bool {
        let is = self.peek() == Some(w);
        if is {
            self.next();
        }
        is
    }

    /// The next word as `grammar` reads it whole, read only then.
    pub fn next_as<T>(&mut self, grammar: impl Fn(&'a str) -> Option<T>) -> Option<T> {
        let v = grammar(self.peek()?)?;
        self.next();
        Some(v)
    }

    /// The next word as a number of type `T`: `bad_command` when there is
    /// none, `bad_value` when it is not one (`what` names it).
    pub fn number<T: FromStr>(&mut self, what: &str) -> Result<T, ProtocolError> {
        number(what, self.next())
    }

    /// The words up to (not including) the word `stop` or the end, read.
    pub fn until(&mut self, stop: &str) -> Vec<&'a str> {
        let mut words = many0(verify(word, |w: &str| w != stop));
        match words.parse(self.rest) {
            Ok((rest, ws)) => {
                self.rest = rest;
                ws
            }
            Err(_) => Vec::new(),
        }
    }

    /// Every word left, read.
    pub fn all(&mut self) -> Vec<&'a str> {
        self.until("")
    }

    /// The rest of the line, read, without spaces and tabs around it
    /// (spaces inside it kept): `set`'s value.
    pub fn text(&mut self) -> &'a str {
        let (_, t) = preceded(space0::<&str, nom::error::Error<&str>>, rest)
            .parse(self.rest)
            .unwrap_or(("", ""));
        self.rest = "";
        t.trim_end_matches(is_space)
    }

    /// Nothing may be left after `what` (the command read so far).
    pub fn finish(&self, what: &str) -> Result<(), ProtocolError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(ProtocolError::bad_command(format!(
                "unexpected {} after {what}",
                quote(t)
            ))),
        }
    }
}

/// The number in `w`, or why there is none (for the error of `what`).
pub fn number<T: FromStr>(what: &str, w: Option<&str>) -> Result<T, ProtocolError> {
    let Some(w) = w else {
        return Err(ProtocolError::bad_command(format!("{what} needs a number")));
    };
    whole(w, map_res(rest, T::from_str)).ok_or_else(|| {
        ProtocolError::bad_value(format!("{what} needs a whole number, got {}", quote(w)))
    })
}

/// `w` or `b`.
pub fn side(w: &str) -> Option<Side> {
    whole(
        w,
        alt((value(Side::White, tag("w")), value(Side::Black, tag("b")))),
    )
}

/// `on` or `off`.
pub fn on_off(w: &str) -> Option<bool> {
    whole(w, alt((value(true, tag("on")), value(false, tag("off")))))
}

/// A die's face, 1 to 6.
pub fn die(w: &str) -> Option<u8> {
    whole(w, one_of("123456")).map(|c| c as u8 - b'0')
}

/// The protocol's word for `b`: `on` or `off`.
pub fn on_off_text(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_read_one_at_a_time() {
        let mut w = Words::new("  a\tbb  c ");
        assert_eq!(w.peek(), Some("a"));
        assert_eq!(w.next(), Some("a"));
        assert!(!w.next_is("c"));
        assert!(w.next_is("bb"));
        assert_eq!(
            w.finish("x").unwrap_err().to_string(),
            "error bad_command unexpected 'c' after x"
        );
        assert_eq!(w.all(), ["c"]);
        assert_eq!(w.next(), None);
        assert!(w.finish("x").is_ok());
        let mut w = Words::new("a b moves c d");
        assert_eq!(w.until("moves"), ["a", "b"]);
        assert_eq!(w.next(), Some("moves"));
        let mut w = Words::new("k  v w\t ");
        assert_eq!(w.next(), Some("k"));
        assert_eq!(w.text(), "v w");
        assert_eq!(w.next(), None);
    }

    #[test]
    fn grammars_read_whole_words() {
        assert_eq!(side("w"), Some(Side::White));
        assert_eq!(side("b"), Some(Side::Black));
        assert_eq!(side("wb"), None);
        assert_eq!(on_off("on"), Some(true));
        assert_eq!(on_off("offf"), None);
        assert_eq!(
            (1..=6).map(|d| die(&d.to_string())).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6].map(Some)
        );
        assert_eq!(die("0"), None);
        assert_eq!(die("66"), None);
        assert_eq!(number::<u32>("n", Some("42")), Ok(42));
        assert_eq!(
            number::<u32>("n", Some("-1")).unwrap_err().to_string(),
            "error bad_value n needs a whole number, got '-1'"
        );
        assert_eq!(
            number::<u32>("n", None).unwrap_err().to_string(),
            "error bad_command n needs a number"
        );
        let mut w = Words::new("w 3");
        assert_eq!(w.next_as(side), Some(Side::White));
        assert_eq!(w.next_as(side), None);
        assert_eq!(w.number::<u8>("x"), Ok(3));
    }
}
