//! `go [movetime <ms>] [nodes <n>] [ply <n>] [infinite]`: a search for
//! the best play of the current stage on the engine's worker, `info` lines
//! as it deepens, then `bestmove <play>`.

use std::fmt;
use std::time::Instant;

use crate::engine::{GoParams, JobKind, Ply};
use crate::notation::play_text_at;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::session::{Flow, Session};
use crate::protocol::words::Words;
use crate::search::Progress;

use super::cube::{go_cube, go_turn};
use super::{Verb, fmt_p, need_stage};

/// `go ...`: the search's parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go(pub GoParams);

impl Go {
    /// Parses the words after `go`.
    pub fn parse(words: &mut Words<'_>) -> Result<Self, ProtocolError> {
        let mut p = GoParams::default();
        while let Some(t) = words.next() {
            match t {
                "movetime" => p.movetime = Some(words.number("go movetime")?),
                "nodes" => p.nodes = Some(words.number("go nodes")?),
                // UBGI v0.1's `depth` is our root-inclusive ply.
                word @ ("ply" | "depth") => {
                    let n: u8 = words.number(&format!("go {word}"))?;
                    let Some(ply) = Ply::new(n) else {
                        let note = if word == "depth" {
                            " (root-inclusive, as engine.ply)"
                        } else {
                            ""
                        };
                        return Err(ProtocolError::bad_value(format!(
                            "go {word} must be 1..3{note}, got {n}"
                        )));
                    };
                    p.ply = Some(ply);
                }
                "infinite" => p.infinite = true,
                "cube" => p.cube = true,
                // UBGI v0.1: `go role chequer|cube|turn` and `trials` (for
                // engines that roll out; the search does not, so it is read
                // and left unused).
                "role" => {
                    match words.next() {
                        Some("chequer" | "checker") => {}
                        Some("cube") => p.cube = true,
                        Some("turn") => p.turn = true,
                        Some(r) => {
                            return Err(ProtocolError::bad_value(format!(
                                "go role must be chequer, cube or turn, got {}",
                                quote(r)
                            )));
                        }
                        None => {
                            return Err(ProtocolError::bad_command(
                                "go role needs chequer, cube or turn",
                            ));
                        }
                    }
                    p.role = true;
                }
                "trials" => {
                    let _: u64 = words.number("go trials")?;
                }
                "ponder" | "wtime" | "btime" | "winc" | "binc" | "movestogo" | "mate"
                | "searchmoves" => {
                    return Err(ProtocolError::unsupported(format!(
                        "go {t} is not supported (use movetime, nodes, ply or infinite)"
                    )));
                }
                _ => {
                    return Err(ProtocolError::bad_command(format!(
                        "usage: go [role chequer|cube|turn] [movetime <ms>] [nodes <n>] [ply <n>|depth <n>] [infinite]; got {}",
                        quote(t)
                    )));
                }
            }
        }
        Ok(Go(p))
    }

    /// `go cube`: the cube decision that is due.
    pub fn cube() -> Go {
        Go(GoParams {
            cube: true,
            ..GoParams::default()
        })
    }
}

impl fmt::Display for Go {
    /// `go`, then UBGI v0.1's `role` (or `cube`), the limits and `infinite`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        f.write_str("go")?;
        if p.role {
            if p.cube {
                f.write_str(" role cube")?;
            }
            if p.turn {
                f.write_str(" role turn")?;
            }
            if !p.cube && !p.turn {
                f.write_str(" role chequer")?;
            }
        } else if p.cube {
            f.write_str(" cube")?;
        }
        if let Some(ms) = p.movetime {
            write!(f, " movetime {ms}")?;
        }
        if let Some(n) = p.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(ply) = p.ply {
            write!(f, " ply {}", ply.get())?;
        }
        if p.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl Verb for Go {
    fn apply(self, session: &mut Session) -> Result<Flow, ProtocolError> {
        let p = self.0;
        if p.cube {
            go_cube(session)?;
        } else if p.turn {
            go_turn(session, p)?;
        } else {
            go(session, p)?;
        }
        Ok(Flow::Continue)
    }
}

/// Starts `go`'s search for the best play on `s`'s worker.
fn go(s: &mut Session, p: GoParams) -> Result<(), ProtocolError> {
    need_stage(s.state(), "go")?;
    let start = Instant::now();
    let limits = s.engine().go_limits(&p, start);
    // The server's cap holds for every search, `go infinite` included.
    let cap = s.engine().deadline_from(start);
    let state = *s.state();
    let text = move |steps: &[crate::rules::Step]| play_text_at(state.variant, state.pos, steps);
    let infinite = p.infinite;
    s.spawn(JobKind::Go, infinite, move |job, out| {
        let mut report = |pr: &Progress| {
            let ms = pr.millis;
            let nps = pr.nodes * 1000 / ms.max(1);
            out(&format!(
                "info depth {} nodes {} nps {nps} time {ms} equity {} pv {}",
                pr.depth,
                pr.nodes,
                fmt_p(pr.best.probs.equity()),
                text(&pr.best.steps)
            ));
        };
        let ranked = job.search.best_turn(&state, &limits, &mut report);
        if infinite {
            job.stop.wait(cap);
        }
        let best = ranked
            .first()
            .map(|c| text(&c.steps))
            .unwrap_or_else(|| "pass".into());
        vec![format!("bestmove {best}")]
    })
}
