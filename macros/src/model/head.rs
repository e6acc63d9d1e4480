//! The head every impl of `#[derive(Model)]` writes: `impl<T> Trait for Page<T> where T: ..`.
//!
//! Rules enforced here: an impl carries the struct's generics with their bounds (the derive's
//! `T: FromJson` included, see `parse.rs`); extra bounds go on each type parameter only where
//! asked (a body's `Send + 'static`); a type without parameters gets exactly `impl Trait for
//! Name`, so a non-generic model's expansion is what it was before generics.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Generics, Ident};

use super::parse::ModelInput;

/// What every impl of the derive names: `impl<T> Trait for Page<T> where T: FromJson`.
pub(super) struct Head<'a> {
    /// The type's name.
    pub name: &'a Ident,
    /// Its generics, bounds included (empty for a non-generic type).
    pub generics: &'a Generics,
}

impl<'a> Head<'a> {
    /// The head of `model`'s impls.
    pub fn of(model: &'a ModelInput) -> Self {
        Head {
            name: &model.name,
            generics: &model.generics,
        }
    }

    /// `impl<..> trait_path for Name<..> where ..`, with `extra` bounds on each type parameter.
    pub fn impl_for(&self, trait_path: &TokenStream, extra: Option<TokenStream>) -> TokenStream {
        let mut generics = self.generics.clone();
        let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
        if let (Some(extra), false) = (extra, params.is_empty()) {
            let clause = generics.make_where_clause();
            for param in params {
                clause.predicates.push(syn::parse_quote!(#param: #extra));
            }
        }
        let name = self.name;
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        quote!(impl #impl_generics #trait_path for #name #ty_generics #where_clause)
    }

    /// `Name<T, ..>` (just `Name` when not generic).
    pub fn ty(&self) -> TokenStream {
        let name = self.name;
        let (_, ty_generics, _) = self.generics.split_for_impl();
        quote!(#name #ty_generics)
    }
}
