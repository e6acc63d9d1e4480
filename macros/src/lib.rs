//! Procedural macros of ferrapi. Use them through the `ferrapi` crate, which re-exports them
//! and documents them in full.
//!
//! - `#[get("/path")]`, `#[post]`, `#[put]`, `#[delete]`, `#[patch]`, `#[head]`, `#[options]`:
//!   turn an `async fn` into a route.
//! - `#[dependency]`: make an `fn`'s return type a dependency, an argument routes take by type.
//! - `group!("/prefix", ..)`: a route group, its prefix checked at compile time.
//! - `#[derive(Model)]`: a struct validated from a JSON object, usable as a route's body.
//! - `#[derive(StrEnum)]`: a string enumeration usable as a path/query parameter or field.
//!
//! Rules enforced here: this file only wires the entry points; each expansion is a function from
//! `proc_macro2` tokens to tokens (so the snapshot tests can call it): `route` (parse → infer →
//! emit), `model` and `str_enum` (parse → emit). They share `attrs` (the attributes on arguments
//! and fields), `tokens` (pieces more than one expansion writes), `paths` (every runtime path the
//! expansions name) and `diag` (errors, all reported, each at its own span; no macro panics).

use proc_macro::TokenStream;

mod attrs;
mod diag;
#[cfg(test)]
mod manual_tables;
mod model;
mod paths;
mod route;
#[cfg(test)]
mod snapshots;
mod str_enum;
mod tokens;

macro_rules! route_attribute {
    ($($name:ident => $method:literal),* $(,)?) => {$(
        #[doc = concat!(
            "Turn an `async fn` into a `", $method, "` route: `#[", stringify!($name),
            "(\"/path/{param}\", ..options)]`. Arguments named in the path are path parameters; ",
            "the others are read by their type (query parameter, JSON body, or injected)."
        )]
        #[proc_macro_attribute]
        pub fn $name(attr: TokenStream, item: TokenStream) -> TokenStream {
            route::expand($method, attr.into(), item.into()).into()
        }
    )*};
}

route_attribute!(get => "GET", post => "POST", put => "PUT", delete => "DELETE", patch => "PATCH", head => "HEAD", options => "OPTIONS");

/// Make a function's return type a dependency: `#[dependency] async fn current_user(..) -> User`
/// (or `-> Result<User, E>`, an `Err` answering the request) implements `Arg` for `User`, its
/// arguments read as a route's are; option `responses(401 = "..")`.
#[proc_macro_attribute]
pub fn dependency(attr: TokenStream, item: TokenStream) -> TokenStream {
    route::dependency::expand(attr.into(), item.into()).into()
}

/// A route group: `group!("/prefix", tags("a"), responses(503 = "..."), dependencies(User))`,
/// its prefix checked (no parameters) and its options parsed as a route attribute's.
#[proc_macro]
pub fn group(input: TokenStream) -> TokenStream {
    route::group::expand(input.into()).into()
}

/// Derive validation from a JSON object (every error collected), a JSON Schema, and use as a
/// route's JSON body, for a struct with named fields, generic over types or not
/// (`#[default(..)]`, `#[examples(..)]` and constraints on fields).
#[proc_macro_derive(
    Model,
    attributes(
        ge,
        gt,
        le,
        lt,
        min_length,
        max_length,
        multiple_of,
        pattern,
        max_digits,
        decimal_places,
        default,
        examples,
        openapi_examples,
        alias,
        serde,
        validate,
        since,
        model
    )
)]
pub fn derive_model(item: TokenStream) -> TokenStream {
    model::derive(item.into()).into()
}

/// Derive a string enumeration for an enum of unit variants: `#[value("buy")]` sets a variant's
/// value (default: its name in snake_case); usable as a path/query parameter or a model field.
#[proc_macro_derive(StrEnum, attributes(value))]
pub fn derive_str_enum(item: TokenStream) -> TokenStream {
    str_enum::derive(item.into()).into()
}
