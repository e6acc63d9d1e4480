//! Generates a client from each document this crate tests, as a user's build.rs would: the
//! documents FastAPI serves for the reference apps of tests/fastapi/ (recorded in documents/ by
//! scripts/client-checks.sh, which checks they are still what FastAPI serves) and the ones its
//! probes recorded (generic models, discriminated and untagged unions, Name-Input/Name-Output
//! split and not, examples), and ferrapi's example documents (tests/snapshots/, each kept equal
//! to what its app serves by the framework's tests). A document the generator cannot map fails
//! the build, naming the construct's JSON pointer; each generated client must build without a
//! warning (clippy -D warnings runs over this crate).

use std::path::Path;

/// Each client: its module name, the file, and the JSON pointer of the document in it.
const DOCUMENTS: &[(&str, &str, &str)] = &[
    ("fastapi_client", "documents/fastapi_client.json", ""),
    ("fastapi_reference", "documents/fastapi_reference.json", ""),
    ("fastapi_group_a", "documents/fastapi_group_a.json", ""),
    ("fastapi_forms", "documents/fastapi_forms.json", ""),
    ("fastapi_uploads", "documents/fastapi_uploads.json", ""),
    (
        "fastapi_generics",
        "../../tests/fastapi/generics_observed.json",
        "/openapi",
    ),
    (
        "fastapi_unions",
        "../../tests/fastapi/unions_observed.json",
        "/openapi",
    ),
    (
        "fastapi_unions_untagged",
        "../../tests/fastapi/unions_untagged_observed.json",
        "/openapi",
    ),
    (
        "fastapi_split",
        "../../tests/fastapi/split_observed.json",
        "/separate",
    ),
    (
        "fastapi_not_split",
        "../../tests/fastapi/split_observed.json",
        "/together",
    ),
    (
        "fastapi_examples",
        "../../tests/fastapi/examples_observed.json",
        "/openapi",
    ),
    (
        "versions_2026_01_15",
        "documents/ferrapi_versions_2026-01-15.json",
        "",
    ),
    (
        "types_example",
        "../../tests/snapshots/openapi_types_example.json",
        "",
    ),
    (
        "example_app",
        "../../tests/snapshots/openapi_example_app.json",
        "",
    ),
    (
        "groups_example",
        "../../tests/snapshots/openapi_groups_example.json",
        "",
    ),
];

fn main() {
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_owned());
    let settings = ferrapi_client_gen::Settings {
        inner_attributes: false,
        ..ferrapi_client_gen::Settings::default()
    };
    for (name, path, pointer) in DOCUMENTS {
        println!("cargo:rerun-if-changed={path}");
        let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
        let file: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"));
        let document = file
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{path}: no document at `{pointer}`"));
        match ferrapi_client_gen::generate_value(document, &settings) {
            Ok(generated) => {
                let target = Path::new(&out).join(format!("{name}.rs"));
                std::fs::write(&target, generated.code)
                    .unwrap_or_else(|error| panic!("{}: {error}", target.display()));
            }
            Err(error) => panic!("{path}: {error}"),
        }
    }
}
