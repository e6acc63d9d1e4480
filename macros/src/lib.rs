//! Procedural macros of ferrapi. Use them through the `ferrapi` crate, which re-exports them.
//!
//! - `#[get("/path")]`, `#[post]`, `#[put]`, `#[delete]`, `#[patch]`, `#[head]`, `#[options]`:
//!   turn an `async fn` into a route (see `ferrapi`'s documentation for the conventions).
//! - `#[derive(Model)]`: a struct validated from a JSON object, usable as a route's body.
//! - `#[derive(StrEnum)]`: a string enumeration usable as a path/query parameter or field.
//!
//! The pipeline is parse (`parse.rs`) → check and classify (`infer.rs`) → emit
//! (`emit_handler.rs`, `emit_openapi.rs`); errors are collected in `diag.rs` and all reported.

use proc_macro::TokenStream;

mod derive_model;
mod derive_str_enum;
mod diag;
mod emit_handler;
mod emit_openapi;
mod infer;
mod parse;
mod suspend;
mod template;

fn route(method: &'static str, attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut diag = diag::Diagnostics::default();
    let mut func = match syn::parse::<syn::ItemFn>(item.clone()) {
        Ok(func) => func,
        Err(err) => {
            let mut out = proc_macro2::TokenStream::from(item);
            out.extend(
                syn::Error::new(
                    err.span(),
                    format!("`#[{}]` goes on an `async fn`", method.to_lowercase()),
                )
                .to_compile_error(),
            );
            return out.into();
        }
    };
    let attr = parse::route_attr(attr.into(), &mut diag);
    let params = parse::params(&mut func, &mut diag);
    let Some(attr) = attr else {
        let mut out = quote::quote!(#func);
        out.extend(diag.to_tokens());
        return out.into();
    };
    let model = infer::infer(method, attr, func, params, &mut diag);
    if !diag.is_empty() {
        // Re-emit the function (attributes stripped) so the rest of the crate still type-checks.
        let func = &model.func;
        let mut out = quote::quote!(#func);
        out.extend(diag.to_tokens());
        return out.into();
    }
    emit_handler::emit(&model).into()
}

macro_rules! route_attribute {
    ($($name:ident => $method:literal),* $(,)?) => {$(
        #[doc = concat!("Declare a `", $method, "` route: `#[", stringify!($name), "(\"/path/{param}\")]` on an `async fn`.")]
        #[proc_macro_attribute]
        pub fn $name(attr: TokenStream, item: TokenStream) -> TokenStream {
            route($method, attr, item)
        }
    )*};
}

route_attribute!(get => "GET", post => "POST", put => "PUT", delete => "DELETE", patch => "PATCH", head => "HEAD", options => "OPTIONS");

/// Derive JSON body validation and JSON Schema for a struct with named fields.
#[proc_macro_derive(Model, attributes(ge, gt, le, lt, min_length, max_length, default, serde))]
pub fn derive_model(item: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(item) {
        Ok(input) => derive_model::expand(input).into(),
        Err(err) => err.to_compile_error().into(),
    }
}

/// Derive a string enumeration: `#[value("buy")]` on each unit variant (default: snake_case name).
#[proc_macro_derive(StrEnum, attributes(value))]
pub fn derive_str_enum(item: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(item) {
        Ok(input) => derive_str_enum::expand(input).into(),
        Err(err) => err.to_compile_error().into(),
    }
}
