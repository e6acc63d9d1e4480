//! A Rust client generator for OpenAPI 3.1 documents (a ferrapi service's, a FastAPI service's):
//! the document's schemas as plain serde types, one async method per operation, one enum of
//! answers per operation (a variant per documented status), typed streams, `Idempotency-Key`s
//! and entity tags; the code targets the `ferrapi-client` runtime.
//!
//! Use it from a `build.rs`, or as the `ferrapi-client` command:
//!
//! ```text
//! ferrapi-client generate openapi.json -o src/lib.rs
//! ```
//!
//! ```
//! let document = r##"{
//!     "openapi": "3.1.0",
//!     "info": {"title": "Items", "version": "1"},
//!     "paths": {"/items/{item_id}": {"get": {
//!         "operationId": "read_item_items__item_id__get",
//!         "parameters": [{"name": "item_id", "in": "path", "required": true, "schema": {"type": "integer"}}],
//!         "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}
//!     }}},
//!     "components": {"schemas": {"Item": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}
//! }"##;
//! let generated = ferrapi_client_gen::generate(document, &ferrapi_client_gen::Settings::default())?;
//! assert!(generated.code.contains("pub fn read_item(&self, item_id: i64) -> operations::ReadItemRequest<'_>"));
//! assert!(generated.code.contains("pub struct Item {"));
//! # Ok::<(), ferrapi_client_gen::GenError>(())
//! ```
//!
//! Rules enforced here: generation is a pure function of the document's bytes and the
//! [`Settings`] (the same input, the same output, byte for byte); the output is formatted by
//! prettyplease and builds without a warning under `clippy -D warnings` (what it needs allowed,
//! it allows at its top); a construct that cannot be mapped is a [`GenError`] naming its JSON
//! pointer, and nothing is written.

// One way down: the document is read once into typed objects (`document`), its schemas become
// the type space (`types`), its operations calls that use those types (`operations`), and `file`
// writes the whole; the names and doc comments they share are `names`' and `docs`'.

// No function over 80 lines (clippy.toml sets the threshold).
#![warn(clippy::too_many_lines)]

pub mod compat;
mod docs;
mod document;
mod file;
mod names;
mod operations;
mod types;
mod typescript;

use std::collections::HashSet;

use serde_json::Value;

pub use document::{Document, GenError};
pub use operations::fastapi_function;

use operations::BodyKind;
use types::emit::Context;
use types::{Schemas, Ty};

/// The generator's version, written in the generated code's header.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How a client is generated.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The runtime crate's path in the generated code (default `::ferrapi_client`).
    pub runtime: String,
    /// Write the module's documentation and lint settings as inner attributes (`//!`,
    /// `#![allow(..)]`): right for a file that is a module (`src/lib.rs`, `mod client;`), wrong
    /// for one pulled in with `include!` (default true).
    pub inner_attributes: bool,
    /// The command that regenerates the file, named in its header.
    pub regenerate: Option<String>,
    /// Read pydantic's decimal (`anyOf: [number, string]`, its input schema) as
    /// `rust_decimal::Decimal` (default true).
    pub decimals: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            runtime: "::ferrapi_client".to_owned(),
            inner_attributes: true,
            regenerate: None,
            decimals: true,
        }
    }
}

/// A generated client.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The Rust code, formatted.
    pub code: String,
    /// The `ferrapi-client` features it needs (`chrono`, `decimal`, `url`, `uuid`).
    pub features: Vec<&'static str>,
    /// How many operations it has.
    pub operations: usize,
    /// How many types it declares.
    pub types: usize,
    /// What the generator left aside, and where (an `x-paging` it cannot use): the client is
    /// still whole, but the command prints these.
    pub warnings: Vec<GenError>,
}

/// Generate a client from `document` (JSON text).
pub fn generate(document: &str, settings: &Settings) -> Result<Generated, GenError> {
    let value: Value = serde_json::from_str(document)
        .map_err(|error| GenError::at("#", format!("not a JSON document: {error}")))?;
    generate_value(&value, settings)
}

