//! Finding GNU Backgammon for the tests that run it, and starting it with a
//! home of its own.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Why the gnubg tests are ignored by a plain `cargo test`.
pub const NEEDS_GNUBG: &str = "needs gnubg (apt-get install -y gnubg); run with --include-ignored";

/// gnubg. The tests that run it are `#[ignore]`d unless asked for, and once
/// asked for, a missing gnubg fails the test.
pub fn gnubg_path() -> PathBuf {
    find_gnubg().unwrap_or_else(|| panic!("{NEEDS_GNUBG}: not at /usr/games/gnubg nor on PATH"))
}

/// An empty directory that one gnubg process uses as its HOME, removed
/// when dropped.
///
/// gnubg creates `~/.gnubg` at start by testing for it and then making
/// it; processes started together on a machine where gnubg never ran race
/// between the two, and the losers exit with "File exists". A home per
/// process removes the race, and keeps a user's `~/.gnubg/gnubgautorc`
/// out of the tests.
pub struct GnubgHome(PathBuf);

impl GnubgHome {
    /// A new empty home, unique to this process and call.
    pub fn new() -> GnubgHome {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("gulbara-gnubg-home-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a home for gnubg");
        GnubgHome(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for GnubgHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A command running `gnubg` with a fresh home of its own; keep the home
/// until the process has exited.
pub fn gnubg_command(gnubg: &Path) -> (Command, GnubgHome) {
    let home = GnubgHome::new();
    let mut cmd = Command::new(gnubg);
    cmd.env("HOME", home.path());
    (cmd, home)
}
