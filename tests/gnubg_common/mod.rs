//! Finding GNU Backgammon for the tests that run it.

use std::path::{Path, PathBuf};

/// gnubg's path: Debian's `/usr/games/gnubg`, else the first on PATH.
pub fn find_gnubg() -> Option<PathBuf> {
    let fixed = Path::new("/usr/games/gnubg");
    if fixed.is_file() {
        return Some(fixed.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("gnubg"))
        .find(|p| p.is_file())
}

/// gnubg, or `None` with a note when it is missing outside CI; under
/// `CI=true` a missing gnubg fails the test.
pub fn gnubg_or_skip(test: &str) -> Option<PathBuf> {
    let found = find_gnubg();
    if found.is_none() {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("gnubg is not installed (CI=true): install it with `apt-get install -y gnubg`");
        }
        eprintln!("note: gnubg not found (/usr/games/gnubg or PATH): {test} skipped");
    }
    found
}
