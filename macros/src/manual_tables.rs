//! The manual's tables of what the macros take agree with the parsers: the route options of
//! `runtime/manual/01-routes.md` and `runtime/manual/macros/route_options.md` (which every route
//! attribute's page includes) are exactly [`ROUTE_OPTIONS`], and the field attributes of
//! `runtime/manual/macros/model.md` exactly those a `Model` field takes.
//!
//! Rules enforced here: the parsers' lists are the ones they read by (an option or attribute
//! missing from its list is refused as unknown, so it cannot be added without it), and each
//! listed name is parsed here from a sample (a name listed but not read fails); a name in a
//! table but not in the list, or in the list but not in the table, fails; a table is a markdown
//! table whose first header cell names it (`Option`, `Attribute`), each row naming its options
//! in backticks in its first cell.

use std::collections::BTreeSet;
use std::path::PathBuf;

use proc_macro2::TokenStream;

use crate::attrs::{CONSTRAINTS, VALUE_ATTRS};
use crate::diag::Diagnostics;
use crate::model::{parse_model, MODEL_OWN_ATTRS};
use crate::route::{route_attr, ROUTE_OPTIONS};

/// The runtime's manual.
fn manual() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../runtime/manual")
}

/// The names of the rows of the tables of `page` whose first header cell is `header`: in each
/// row's first cell, every backticked token's leading name (`tags("a")` → `tags`,
/// `#[ge(n)]` → `ge`).
fn table_names(page: &str, header: &str) -> BTreeSet<String> {
    let path = manual().join(page);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut names = BTreeSet::new();
    let mut in_table = false;
    for line in text.lines() {
        let Some(row) = line.trim().strip_prefix('|') else {
            in_table = false;
            continue;
        };
        let first = row.split('|').next().unwrap_or("").trim();
        if first == header {
            in_table = true;
            continue;
        }
        if !in_table || first.chars().all(|c| matches!(c, '-' | ':' | ' ')) {
            continue;
        }
        for token in first.split('`').skip(1).step_by(2) {
            let token = token.trim_start_matches("#[");
            let name: String = token
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.insert(name);
        }
    }
    assert!(!names.is_empty(), "{page} has no table headed `{header}`");
    names
}

/// A written sample of each route option, parsed to prove the parser reads it.
fn route_option_sample(name: &str) -> &'static str {
    match name {
        "tags" => r#"tags("a", "b")"#,
        "status" => "status = 201",
        "responses" => r#"responses(404 = "Not found")"#,
        "include_in_schema" => "include_in_schema = false",
        "deprecated" => "deprecated = true",
        "operation_id" => r#"operation_id = "x""#,
        "summary" => r#"summary = "x""#,
        "response_description" => r#"response_description = "x""#,
        "paged" => r#"paged(offset = "offset", limit = "size")"#,
        "versions" => r#"versions = "2026-01-15".."2026-06-01""#,
        "status_before" => r#"status_before("2026-03-01" = 200)"#,
        other => {
            panic!("route option `{other}` has no sample here: add one, and its row to the manual's tables")
        }
    }
}

/// A written sample of each attribute a model field may take.
fn field_attribute_sample(name: &str) -> &'static str {
    match name {
        "default" => "#[default(1)]",
        "alias" => r#"#[alias("x")]"#,
        "examples" => "#[examples(1, 2)]",
        "openapi_examples" => r#"#[openapi_examples(a = {"value": 1})]"#,
        "serde" => r#"#[serde(rename = "x")]"#,
        "validate" => "#[validate(check)]",
        "pattern" => r#"#[pattern("^a")]"#,
        "ge" | "gt" | "le" | "lt" | "multiple_of" | "min_length" | "max_length" | "max_digits"
        | "decimal_places" => "",
        other => panic!("attribute `{other}` has no sample here: add one, and its row to model.md's table"),
    }
}

#[test]
fn every_route_option_is_read_and_in_both_tables() {
    let listed: BTreeSet<String> = ROUTE_OPTIONS.iter().map(|(name, _)| (*name).to_owned()).collect();
    for name in &listed {
        let tokens: TokenStream = format!(r#""/x", {}"#, route_option_sample(name))
            .parse()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut diag = Diagnostics::default();
        let parsed = route_attr(tokens, &mut diag).is_some();
        assert!(
            parsed && diag.is_empty(),
            "route option `{name}` is listed but not read"
        );
    }
    for page in ["01-routes.md", "macros/route_options.md"] {
        assert_eq!(
            table_names(page, "Option"),
            listed,
            "runtime/manual/{page}'s route options differ from the parser's (ROUTE_OPTIONS)"
        );
    }
}

#[test]
fn every_route_attribute_page_includes_the_options_table() {
    let lib = std::fs::read_to_string(manual().join("../src/lib.rs")).unwrap_or_default();
    for macro_name in ["get", "post", "put", "delete", "patch", "head", "options"] {
        let docs = format!(
            "#[doc = include_str!(\"../manual/macros/{macro_name}.md\")]\n#[doc = include_str!(\"../manual/macros/route_options.md\")]\npub use ferrapi_macros::{macro_name};"
        );
        assert!(
            lib.contains(&docs),
            "`{macro_name}`'s docs in runtime/src/lib.rs lack route_options.md"
        );
    }
}

#[test]
fn every_field_attribute_a_model_takes_is_in_its_table() {
    let candidates = VALUE_ATTRS.iter().chain(CONSTRAINTS).chain(MODEL_OWN_ATTRS);
    let mut taken = BTreeSet::new();
    for name in candidates {
        let sample = match field_attribute_sample(name) {
            "" => format!("#[{name}(1)]"),
            sample => sample.to_owned(),
        };
        let input: syn::DeriveInput = syn::parse_str(&format!("struct M {{ {sample} field: u8 }}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut diag = Diagnostics::default();
        parse_model(&input, &mut diag);
        if diag.is_empty() {
            taken.insert((*name).to_owned());
        }
    }
    for own in CONSTRAINTS.iter().chain(MODEL_OWN_ATTRS) {
        assert!(taken.contains(*own), "a model field does not take `{own}`");
    }
    assert_eq!(
        table_names("macros/model.md", "Attribute"),
        taken,
        "runtime/manual/macros/model.md's field attributes differ from what a model field takes"
    );
}
