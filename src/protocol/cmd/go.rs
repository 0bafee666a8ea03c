//! `go [movetime <ms>] [nodes <n>] [ply <n>] [infinite]`: a search for
//! the best play of the current stage on the engine's worker, `info` lines
//! as it deepens, then `bestmove <play>`.

use std::time::Instant;

use crate::engine::{GoParams, JobKind, Ply};
use crate::notation::play_text_at;
use crate::protocol::error::{ProtocolError, quote};
use crate::protocol::parser::number;
use crate::protocol::session::Session;
use crate::search::Progress;

use super::{Command, fmt_p, need_stage};

/// Parses the words after `go`.
pub(crate) fn parse(args: &[&str]) -> Result<Command, ProtocolError> {
    let mut p = GoParams::default();
    let mut i = 0;
    while let Some(&t) = args.get(i) {
        match t {
            "movetime" => {
                p.movetime = Some(number("go movetime", args.get(i + 1))?);
                i += 2;
            }
            "nodes" => {
                p.nodes = Some(number("go nodes", args.get(i + 1))?);
                i += 2;
            }
            // UBGI v0.1's `depth` is our root-inclusive ply.
            word @ ("ply" | "depth") => {
                let n: u8 = number(&format!("go {word}"), args.get(i + 1))?;
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
                i += 2;
            }
            "infinite" => {
                p.infinite = true;
                i += 1;
            }
            "cube" => {
                p.cube = true;
                i += 1;
            }
            // UBGI v0.1: `go role chequer|cube|turn` and `trials` (for
            // engines that roll out; the search does not, so it is read and
            // left unused).
            "role" => {
                match args.get(i + 1).copied() {
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
                i += 2;
            }
            "trials" => {
                let _: u64 = number("go trials", args.get(i + 1))?;
                i += 2;
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
    Ok(Command::Go(p))
}

impl Session {
    /// Starts `go`.
    pub(in crate::protocol) fn go(&mut self, p: GoParams) -> Result<(), ProtocolError> {
        if p.cube {
            return self.go_cube();
        }
        if p.turn {
            return self.go_turn(p);
        }
        need_stage(self.state(), "go")?;
        let start = Instant::now();
        let limits = self.engine().go_limits(&p, start);
        // The server's cap holds for every search, `go infinite` included.
        let cap = self.engine().deadline_from(start);
        let state = *self.state();
        let text =
            move |steps: &[crate::rules::Step]| play_text_at(state.variant, state.pos, steps);
        let infinite = p.infinite;
        self.spawn(JobKind::Go, infinite, move |job, out| {
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
}
