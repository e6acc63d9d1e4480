//! The generated file: its header, the `Client` with a method per operation, and the `types` and
//! `operations` modules, formatted.
//!
//! Rules enforced here: the header names the API, the generator's version and how to regenerate
//! the file; the runtime is the file's module `rt`, which requires the runtime's features the
//! types name (one `compile_error!` per feature that is off, and no other error: see
//! `ferrapi_client::require_features!`); a module imports `rt` or `types` only when its items
//! name them, as the typed model says (never read back from the printed code); the code is
//! formatted by prettyplease, with a blank line between items as rustfmt leaves them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::docs::rustdoc;
use crate::document::model::ApiVersion;
use crate::document::{Document, GenError};
use crate::operations::emit::operation_items;
use crate::operations::Operation;
use crate::types::emit::{doc_attrs, Context};
use crate::types::TypeDef;
use crate::{Settings, VERSION};

/// The generated file's code.
pub fn code(
    document: &Document<'_>,
    settings: &Settings,
    context: &Context<'_>,
    defs: &[TypeDef],
    operations: &[Operation],
    features: &[&str],
) -> Result<String, GenError> {
    let runtime: TokenStream = settings
        .runtime
        .parse()
        .map_err(|_| GenError::at("#", format!("`{}` is not a path", settings.runtime)))?;
    let header = header(document, settings);
    let types_module = types_module(context, defs);
    let (methods, operations_module) = operations_module(context, operations);
    let inner = settings.inner_attributes.then(|| inner_attributes(&header));
    let info = &document.api().info;
    let title = info.title.as_deref().unwrap_or("the API");
    let client = match &info.api_version {
        Some(version) => versioned_client(context, title, version, &methods),
        None => client(context, title, &methods),
    };
    let rt = &context.rt;
    // In a binary crate, `pub` does not keep an item alive: the re-exports, the methods and the
    // types a program does not use would each warn (unused import, dead code). A client is an
    // API surface of which a program uses a part, and its file is not the user's to edit, so
    // these items allow it (and only it); the modules' own imports are the model's and stay checked.
    let require = (!features.is_empty()).then(|| {
        let features = features.iter().map(|feature| format_ident!("{}", feature));
        quote!(#runtime::require_features!(#(#features),*);)
    });
    let tokens = quote! {
        #inner

        /// The client runtime, and the features of it this client needs.
        mod #rt {
            pub use #runtime::*;

            #require
        }

        /// The client runtime this code is written for (and the value crates it re-exports).
        #[allow(unused_imports)]
        pub use #runtime;
        #[allow(unused_imports)]
        pub use #rt::{Answer, Call, Error, ErrorKind};

        #client
        #types_module
        #operations_module
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
    Ok(code)
}

/// The file's documentation: what it is a client of, and how to use it.
fn header(document: &Document<'_>, settings: &Settings) -> String {
    let info = &document.api().info;
    let title = info.title.as_deref().unwrap_or("the API");
    let version = info.version.as_deref().unwrap_or("");
    let mut header = format!(
        "A client of {title} {version}, generated from its OpenAPI document by ferrapi-client-gen {VERSION}: do not edit it."
    );
    if let Some(command) = &settings.regenerate {
        header.push_str(&format!(" Regenerate it with `{command}`."));
    }
    if let Some(description) = &info.description {
        header.push_str("\n\n");
        header.push_str(&rustdoc(description));
    }
    header.push_str(
        "\n\n[`Client`] has a method per operation; each returns a request, sent by `.await`, whose answer is an \
         [`Answer`] holding the operation's enum of answers ([`operations`]); the document's schemas are in [`types`].",
    );
    header
}

/// The header as inner doc attributes, and the lints the generated code allows.
fn inner_attributes(header: &str) -> TokenStream {
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
}

/// `Client`, with a method per operation.
fn client(context: &Context<'_>, title: &str, methods: &[TokenStream]) -> TokenStream {
    let rt = &context.rt;
    let doc = doc_attrs(&format!(
        "A client of {title}: a method per operation of its document."
    ));
    quote! {
        #doc
        #[derive(Clone, Debug)]
        #[allow(dead_code)]
        pub struct Client {
            client: #rt::Client,
        }

        #[allow(dead_code)]
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
    }
}

/// `Client` of a document that names its API version (`info.x-api-version`): the version as
/// `API_VERSION`, sent in its header with every request (the runtime's default header, which the
/// caller's own client or call may override).
fn versioned_client(
    context: &Context<'_>,
    title: &str,
    version: &ApiVersion,
    methods: &[TokenStream],
) -> TokenStream {
    let rt = &context.rt;
    let (header, date) = (&version.header, &version.version);
    // `HeaderName::from_static` takes the lower-case spelling; both are checked when the
    // document is read (`ApiVersion::read`) and again by the compiler (`const`), never at a call.
    let lower = header.to_ascii_lowercase();
    let doc = doc_attrs(&format!(
        "A client of {title} at version {date}: a method per operation of its document, each request sending `{header}: {date}`."
    ));
    let version_doc = doc_attrs(&format!(
        "The version of the API this client was generated for{}: sent in the `{header}` header of every request.",
        if version.released { "" } else { " (unreleased when generated: it may still change)" }
    ));
    let header_doc = doc_attrs(&format!("The header that names the API version: `{header}`."));
    let deprecated = version.deprecated;
    let deprecated_doc = doc_attrs(if deprecated {
        "The version was deprecated when this client was generated: the server still serves it, with `Deprecation` (and `Sunset`, its last day) on every answer; move to a newer version's client."
    } else {
        "Whether the version was deprecated when this client was generated: it was not."
    });
    let new_doc = doc_attrs(&format!(
        "A client of the API at `base_url` (`http://127.0.0.1:8000`), with the runtime's defaults, sending `{header}: {date}`."
    ));
    let from_doc = doc_attrs(&format!(
        "The API through `client` (its own transport, timeout, retries, default headers), sending `{header}: {date}` unless `client` sends a `{header}` of its own (to ask for another version); a call's `with_header` wins over both."
    ));
    quote! {
        #version_doc
        pub const API_VERSION: &str = #date;

        #header_doc
        pub const API_VERSION_HEADER: &str = #header;

        #deprecated_doc
        pub const API_VERSION_DEPRECATED: bool = #deprecated;

        #doc
        #[derive(Clone, Debug)]
        #[allow(dead_code)]
        pub struct Client {
            client: #rt::Client,
        }

        #[allow(dead_code)]
        impl Client {
            #new_doc
            pub fn new(base_url: &str) -> Result<Self, Error> {
                Ok(Self::from_client(#rt::Client::new(base_url)?))
            }

            #from_doc
            pub fn from_client(client: #rt::Client) -> Self {
                let name = const { #rt::http::HeaderName::from_static(#lower) };
                let value = const { #rt::http::HeaderValue::from_static(API_VERSION) };
                Client {
                    client: client.with_default_header(name, value),
                }
            }

            /// The runtime's client.
            pub fn client(&self) -> &#rt::Client {
                &self.client
            }

            #(#methods)*
        }
    }
}

/// The `types` module: a type (or an alias) per declared schema.
fn types_module(context: &Context<'_>, defs: &[TypeDef]) -> TokenStream {
    let rt = &context.rt;
    let types = defs.iter().map(|def| context.def_items(def));
    let use_rt = defs
        .iter()
        .any(|def| context.names_runtime(def))
        .then(|| quote!(use super::#rt;));
    quote! {
        /// The document's schemas.
        #[allow(dead_code)]
        pub mod types {
            #use_rt

            #(#types)*
        }
    }
}

/// The methods of `Client`, and the `operations` module: each operation's request and answers.
fn operations_module(context: &Context<'_>, operations: &[Operation]) -> (Vec<TokenStream>, TokenStream) {
    let rt = &context.rt;
    let mut methods = Vec::new();
    let mut items = Vec::new();
    for operation in operations {
        let generated = operation_items(context, operation);
        methods.push(generated.method);
        items.push(generated.items);
    }
    // Every request holds the runtime's client; `types` is named only by the schemas an
    // operation takes or answers.
    let use_rt = (!operations.is_empty()).then(|| quote!(use super::#rt;));
    let use_types = operations.iter().any(Operation::names_types).then(|| {
        quote!(
            use super::types;
        )
    });
    let module = quote! {
        /// Each operation's request and its answers.
        #[allow(dead_code)]
        pub mod operations {
            #use_types
            #use_rt

            #(#items)*
        }
    };
    (methods, module)
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
        // The line after an inner attribute's end is past it, whatever that line is (an outer
        // attribute's `)]` later must not read as the end of an inner one).
        if in_inner_attribute && previous.ends_with(")]") {
            in_inner_attribute = false;
        }
        if trimmed.starts_with("#![") {
            in_inner_attribute = true;
        }
        out.push_str(line);
        out.push('\n');
        previous = trimmed;
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{generate_value, Settings};

    /// The `types` and `operations` modules' imports, in `code`.
    fn imports(code: &str) -> (bool, bool, bool) {
        let module = |name: &str| {
            let start = code.find(&format!("pub mod {name} {{")).unwrap_or(code.len());
            &code[start..]
        };
        let types = module("types");
        let types = &types[..types.find("pub mod operations").unwrap_or(types.len())];
        let operations = module("operations");
        (
            types.contains("use super::rt;"),
            operations.contains("use super::rt;"),
            operations.contains("use super::types;"),
        )
    }

    #[test]
    fn a_versioned_document_makes_a_client_that_sends_its_version() {
        let document = |info: serde_json::Value| json!({"openapi": "3.1.0", "info": info, "paths": {"/a": {"get": {"responses": {"200": {"description": "OK"}}}}}});
        let versioned = document(json!({"title": "t", "version": "2026-01-15",
            "x-api-version": {"header": "Stripe-Version", "version": "2026-01-15", "released": true}}));
        let code = generate_value(&versioned, &Settings::default()).unwrap().code;
        assert!(
            code.contains("pub const API_VERSION: &str = \"2026-01-15\";"),
            "{code}"
        );
        assert!(
            code.contains("pub const API_VERSION_HEADER: &str = \"Stripe-Version\";"),
            "{code}"
        );
        assert!(
            code.contains("rt::http::HeaderName::from_static(\"stripe-version\")"),
            "{code}"
        );
        assert!(
            code.contains("client: client.with_default_header(name, value),"),
            "{code}"
        );
        assert!(
            code.contains("Ok(Self::from_client(rt::Client::new(base_url)?))"),
            "{code}"
        );
        assert!(
            code.contains("pub const API_VERSION_DEPRECATED: bool = false;"),
            "{code}"
        );
        let deprecated = document(json!({"title": "t", "version": "2026-01-15",
            "x-api-version": {"header": "API-Version", "version": "2026-01-15", "released": true, "deprecated": true}}));
        let code = generate_value(&deprecated, &Settings::default()).unwrap().code;
        assert!(
            code.contains("pub const API_VERSION_DEPRECATED: bool = true;"),
            "{code}"
        );
        assert!(code.contains("The version was deprecated when"), "{code}");

        // Without the extension: no version, and the client as before.
        let plain = generate_value(
            &document(json!({"title": "t", "version": "2026-01-15"})),
            &Settings::default(),
        )
        .unwrap()
        .code;
        assert!(!plain.contains("API_VERSION"), "{plain}");
        assert!(plain.contains("client: rt::Client::new(base_url)?,"), "{plain}");

        // A version the client could not send fails at its pointer, not silently.
        for (bad, pointer) in [
            (
                json!({"header": "API Version", "version": "2026-01-15"}),
                "#/info/x-api-version/header",
            ),
            (
                json!({"header": "API-Version", "version": "2026 01 15"}),
                "#/info/x-api-version/version",
            ),
            (json!({"header": "API-Version"}), "#/info/x-api-version/version"),
        ] {
            let error = generate_value(
                &document(json!({"title": "t", "version": "1", "x-api-version": bad})),
                &Settings::default(),
            )
            .unwrap_err();
            assert!(error.to_string().contains(pointer), "{error}");
        }
    }

    #[test]
    fn modules_import_what_their_items_name() {
        // An alias of a plain type names neither; a description that reads like a path changes
        // nothing (the decision is the model's, not the printed code's).
        let document = json!({
            "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {
                "parameters": [{"name": "If-Match", "in": "header", "schema": {"$ref": "#/components/schemas/Tag"}}],
                "responses": {"200": {"description": "see types :: Tag and rt :: Client"}}
            }}},
            "components": {"schemas": {"Tag": {"type": "string", "description": "part :: of rt :: x"}}}
        });
        let generated = generate_value(&document, &Settings::default()).unwrap();
        assert_eq!(imports(&generated.code), (false, true, false));

        let document = json!({
            "openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"When": {"type": "string", "format": "date"}}}
        });
        let generated = generate_value(&document, &Settings::default()).unwrap();
        assert_eq!(imports(&generated.code), (true, false, false));

        let document = json!({
            "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {"responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ids"}}}}}}}},
            "components": {"schemas": {"Ids": {"type": "array", "items": {"type": "integer"}}}}
        });
        let generated = generate_value(&document, &Settings::default()).unwrap();
        assert_eq!(imports(&generated.code), (false, true, true));
    }

    #[test]
    fn a_property_that_may_be_null_and_left_out_is_nullable_but_in_forms() {
        let properties = json!({
            "type": "object", "required": ["kept"],
            "properties": {
                "kept": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "input": {},
                "count": {"type": "integer"}
            }
        });
        let document = json!({
            "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/form": {"post": {
                "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Form"}}}},
                "responses": {"200": {"description": "OK"}}
            }}},
            "components": {"schemas": {"Json": properties, "Form": properties}}
        });
        let code = generate_value(&document, &Settings::default()).unwrap().code;
        let json = &code[code.find("pub struct Json {").unwrap()..];
        let json = &json[..json.find("\n    }").unwrap()];
        let form = &code[code.find("pub struct Form {").unwrap()..];
        let form = &form[..form.find("\n    }").unwrap()];
        // Required and nullable: always there, `null` is `None`; not required and not nullable:
        // `None` is absent.
        for body in [json, form] {
            assert!(body.contains("pub kept: Option<String>,"), "{body}");
            assert!(body.contains("pub count: Option<i64>,"), "{body}");
        }
        let nullable = "#[serde(default, skip_serializing_if = \"rt::Nullable::is_absent\")]";
        assert!(
            json.contains(&format!("{nullable}\n        pub note: rt::Nullable<String>,")),
            "{json}"
        );
        assert!(json.contains("pub input: rt::Nullable<rt::Json>,"), "{json}");
        assert!(form.contains("pub note: Option<String>,"), "{form}");
        assert!(form.contains("pub input: Option<rt::Json>,"), "{form}");
    }
}
