//! Version changes of a model (issue 44, item 3): `#[since("date", ..)]` on its fields says how
//! the field was before `date`: absent (`default = expr`, what an older request gets), named
//! otherwise (`renamed_from = "old"`), or of another type (`was = T, forward = f, backward = g`).
//!
//! The expansion, for a model with changes at dates `d1 > d2 > .. > dn`:
//! - one hidden struct per older shape (`__Item_2026_03_01`: the model as it was before
//!   `2026-03-01`), deriving `Model` like any model, so an old request's validation, its 422s
//!   and their `loc`s are that version's;
//! - the model's own validation dispatches on the shape of the request's version (the runtime's
//!   `shape_at`: at the newest version, one compare, then exactly the unversioned path): an old
//!   shape is validated by its struct and moved forward field by field, each retyped field
//!   through the user's `forward` functions, oldest step first (a refusal is a 422 at the
//!   field's old key);
//! - its `Serialize` writes the shape of the version the answer is written at: each field as it
//!   was (its old key; a retyped field through the `backward` functions, newest step first; an
//!   added field left out), straight from the newest value: no intermediate struct, no clone;
//! - `Versioned` (its dates), and the route check that each date is a version of the app.
//!
//! Rules enforced here: dates are literals `YYYY-MM-DD` (the derive orders the changes without
//! reading another item), a field names a date once, each option is known and complete (`was`
//! needs `forward` and `backward`), a versioned model is not generic, and it does not derive
//! `Serialize` itself (its `Serialize` is this one; a second is a conflict the compiler reports).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Path, Type};

use super::parse::{Field, ModelInput};
use super::version_attrs::{tokens_text, Change, Removed};
use crate::diag::Diagnostics;
use crate::paths;
/// Model-level checks of the changes: a generic model cannot be versioned (its hidden shapes
/// would need its parameters' bounds in every version).
pub fn check(model: &ModelInput, diag: &mut Diagnostics) {
    if model.is_generic() && !dates(model).is_empty() {
        diag.error(
            model.name.span(),
            "a generic model cannot declare version changes (`#[since(..)]`) yet: version a concrete model",
        );
    }
    // Before a whole-model change the older model says how it was: a field's own change must be
    // newer (the shapes after the change are walked field by field, those before are the older
    // model's).
    let Some(changed) = &model.changed else {
        return;
    };
    let older = |date: &str| date <= changed.date.as_str();
    for since in model.fields.iter().flat_map(|field| &field.since) {
        if older(&since.date) {
            diag.error(
                since.span,
                format!(
                    "the model changed as a whole at `{}` (`changed(..)`): how it was before is the older model's to say; a field's `#[since(..)]` must be newer",
                    changed.date
                ),
            );
        }
    }
    for removed in model.removed.iter().filter(|removed| older(&removed.date)) {
        diag.error(
            removed.ident.span(),
            format!(
                "the model changed as a whole at `{}` (`changed(..)`): a field it had before then is the older model's; `removed(..)` must be newer",
                changed.date
            ),
        );
    }
}

/// The shapes walked field by field (1 to this, each a hidden struct): all of them, but the
/// oldest when the model changed as a whole (that one is the older model).
fn field_shapes(model: &ModelInput, dates: &[String]) -> usize {
    dates.len() - usize::from(model.changed.is_some())
}

/// The dates the model changed at, newest first, each once.
fn dates(model: &ModelInput) -> Vec<String> {
    let mut dates: Vec<String> = model
        .fields
        .iter()
        .flat_map(|f| f.since.iter().map(|s| s.date.clone()))
        .chain(model.removed.iter().map(|r| r.date.clone()))
        .chain(model.changed.iter().map(|c| c.date.clone()))
        .collect();
    dates.sort_unstable_by(|a, b| b.cmp(a));
    dates.dedup();
    dates
}

/// A field as it was in an older shape.
struct OldField<'a> {
    field: &'a Field,
    /// Its JSON key then.
    key: String,
    /// Its type then (`None`: the newest type).
    was: Option<&'a Type>,
    /// Its constraints then, when not the newest's (a retyped field has none unless said).
    constraints: Option<&'a [TokenStream]>,
    /// The changes to undo, newest first, from the newest value to this shape.
    backward: Vec<&'a Path>,
    /// The steps forward from this shape to the newest, oldest first.
    forward: Vec<&'a Path>,
    /// The key at each forward step's older side (for its error's `loc`).
    forward_keys: Vec<String>,
}

