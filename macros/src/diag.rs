//! Error accumulation for every macro of the crate.
//!
//! Rules enforced here: every mistake is reported (not only the first), each at its own span, as
//! a `compile_error!`; the macros never panic.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::fmt::Display;

/// Collected errors of one macro invocation.
#[derive(Default)]
pub struct Diagnostics {
    errors: Vec<syn::Error>,
}

impl Diagnostics {
    /// Record an error at `span`.
    pub fn error(&mut self, span: Span, message: impl Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Record an error covering all of `tokens` (a whole attribute or type, not only its first
    /// token: on stable Rust a proc macro cannot join spans, `syn` carries first and last).
    pub fn error_spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Record an existing `syn` error.
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// True when nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// All errors as `compile_error!` invocations.
    pub fn to_tokens(&self) -> TokenStream {
        self.errors.iter().map(syn::Error::to_compile_error).collect()
    }
}