/// Generate a client from `document`.
pub fn generate_value(document: &Value, settings: &Settings) -> Result<Generated, GenError> {
    let document = Document::new(document)?;
    let mut schemas = Schemas::new(&document, settings.decimals)?;
    let mut warnings = Vec::new();
    let operations = operations::operations(&document, &mut schemas, &mut warnings)?;
    // The models sent as multipart bodies write themselves as parts; those sent as forms or
    // parts have no `null` (their fields that may be null stay `Option`s).
    let bodies = |kinds: &[BodyKind]| -> HashSet<String> {
        operations
            .iter()
            .filter_map(|operation| operation.body.as_ref())
            .filter(|body| kinds.contains(&body.kind))
            .filter_map(|body| match &body.ty {
                Ty::Named(name) => Some(name.clone()),
                _ => None,
            })
            .collect()
    };
    let multipart = bodies(&[BodyKind::Multipart]);
    let flat = bodies(&[BodyKind::Multipart, BodyKind::Form]);
    let context = Context::new(&schemas.defs, multipart, flat);
    let features: Vec<&'static str> = schemas.features.iter().copied().collect();
    let code = file::code(
        &document,
        settings,
        &context,
        &schemas.defs,
        &operations,
        &features,
    )?;
    Ok(Generated {
        code,
        features,
        operations: operations.len(),
        types: schemas.defs.len(),
        warnings,
    })
}

/// The TypeScript client's paging table of `document` (JSON text): the `GET` operations that
/// page, by path, as `ferrapi-client typescript-paging` writes them; and the warnings (an
/// `x-paging` that cannot be used).
pub fn typescript_paging(document: &str) -> Result<(String, Vec<GenError>), GenError> {
    let value: Value = serde_json::from_str(document)
        .map_err(|error| GenError::at("#", format!("not a JSON document: {error}")))?;
    let document = Document::new(&value)?;
    let mut warnings = Vec::new();
    let paged = operations::paged_paths(&document, &mut warnings)?;
    Ok((typescript::paging_table(&document, &paged), warnings))
}

/// The TypeScript client's version module of `document` (JSON text), as `ferrapi-client
/// typescript-version` writes it: `apiVersion` and `versionHeaders` (the header a versioned
/// document names, with its version; none for a document without `info.x-api-version`).
pub fn typescript_version(document: &str) -> Result<String, GenError> {
    let value: Value = serde_json::from_str(document)
        .map_err(|error| GenError::at("#", format!("not a JSON document: {error}")))?;
    let document = Document::new(&value)?;
    Ok(typescript::version_module(&document))
}

#[cfg(test)]
mod typescript_tests {
    #[test]
    fn the_version_module_names_the_documents_version_or_none() {
        let versioned = r#"{"openapi": "3.1.0", "paths": {}, "info": {"title": "Shop", "version": "2026-01-15",
            "x-api-version": {"header": "API-Version", "version": "2026-01-15", "released": true}}}"#;
        assert_eq!(
            super::typescript_version(versioned).unwrap(),
            "// Generated by ferrapi-client from Shop 2026-01-15: the API version this client is written for.\n\
             export const apiVersion = { header: \"API-Version\", version: \"2026-01-15\", released: true, deprecated: false } as const;\n\
             /** Send with every request: `createClient<paths>({ baseUrl, headers: versionHeaders })`. */\n\
             export const versionHeaders: Record<string, string> = { \"API-Version\": \"2026-01-15\" };\n"
        );
        let deprecated = versioned.replace(r#""released": true"#, r#""released": true, "deprecated": true"#);
        let module = super::typescript_version(&deprecated).unwrap();
        assert!(module.contains("released: true, deprecated: true }"), "{module}");
        let plain = r#"{"openapi": "3.1.0", "paths": {}, "info": {"title": "Shop", "version": "1"}}"#;
        let module = super::typescript_version(plain).unwrap();
        assert!(module.contains("export const apiVersion = null;"), "{module}");
        assert!(
            module.contains("export const versionHeaders: Record<string, string> = {};"),
            "{module}"
        );
    }
}