/// The field in the shape before each of `dates[..shape]`, or `None` when it did not exist
/// then (its default, when it came).
fn old_field<'a>(field: &'a Field, dates: &[String], shape: usize) -> Result<OldField<'a>, &'a Expr> {
    let mut old = OldField {
        field,
        key: field.key.clone(),
        was: None,
        constraints: None,
        backward: Vec::new(),
        forward: Vec::new(),
        forward_keys: Vec::new(),
    };
    for date in &dates[..shape] {
        let Some(since) = field.since.iter().find(|s| &s.date == date) else {
            continue;
        };
        match &since.change {
            Some(Change::Added { default }) => return Err(default),
            Some(Change::Renamed { from }) => old.key = from.value(),
            Some(Change::Retyped {
                was,
                forward,
                backward,
            }) => {
                old.was = Some(was);
                old.constraints = Some(&[]);
                old.backward.push(backward);
                old.forward.insert(0, forward);
                old.forward_keys.insert(0, old.key.clone());
            }
            None => {}
        }
        if let Some(constraints) = &since.was_constraints {
            old.constraints = Some(constraints);
        }
    }
    Ok(old)
}

/// `__Item_2026_03_01`: the model's shape before `date`.
fn shape_ident(model: &ModelInput, date: &str) -> syn::Ident {
    format_ident!("__{}_{}", model.name, date.replace('-', "_"))
}

/// The attributes of a field the hidden struct keeps: a retyped field keeps only its doc (its
/// default, validator and constraints were the new type's); the others keep theirs but serde's
/// (the key is rewritten); the old constraints replace the new where they differ.
fn kept_attrs(old: &OldField<'_>) -> TokenStream {
    let is_constraint = |attr: &&Attribute| {
        attr.path()
            .get_ident()
            .is_some_and(|ident| crate::attrs::CONSTRAINTS.contains(&ident.to_string().as_str()))
    };
    let kept = old
        .field
        .raw_attrs
        .iter()
        .filter(|attr| !attr.path().is_ident("serde"))
        .filter(|attr| old.was.is_none() || attr.path().is_ident("doc"))
        .filter(|attr| old.constraints.is_none() || !is_constraint(attr));
    let constraints = old.constraints.unwrap_or(&[]);
    quote!(#(#kept)* #(#constraints)*)
}

/// The hidden struct of shape `shape` (1: before the newest change).
fn shape_struct(model: &ModelInput, dates: &[String], shape: usize) -> TokenStream {
    let ident = shape_ident(model, &dates[shape - 1]);
    let derive = paths::model_derive();
    let fields = model.fields.iter().filter_map(|field| {
        let old = old_field(field, dates, shape).ok()?;
        let (name, key) = (&field.ident, &old.key);
        let ty = old.was.unwrap_or(&field.ty);
        let attrs = kept_attrs(&old);
        Some(quote! {
            #attrs
            #[serde(rename = #key)]
            #name: #ty
        })
    });
    let removed = removed_in(model, dates, shape).map(|removed| {
        let (ident, ty, key) = (&removed.ident, &removed.ty, removed.ident.to_string());
        quote!(#[serde(rename = #key)] #ident: #ty)
    });
    let fields = fields.chain(removed);
    // The model's doc is the shape's: it is the schema's description in that version's document.
    let doc = model.description.iter();
    let schema_name = model.name.to_string();
    quote! {
        #(#[doc = #doc])*
        #[derive(#derive)]
        #[model(__schema_name = #schema_name)]
        #[allow(non_camel_case_types, dead_code)]
        struct #ident {
            #(#fields,)*
        }
    }
}

/// The removed fields an older shape still has (removed at one of `dates[..shape]`).
fn removed_in<'a>(
    model: &'a ModelInput,
    dates: &'a [String],
    shape: usize,
) -> impl Iterator<Item = &'a Removed> {
    model
        .removed
        .iter()
        .filter(move |r| dates[..shape].contains(&r.date))
}

