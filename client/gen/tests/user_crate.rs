//! A generated client in a user's crate, built by cargo as the user builds it: a binary crate
//! (where `pub` keeps nothing alive) that calls one operation builds without a warning, and one
//! whose `ferrapi-client` lacks two of the features the client needs fails with exactly one
//! error per missing feature, naming it (not the 19 "cannot find `chrono` in `rt`" of before).
//!
//! The crate is written under cargo's scratch directory for tests and built there with its own
//! target directory (a nested cargo on the outer one would wait for its lock), offline, with the
//! workspace's `Cargo.lock`: the first run builds the runtime's dependencies once.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

const TYPES_EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/snapshots/openapi_types_example.json"
);

/// Writes a binary crate at `dir` holding the types example's client, whose `ferrapi-client` has
/// `features`.
fn user_crate(dir: &Path, features: &[&str]) {
    let document = std::fs::read_to_string(TYPES_EXAMPLE).unwrap();
    let generated = ferrapi_client_gen::generate(&document, &Default::default()).unwrap();
    assert_eq!(generated.features, ["chrono", "decimal", "url", "uuid"]);
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
    let features: Vec<String> = features.iter().map(|f| format!("{f:?}")).collect();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nferrapi-client = {{ path = {:?}, features = [{}] }}\n\n[workspace]\n",
            runtime.display().to_string(),
            features.join(", ")
        ),
    )
    .unwrap();
    // The workspace's lock: the same versions, and nothing to resolve online.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        dir.join("Cargo.lock"),
    )
    .unwrap();
    std::fs::write(dir.join("src/api.rs"), generated.code).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "//! A program that calls one operation of an API.\n\n\
         mod api;\n\n\
         fn main() {\n    \
             let api = api::Client::new(\"http://127.0.0.1:8000\").unwrap();\n    \
             let _request = api.list_events();\n\
         }\n",
    )
    .unwrap();
}

/// `cargo build` of the crate at `dir`: whether it built, and what rustc said (short form).
fn build(dir: &Path) -> (bool, String) {
    let target: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crate-target");
    let run = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--message-format=short"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .unwrap();
    (
        run.status.success(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

#[test]
fn a_binary_crate_builds_without_a_warning_and_a_missing_feature_is_one_error() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-crate");

    let all = root.join("all");
    user_crate(&all, &["chrono", "decimal", "url", "uuid"]);
    let (built, said) = build(&all);
    assert!(built, "{said}");
    assert!(!said.contains("warning"), "a binary crate warns:\n{said}");

    let missing = root.join("missing");
    user_crate(&missing, &["chrono", "uuid"]);
    let (built, said) = build(&missing);
    assert!(!built);
    let errors: Vec<&str> = said
        .lines()
        .filter(|line| line.contains("error"))
        .filter(|line| !line.contains("could not compile"))
        .collect();
    assert_eq!(errors.len(), 2, "one error per missing feature:\n{said}");
    for feature in ["decimal", "url"] {
        assert!(
            said.contains(&format!("this client needs ferrapi-client's feature `{feature}`"))
                && said.contains(&format!("add `features = [\"{feature}\"]`")),
            "{said}"
        );
    }
}
