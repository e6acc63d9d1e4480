//! Parsing: the enum deriving `StrEnum` into its variants and their string values.
//!
//! Rules enforced here: `StrEnum` is derived for a non-generic enum of at least one unit variant;
//! a variant's value is `#[value("..")]` or its name in snake_case, and no two variants share a
//! value (reported at the second one's value).

use syn::{Data, DeriveInput, Fields, Ident, LitStr};

use crate::attrs::doc_text;
use crate::diag::Diagnostics;

/// An enum deriving `StrEnum`.
pub struct StrEnumInput {
    /// The enum's name.
    pub name: Ident,
    /// Its doc comment: the schema's description.
    pub description: Option<String>,
    /// The variants, in declaration order.
    pub variants: Vec<Ident>,
    /// Their values, in the same order.
    pub values: Vec<String>,
}

/// `BuyNow` → `buy_now`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A unit variant's value and where it is written (the `#[value]` string, or the name).
fn value(variant: &syn::Variant, diag: &mut Diagnostics) -> (String, proc_macro2::Span) {
    let mut value = snake_case(&variant.ident.to_string());
    let mut value_span = variant.ident.span();
    for attr in variant.attrs.iter().filter(|a| a.path().is_ident("value")) {
        match attr.parse_args::<LitStr>() {
            Ok(lit) => {
                value = lit.value();
                value_span = lit.span();
            }
            Err(_) => diag.error_spanned(attr, "`#[value(..)]` takes a string, e.g. `#[value(\"buy\")]`"),
        }
    }
    (value, value_span)
}

/// Read the variants of `data` into `out`.
fn variants(data: &syn::DataEnum, out: &mut StrEnumInput, diag: &mut Diagnostics) {
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            diag.error_spanned(
                &variant.fields,
                format!(
                    "`StrEnum` variants carry no data: each is one string value; write `{}` without fields",
                    variant.ident
                ),
            );
            continue;
        }
        let (value, value_span) = value(variant, diag);
        if let Some(first) = out.values.iter().position(|v| *v == value) {
            diag.error(
                value_span,
                format!(
                    "the value \"{value}\" is already the value of `{}`: each variant needs its own, set with `#[value(\"..\")]`",
                    out.variants[first]
                ),
            );
        }
        out.values.push(value);
        out.variants.push(variant.ident.clone());
    }
    if data.variants.is_empty() {
        diag.error(out.name.span(), "`StrEnum` needs at least one variant");
    }
}

/// Parse the derive's input; every mistake is recorded in `diag`.
pub fn str_enum(input: &DeriveInput, diag: &mut Diagnostics) -> StrEnumInput {
    let mut out = StrEnumInput {
        name: input.ident.clone(),
        description: doc_text(&input.attrs),
        variants: Vec::new(),
        values: Vec::new(),
    };
    if !input.generics.params.is_empty() {
        diag.error_spanned(&input.generics, "`StrEnum` cannot be derived for a generic enum");
    }
    match &input.data {
        Data::Enum(data) => variants(data, &mut out, diag),
        _ => diag.error(
            input.ident.span(),
            "`StrEnum` can only be derived for an enum of unit variants",
        ),
    }
    out
}
