//! Expansion snapshots: each `tests/expand/<name>.rs` is expanded by the same functions the
//! macros' entry points call, pretty-printed, and compared with `tests/expand/<name>.expanded.rs`.
//!
//! Rules enforced here: every input has a committed expansion and every expansion an input; a
//! missing, stale or orphaned snapshot fails the test unless `UPDATE_SNAPSHOTS` is set, in which
//! case the snapshots are rewritten (`UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros`; read the
//! diff before committing it). Items of an input that carry no macro of this crate are copied.

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::ToTokens;

use crate::{model, route, str_enum};

const HEADER: &str =
    "// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.\n\
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.\n\n";

const ROUTE_ATTRIBUTES: &[(&str, &str)] = &[
    ("get", "GET"),
    ("post", "POST"),
    ("put", "PUT"),
    ("delete", "DELETE"),
    ("patch", "PATCH"),
    ("head", "HEAD"),
    ("options", "OPTIONS"),
];

fn expand_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("expand")
}

/// The method of a route attribute (`#[get(..)]` → `"GET"`).
fn route_method(attr: &syn::Attribute) -> Option<&'static str> {
    let ident = attr.path().get_ident()?;
    ROUTE_ATTRIBUTES
        .iter()
        .find(|(name, _)| ident == name)
        .map(|(_, method)| *method)
}

/// True when `attrs` hold `#[derive(.., name, ..)]`.
fn derives(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("derive")).any(|attr| {
        let mut found = false;
        let _ = attr.parse_nested_meta(|meta| {
            found |= meta.path.is_ident(name);
            Ok(())
        });
        found
    })
}

/// One item of an input as the compiler would see it after this crate's macros ran: a route
/// function is replaced by its expansion; a derive's expansion follows the item.
fn expand_item(item: syn::Item) -> TokenStream {
    match item {
        syn::Item::Fn(mut func) => {
            if let Some(position) = func.attrs.iter().position(|a| a.path().is_ident("dependency")) {
                let attr = func.attrs.remove(position);
                let args = match attr.meta {
                    syn::Meta::List(list) => list.tokens,
                    _ => TokenStream::new(),
                };
                return route::dependency::expand(args, func.into_token_stream());
            }
            let Some(position) = func.attrs.iter().position(|a| route_method(a).is_some()) else {
                return func.into_token_stream();
            };
            let attr = func.attrs.remove(position);
            let method = route_method(&attr).unwrap_or("GET");
            let args = match attr.meta {
                syn::Meta::List(list) => list.tokens,
                _ => TokenStream::new(),
            };
            route::expand(method, args, func.into_token_stream())
        }
        item => {
            let mut out = item.to_token_stream();
            let attrs = match &item {
                syn::Item::Struct(s) => &s.attrs[..],
                syn::Item::Enum(e) => &e.attrs[..],
                _ => &[],
            };
            if derives(attrs, "Model") {
                out.extend(model::derive(item.to_token_stream()));
            }
            if derives(attrs, "StrEnum") {
                out.extend(str_enum::derive(item.to_token_stream()));
            }
            out
        }
    }
}

/// The pretty-printed expansion of an input file's source.
fn expand_source(source: &str) -> Result<String, String> {
    let file = syn::parse_file(source).map_err(|e| format!("the input does not parse: {e}"))?;
    let expanded: TokenStream = file.items.into_iter().map(expand_item).collect();
    let file = syn::parse2::<syn::File>(expanded)
        .map_err(|e| format!("the expansion does not parse as a file: {e}"))?;
    Ok(format!("{HEADER}{}", prettyplease::unparse(&file)))
}

/// The first line where `expected` and `actual` differ, with its neighbours.
fn first_difference(expected: &str, actual: &str) -> String {
    let expected: Vec<&str> = expected.lines().collect();
    let actual: Vec<&str> = actual.lines().collect();
    let line = (0..expected.len().max(actual.len()))
        .find(|&i| expected.get(i) != actual.get(i))
        .unwrap_or(0);
    let from = line.saturating_sub(3);
    let show = |lines: &[&str]| -> String {
        lines
            .iter()
            .enumerate()
            .skip(from)
            .take(7)
            .map(|(i, l)| format!("{:>5} | {l}\n", i + 1))
            .collect()
    };
    format!(
        "first difference at line {}\n--- committed\n{}--- expanded now\n{}",
        line + 1,
        show(&expected),
        show(&actual)
    )
}

/// Compare (or, when updating, rewrite) one snapshot; `Err` says what is wrong.
fn check(input: &Path, update: bool) -> Result<(), String> {
    let source = std::fs::read_to_string(input).map_err(|e| e.to_string())?;
    let actual = expand_source(&source)?;
    let snapshot = input.with_extension("expanded.rs");
    if update {
        return std::fs::write(&snapshot, actual).map_err(|e| e.to_string());
    }
    match std::fs::read_to_string(&snapshot) {
        Ok(expected) if expected == actual => Ok(()),
        Ok(expected) => Err(first_difference(&expected, &actual)),
        Err(e) => Err(format!(
            "no snapshot {} ({e})",
            snapshot.file_name().unwrap_or_default().to_string_lossy()
        )),
    }
}

#[test]
fn expansions_match_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut inputs = Vec::new();
    let mut snapshots = Vec::new();
    for entry in std::fs::read_dir(expand_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".expanded.rs") {
            snapshots.push(stem.to_owned());
        } else if name.ends_with(".rs") {
            inputs.push(path);
        }
    }
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", expand_dir().display());
    let mut failures = Vec::new();
    for input in &inputs {
        if let Err(problem) = check(input, update) {
            let name = input.file_name().unwrap_or_default().to_string_lossy();
            failures.push(format!("tests/expand/{name}: {problem}"));
        }
    }
    for stem in snapshots {
        if !inputs.iter().any(|i| i.file_stem().is_some_and(|s| *s == *stem)) {
            failures.push(format!("{stem}.expanded.rs has no input {stem}.rs: delete it"));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nIf the change is intended, run `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.",
        failures.join("\n\n")
    );
}
