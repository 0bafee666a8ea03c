//! `variants`: what each game of the family is, from the engine's variant
//! table ([`crate::rules::Variant::spec`]) and its settings' key table, so
//! a client (the browser board) needs no copy of either. One `variant` line
//! per game, in the table's order, each followed by an `option` line per
//! `rules.*` option of that game (its type, values and default), then
//! `variantsok`.

use super::{Verb, bare_word};
use crate::engine::Settings;
use crate::engine::keys::KeyKind;
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session};
use crate::rules::Variant;
use crate::rules::options::RuleOptions;
use crate::rules::variant::{Direction, Landing, VariantSpec};

/// What a win worth the double stake is called in a game: a gammon in the
/// games played under backgammon's names (backgammon, Portes, Tabla), a
/// mars in the nardy family's and the pinning games' (as the board and
/// docs/RULES.md name them). The variant table has no field for the word;
/// each of its rows must have one here (a test checks).
fn double_win_word(spec: &VariantSpec) -> &'static str {
    match spec.name {
        "backgammon" | "portes" | "tabla" => "gammon",
        _ => "mars",
    }
}

const fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The `variant` line of `v`:
/// `variant <name> direction same|opposite landing blocked|hit|pin bar
/// yes|no escalating yes|no scores <single>,<double>[,<triple>] doublewin
/// gammon|mars triplewin backgammon|none cube on|off match <points> gnubg
/// yes|no display <name for people>`.
pub fn variant_line(v: Variant) -> String {
    let s = v.spec();
    let direction = match s.direction {
        Direction::Same => "same",
        Direction::Opposite => "opposite",
    };
    let landing = match s.landing {
        Landing::Blocked => "blocked",
        Landing::Hit => "hit",
        Landing::Pin => "pin",
    };
    let scores = match s.scores.triple {
        Some(t) => format!("{},{},{t}", s.scores.single, s.scores.double),
        None => format!("{},{}", s.scores.single, s.scores.double),
    };
    format!(
        "variant {} direction {direction} landing {landing} bar {} escalating {} scores {scores} doublewin {} triplewin {} cube {} match {} gnubg {} display {}",
        s.name,
        yes_no(s.landing.has_bar()),
        yes_no(s.escalating),
        double_win_word(s),
        if s.scores.triple.is_some() {
            "backgammon"
        } else {
            "none"
        },
        if s.cube { "on" } else { "off" },
        s.match_length,
        yes_no(s.gnubg),
        s.display_name,
    )
}

/// The `option` lines of `v`, one per `rules.*` option in the table's
/// order: `option <variant> rules.<name> enum <a|b|...> <default>` or
/// `option <variant> rules.<name> int <min>..<max> <default>`.
pub fn option_lines(v: Variant) -> Vec<String> {
    let defaults = RuleOptions::for_variant(v);
    v.option_names()
        .filter_map(|name| {
            let key = format!("rules.{name}");
            let def = Settings::def(&key)?;
            let default = defaults.get(name)?;
            let kind = match def.kind {
                KeyKind::Enum(words) => format!("enum {}", words.join("|")),
                KeyKind::Int { min, max } => format!("int {min}..{max}"),
                KeyKind::Text => "string".to_string(),
            };
            Some(format!("option {} {key} {kind} {default}", v.spec().name))
        })
        .collect()
}

/// Every line `variants` answers, `variantsok` last.
pub fn lines() -> Vec<String> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        out.push(variant_line(v));
        out.extend(option_lines(v));
    }
    out.push("variantsok".to_string());
    out
}

bare_word!(
    /// `variants`: every game's `variant` and `option` lines.
    Variants = "variants"
);

impl Verb for Variants {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        for l in lines() {
            session.say(&l);
        }
        Ok(Flow::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backgammon_and_gul_bara_read_as_their_rules_say() {
        // Written by hand from docs/RULES.md and protocol/SPEC.md's tables.
        assert_eq!(
            variant_line(Variant::Backgammon),
            "variant backgammon direction opposite landing hit bar yes escalating no scores 1,2,3 doublewin gammon triplewin backgammon cube on match 0 gnubg yes display Backgammon"
        );
        assert_eq!(
            variant_line(Variant::GulBara),
            "variant gulbara direction same landing blocked bar no escalating yes scores 1,2 doublewin mars triplewin none cube off match 0 gnubg no display Gul bara"
        );
        assert_eq!(
            variant_line(Variant::Plakoto),
            "variant plakoto direction opposite landing pin bar no escalating no scores 1,2 doublewin mars triplewin none cube off match 0 gnubg no display Plakoto"
        );
        assert_eq!(
            option_lines(Variant::GulBara),
            [
                "option gulbara rules.opening enum single|reroll single",
                "option gulbara rules.exempt_rolls int 0..1000 3",
                "option gulbara rules.exempt_scope enum player|game player",
                "option gulbara rules.remainder enum opponent|lost opponent",
            ]
        );
        assert_eq!(
            option_lines(Variant::LongNardy)[0],
            "option long_nardy rules.opening enum single|reroll reroll"
        );
    }

    #[test]
    fn every_game_and_option_is_listed_once_and_a_client_can_set_its_default() {
        let all = lines();
        assert_eq!(all.last().map(String::as_str), Some("variantsok"));
        let variants: Vec<&str> = all
            .iter()
            .filter_map(|l| l.strip_prefix("variant "))
            .map(|l| l.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(variants, Variant::NAMES);
        for v in Variant::ALL {
            let opts = option_lines(v);
            assert_eq!(opts.len(), v.option_names().count(), "{v}");
            // Each default is one of the option's values, and the engine
            // takes it back for that game.
            for l in &opts {
                let t: Vec<&str> = l.split(' ').collect();
                assert_eq!(t[1], v.spec().name, "{l}");
                let default = t[5];
                if t[3] == "enum" {
                    assert!(t[4].split('|').any(|w| w == default), "{l}");
                }
                let mut rules = RuleOptions::for_variant(v);
                let name = t[2].strip_prefix("rules.").unwrap_or("");
                assert_eq!(rules.set(name, default), Ok(()), "{l}");
                assert_eq!(rules, RuleOptions::for_variant(v), "{l}");
            }
            // The display name ends the line: the rest of it, spaces and all.
            let line = variant_line(v);
            assert!(line.ends_with(&format!(" display {}", v.spec().display_name)));
        }
    }

    #[test]
    fn a_session_answers_variants_with_the_table() {
        use std::sync::{Arc, Mutex};
        let got = Arc::new(Mutex::new(Vec::new()));
        let g = got.clone();
        let out: crate::protocol::Output =
            Arc::new(move |s: &str| g.lock().unwrap().push(s.to_string()));
        let mut s = Session::new(out);
        s.handle_line("variants");
        assert_eq!(*got.lock().unwrap(), lines());
        got.lock().unwrap().clear();
        s.handle_line("variants now");
        let e = got.lock().unwrap().clone();
        assert!(e[0].starts_with("error bad_command"), "{e:?}");
    }
}
