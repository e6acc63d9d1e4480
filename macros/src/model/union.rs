//! `#[derive(Model)]` on an enum: a discriminated union, serde's internally tagged shape
//! (`#[serde(tag = "kind")]`), each variant one model (`Cat(Cat)`), named by its tag (the
//! variant's name, or `#[serde(rename = "..")]`).
//!
//! Rules enforced here: the tag is read from serde's own `#[serde(tag = "..")]`, so the
//! validation and the serialization of a response cannot disagree about it; an enum without it,
//! a variant that is not one unnamed field, and a generic enum are errors at the enum or the
//! variant; a variant's type that is not a model is reported at that type by the compiler.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DataEnum, DeriveInput, Fields, Ident, Type};

use super::parse::serde_str;

use crate::diag::Diagnostics;
use crate::paths;

/// One variant: its name, its model type and its tag.
struct Variant {
    ident: Ident,
    ty: Type,
    tag: String,
}

/// A discriminated union deriving `Model`.
struct Union {
    name: Ident,
    discriminator: String,
    variants: Vec<Variant>,
}

fn variant(variant: &syn::Variant, diag: &mut Diagnostics) -> Option<Variant> {
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
    if !input.generics.params.is_empty() {
        diag.error_spanned(&input.generics, "`Model` cannot be derived for a generic enum");
    }
    let discriminator = serde_str(&input.attrs, "tag", diag).unwrap_or_else(|| {
        diag.error(
            input.ident.span(),
            "a `Model` enum is a discriminated union: name its tag field with `#[serde(tag = \"kind\")]` (use `StrEnum` for a string enum)",
        );
        String::new()
    });
    if data.variants.is_empty() {
        diag.error(input.ident.span(), "a `Model` union needs at least one variant");
    }
    Union {
        name: input.ident.clone(),
        discriminator,
        variants: data.variants.iter().filter_map(|v| variant(v, diag)).collect(),
    }
}

fn emit(union: &Union) -> TokenStream {
    let (name, discriminator) = (&union.name, &union.discriminator);
    let (value, schema_registry) = (paths::value(), paths::schema_registry());
    let (model, json_schema, tagged_variant) =
        (paths::model(), paths::json_schema(), paths::tagged_variant());
    let (validate_tagged, tagged_schema) = (paths::validate_tagged(), paths::tagged_schema());
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
    let validation = super::emit::validation_impls(
        name,
        quote!(#validate_tagged(object, #discriminator, __VARIANTS, loc, errors)),
    );
    let (fast_json, constrainable) = (paths::fast_json(), paths::constrainable());
    let arg = super::emit::arg_impl(name);
    let items = quote! {
        const __VARIANTS: &[#tagged_variant<#name>] = &[#(#variants),*];

        #validation

        // The union has no strict fast path: the lax path reads the tag first.
        impl #fast_json for #name {}

        impl #json_schema for #name {
            fn schema(registry: &mut #schema_registry) -> #value {
                #tagged_schema(#discriminator, __VARIANTS, registry)
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
