//! `#[derive(Model)]` on an enum: a discriminated union, serde's internally tagged shape
//! (`#[serde(tag = "kind")]`), each variant one model (`Cat(Cat)`), named by its tag (the
//! variant's name, or `#[serde(rename = "..")]`); or an untagged union (`#[serde(untagged)]`).
//!
//! Rules enforced here: the shape is read from serde's own attribute, so the validation and the
//! serialization of a response cannot disagree about it; an enum with neither,
//! a variant that is not one unnamed field, and a generic enum are errors at the enum or the
//! variant; a variant's type that is not a model is reported at that type by the compiler; the
//! `#[serde(..)]` keys a union does not honour are errors (`serde_attrs`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DataEnum, DeriveInput, Fields, Ident, Type};

use super::parse::{serde_flag, serde_str};
use super::serde_attrs::{self, Place};

use crate::diag::Diagnostics;
use crate::{paths, tokens};

/// One variant: its name, its model type and its tag.
struct Variant {
    ident: Ident,
    ty: Type,
    tag: String,
}

/// A union deriving `Model`.
struct Union {
    name: Ident,
    /// The tag field, or `None` for an untagged union.
    discriminator: Option<String>,
    variants: Vec<Variant>,
}

fn variant(variant: &syn::Variant, diag: &mut Diagnostics) -> Option<Variant> {
    serde_attrs::check(&variant.attrs, Place::Variant, diag);
    let ty = match &variant.fields {
        Fields::Unnamed(fields) if fields.unnamed.len() == 1 => fields.unnamed.first()?.ty.clone(),
        _ => {
            diag.error_spanned(
                variant,
                "a variant of a `Model` union holds one model: write `Cat(Cat)` with `Cat` deriving `Model`",
            );
            return None;
        }
    };
    let tag = serde_str(&variant.attrs, "rename", diag).unwrap_or_else(|| variant.ident.to_string());
    Some(Variant {
        ident: variant.ident.clone(),
        ty,
        tag,
    })
}

fn parse(input: &DeriveInput, data: &DataEnum, diag: &mut Diagnostics) -> Union {
    serde_attrs::check(&input.attrs, Place::Union, diag);
    if !input.generics.params.is_empty() {
        diag.error_spanned(&input.generics, "`Model` cannot be derived for a generic enum");
    }
    let discriminator = serde_str(&input.attrs, "tag", diag);
    if discriminator.is_none() && !serde_flag(&input.attrs, "untagged", diag) {
        diag.error(
            input.ident.span(),
            "a `Model` enum is a union: name its tag field with `#[serde(tag = \"kind\")]`, or write `#[serde(untagged)]` (use `StrEnum` for a string enum)",
        );
    }
    if data.variants.is_empty() {
        diag.error(input.ident.span(), "a `Model` union needs at least one variant");
    }
    Union {
        name: input.ident.clone(),
        discriminator,
        variants: data.variants.iter().filter_map(|v| variant(v, diag)).collect(),
    }
}

