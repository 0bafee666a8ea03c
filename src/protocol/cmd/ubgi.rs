//! `ubgi`: the handshake, as the session's dialect writes it.
//!
//! - native: the engine's name, author and protocol version, every
//!   setting's `key` line, then `ubgiok`;
//! - UBGI v0.1: name and author, an `option` line per option (v0.1's own
//!   names first, then every key), then `ubgiok`;
//! - UBGI draft 0.01: name, author and version, then `readyok`.

use super::keys::say_keys;
use super::{Verb, bare_word};
use crate::protocol::Dialect;
use crate::protocol::dialect::{DETERMINISTIC, V01_OPTIONS};
use crate::protocol::error::ProtocolError;
use crate::protocol::session::{Flow, Session, id_name};
use crate::protocol::settings::{KeyDef, KeyKind, Settings};

const AUTHOR: &str = "id author the gulbara developers";

bare_word!(
    /// `ubgi`: the handshake.
    Ubgi = "ubgi"
);

impl Verb for Ubgi {
    fn read_only(&self) -> bool {
        true
    }

    fn apply(self, s: &mut Session) -> Result<Flow, ProtocolError> {
        match s.dialect() {
            Dialect::Native => {
                s.say(&id_name());
                s.say(AUTHOR);
                s.say("proto 0.2");
                say_keys(s);
                s.say("ubgiok");
            }
            Dialect::UbgiV01 => {
                s.say(&id_name());
                s.say(AUTHOR);
                for line in option_lines(s.settings()) {
                    s.say(&line);
                }
                s.say("ubgiok");
            }
            Dialect::UbgiDraft => {
                s.say("id name gulbara");
                s.say(AUTHOR);
                s.say(&format!("id version {}", env!("CARGO_PKG_VERSION")));
                s.say("readyok");
            }
        }
        Ok(Flow::Continue)
    }
}

/// UBGI v0.1's `option` lines (UCI's shapes): its own option names, then
/// every key of the current game under its own name.
pub fn option_lines(settings: &Settings) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, key) in V01_OPTIONS {
        if let Some(def) = Settings::def(key) {
            lines.push(option_line(settings, name, &def));
        }
    }
    lines.push(format!(
        "option name {DETERMINISTIC} type check default true"
    ));
    for def in settings.current_defs() {
        lines.push(option_line(settings, def.name, &def));
    }
    lines
}

fn option_line(settings: &Settings, name: &str, def: &KeyDef) -> String {
    let value = settings.get(def.name).unwrap_or_default();
    match def.kind {
        KeyKind::Int { min, max } => {
            format!("option name {name} type spin default {value} min {min} max {max}")
        }
        KeyKind::Enum(vals) => {
            let vars: Vec<String> = vals.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {name} type combo default {value} {}",
                vars.join(" ")
            )
        }
        KeyKind::Text => format!("option name {name} type string default {value}"),
    }
}
