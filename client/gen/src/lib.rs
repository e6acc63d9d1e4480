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
//! assert!(generated.code.contains("pub fn read_item(&self, item_id: i64) -> operations::ReadItem<'_>"));
//! assert!(generated.code.contains("pub struct Item {"));
//! # Ok::<(), ferrapi_client_gen::GenError>(())
//! ```
//!
//! Rules enforced here: generation is a pure function of the document's bytes and the
//! [`Settings`] (the same input, the same output, byte for byte); the output is formatted by
//! prettyplease and builds without a warning under `clippy -D warnings` (what it needs allowed,
//! it allows at its top); a construct that cannot be mapped is a [`GenError`] naming its JSON
//! pointer, and nothing is written.

mod docs;
mod document;
mod emit_ops;
mod emit_types;
mod names;
mod operations;
mod schema;

use quote::quote;
use serde_json::Value;

pub use document::GenError;
pub use operations::fastapi_function;

use document::Document;
use emit_types::{doc_attrs, Context};
use schema::Schemas;

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
    let operations = operations::operations(&document, &mut schemas)?;
    let multipart = operations
        .iter()
        .filter_map(|operation| operation.body.as_ref())
        .filter(|body| body.kind == operations::BodyKind::Multipart)
        .filter_map(|body| match &body.ty {
            schema::Ty::Named(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    let context = Context::new(&schemas.defs, multipart);
    let rt = &context.rt;
    let runtime: proc_macro2::TokenStream = settings
        .runtime
        .parse()
        .map_err(|_| GenError::at("#", format!("`{}` is not a path", settings.runtime)))?;

    let types: Vec<_> = schemas.defs.iter().map(|def| context.def_items(def)).collect();
    // Each module names the runtime `rt`, when it uses it.
    let uses_rt =
        |items: &[proc_macro2::TokenStream]| items.iter().any(|item| item.to_string().contains("rt ::"));
    let types_rt = uses_rt(&types).then(|| quote!(use #runtime as rt;));
    let mut methods = Vec::new();
    let mut items = Vec::new();
    for operation in &operations {
        let generated = emit_ops::operation_items(&context, operation);
        methods.push(generated.method);
        items.push(generated.items);
    }

    let info = document.root().get("info");
    let title = info
        .and_then(|i| i.get("title"))
        .and_then(Value::as_str)
        .unwrap_or("the API");
    let version = info
        .and_then(|i| i.get("version"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut header = format!(
        "A client of {title} {version}, generated from its OpenAPI document by ferrapi-client-gen {VERSION}: do not edit it."
    );
    if let Some(command) = &settings.regenerate {
        header.push_str(&format!(" Regenerate it with `{command}`."));
    }
    if let Some(description) = info.and_then(|i| i.get("description")).and_then(Value::as_str) {
        header.push_str("\n\n");
        header.push_str(&docs::rustdoc(description));
    }
    header.push_str(
        "\n\n[`Client`] has a method per operation; each returns a request, sent by `.await`, whose answer is an \
         [`Answer`] holding the operation's enum of answers ([`operations`]); the document's schemas are in [`types`].",
    );
    let inner = settings.inner_attributes.then(|| {
        let lines = header.lines().map(|line| {
            let line = if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            };
            quote!(#![doc = #line])
        });
        quote! {
            #(#lines)*
            #![allow(
                clippy::large_enum_variant,
                clippy::enum_variant_names,
                clippy::too_many_arguments,
                clippy::upper_case_acronyms,
                clippy::doc_lazy_continuation
            )]
        }
    });
    // `types` is named only when some operation uses a schema.
    let uses_types = items.iter().any(|item| item.to_string().contains("types ::"));
    let use_types = uses_types.then(|| {
        quote!(
            use super::types;
        )
    });
    let operations_rt = uses_rt(&items).then(|| quote!(use #runtime as rt;));
    let client_doc = doc_attrs(&format!(
        "A client of {title}: a method per operation of its document."
    ));
    let tokens = quote! {
        #inner

        use #runtime as rt;

        /// The client runtime this code is written for (and the value crates it re-exports).
        pub use #runtime;
        pub use #rt::{Answer, Call, Error};

        #client_doc
        #[derive(Clone, Debug)]
        pub struct Client {
            client: #rt::Client,
        }

        impl Client {
            /// A client of the API at `base_url` (`http://127.0.0.1:8000`), with the runtime's defaults.
            pub fn new(base_url: &str) -> Result<Self, Error> {
                Ok(Client {
                    client: #rt::Client::new(base_url)?,
                })
            }

            /// The API through `client` (its own transport, timeout, retries, default headers).
            pub fn from_client(client: #rt::Client) -> Self {
                Client { client }
            }

            /// The runtime's client.
            pub fn client(&self) -> &#rt::Client {
                &self.client
            }

            #(#methods)*
        }

        /// The document's schemas.
        pub mod types {
            #types_rt

            #(#types)*
        }

        /// Each operation's request and its answers.
        pub mod operations {
            #use_types
            #operations_rt

            #(#items)*
        }
    };
    let file: syn::File = syn::parse2(tokens).map_err(|error| {
        GenError::at(
            "#",
            format!("internal: the generated code does not parse: {error}"),
        )
    })?;
    let mut code = space_items(&prettyplease::unparse(&file));
    if !settings.inner_attributes {
        code.insert_str(
            0,
            &format!("// {}\n\n", header.lines().next().unwrap_or_default()),
        );
    }
    Ok(Generated {
        code,
        features: schemas.features.iter().copied().collect(),
        operations: operations.len(),
        types: schemas.defs.len(),
    })
}

/// `code` with a blank line between items, as rustfmt leaves them (prettyplease writes none):
/// before a line that starts an item (its docs, attributes or keyword) after a line that ends one.
fn space_items(code: &str) -> String {
    let starts_item = |line: &str| {
        [
            "///", "#[", "#![", "pub ", "impl", "fn ", "async fn", "type ", "use ", "mod ", "struct ",
            "enum ",
        ]
        .iter()
        .any(|start| line.starts_with(start))
    };
    let mut out = String::with_capacity(code.len() + code.len() / 16);
    let mut previous = "";
    let mut in_inner_attribute = false;
    for line in code.lines() {
        let trimmed = line.trim_start();
        let ended = previous.ends_with('}')
            || previous.ends_with(';')
            || (in_inner_attribute && previous.ends_with(")]"));
        if !previous.is_empty() && ended && starts_item(trimmed) && !previous.starts_with("//") {
            out.push('\n');
        }
        if trimmed.starts_with("#![") {
            in_inner_attribute = true;
        } else if !trimmed.starts_with("//")
            && !trimmed.starts_with("#![")
            && in_inner_attribute
            && previous.ends_with(")]")
        {
            in_inner_attribute = false;
        }
        out.push_str(line);
        out.push('\n');
        previous = trimmed;
    }
    out
}
