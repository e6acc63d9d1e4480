//! The generated client (`service/client/src/generated.rs`) is what ferrapi-client-gen makes of the
//! service's current document (`--group all`, `GET /api/env` served, as the binary's defaults):
//! a change to the document fails this test until the client is regenerated with the command in
//! its message (and in the file's header).

/// The command that regenerates the client.
const REGENERATE: &str = "UPDATE_SNAPSHOTS=1 cargo test -p resource-api --test service client::snapshot";

fn document() -> String {
    crate::support::served_document("client_snapshot")
}

#[test]
fn the_generated_client_is_the_current_documents() {
    let settings = ferrapi_client_gen::Settings {
        regenerate: Some(REGENERATE.to_owned()),
        ..ferrapi_client_gen::Settings::default()
    };
    let generated = ferrapi_client_gen::generate(&document(), &settings).expect("the document generates");
    assert_eq!(
        generated.features,
        ["chrono"],
        "service/client/Cargo.toml turns these on"
    );
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/client/src/generated.rs");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, &generated.code).expect("write the client");
        return;
    }
    let current = std::fs::read_to_string(path).unwrap_or_default();
    if current != generated.code {
        let first = current
            .lines()
            .zip(generated.code.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| current.lines().count().min(generated.code.lines().count()));
        panic!(
            "service/client/src/generated.rs is not what the generator makes of the service's document \
             (first difference at line {}: {:?} now, {:?} generated).\n\
             If the document changed on purpose, regenerate the client:\n    {REGENERATE}",
            first + 1,
            current.lines().nth(first).unwrap_or("<end>"),
            generated.code.lines().nth(first).unwrap_or("<end>"),
        );
    }
}
