//! A route attribute from tokens to tokens: parse (`parse.rs`) → check and classify (`infer.rs`)
//! → emit (`emit.rs`: the handler and the `Route` impl; `openapi.rs`: the operation object).
//! `dependency.rs` expands `#[dependency]` with the same pieces: its function's arguments are a
//! route's without a path; `group.rs` expands `group!`, whose options are a route's.
//!
//! Rules enforced here: every mistake found is reported, each at its own span, and the function
//! is re-emitted (framework attributes stripped) beside the errors so the rest of the crate still
//! type-checks; nothing is emitted for the route itself until there is no error.

use proc_macro2::TokenStream;
use quote::quote;

use crate::diag::Diagnostics;

pub mod dependency;
mod emit;
pub mod group;
mod infer;
mod openapi;
mod parse;
mod suspend;

#[cfg(test)]
pub(crate) use parse::{route_attr, ROUTE_OPTIONS};

/// The expansion of `#[get(attr)] item` (for `method` `"GET"`, and so on).
pub fn expand(method: &'static str, attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut diag = Diagnostics::default();
    let mut func = match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(func) => func,
        Err(err) => return not_a_function(method, item, &err),
    };
    let attr = parse::route_attr(attr, &mut diag);
    let params = parse::params(&mut func, &mut diag);
    let Some(attr) = attr else {
        return with_errors(quote!(#func), &diag);
    };
    let model = infer::infer(method, attr, func, params, &mut diag);
    if !diag.is_empty() {
        let func = &model.func;
        return with_errors(quote!(#func), &diag);
    }
    emit::emit(&model)
}

/// The item unchanged, and an error at what made it fail to parse as a function.
fn not_a_function(method: &str, item: TokenStream, err: &syn::Error) -> TokenStream {
    let mut out = item;
    out.extend(
        syn::Error::new(
            err.span(),
            format!("`#[{}]` goes on an `async fn`", method.to_lowercase()),
        )
        .to_compile_error(),
    );
    out
}

/// `item` followed by every recorded error.
fn with_errors(mut item: TokenStream, diag: &Diagnostics) -> TokenStream {
    item.extend(diag.to_tokens());
    item
}
