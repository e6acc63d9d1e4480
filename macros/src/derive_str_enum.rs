//! `#[derive(StrEnum)]`: a string enumeration that parses from path/query values and JSON,
//! serializes as its value, and documents itself as `{"type": "string", "enum": [...]}`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::diag::Diagnostics;

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

/// pydantic's list of expected values: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
fn expected(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The expansion of `#[derive(StrEnum)]` on `item`.
pub fn derive(item: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(item) {
        Ok(input) => expand(input),
        Err(err) => err.to_compile_error(),
    }
}

/// Expand the derive.
fn expand(input: DeriveInput) -> TokenStream {
    let mut diag = Diagnostics::default();
    let name = &input.ident;
    let name_str = name.to_string();
    if !input.generics.params.is_empty() {
        diag.error_spanned(&input.generics, "`StrEnum` cannot be derived for a generic enum");
    }
    let Data::Enum(data) = &input.data else {
        diag.error(
            name.span(),
            "`StrEnum` can only be derived for an enum of unit variants",
        );
        return diag.to_tokens();
    };
    let mut variants = Vec::new();
    let mut values: Vec<String> = Vec::new();
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
        if let Some(first) = values.iter().position(|v| *v == value) {
            diag.error(
                value_span,
                format!(
                    "the value \"{value}\" is already the value of `{}`: each variant needs its own, set with `#[value(\"..\")]`",
                    variants[first]
                ),
            );
        }
        values.push(value);
        variants.push(variant.ident.clone());
    }
    if data.variants.is_empty() {
        diag.error(name.span(), "`StrEnum` needs at least one variant");
    }
    if !diag.is_empty() {
        return diag.to_tokens();
    }
    let expected = expected(&values);
    let description = crate::parse::doc_text(&input.attrs).map(|text| {
        quote! {
            if let __rt::Value::Object(map) = &mut schema {
                map.insert("description".to_owned(), __rt::Value::from(#text));
            }
        }
    });
    quote! {
        const _: () = {
            use ::ferrapi::__private as __rt;

            impl __rt::StrEnum for #name {
                const VALUES: &'static [&'static str] = &[#(#values),*];
                const EXPECTED: &'static str = #expected;

                fn from_value(value: &str) -> ::core::option::Option<Self> {
                    match value {
                        #(#values => ::core::option::Option::Some(#name::#variants),)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn as_str(&self) -> &'static str {
                    match self {
                        #(#name::#variants => #values,)*
                    }
                }
            }

            impl __rt::FromParam for #name {
                fn from_param(raw: &str) -> ::core::result::Result<Self, __rt::Failure> {
                    __rt::enum_from_param::<Self>(raw)
                }
            }

            impl __rt::FromJson for #name {
                fn from_json(
                    value: &__rt::Value,
                    loc: &mut __rt::Loc,
                    errors: &mut __rt::ValidationErrors,
                ) -> ::core::option::Option<Self> {
                    __rt::enum_from_json::<Self>(value, loc, errors)
                }
            }

            impl __rt::FastJson for #name {
                fn fast<'de, D: __rt::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<Self, D::Error> {
                    __rt::fast_enum::<Self, D>(deserializer)
                }
            }

            impl __rt::JsonSchema for #name {
                fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
                    registry.named(#name_str, |_| {
                        #[allow(unused_mut)]
                        let mut schema = __rt::enum_schema::<Self>(#name_str);
                        #description
                        schema
                    })
                }
            }

            impl __rt::Constrainable for #name {}

            impl __rt::serde::Serialize for #name {
                fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                    serializer.serialize_str(__rt::StrEnum::as_str(self))
                }
            }

            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(__rt::StrEnum::as_str(self))
                }
            }
        };
    }
}