/// `__VARIANTS` and the `validate_object` body and schema call of a discriminated union.
fn tagged(union: &Union, discriminator: &str) -> (TokenStream, TokenStream, TokenStream) {
    let name = &union.name;
    let (model, json_schema, tagged_variant) =
        (paths::model(), paths::json_schema(), paths::tagged_variant());
    let variants = union.variants.iter().map(|variant| {
        let (ident, ty, tag) = (&variant.ident, &variant.ty, &variant.tag);
        let model_at = paths::at(ty.span(), model.clone());
        let schema_at = paths::at(ty.span(), json_schema.clone());
        quote_spanned! {ty.span()=>
            #tagged_variant {
                tag: #tag,
                validate: |object, loc, errors| {
                    <#ty as #model_at>::validate_object(object, loc, errors).map(#name::#ident)
                },
                schema: <#ty as #schema_at>::schema,
            }
        }
    });
    let (validate_tagged, tagged_schema) = (paths::validate_tagged(), paths::tagged_schema());
    (
        quote!(const __VARIANTS: &[#tagged_variant<#name>] = &[#(#variants),*];),
        quote!(#validate_tagged(object, #discriminator, __VARIANTS, loc, errors)),
        quote!(#tagged_schema(#discriminator, __VARIANTS, registry)),
    )
}

/// `__VARIANTS` and the `validate_object` body and schema call of an untagged union.
fn untagged(union: &Union) -> (TokenStream, TokenStream, TokenStream) {
    let name = &union.name;
    let (model, from_json, json_schema) = (paths::model(), paths::from_json(), paths::json_schema());
    let untagged_variant = paths::untagged_variant();
    let variants = union.variants.iter().map(|variant| {
        let (ident, ty) = (&variant.ident, &variant.ty);
        let model_at = paths::at(ty.span(), model.clone());
        let from_json_at = paths::at(ty.span(), from_json.clone());
        let schema_at = paths::at(ty.span(), json_schema.clone());
        // A parametrised model (`Page<Item>`) is spelled `Page[Item]` in `loc`, as pydantic does.
        let spelled = if generic_arguments(ty) {
            quote_spanned! {ty.span()=> ::core::option::Option::Some(<#ty as #schema_at>::python_name) }
        } else {
            quote! { ::core::option::Option::None }
        };
        quote_spanned! {ty.span()=>
            #untagged_variant {
                name: <#ty as #model_at>::NAME,
                spelled: #spelled,
                validate: |value, loc, errors| {
                    <#ty as #from_json_at>::from_json(value, loc, errors).map(#name::#ident)
                },
                schema: <#ty as #schema_at>::schema,
            }
        }
    });
    let (validate_untagged, untagged_schema, value) = (
        paths::validate_untagged(),
        paths::untagged_schema(),
        paths::value(),
    );
    (
        quote!(const __VARIANTS: &[#untagged_variant<#name>] = &[#(#variants),*];),
        // Only reached through `Model` (a caller holding an object): `FromJson` goes straight in.
        quote!(#validate_untagged(&#value::Object(object.clone()), __VARIANTS, loc, errors)),
        quote!(#untagged_schema(__VARIANTS, registry)),
    )
}

fn emit(union: &Union) -> TokenStream {
    let name = &union.name;
    let (value, schema_registry, json_schema) =
        (paths::value(), paths::schema_registry(), paths::json_schema());
    let (variants, validate, schema) = match &union.discriminator {
        Some(discriminator) => tagged(union, discriminator),
        None => untagged(union),
    };
    let no_generics = syn::Generics::default();
    let head = super::head::Head {
        name,
        generics: &no_generics,
    };
    let model_impl = super::emit::model_impl(&head, validate);
    let from_json_impl = match union.discriminator {
        Some(_) => tokens::from_json_impl(name, &no_generics, paths::validate_model()),
        // Every variant reports a value that is not an object (pydantic's errors), so the union
        // does not go through `validate_model`'s one error for it.
        None => {
            let (from_json, loc, validation_errors, validate_untagged) = (
                paths::from_json(),
                paths::loc(),
                paths::validation_errors(),
                paths::validate_untagged(),
            );
            quote! {
                impl #from_json for #name {
                    fn from_json(
                        value: &#value,
                        loc: &mut #loc,
                        errors: &mut #validation_errors,
                    ) -> ::core::option::Option<Self> {
                        #validate_untagged(value, __VARIANTS, loc, errors)
                    }
                }
            }
        }
    };
    let (fast_json, constrainable) = (paths::fast_json(), paths::constrainable());
    let arg = super::emit::arg_impl(&head);
    let items = quote! {
        #variants

        #model_impl

        #from_json_impl

        // A union has no strict fast path: the lax path reads the tag, or tries each variant.
        impl #fast_json for #name {}

        impl #json_schema for #name {
            fn schema(registry: &mut #schema_registry) -> #value {
                #schema
            }
        }

        impl #constrainable for #name {}

        #arg
    };
    paths::runtime_scope(items)
}

/// The expansion of `#[derive(Model)]` on an enum.
pub fn derive(input: &DeriveInput, data: &DataEnum) -> TokenStream {
    let mut diag = Diagnostics::default();
    let union = parse(input, data, &mut diag);
    if !diag.is_empty() {
        return diag.to_tokens();
    }
    emit(&union)
}

/// Whether `ty` is a path whose last segment has type arguments (`Page<Item>`).
fn generic_arguments(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|segment| matches!(segment.arguments, syn::PathArguments::AngleBracketed(_))),
        _ => false,
    }
}
