//! The references in README.md, docs/ (with docs/journal/) and protocol/
//! lead somewhere:
//! - every relative link (`[text](path)`, `![alt](path)`) names a file or
//!   folder of the repository, and a `#anchor` into a Markdown page one of
//!   that page's headings;
//! - every repository path written in backticks in the prose of README.md
//!   and docs/ (`src/…`, `docs/…`, `scripts/…`) exists (protocol/ names
//!   other projects' files too, so there only links are checked);
//! - every script a shown command runs (`scripts/…` in a fenced block)
//!   exists.
//!
//! Files are read as text; nothing is run.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, then every Markdown page under docs/ and protocol/.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    walk(&root().join("protocol"), &mut out);
    out
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, the rest dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Lines of a page with their numbers, from 1.
type Numbered<'a> = Vec<(usize, &'a str)>;

/// A page's lines outside fenced code blocks, and the lines inside them.
fn split_fences(text: &str) -> (Numbered<'_>, Numbered<'_>) {
    let (mut prose, mut code) = (Vec::new(), Vec::new());
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            code.push((i + 1, line));
        } else {
            prose.push((i + 1, line));
        }
    }
    (prose, code)
}

/// The anchors of a Markdown page's headings (a repeated heading's later
/// anchors get `-1`, `-2`, … as on GitHub).
fn anchors(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for (_, line) in split_fences(text).0 {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let s = slug(heading.trim_start_matches('#'));
        let mut name = s.clone();
        let mut n = 0;
        while !out.insert(name.clone()) {
            n += 1;
            name = format!("{s}-{n}");
        }
    }
    out
}

/// The targets of the inline links on a line: what stands between `](` and
/// the next `)`.
fn link_targets(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        out.push(rest[..end].trim());
        rest = &rest[end..];
    }
    out
}

/// The spans written in single backticks on a line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

const TOP: [&str; 11] = [
    "src/",
    "docs/",
    "tests/",
    "scripts/",
    "benches/",
    "examples/",
    "protocol/",
    "web/",
    "data/",
    "fuzz/",
    ".ci/",
];

/// Words that stand for a value in a written path (`data/training/VARIANT/
/// genG/`, `src/rules/met/NAME.met`), and build output that a clean
/// checkout does not have.
const PLACEHOLDERS: [&str; 9] = [
    "NAME", "VARIANT", "genG", "G", "N", "SITTING", "OUT", "FILE", "target",
];

/// A repository path written in backticks: one of the top folders, no
/// pattern or placeholder in it. `None` for anything else.
fn repo_path(span: &str) -> Option<&str> {
    let span = span.trim();
    if !TOP.iter().any(|t| span.starts_with(t))
        || span.contains(char::is_whitespace)
        || span.contains(['*', '{', '}', '$', '<', '>', '…', '|', '?'])
        || span.contains("...")
    {
        return None;
    }
    // `src/x.rs:120` and `src/x.rs::item` name the file.
    let path = span.split(':').next()?.trim_end_matches('/');
    let placeholder = path
        .split(['/', '.', '-', '_'])
        .any(|w| PLACEHOLDERS.contains(&w));
    (!placeholder).then_some(path)
}

#[test]
fn links_and_paths_in_the_docs_lead_somewhere() {
    let pages = pages();
    assert!(pages.len() >= 10, "found only {pages:?}");
    let mut dead = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        let dir = page.parent().unwrap();
        let (prose, code) = split_fences(&text);
        let paths_checked = !name.starts_with("protocol/");
        for &(n, line) in &prose {
            for target in link_targets(line) {
                // A title after the address: `(path "title")`.
                let target = target.split_whitespace().next().unwrap_or("");
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target, None),
                };
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    dir.join(path)
                };
                if !file.exists() {
                    dead.push(format!("{name}:{n}: link to {target}: no such file"));
                    continue;
                }
                if let Some(anchor) = anchor
                    && file.extension().is_some_and(|x| x == "md")
                {
                    let there = std::fs::read_to_string(&file).unwrap();
                    if !anchors(&there).contains(anchor) {
                        dead.push(format!("{name}:{n}: link to {target}: no such heading"));
                    }
                }
            }
            for span in code_spans(line).into_iter().filter(|_| paths_checked) {
                if let Some(path) = repo_path(span) {
                    checked += 1;
                    if !root().join(path).exists() {
                        dead.push(format!("{name}:{n}: `{span}`: no such file"));
                    }
                }
            }
        }
        for &(n, line) in &code {
            for word in line.split([' ', '=', '(', ')', '"', '\'', ';', '&', '|']) {
                let word = word.trim_start_matches("./");
                if word.starts_with("scripts/") && !word.contains(['*', '$']) {
                    checked += 1;
                    if !root().join(word).exists() {
                        dead.push(format!("{name}:{n}: runs {word}: no such script"));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} references found");
    assert!(dead.is_empty(), "dead references:\n{}", dead.join("\n"));
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug("Fevga (long nardy's inputs, its own weights)"),
        "fevga-long-nardys-inputs-its-own-weights"
    );
    assert_eq!(slug("Race tables"), "race-tables");
    assert_eq!(
        slug("gnubg 2-ply against 1-ply (Gul bara)"),
        "gnubg-2-ply-against-1-ply-gul-bara"
    );
    let a = anchors("# A\n## A\n```\n# not a heading\n```\n");
    assert!(a.contains("a") && a.contains("a-1") && !a.contains("not-a-heading"));
    assert_eq!(repo_path("src/eval/net.rs"), Some("src/eval/net.rs"));
    assert_eq!(repo_path("src/rules/met/NAME.met"), None);
    assert_eq!(repo_path("tests/x.rs:12"), Some("tests/x.rs"));
    assert_eq!(repo_path("gulbara match"), None);
}
