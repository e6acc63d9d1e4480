//! Code generation for `#[derive(Model)]`: lax validation of a JSON object into the struct
//! (every error collected), its JSON Schema, and the trait impls that make it a route's body.
//!
//! Rules enforced here: the field types are named only in the one body of `__PARTS` (its
//! closures included): the compiler reports an unsatisfied bound once per span and body, so an
//! unsupported field type is one error at the field rather than one per generated function.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::fast;
use super::parse::{Field, ModelInput};
use crate::{paths, tokens};

/// Each field's type requirements, at the field's type and constraints.
fn assertions(fields: &[Field]) -> TokenStream {
    let mut out = TokenStream::new();
    for field in fields {
        let ty = &field.ty;
        let assert = paths::at(ty.span(), paths::assert_from_json());
        out.extend(quote_spanned!(ty.span()=> #assert::<#ty>();));
        out.extend(tokens::constraint_assertions(ty, &field.attrs.constraints));
    }
    out
}

/// The validating closure: each field read with its default and constraints (errors collected
/// under `loc`), then the struct built when all are present.
fn validate_fn(model: &ModelInput) -> TokenStream {
    let name = &model.name;
    let (field_fn, map, value, loc, validation_errors) = (
        paths::field(),
        paths::map(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
    );
    let reads = model.fields.iter().map(|field| {
        let (ty, key, slot) = (&field.ty, &field.key, field.slot());
        let (default, constraints) = (field.default(), field.constraints());
        let mut read = quote! {
            let #slot = #field_fn::<#ty>(object, #key, #default, #constraints, loc, errors);
        };
        if let Some(check) = &field.validator {
            let validate_field = paths::validate_field();
            read.extend(quote_spanned! {check.span()=>
                let #slot = #validate_field::<#ty>(#slot, #check, object, #key, loc, errors);
            });
        }
        read
    });
    let build = model.fields.iter().map(|field| {
        let (ident, slot) = (&field.ident, field.slot());
        quote!(#ident: #slot?)
    });
    let whole = match &model.validator {
        Some(check) => {
            let validate_whole = paths::validate_whole();
            quote_spanned! {check.span()=>
                #validate_whole::<#name>(#name { #(#build),* }, #check, object, loc, errors)
            }
        }
        None => quote!(::core::option::Option::Some(#name { #(#build),* })),
    };
    quote! {
        #[allow(unused_variables)]
        |object: &#map<::std::string::String, #value>,
         loc: &mut #loc,
         errors: &mut #validation_errors|
         -> ::core::option::Option<#name> {
            #(#reads)*
            #whole
        }
    }
}

/// Statements adding a field's property (and, unless it may be absent, its `required` entry).
fn property(field: &Field) -> TokenStream {
    let (ty, key) = (&field.ty, &field.key);
    let (default, constraints) = (field.default(), field.constraints());
    let (serde_json, field_schema, from_json, value) = (
        paths::serde_json(),
        paths::field_schema(),
        paths::from_json(),
        paths::value(),
    );
    // The same `default` tokens as in validation, so a mistyped default is one error.
    let default_json = match &field.attrs.default {
        Some(_) => quote! {
            (#default).and_then(|default: fn() -> #ty| #serde_json::to_value(&default()).ok())
        },
        None => quote!(::core::option::Option::None),
    };
    let has_default = field.attrs.default.is_some();
    let field_doc = tokens::option_str(field.doc.as_deref());
    quote! {
        properties.insert(
            #key.to_owned(),
            #field_schema::<#ty>(#key, #default_json, #constraints, #field_doc, registry),
        );
        if <#ty as #from_json>::REQUIRED && !#has_default {
            required.push(#value::from(#key));
        }
    }
}

/// The schema closure: the struct's schema, registered under its name.
fn schema_fn(model: &ModelInput) -> TokenStream {
    let name_str = model.name.to_string();
    let (map, value, schema_registry) = (paths::map(), paths::value(), paths::schema_registry());
    let properties = model.fields.iter().map(property);
    let description = model
        .description
        .as_ref()
        .map(|d| quote!(schema.insert("description".to_owned(), #value::from(#d));));
    quote! {
        |registry: &mut #schema_registry| -> #value {
            registry.named(#name_str, |registry| {
                #[allow(unused_mut)]
                let mut properties = #map::new();
                #[allow(unused_mut)]
                let mut required: ::std::vec::Vec<#value> = ::std::vec::Vec::new();
                #(#properties)*
                let mut schema = #map::new();
                schema.insert("properties".to_owned(), #value::Object(properties));
                schema.insert("type".to_owned(), #value::from("object"));
                if !required.is_empty() {
                    schema.insert("required".to_owned(), #value::Array(required));
                }
                schema.insert("title".to_owned(), #value::from(#name_str));
                #description
                #value::Object(schema)
            })
        }
    }
}

/// `__PARTS`: the assertions, then the validating and the schema closure, in one body.
fn parts(model: &ModelInput) -> TokenStream {
    let name = &model.name;
    let assertions = assertions(&model.fields);
    let (validate, schema) = (validate_fn(model), schema_fn(model));
    let (map, value, loc, validation_errors, schema_registry) = (
        paths::map(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
        paths::schema_registry(),
    );
    quote! {
        #[allow(clippy::type_complexity)]
        const __PARTS: (
            fn(
                &#map<::std::string::String, #value>,
                &mut #loc,
                &mut #validation_errors,
            ) -> ::core::option::Option<#name>,
            fn(&mut #schema_registry) -> #value,
        ) = {
            #assertions
            (
                #validate,
                #schema,
            )
        };
    }
}

/// `Model`, its `validate_object` body `validate` (over `object`, `loc` and `errors`).
pub(super) fn model_impl(name: &syn::Ident, validate: TokenStream) -> TokenStream {
    let name_str = name.to_string();
    let model_trait = paths::model();
    let (map, value, loc, validation_errors) = (
        paths::map(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
    );
    quote! {
        impl #model_trait for #name {
            const NAME: &'static str = #name_str;

            fn validate_object(
                object: &#map<::std::string::String, #value>,
                loc: &mut #loc,
                errors: &mut #validation_errors,
            ) -> ::core::option::Option<Self> {
                #validate
            }
        }
    }
}

/// `JsonSchema` through `__PARTS.1`, and `Constrainable` (a model takes no constraint).
fn schema_impls(name: &syn::Ident) -> TokenStream {
    let (json_schema, constrainable, schema_registry, value) = (
        paths::json_schema(),
        paths::constrainable(),
        paths::schema_registry(),
        paths::value(),
    );
    quote! {
        impl #json_schema for #name {
            fn schema(registry: &mut #schema_registry) -> #value {
                (__PARTS.1)(registry)
            }
        }

        impl #constrainable for #name {}
    }
}

/// `Arg`: a model argument is the route's JSON body.
pub(super) fn arg_impl(name: &syn::Ident) -> TokenStream {
    let (arg, source, request_cx, param, validation_errors, body_model) = (
        paths::arg(),
        paths::source(),
        paths::request_cx(),
        paths::param(),
        paths::validation_errors(),
        paths::body_model(),
    );
    let (schema_registry, operation, json_schema, deps, response) = (
        paths::schema_registry(),
        paths::operation(),
        paths::json_schema(),
        paths::deps(),
        paths::response(),
    );
    quote! {
        impl #arg for #name {
            const SOURCE: #source = #source::Body;
            type Input = Self;

            fn extract(
                cx: &#request_cx<'_>,
                _param: #param<Self>,
                errors: &mut #validation_errors,
            ) -> ::core::option::Option<Self> {
                #body_model::<Self>(cx, errors)
            }

            fn resolve(
                input: Self,
                _deps: &mut #deps,
            ) -> impl ::core::future::Future<
                Output = ::core::result::Result<Self, #response>,
            > + ::core::marker::Send {
                ::core::future::ready(::core::result::Result::Ok(input))
            }

            fn doc(
                _param: #param<Self>,
                op: &mut #operation,
                registry: &mut #schema_registry,
            ) {
                op.request_body(<Self as #json_schema>::schema(registry));
            }
        }
    }
}

/// The whole expansion of the derive for a valid input.
pub fn emit(model: &ModelInput) -> TokenStream {
    let parts = parts(model);
    let model_impl = model_impl(&model.name, quote!((__PARTS.0)(object, loc, errors)));
    let from_json_impl = tokens::from_json_impl(&model.name, paths::validate_model());
    // The strict fast path (see the runtime's `fast_json`): any doubt declines, and the lax path
    // reports the errors.
    let fast = fast::fast_json_impl(model);
    let schema = schema_impls(&model.name);
    let arg = arg_impl(&model.name);
    paths::runtime_scope(quote!(#parts #model_impl #from_json_impl #fast #schema #arg))
}
