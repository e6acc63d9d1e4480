//! The manual agrees with the code (issue 24, item 6): every argument type ferrapi exports (a
//! type with an `Extract` or `Dependency` implementation, written out or through one of the
//! runtime's macros, that
//! the crate root, its prelude or one of its public modules re-exports) has a row in the argument
//! table of "How arguments are read" (runtime/manual/02-arguments.md). A new extractor without
//! its row fails here.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The runtime crate's directory.
fn runtime() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime")
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("the runtime's sources").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.clone(), fs::read_to_string(&path).expect("a source file")));
        }
    }
    out
}

/// The last path segment of a type as written (`crate::response::LastEventId` →
/// `LastEventId`, `Header<T, N>` → `Header`).
fn type_name(written: &str) -> String {
    let before_generics = written.split('<').next().unwrap_or("");
    before_generics
        .rsplit("::")
        .next()
        .unwrap_or("")
        .trim()
        .to_owned()
}

/// The body of each `macro_rules!` in `text`, by name (up to the next line that closes at
/// column 0).
fn macros(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (start, _) in text.match_indices("macro_rules! ") {
        let rest = &text[start + "macro_rules! ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let end = rest.find("\n}").unwrap_or(rest.len());
        out.push((name, rest[..end].to_owned()));
    }
    out
}

/// The two traits an argument type implements, one or the other, as an impl names them.
const ARGUMENT_TRAITS: [&str; 2] = [" Extract for ", " Dependency for "];

/// The names of the types with an `Extract` or `Dependency` implementation in the runtime's
/// sources.
fn argument_types() -> BTreeSet<String> {
    let files = sources(&runtime().join("src"));
    let mut names = BTreeSet::new();
    // Written out: `impl<..> Extract for Type`.
    for ((_, text), pattern) in files.iter().flat_map(|file| ARGUMENT_TRAITS.map(|p| (file, p))) {
        for (at, _) in text.match_indices(pattern) {
            let written = text[at + pattern.len()..]
                .split([' ', '{', '\n'])
                .next()
                .unwrap_or("");
            if !written.starts_with('$') {
                names.insert(type_name(written));
            }
        }
    }
    // Through a macro that implements it (or calls one that does): each call's first argument.
    let all: Vec<(String, String)> = files.iter().flat_map(|(_, text)| macros(text)).collect();
    let mut implementing: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = implementing.len();
        for (name, body) in &all {
            if ARGUMENT_TRAITS.iter().any(|p| body.contains(p.trim_start()))
                || implementing.iter().any(|m| body.contains(&format!("{m}!(")))
            {
                implementing.insert(name.clone());
            }
        }
        if implementing.len() == before {
            break;
        }
    }
    for (_, text) in &files {
        for name in &implementing {
            for (at, _) in text.match_indices(&format!("{name}!(")) {
                let first = text[at + name.len() + 2..].split([',', ')']).next().unwrap_or("");
                if !first.trim_start().starts_with('$') {
                    names.insert(type_name(first));
                }
            }
        }
    }
    names
}

/// Every name a `pub use` of the crate root (its inline modules included), of `ws` or of `files`
/// exports.
fn exported() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for file in ["src/lib.rs", "src/ws/mod.rs", "src/files/mod.rs"] {
        let text = fs::read_to_string(runtime().join(file)).expect("the runtime's exports");
        for (at, _) in text.match_indices("pub use ") {
            let statement = text[at..].split(';').next().unwrap_or("");
            for word in statement.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if word.chars().next().is_some_and(char::is_uppercase) {
                    names.insert(word.to_owned());
                }
            }
        }
    }
    names.insert("WebSocketUpgrade".to_owned());
    names
}

#[test]
fn every_exported_argument_type_has_a_row_in_the_argument_table() {
    let manual = fs::read_to_string(runtime().join("manual/02-arguments.md")).expect("the chapter");
    let table: Vec<&str> = manual.lines().filter(|line| line.starts_with('|')).collect();
    let types = argument_types();
    let exported = exported();
    let listed: Vec<&String> = types.iter().filter(|name| exported.contains(*name)).collect();
    for expected in [
        "Header",
        "Cookie",
        "Form",
        "Multipart",
        "UploadFile",
        "HttpBearer",
        "OAuth2PasswordRequestForm",
        "WebSocketUpgrade",
    ] {
        assert!(
            listed.iter().any(|name| *name == expected),
            "{expected} found: {listed:?}"
        );
    }
    let missing: Vec<&&String> = listed
        .iter()
        .filter(|name| {
            !table.iter().any(|row| {
                row.match_indices(name.as_str()).any(|(at, _)| {
                    let after = row[at + name.len()..].chars().next();
                    let before = row[..at].chars().next_back();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "argument types without a row in the table of runtime/manual/02-arguments.md: {missing:?}"
    );
}
