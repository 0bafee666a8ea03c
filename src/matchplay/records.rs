//! The records a match writes (`--records`): one file per money game or
//! per match, and gnubg's `.mat` beside it where gnubg has the game.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The most record write errors a report keeps.
pub(super) const MAX_RECORD_ERRORS: usize = 10;

/// A record file (or the records' folder) that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub(super) struct RecordWriteError {
    /// The file or folder.
    pub(super) path: std::path::PathBuf,
    /// What the system said.
    #[source]
    pub(super) source: std::io::Error,
}

/// Writes `seating`'s record (one file per money game, one per match)
/// into `dir`, and a gnubg `.mat` beside it where gnubg has the game; the
/// first file that cannot be written, and why.
pub(super) fn write_records(
    cfg: &MatchConfig,
    dir: &std::path::Path,
    seating: &Seating,
) -> Result<(), RecordWriteError> {
    let write = |path: std::path::PathBuf, text: String| {
        std::fs::write(&path, text).map_err(|source| RecordWriteError { path, source })
    };
    let n = seating.pair * 2 + seating.white_engine + 1;
    let mut tags = vec![("Event".to_string(), "gulbara match".to_string())];
    tags.extend(game_tags(&cfg.rules));
    if !cfg.rotation.is_empty() {
        tags.push((
            "Rotation".into(),
            Variant::list_text(&cfg.rotation_variants()),
        ));
    }
    tags.extend(crate::record::session_tags(&cfg.session.0));
    tags.extend([
        ("Seed".into(), seating.dice_seed.to_string()),
        ("MatchSeed".into(), cfg.seed.to_string()),
        ("Round".into(), n.to_string()),
        ("Player 1".into(), cfg.engines[0].name.clone()),
        ("Player 2".into(), cfg.engines[1].name.clone()),
    ]);
    let rec = Record {
        tags,
        games: seating.games.iter().map(|g| g.record.clone()).collect(),
    };
    let stem = if cfg.session.match_length().is_some() {
        format!("match-{n:06}")
    } else {
        format!("game-{n:06}")
    };
    write(dir.join(format!("{stem}.txt")), write_record(&rec))?;
    // Backgammon and short nardy also as gnubg's .mat (`import mat`).
    if cfg.rules.variant.spec().gnubg && cfg.rotation.is_empty() {
        match crate::gnubg::mat::write(&cfg.rules, &rec.tags, &rec.games) {
            Ok(mat) => write(dir.join(format!("{stem}.mat")), mat)?,
            Err(e) => tracing::warn!(error = %e, "no .mat record"),
        }
    }
    Ok(())
}
