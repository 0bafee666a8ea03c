//! The layers of docs/ARCHITECTURE.md, kept: every `crate::` path in src/
//! (outside tests) must name a module its module's row of the table allows,
//! every allowed module must be used (the table stays true), every
//! top-level module must have a row, and the table must have no loop.
//!
//! The table is read from docs/ARCHITECTURE.md, where it is written once:
//! the rows of `| module | uses |`, each module in backticks, its uses a
//! comma-separated list of modules (a parenthesis after a module explains
//! what it is used for; `nothing` for none; `every module` for the CLI).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One module's row: the modules it may use, or any.
#[derive(Debug)]
enum Uses {
    Only(BTreeSet<String>),
    Any,
}

/// The table of docs/ARCHITECTURE.md.
fn layer_table(doc: &str) -> BTreeMap<String, Uses> {
    let mut table = BTreeMap::new();
    let mut in_table = false;
    for line in doc.lines() {
        let line = line.trim();
        if line.starts_with("| module | uses |") {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        if line.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(
            cells.len(),
            2,
            "docs/ARCHITECTURE.md: bad table row: {line}"
        );
        let uses = parse_uses(cells[1]);
        for module in cells[0].split(',') {
            let module = module.trim().trim_matches('`').to_string();
            assert!(
                table.insert(module.clone(), uses_clone(&uses)).is_none(),
                "docs/ARCHITECTURE.md: module {module} has two rows"
            );
        }
    }
    assert!(
        !table.is_empty(),
        "docs/ARCHITECTURE.md has no `| module | uses |` table"
    );
    table
}

fn uses_clone(u: &Uses) -> Uses {
    match u {
        Uses::Any => Uses::Any,
        Uses::Only(s) => Uses::Only(s.clone()),
    }
}

/// A uses cell: `a (why), b, c` → {a, b, c}, with parentheses dropped.
fn parse_uses(cell: &str) -> Uses {
    let mut plain = String::new();
    let mut depth = 0;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.trim();
    if plain == "every module" {
        return Uses::Any;
    }
    if plain == "nothing" {
        return Uses::Only(BTreeSet::new());
    }
    Uses::Only(
        plain
            .split(',')
            .map(|m| m.trim().trim_matches('`').to_string())
            .filter(|m| !m.is_empty())
            .collect(),
    )
}

/// The top-level modules of src/: its folders and files, but the crate roots.
fn modules(src: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in fs::read_dir(src).expect("src/") {
        let p = e.expect("src/ entry").path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if p.is_dir()
            || (p.extension().is_some_and(|x| x == "rs")
                && !["lib", "main"].contains(&name.as_str()))
        {
            out.insert(name);
        }
    }
    out
}

/// Every .rs file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).expect("a folder of src/") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The lines of a file that are not test code, numbered from 1: an item
/// under `#[cfg(test)]` (a `mod tests { ... }`, a function, a `use`) is
/// left out, and so are comments. Also returns the files of test modules
/// declared here (`#[cfg(test)] mod name;`).
fn code_lines(text: &str) -> (Vec<(usize, String)>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut test_mods = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t == "#[cfg(test)]" {
            // Skip the item it guards (its attributes and doc lines too).
            let mut j = i + 1;
            while j < lines.len()
                && (lines[j].trim().starts_with("#[") || lines[j].trim().starts_with("//"))
            {
                j += 1;
            }
            let Some(item) = lines.get(j) else { break };
            let indent = &item[..item.len() - item.trim_start().len()];
            if let Some(name) = item
                .trim()
                .strip_prefix("mod ")
                .or_else(|| item.trim().strip_prefix("pub mod "))
                .or_else(|| item.trim().strip_prefix("pub(crate) mod "))
                .and_then(|r| r.strip_suffix(';'))
            {
                test_mods.push(name.to_string());
                i = j + 1;
                continue;
            }
            // A one-line item ends at its `;`; a block at the `}` at its indent.
            let mut k = j;
            if !item.trim_end().ends_with(';') {
                let close = format!("{indent}}}");
                while k < lines.len() && lines[k].trim_end() != close {
                    k += 1;
                }
            }
            i = k + 1;
            continue;
        }
        if !t.starts_with("//") {
            let code = match line.find("//") {
                // A comment after code (not inside a string: crude, but src/ has none).
                Some(c) if !line[..c].contains('"') => &line[..c],
                _ => line,
            };
            out.push((i + 1, code.to_string()));
        }
        i += 1;
    }
    (out, test_mods)
}

