//! Token pieces that more than one expansion writes: constraint lists, their assertions, default
//! values, optional strings and the `FromJson` impl of a derive.
//!
//! Rules enforced here: a constraint's type requirement is asserted at the constraint as written
//! (once for the numeric ones, once for the length ones), so a mismatch is reported there; a
//! default value is the body of a closure returning the argument's or field's type, so a
//! mistyped default reads "expected `T`" at the expression (a `Form<T>`'s, `Header<T>`'s or
//! `Cookie<T>`'s: `T`, their default is the value alone).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::attrs::{Bound, ConstraintSpec, Family};
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
        Bound::Digits(value) => quote!(#value),
        // Written by `constraints`, which gives each pattern its cell.
        Bound::Pattern(_) => TokenStream::new(),
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

/// `&[__rt::Constraint::Ge(..), ..]`. With a `pattern`, a block whose items are each pattern's
/// cell (a `static`: the expression is compiled once) and the list as a `const` (a block is not
/// promoted to `'static`, a constant is).
pub fn constraints(constraints: &[ConstraintSpec]) -> TokenStream {
    let constraint = paths::constraint();
    let mut cells = TokenStream::new();
    let items: Vec<TokenStream> = constraints
        .iter()
        .enumerate()
        .map(|(index, c)| {
            if let Bound::Pattern(source) = &c.bound {
                let (pattern, cell) = (paths::pattern(), paths::pattern_cell());
                let name = quote::format_ident!("__pattern_cell_{}", index);
                cells.extend(quote! {
                    fn #name() -> &'static #cell {
                        static CELL: #cell = #cell::new();
                        &CELL
                    }
                });
                return quote!(#constraint::Pattern(#pattern::new(#source, #name)));
            }
            let value = bound(&c.bound);
            let variant = match c.kind.as_str() {
                "ge" => quote!(Ge),
                "gt" => quote!(Gt),
                "le" => quote!(Le),
                "lt" => quote!(Lt),
                "min_length" => quote!(MinLength),
                "max_length" => quote!(MaxLength),
                "multiple_of" => quote!(MultipleOf),
                "max_digits" => quote!(MaxDigits),
                _ => quote!(DecimalPlaces),
            };
            quote!(#constraint::#variant(#value))
        })
        .collect();
    if cells.is_empty() {
        return quote!(&[#(#items),*]);
    }
    quote! {{
        #cells
        const CONSTRAINTS: &[#constraint] = &[#(#items),*];
        CONSTRAINTS
    }}
}

/// Assertions (statements) that a constrained type can take its constraints.
pub fn constraint_assertions(ty: &syn::Type, constraints: &[ConstraintSpec]) -> TokenStream {
    let mut out = TokenStream::new();
    for (family, assert) in [
        (Family::Numeric, paths::assert_numeric()),
        (Family::Length, paths::assert_text()),
        (Family::Pattern, paths::assert_matchable()),
        (Family::Digits, paths::assert_digits()),
    ] {
        if let Some(c) = constraints.iter().find(|c| c.family() == family) {
            let assert = paths::at(c.span, assert);
            out.extend(quote_spanned!(c.span=> #assert::<#ty>();));
        }
    }
    out
}

/// The wrappers of a value read from a place of the request (`Form<T>`, `Header<T>`,
/// `Cookie<T>`), whose `#[default(..)]` is the value alone.
pub const WRAPPERS: &[&str] = &["Form", "Header", "Cookie"];

/// `(wrapper, T)` when `ty` is one of the [`WRAPPERS`] of `T` (by its last segment's name).
pub fn wrapped(ty: &syn::Type) -> Option<(String, &syn::Type)> {
    let syn::Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let wrapper = last.ident.to_string();
    if !WRAPPERS.contains(&wrapper.as_str()) {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|arg| match arg {
        syn::GenericArgument::Type(inner) => Some((wrapper.clone(), inner)),
        _ => None,
    })
}

/// `Some(fn() -> T)` returning `expr`, or `None`: a closure whose return type is `T`, so a mistyped
/// default reads "expected `T`" at the expression. For a [`WRAPPERS`] type (`Form<bool>`), `expr`
/// is the value (`false`): it is returned by a closure of the inner type, so a mistyped default
/// reads "expected `bool`", then is wrapped.
pub fn default_fn(ty: &syn::Type, default: Option<&syn::Expr>) -> TokenStream {
    let Some(expr) = default else {
        return quote!(::core::option::Option::None);
    };
    let closure = default_closure(ty, expr);
    quote!(::core::option::Option::Some((#closure) as fn() -> #ty))
}

/// `|| -> T { expr }`, the closure of [`default_fn`], for a place that takes a `fn() -> T`.
pub fn default_closure(ty: &syn::Type, expr: &syn::Expr) -> TokenStream {
    let value = match wrapped(ty) {
        Some((_, inner)) => quote! {
            ::core::convert::From::from((|| -> #inner { #expr })())
        },
        None => quote!(#expr),
    };
    quote!(|| -> #ty { #value })
}

/// `Some("text")` or `None`.
pub fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Some("YYYY-MM-DD")` or `None`, the literal kept (its span): a range's end or a sunset, as the
/// runtime's builder calls take them (`in_versions`, `deprecated_at`).
pub fn option_lit(literal: &Option<syn::LitStr>) -> TokenStream {
    match literal {
        Some(literal) => quote!(::core::option::Option::Some(#literal)),
        None => quote!(::core::option::Option::None),
    }
}

/// `impl FromJson for name` (with `generics`, bounds included), delegating to `validate` (the
/// runtime's `validate_model` or `enum_from_json`, generic over the type).
pub fn from_json_impl(name: &syn::Ident, generics: &syn::Generics, validate: TokenStream) -> TokenStream {
    let (from_json, value, loc, validation_errors) = (
        paths::from_json(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
    );
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        impl #impl_generics #from_json for #name #ty_generics #where_clause {
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

/// The name of the constant holding a route's `N`-th argument's declaration, its `Param`
/// (`__ARGN`): written with the route's assertions, read by its handler and its OpenAPI builder.
pub fn arg_const(index: usize) -> proc_macro2::Ident {
    quote::format_ident!("__ARG{}", index)
}
