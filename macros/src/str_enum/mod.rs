//! `#[derive(StrEnum)]`: a string enumeration that parses from path/query values and JSON,
//! serializes as its value, and documents itself as `{"type": "string", "enum": [...]}`.
//! Parse (`parse.rs`) → emit (`emit.rs`).
//!
//! Rules enforced here: every mistake in the input is reported, and nothing else is emitted
//! while there is one.

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::Diagnostics;

mod emit;
mod parse;

/// The expansion of `#[derive(StrEnum)]` on `item`.
pub fn derive(item: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(item) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    let mut diag = Diagnostics::default();
    let parsed = parse::str_enum(&input, &mut diag);
    if !diag.is_empty() {
        return diag.to_tokens();
    }
    emit::emit(&parsed)
}
