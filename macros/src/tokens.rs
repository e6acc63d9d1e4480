//! Token pieces that more than one expansion writes: constraint lists, their assertions, default
//! values, optional strings and the `FromJson` impl of a derive.
//!
//! Rules enforced here: a constraint's type requirement is asserted at the constraint as written
//! (once for the numeric ones, once for the length ones), so a mismatch is reported there; a
//! default value initializes a `let` of the argument's or field's type, so a mistyped default
//! reads "expected due to this" at that type.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::attrs::{Bound, ConstraintSpec};
use crate::paths;

/// `-` before a negative bound's magnitude, nothing otherwise.
fn sign(negative: bool) -> TokenStream {
    if negative {
        quote!(-)
    } else {
        TokenStream::new()
    }
}

/// A bound as an expression of the runtime's `Constraint` payload.
fn bound(bound: &Bound) -> TokenStream {
    let bound_type = paths::bound();
    match bound {
        Bound::Length(value) => quote!(#value),
        Bound::Int { negative, value } => {
            let sign = sign(*negative);
            quote!(#bound_type::Int(#sign #value))
        }
        Bound::Float { negative, value } => {
            let sign = sign(*negative);
            quote!(#bound_type::Float(#sign #value))
        }
    }
}

/// `&[__rt::Constraint::Ge(..), ..]`.
pub fn constraints(constraints: &[ConstraintSpec]) -> TokenStream {
    let constraint = paths::constraint();
    let items = constraints.iter().map(|c| {
        let value = bound(&c.bound);
        let variant = match c.kind.as_str() {
            "ge" => quote!(Ge),
            "gt" => quote!(Gt),
            "le" => quote!(Le),
            "lt" => quote!(Lt),
            "min_length" => quote!(MinLength),
            _ => quote!(MaxLength),
        };
        quote!(#constraint::#variant(#value))
    });
    quote!(&[#(#items),*])
}

/// Assertions (statements) that a constrained type can take its constraints.
pub fn constraint_assertions(ty: &syn::Type, constraints: &[ConstraintSpec]) -> TokenStream {
    let numeric = constraints.iter().find(|c| !c.is_length());
    let text = constraints.iter().find(|c| c.is_length());
    let mut out = TokenStream::new();
    if let Some(c) = numeric {
        let assert = paths::at(c.span, paths::assert_numeric());
        out.extend(quote_spanned!(c.span=> #assert::<#ty>();));
    }
    if let Some(c) = text {
        let assert = paths::at(c.span, paths::assert_text());
        out.extend(quote_spanned!(c.span=> #assert::<#ty>();));
    }
    out
}

/// `Some(fn() -> T)` returning `expr`, or `None`.
pub fn default_fn(ty: &syn::Type, default: Option<&syn::Expr>) -> TokenStream {
    match default {
        Some(expr) => quote! {
            ::core::option::Option::Some((|| {
                let value: #ty = #expr;
                value
            }) as fn() -> #ty)
        },
        None => quote!(::core::option::Option::None),
    }
}

/// `Some("text")` or `None`.
pub fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// `impl FromJson for name`, delegating to `validate` (the runtime's `validate_model` or
/// `enum_from_json`, generic over the type).
pub fn from_json_impl(name: &syn::Ident, validate: TokenStream) -> TokenStream {
    let (from_json, value, loc, validation_errors) = (
        paths::from_json(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
    );
    quote! {
        impl #from_json for #name {
            fn from_json(
                value: &#value,
                loc: &mut #loc,
                errors: &mut #validation_errors,
            ) -> ::core::option::Option<Self> {
                #validate::<Self>(value, loc, errors)
            }
        }
    }
}
