//! Generates a client from each document this crate tests, as a user's build.rs would: the
//! documents FastAPI serves for the reference apps of tests/fastapi/ (recorded in documents/ by
//! scripts/client-checks.sh, which checks they are still what FastAPI serves), and the types
//! example's (tests/snapshots/openapi_types_example.json, kept equal to what it serves by
//! tests/tests/framework/example_types.rs). A document the generator cannot map fails the build,
//! naming the construct's JSON pointer.

use std::path::Path;

const DOCUMENTS: &[(&str, &str)] = &[
    ("fastapi_client", "documents/fastapi_client.json"),
    ("fastapi_reference", "documents/fastapi_reference.json"),
    ("fastapi_group_a", "documents/fastapi_group_a.json"),
    ("fastapi_forms", "documents/fastapi_forms.json"),
    ("fastapi_uploads", "documents/fastapi_uploads.json"),
    (
        "types_example",
        "../../tests/snapshots/openapi_types_example.json",
    ),
];

fn main() {
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_owned());
    let settings = ferrapi_client_gen::Settings {
        inner_attributes: false,
        ..ferrapi_client_gen::Settings::default()
    };
    for (name, path) in DOCUMENTS {
        println!("cargo:rerun-if-changed={path}");
        let document = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
        match ferrapi_client_gen::generate(&document, &settings) {
            Ok(generated) => {
                let target = Path::new(&out).join(format!("{name}.rs"));
                std::fs::write(&target, generated.code)
                    .unwrap_or_else(|error| panic!("{}: {error}", target.display()));
            }
            Err(error) => panic!("{path}: {error}"),
        }
    }
}