/// The top-level modules a line names through `crate::`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        let before_ok = at == 0 || {
            let b = rest.as_bytes()[at - 1];
            !(b.is_ascii_alphanumeric() || b == b'_')
        };
        rest = &rest[at + "crate::".len()..];
        if !before_ok {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::x, b}`: each element's first name.
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// Whether `table` has a loop; returns one if so.
fn a_loop(table: &BTreeMap<String, Uses>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        table: &BTreeMap<String, Uses>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        if let Some(Uses::Only(uses)) = table.get(m) {
            for u in uses {
                if let Some(c) = visit(u, table, path, done) {
                    return Some(c);
                }
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in table.keys() {
        if let Some(c) = visit(m, table, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[test]
fn every_import_keeps_the_layers_of_the_architecture_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("docs/ARCHITECTURE.md");
    let table = layer_table(&doc);
    let src = root.join("src");
    let mods = modules(&src);

    let mut problems = Vec::new();
    for m in &mods {
        if !table.contains_key(m) {
            problems.push(format!(
                "module `{m}` (src/{m}) has no row in docs/ARCHITECTURE.md's table"
            ));
        }
    }
    for (m, uses) in &table {
        if !mods.contains(m) {
            problems.push(format!(
                "docs/ARCHITECTURE.md's table has a row for `{m}`, which is not a module of src/"
            ));
        }
        if let Uses::Only(uses) = uses {
            for u in uses.iter().filter(|u| !mods.contains(*u)) {
                problems.push(format!(
                    "docs/ARCHITECTURE.md: `{m}` uses `{u}`, which is not a module of src/"
                ));
            }
        }
    }
    if let Some(cycle) = a_loop(&table) {
        problems.push(format!(
            "docs/ARCHITECTURE.md's table has a loop: {}",
            cycle.join(" → ")
        ));
    }

    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    // Files of test modules (`#[cfg(test)] mod x;`), left out.
    let mut test_files = BTreeSet::new();
    let mut used: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut scanned = Vec::new();
    for f in &files {
        let text = fs::read_to_string(f).expect("a source file");
        let (lines, test_mods) = code_lines(&text);
        let dir = if f
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
        {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        for t in test_mods {
            test_files.insert(dir.join(format!("{t}.rs")));
            test_files.insert(dir.join(&t).join("mod.rs"));
        }
        scanned.push((f.clone(), lines));
    }
    for (f, lines) in scanned {
        if test_files.contains(&f) {
            continue;
        }
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .to_string();
        let module = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        for (n, line) in lines {
            for target in crate_paths(&line) {
                if target == module || !mods.contains(&target) {
                    continue;
                }
                used.entry(module.clone())
                    .or_default()
                    .insert(target.clone());
                let allowed = match table.get(&module) {
                    Some(Uses::Any) => true,
                    Some(Uses::Only(u)) => u.contains(&target),
                    None => false,
                };
                if !allowed {
                    let may = match table.get(&module) {
                        Some(Uses::Only(u)) if u.is_empty() => "nothing".to_string(),
                        Some(Uses::Only(u)) => u.iter().cloned().collect::<Vec<_>>().join(", "),
                        _ => "(no row)".to_string(),
                    };
                    problems.push(format!(
                        "src/{}:{n}: `{module}` imports `crate::{target}` against the layers: `{}` (`{module}` may use: {may})",
                        rel.display(),
                        line.trim(),
                    ));
                }
            }
        }
    }
    for (m, uses) in &table {
        if let Uses::Only(uses) = uses {
            for u in uses {
                if !used.get(m).is_some_and(|s| s.contains(u)) {
                    problems.push(format!(
                        "docs/ARCHITECTURE.md says `{m}` uses `{u}`, but no code of src/{m} does: drop it from the table"
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "layers broken:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scanner_reads_paths_and_leaves_test_code_out() {
    assert_eq!(crate_paths("use crate::rules::{Side, Variant};"), ["rules"]);
    assert_eq!(crate_paths("use crate::{cube::X, eval};"), ["cube", "eval"]);
    assert_eq!(
        crate_paths("let x = crate::cube::a(crate::eval::b);"),
        ["cube", "eval"]
    );
    assert!(crate_paths("let x = gulbara_crate::cube::a;").is_empty());
    let text = "use crate::a::X;\n// crate::b::Y\n#[cfg(test)]\nmod tests {\n    use crate::c::Z;\n}\n#[cfg(test)]\nuse crate::d::W;\n#[cfg(test)]\nmod more;\nfn f() {} // crate::e\n";
    let (lines, mods) = code_lines(text);
    let paths: Vec<String> = lines.iter().flat_map(|(_, l)| crate_paths(l)).collect();
    assert_eq!(paths, ["a"]);
    assert_eq!(mods, ["more"]);
    let t = layer_table(
        "x\n| module | uses |\n|---|---|\n| `a` | nothing |\n| `b`, `c` | a (why, really), `d` |\n| `cli` | every module |\n\nafter\n",
    );
    assert!(matches!(&t["a"], Uses::Only(s) if s.is_empty()));
    assert!(matches!(&t["c"], Uses::Only(s) if s.iter().eq(["a", "d"].iter())));
    assert!(matches!(&t["cli"], Uses::Any));
    assert!(a_loop(&t).is_none());
    let looped = layer_table("| module | uses |\n|---|---|\n| `a` | b |\n| `b` | a |\n");
    assert_eq!(
        a_loop(&looped),
        Some(vec!["a".to_string(), "b".to_string(), "a".to_string()])
    );
}
