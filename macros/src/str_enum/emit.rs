//! Code generation for `#[derive(StrEnum)]`: the value table, parsing from path/query values
//! and JSON (strict and lax), serialization as the value, the schema
//! `{"type": "string", "enum": [...]}`, and the enum as a form field (`Form<Side>`).
//!
//! Rules enforced here: a value parses only to its own variant, and an unknown value's error
//! lists the expected ones in pydantic's words (`'a', 'b' or 'c'`).

use proc_macro2::TokenStream;
use quote::quote;

use super::parse::StrEnumInput;
use crate::{paths, tokens};

/// pydantic's list of expected values: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
fn expected(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// `StrEnum`: the values, and the conversions between variant and value.
fn str_enum_impl(input: &StrEnumInput) -> TokenStream {
    let StrEnumInput {
        name,
        variants,
        values,
        ..
    } = input;
    let expected = expected(values);
    let str_enum = paths::str_enum();
    quote! {
        impl #str_enum for #name {
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
    }
}

/// `FromParam`, `FromJson` and `FastJson`: reading the enum from a parameter or JSON.
fn reading_impls(name: &syn::Ident) -> TokenStream {
    let (from_param, failure, enum_from_param) =
        (paths::from_param(), paths::failure(), paths::enum_from_param());
    let from_json_impl = tokens::from_json_impl(name, &syn::Generics::default(), paths::enum_from_json());
    let (fast_json, serde, fast_enum) = (paths::fast_json(), paths::serde(), paths::fast_enum());
    quote! {
        impl #from_param for #name {
            fn from_param(raw: &str) -> ::core::result::Result<Self, #failure> {
                #enum_from_param::<Self>(raw)
            }
        }

        #from_json_impl

        impl #fast_json for #name {
            fn fast<'de, D: #serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #fast_enum::<Self, D>(deserializer)
            }
        }
    }
}

/// `JsonSchema` (with the doc comment as description) and `Constrainable`.
fn schema_impls(input: &StrEnumInput) -> TokenStream {
    let name = &input.name;
    let name_str = name.to_string();
    let (json_schema, schema_registry, value, enum_schema, constrainable) = (
        paths::json_schema(),
        paths::schema_registry(),
        paths::value(),
        paths::enum_schema(),
        paths::constrainable(),
    );
    let description = input.description.as_ref().map(|text| {
        quote! {
            if let #value::Object(map) = &mut schema {
                map.insert("description".to_owned(), #value::from(#text));
            }
        }
    });
    quote! {
        impl #json_schema for #name {
            fn schema(registry: &mut #schema_registry) -> #value {
                registry.named(#name_str, |_| {
                    #[allow(unused_mut)]
                    let mut schema = #enum_schema::<Self>(#name_str);
                    #description
                    schema
                })
            }
        }

        impl #constrainable for #name {}
    }
}

/// `Serialize` and `Display`: both write the value.
fn writing_impls(name: &syn::Ident) -> TokenStream {
    let (serde, str_enum) = (paths::serde(), paths::str_enum());
    quote! {
        impl #serde::Serialize for #name {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(#str_enum::as_str(self))
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(#str_enum::as_str(self))
            }
        }
    }
}

/// `FormValue` and `FormField`: the enum as a form field, `Form<Side>` (a blanket impl for the
/// enums would overlap the models' one).
fn form_impls(name: &syn::Ident) -> TokenStream {
    let (form_value, form, request_cx, param, validation_errors, operation, schema_registry) = (
        paths::form_value(),
        paths::form(),
        paths::request_cx(),
        paths::param(),
        paths::validation_errors(),
        paths::operation(),
        paths::schema_registry(),
    );
    let (marker, read, doc) = (
        paths::form_field_marker(),
        paths::enum_form_field(),
        paths::enum_form_doc(),
    );
    quote! {
        impl #form_value for #name {
            fn from_form(
                cx: &#request_cx<'_>,
                param: #param<#form<Self>>,
                errors: &mut #validation_errors,
            ) -> ::core::option::Option<Self> {
                #read::<Self>(cx, param, errors)
            }

            fn doc(param: #param<#form<Self>>, op: &mut #operation, registry: &mut #schema_registry) {
                #doc::<Self>(param, op, registry)
            }
        }

        impl #marker for #name {}
    }
}

/// The whole expansion of the derive for a valid input.
pub fn emit(input: &StrEnumInput) -> TokenStream {
    let str_enum = str_enum_impl(input);
    let reading = reading_impls(&input.name);
    let schema = schema_impls(input);
    let writing = writing_impls(&input.name);
    let form = form_impls(&input.name);
    paths::runtime_scope(quote!(#str_enum #reading #schema #writing #form))
}
