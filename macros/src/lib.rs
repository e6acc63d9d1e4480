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
mod route;
#[cfg(test)]
mod snapshots;
mod suspend;
mod template;

macro_rules! route_attribute {
    ($($name:ident => $method:literal),* $(,)?) => {$(
        #[doc = concat!("Declare a `", $method, "` route: `#[", stringify!($name), "(\"/path/{param}\")]` on an `async fn`.")]
        #[proc_macro_attribute]
        pub fn $name(attr: TokenStream, item: TokenStream) -> TokenStream {
            route::expand($method, attr.into(), item.into()).into()
        }
    )*};
}

route_attribute!(get => "GET", post => "POST", put => "PUT", delete => "DELETE", patch => "PATCH", head => "HEAD", options => "OPTIONS");

/// Derive JSON body validation and JSON Schema for a struct with named fields.
#[proc_macro_derive(Model, attributes(ge, gt, le, lt, min_length, max_length, default, serde))]
pub fn derive_model(item: TokenStream) -> TokenStream {
    derive_model::derive(item.into()).into()
}

/// Derive a string enumeration: `#[value("buy")]` on each unit variant (default: snake_case name).
#[proc_macro_derive(StrEnum, attributes(value))]
pub fn derive_str_enum(item: TokenStream) -> TokenStream {
    derive_str_enum::derive(item.into()).into()
}