/// `fn(old: Shape, object, loc, errors) -> Option<Model>`: an old shape moved to the newest,
/// every refusal recorded before the value is given up.
fn forward_fn(model: &ModelInput, dates: &[String], shape: usize) -> TokenStream {
    let (name, old_ty) = (&model.name, shape_ident(model, &dates[shape - 1]));
    let (forward_field, map, value, loc, errors) = (
        paths::forward_field(),
        paths::map(),
        paths::value(),
        paths::loc(),
        paths::validation_errors(),
    );
    let reads = model.fields.iter().map(|field| {
        let (ident, slot, ty) = (&field.ident, field.slot(), &field.ty);
        match old_field(field, dates, shape) {
            Err(default) => quote_spanned! {default.span()=>
                let #slot: ::core::option::Option<#ty> = ::core::option::Option::Some(#default);
            },
            Ok(old) => {
                let mut read = quote!(let #slot = ::core::option::Option::Some(old.#ident););
                for (step, key) in old.forward.iter().zip(&old.forward_keys) {
                    read.extend(quote_spanned! {step.span()=>
                        let #slot = match #slot {
                            ::core::option::Option::Some(value) => #forward_field(value, #step, object, #key, loc, errors),
                            ::core::option::Option::None => ::core::option::Option::None,
                        };
                    });
                }
                read.extend(quote!(let #slot: ::core::option::Option<#ty> = #slot;));
                read
            }
        }
    });
    let build = model.fields.iter().map(|field| {
        let (ident, slot) = (&field.ident, field.slot());
        quote!(#ident: #slot?)
    });
    let fn_name = format_ident!("__forward_{}", shape);
    quote! {
        #[allow(unused_variables)]
        fn #fn_name(
            old: #old_ty,
            object: &#map<::std::string::String, #value>,
            loc: &mut #loc,
            errors: &mut #errors,
        ) -> ::core::option::Option<#name> {
            #(#reads)*
            ::core::option::Option::Some(#name { #(#build),* })
        }
    }
}

/// The body of the model's `validate_object`: the shape of the request's version, validated by
/// its struct and moved forward; `newest` (the unversioned validation) at shape 0.
pub fn validate_dispatch(model: &ModelInput, newest: TokenStream) -> TokenStream {
    let dates = dates(model);
    let (model_trait, shape_at) = (paths::model(), paths::shape_at());
    // Before a whole-model change: the older model, read at the same version (its own shapes),
    // then the user's step to the newest.
    let chained = model.changed.as_ref().map(|changed| {
        let (was, forward, forward_model) = (&changed.was, &changed.forward, paths::forward_model());
        quote_spanned! {forward.span()=>
            _ => {
                let old = <#was as #model_trait>::validate_object(object, loc, errors)?;
                #forward_model(old, #forward, object, loc, errors)
            }
        }
    });
    let arms = (1..=field_shapes(model, &dates)).map(|shape| {
        let (old_ty, forward) = (
            shape_ident(model, &dates[shape - 1]),
            format_ident!("__forward_{}", shape),
        );
        let pattern = match shape == dates.len() {
            true => quote!(_),
            false => quote!(#shape),
        };
        quote! {
            #pattern => {
                let old = <#old_ty as #model_trait>::validate_object(object, loc, errors)?;
                #forward(old, object, loc, errors)
            }
        }
    });
    let dates = dates.iter();
    quote! {
        match #shape_at(&[#(#dates),*]) {
            0 => #newest,
            #(#arms)*
            #chained
        }
    }
}

/// The body of a versioned model's schema function: the shape of the version the document is
/// made for (on the thread, as while a request runs), registered under the model's own name;
/// `newest` (the unversioned schema) at shape 0.
pub fn schema_dispatch(model: &ModelInput, newest: TokenStream) -> TokenStream {
    let dates = dates(model);
    let (json_schema, shape_at, versioned) = (paths::json_schema(), paths::shape_at(), paths::versioned());
    let (name, name_str) = (&model.name, model.name.to_string());
    // Before a whole-model change: the older model's schema, at the same version.
    let chained = model.changed.as_ref().map(|changed| {
        let was = &changed.was;
        quote!(_ => <#was as #json_schema>::schema(registry),)
    });
    let arms = (1..=field_shapes(model, &dates)).map(|shape| {
        let old_ty = shape_ident(model, &dates[shape - 1]);
        let pattern = match shape == dates.len() {
            true => quote!(_),
            false => quote!(#shape),
        };
        quote!(#pattern => <#old_ty as #json_schema>::schema(registry),)
    });
    let dates = dates.iter();
    quote! {{
        // Noted at every version, whichever shape is made: the app's build checks the dates and
        // writes its changelog from what the documents meet.
        registry.versioned_model(#name_str, <#name as #versioned>::FIELD_CHANGES);
        match #shape_at(&[#(#dates),*]) {
            0 => #newest,
            #(#arms)*
            #chained
        }
    }}
}

/// `FieldChange { .. }` of each change the model declares: its fields' in their order (each
/// field's in the order of its attributes), then its removed fields.
fn field_changes(model: &ModelInput, dates: &[String]) -> Vec<TokenStream> {
    let (field_change, change_kind) = (paths::field_change(), paths::change_kind());
    let entry = |date: &str, kind: &str, field: &str, was: &str| {
        let kind = format_ident!("{}", kind);
        quote!(#field_change { date: #date, kind: #change_kind::#kind, field: #field, was: #was })
    };
    let mut out = Vec::new();
    for field in &model.fields {
        for since in &field.since {
            // Its key at the version: the shape of the changes newer than it undone.
            let newer = dates.iter().take_while(|date| **date > since.date).count();
            let key = old_field(field, dates, newer).map_or_else(|_| field.key.clone(), |old| old.key);
            let date = since.date.as_str();
            match &since.change {
                Some(Change::Added { .. }) => out.push(entry(date, "Added", &key, "")),
                Some(Change::Renamed { from }) => out.push(entry(date, "Renamed", &key, &from.value())),
                Some(Change::Retyped { was, .. }) => {
                    out.push(entry(date, "Retyped", &key, &tokens_text(&quote!(#was))))
                }
                None => {}
            }
            if let Some(text) = &since.was_constraints_text {
                out.push(entry(date, "Constrained", &key, text));
            }
        }
    }
    for removed in &model.removed {
        let (ty, key) = (&removed.ty, removed.ident.to_string());
        out.push(entry(&removed.date, "Removed", &key, &tokens_text(&quote!(#ty))));
    }
    if let Some(changed) = &model.changed {
        let was = &changed.was;
        out.push(entry(&changed.date, "Changed", "", &tokens_text(&quote!(#was))));
    }
    out
}

/// `serialize_struct` of the fields as they were in `shape` (0: the newest), from `self`.
fn serialize_shape(model: &ModelInput, dates: &[String], shape: usize) -> TokenStream {
    let serde = paths::serde();
    let name = model.name.to_string();
    let fields: Vec<TokenStream> = model
        .fields
        .iter()
        .filter_map(|field| {
            let old = old_field(field, dates, shape).ok()?;
            let (ident, key) = (&field.ident, &old.key);
            let value = old.backward.iter().fold(
                quote!(&self.#ident),
                |value, step| quote_spanned!(step.span()=> &#step(#value)),
            );
            Some(quote!(#serde::ser::SerializeStruct::serialize_field(&mut out, #key, #value)?;))
        })
        .chain(removed_in(model, dates, shape).map(|removed| {
            let (backward, key) = (&removed.backward, removed.ident.to_string());
            quote_spanned!(backward.span()=> #serde::ser::SerializeStruct::serialize_field(&mut out, #key, &#backward(self))?;)
        }))
        .collect();
    let len = fields.len();
    quote! {{
        let mut out = #serde::Serializer::serialize_struct(serializer, #name, #len)?;
        #(#fields)*
        #serde::ser::SerializeStruct::end(out)
    }}
}

/// Everything the changes add to the derive's expansion (the hidden shapes, the forward steps,
/// `Serialize`, `Versioned`); empty for a model without changes.
pub fn emit(model: &ModelInput) -> TokenStream {
    let dates = dates(model);
    if dates.is_empty() {
        return TokenStream::new();
    }
    let name = &model.name;
    // A field-level change or a removal: the same walk; only the names differ.
    let (serde, versioned, shape_at) = (paths::serde(), paths::versioned(), paths::shape_at());
    let walked = field_shapes(model, &dates);
    let shapes = (1..=walked).map(|shape| shape_struct(model, &dates, shape));
    let forwards = (1..=walked).map(|shape| forward_fn(model, &dates, shape));
    let newest = serialize_shape(model, &dates, 0);
    let arms = (1..=walked).map(|shape| {
        let body = serialize_shape(model, &dates, shape);
        match shape == dates.len() {
            true => quote!(_ => #body),
            false => quote!(#shape => #body),
        }
    });
    // Before a whole-model change: the older model the user's step makes, written at the same
    // version (its own `Serialize`).
    let chained = model.changed.as_ref().map(|changed| {
        let backward = &changed.backward;
        quote_spanned!(backward.span()=> _ => #serde::Serialize::serialize(&#backward(self), serializer),)
    });
    let changes = field_changes(model, &dates);
    let field_change = paths::field_change();
    let date_list = dates.iter();
    quote! {
        #(#shapes)*
        #(#forwards)*

        impl #serde::Serialize for #name {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                match #shape_at(<Self as #versioned>::CHANGES) {
                    0 => #newest,
                    #(#arms)*
                    #chained
                }
            }
        }

        impl #versioned for #name {
            const CHANGES: &'static [&'static str] = &[#(#date_list),*];
            const FIELD_CHANGES: &'static [#field_change] = &[#(#changes),*];
        }
    }
}

/// The fast path's first statement: decline at an older shape (the lax path reads it then).
pub fn fast_decline(model: &ModelInput) -> TokenStream {
    let dates = dates(model);
    if dates.is_empty() {
        return TokenStream::new();
    }
    let (shape_at, serde) = (paths::shape_at(), paths::serde());
    quote! {
        if #shape_at(&[#(#dates),*]) != 0 {
            return ::core::result::Result::Err(<D::Error as #serde::de::Error>::custom("an older version's shape"));
        }
    }
}
