//! Code generation for `#[derive(Model)]`: lax validation of a JSON object into the struct
//! (every error collected), its JSON Schema, and the trait impls that make it a route's body.
//!
//! Rules enforced here: the field types are named only in the one body of `__PARTS` (its
//! closures included): the compiler reports an unsatisfied bound once per span and body, so an
//! unsupported field type is one error at the field rather than one per generated function. A
//! generic model's `__PARTS` is an associated constant (a free one cannot name the type
//! parameters); its impls carry the struct's generics with `T: FromJson` (and, as a body,
//! `T: Send + 'static`); its schema is titled and registered per parametrisation (`Page[Item]`
//! as `Page_Item_`, the runtime's `generic_schema`). A non-generic model's expansion is the same
//! as before generics existed.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::fast;
use super::head::Head;
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
    let this = Head::of(model).ty();
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
        let field_fn = match field.of_type_param {
            true => paths::param_field(),
            false => field_fn.clone(),
        };
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
                #validate_whole::<#this>(#name { #(#build),* }, #check, object, loc, errors)
            }
        }
        None => quote!(::core::option::Option::Some(#name { #(#build),* })),
    };
    quote! {
        #[allow(unused_variables)]
        |object: &#map<::std::string::String, #value>,
         loc: &mut #loc,
         errors: &mut #validation_errors|
         -> ::core::option::Option<#this> {
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
    let mut schema = quote!(#field_schema::<#ty>(#key, #default_json, #constraints, #field_doc, registry));
    if let Some(examples) = field.attrs.examples_json() {
        let with_examples = paths::with_examples();
        schema = quote!(#with_examples(#schema, #examples));
    }
    let required = match field.of_type_param {
        true => quote!(!#has_default),
        false => quote!(<#ty as #from_json>::REQUIRED && !#has_default),
    };
    quote! {
        properties.insert(
            #key.to_owned(),
            #schema,
        );
        if #required {
            required.push(#value::from(#key));
        }
    }
}

/// The schema closure: the struct's schema, registered under its name (a generic model's under
/// its parametrisation's, see the runtime's `generic_schema`).
fn schema_fn(model: &ModelInput) -> TokenStream {
    let name_str = model
        .schema_name
        .clone()
        .unwrap_or_else(|| model.name.to_string());
    let (map, value, schema_registry) = (paths::map(), paths::value(), paths::schema_registry());
    let properties = model.fields.iter().map(property);
    let description = model
        .description
        .as_ref()
        .map(|d| quote!(schema.insert("description".to_owned(), #value::from(#d));));
    let title = match model.is_generic() {
        true => quote!(title),
        false => quote!(#name_str),
    };
    let body = quote! {{
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
        schema.insert("title".to_owned(), #value::from(#title));
        #description
        #value::Object(schema)
    }};
    if !model.is_generic() {
        let newest = quote!(registry.named(#name_str, |registry| #body));
        let schema = match model.is_versioned() {
            true => super::versions::schema_dispatch(model, newest),
            false => newest,
        };
        return quote! {
            |registry: &mut #schema_registry| -> #value {
                #schema
            }
        };
    }
    let (generic_schema, arguments) = (paths::generic_schema(), python_arguments(model));
    quote! {
        |registry: &mut #schema_registry| -> #value {
            #generic_schema(#name_str, &#arguments, registry, |registry, title| #body)
        }
    }
}

/// `[<T as JsonSchema>::python_name(), ..]`: the Python names of a generic model's arguments.
fn python_arguments(model: &ModelInput) -> TokenStream {
    let json_schema = paths::json_schema();
    let params = model.type_params();
    quote!([#(<#params as #json_schema>::python_name()),*])
}

/// `__PARTS`: the assertions, then the validating and the schema closure, in one body; a
/// generic model's is an associated constant of the struct.
fn parts(model: &ModelInput) -> TokenStream {
    let this = Head::of(model).ty();
    let assertions = assertions(&model.fields);
    let (validate, schema) = (validate_fn(model), schema_fn(model));
    let (map, value, loc, validation_errors, schema_registry) = (
        paths::map(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
        paths::schema_registry(),
    );
    let parts = quote! {
        #[allow(clippy::type_complexity)]
        const __PARTS: (
            fn(
                &#map<::std::string::String, #value>,
                &mut #loc,
                &mut #validation_errors,
            ) -> ::core::option::Option<#this>,
            fn(&mut #schema_registry) -> #value,
        ) = {
            #assertions
            (
                #validate,
                #schema,
            )
        };
    };
    if !model.is_generic() {
        return parts;
    }
    let (impl_generics, _, where_clause) = model.generics.split_for_impl();
    quote! {
        impl #impl_generics #this #where_clause {
            #[doc(hidden)]
            #parts
        }
    }
}

/// How the impls reach `__PARTS`: the constant, or the associated one of a generic model.
fn parts_path(model: &ModelInput) -> TokenStream {
    match model.is_generic() {
        true => quote!(Self::__PARTS),
        false => quote!(__PARTS),
    }
}

/// `Model`, its `validate_object` body `validate` (over `object`, `loc` and `errors`).
pub(super) fn model_impl(head: &Head<'_>, validate: TokenStream) -> TokenStream {
    let name_str = head.name.to_string();
    let model_impl = head.impl_for(&paths::model(), None);
    let (map, value, loc, validation_errors) = (
        paths::map(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
    );
    quote! {
        #model_impl {
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

/// `JsonSchema` through `__PARTS.1` (with a generic model's Python name, `Page[Item]`), and
/// `Constrainable` (a model takes no constraint).
fn schema_impls(model: &ModelInput) -> TokenStream {
    let (json_schema, constrainable, schema_registry, value) = (
        paths::json_schema(),
        paths::constrainable(),
        paths::schema_registry(),
        paths::value(),
    );
    let head = Head::of(model);
    let (schema_impl, constrainable_impl) = (
        head.impl_for(&json_schema, None),
        head.impl_for(&constrainable, None),
    );
    let parts = parts_path(model);
    let python_name = model.is_generic().then(|| {
        let (name_str, generic_title) = (model.name.to_string(), paths::generic_title());
        let arguments = python_arguments(model);
        quote! {
            fn python_name() -> ::std::string::String {
                #generic_title(#name_str, &#arguments)
            }
        }
    });
    quote! {
        #schema_impl {
            fn schema(registry: &mut #schema_registry) -> #value {
                (#parts.1)(registry)
            }
            #python_name
        }

        #constrainable_impl {}
    }
}

/// `Extract` and `Body`: a model argument is the route's JSON body (the value crosses tasks: a
/// type parameter is `Send + 'static` there).
pub(super) fn arg_impl(head: &Head<'_>) -> TokenStream {
    let (extract, body, request_cx, param, validation_errors, body_model) = (
        paths::extract(),
        paths::body(),
        paths::request_cx(),
        paths::param(),
        paths::validation_errors(),
        paths::body_model(),
    );
    let (schema_registry, operation, json_schema) =
        (paths::schema_registry(), paths::operation(), paths::json_schema());
    let bound = Some(quote!(::core::marker::Send + 'static));
    let (extract_impl, body_impl) = (
        head.impl_for(&extract, bound.clone()),
        head.impl_for(&body, bound),
    );
    quote! {
        #extract_impl {
            fn extract(
                cx: &#request_cx<'_>,
                _param: #param<Self>,
                errors: &mut #validation_errors,
            ) -> ::core::option::Option<Self> {
                #body_model::<Self>(cx, errors)
            }

            fn doc(
                _param: #param<Self>,
                op: &mut #operation,
                registry: &mut #schema_registry,
            ) {
                op.request_body(<Self as #json_schema>::schema(registry));
            }
        }

        #body_impl {}
    }
}

/// The whole expansion of the derive for a valid input.
pub fn emit(model: &ModelInput) -> TokenStream {
    let head = Head::of(model);
    let parts = parts(model);
    let parts_path = parts_path(model);
    let newest = quote!((#parts_path.0)(object, loc, errors));
    let validate = match model.is_versioned() {
        true => super::versions::validate_dispatch(model, newest),
        false => newest,
    };
    let model_impl = model_impl(&head, validate);
    let from_json_impl = tokens::from_json_impl(&model.name, &model.generics, paths::validate_model());
    // The strict fast path (see the runtime's `fast_json`): any doubt declines, and the lax path
    // reports the errors.
    let fast = fast::fast_json_impl(model);
    let schema = schema_impls(model);
    let arg = arg_impl(&head);
    let versions = super::versions::emit(model);
    paths::runtime_scope(quote!(#parts #model_impl #from_json_impl #fast #schema #arg #versions))
}
