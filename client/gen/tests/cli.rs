//! The `ferrapi-client` command and the generator as a user meets them: a document in, a file out
//! (the same bytes every time), the features it needs said; a construct that cannot be mapped is
//! an error naming its JSON pointer, and nothing is written; a usage mistake exits 2 (usage on
//! stderr), asking for help exits 0 (usage on stdout).

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrapi-client-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ferrapi-client"))
}

const TYPES_EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/snapshots/openapi_types_example.json"
);

#[test]
fn a_document_becomes_a_file_the_same_every_time() {
    let out = scratch("types.rs");
    let run = command()
        .args(["generate", TYPES_EXAMPLE, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(said.contains("6 operations"), "{said}");
    assert!(
        said.contains("needs ferrapi-client's features chrono, decimal, url, uuid"),
        "{said}"
    );
    let first = std::fs::read_to_string(&out).unwrap();
    assert!(
        first.starts_with("//! A client of types example"),
        "{}",
        &first[..100]
    );
    let document = std::fs::read_to_string(TYPES_EXAMPLE).unwrap();
    let again = ferrapi_client_gen::generate(&document, &ferrapi_client_gen::Settings::default()).unwrap();
    assert_eq!(again.code, first, "generation is deterministic");
}

#[test]
fn an_unmappable_construct_names_its_pointer_and_writes_nothing() {
    let document = scratch("not.json");
    std::fs::write(
        &document,
        r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"Odd": {"not": {"type": "string"}}}}}"#,
    )
    .unwrap();
    let out = scratch("not.rs");
    let run = command()
        .args(["generate"])
        .arg(&document)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("#/components/schemas/Odd: `not` has no Rust type"),
        "{said}"
    );
    assert!(!out.exists());
}

#[test]
fn usage_mistakes_exit_2() {
    for args in [
        &["generate"][..],
        &["frobnicate"][..],
        &["generate", "x.json"][..],
    ] {
        let run = command().args(args).output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("usage: ferrapi-client generate"));
    }
}

#[test]
fn help_is_on_stdout_and_exits_0() {
    for args in [&["--help"][..], &["-h"][..], &["generate", "--help"][..]] {
        let run = command().args(args).output().unwrap();
        assert_eq!(run.status.code(), Some(0), "{args:?}");
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(
            said.starts_with("usage: ferrapi-client generate"),
            "{args:?}: {said}"
        );
        assert!(said.contains("cargo install"), "{said}");
        assert!(
            run.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    // No argument at all is a mistake, not a question.
    let run = command().output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(run.stdout.is_empty());
    assert!(String::from_utf8_lossy(&run.stderr).contains("usage: ferrapi-client generate"));
}

#[test]
fn a_swagger_2_document_is_refused() {
    let error = ferrapi_client_gen::generate(r#"{"swagger": "2.0"}"#, &Default::default()).unwrap_err();
    assert_eq!(error.pointer, "#/openapi");
}
