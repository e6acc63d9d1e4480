//! `#[derive(Model)]`: validation of a JSON object into the struct (pydantic's lax mode, every
//! error collected), a strict fast path, its JSON Schema, and its use as a route's JSON body.
//! On an enum it is a discriminated union (`union.rs`). Parse (`parse.rs`) → emit (`emit.rs`, with the fast path in `fast.rs`
//! and the impls' heads, generics included, in `head.rs`); `serde_attrs.rs` says which
//! `#[serde(..)]` attributes a model honours.
//!
//! Rules enforced here: every mistake in the input is reported, and nothing else is emitted
//! while there is one.

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::Diagnostics;

mod emit;
mod fast;
mod head;
mod parse;
mod serde_attrs;
mod union;
mod version_attrs;
mod versions;

#[cfg(test)]
pub(crate) use parse::{model as parse_model, MODEL_OWN_ATTRS};

/// The expansion of `#[derive(Model)]` on `item`.
pub fn derive(item: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(item) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    if let syn::Data::Enum(data) = &input.data {
        return union::derive(&input, data);
    }
    let mut diag = Diagnostics::default();
    let model = parse::model(&input, &mut diag);
    versions::check(&model, &mut diag);
    if !diag.is_empty() {
        return diag.to_tokens();
    }
    emit::emit(&model)
}
