//! The declared types as Rust items: structs, enums, unions and aliases, with their serde
//! attributes and documentation.
//!
//! Rules enforced here: every item and field has a doc comment (the schema's description, else a
//! sentence naming the schema), so a crate with `missing_docs` builds; a property whose name is
//! not the field's is renamed for serde; an optional property is an `Option` left out when `None`,
//! unless it may also be `null`: then a `Nullable`, left out when `Absent`, `null` when `Null`
//! (but in a model sent as a form or multipart parts, which have no `null`);
//! a type that contains itself without an indirection is boxed where the cycle closes; a model
//! holding a file (an upload) derives neither serde trait (it is sent as multipart parts, by its
//! generated `ToParts`); a string enum writes itself as a parameter (`ToParam`), as does a union of
//! parameter types.

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Field, Kind, Ty, TypeDef};
use crate::docs::rustdoc;

/// Where a type is named from: inside the `types` module, or beside it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Inside `types`.
    Types,
    /// In `operations` (names are `types::X`).
    Operations,
}

/// What the emitters share: the runtime's path, the definitions by name, the cycles and files.
pub struct Context<'a> {
    /// The runtime crate's name in the generated modules (`rt`, each module's `use` of it).
    pub rt: TokenStream,
    /// The same, as a string (for serde's `crate` attribute).
    pub rt_text: String,
    defs: HashMap<&'a str, &'a TypeDef>,
    /// Definitions that hold a file, directly or not.
    files: HashSet<String>,
    /// `(definition, member)` pairs that close a cycle (boxed).
    boxed: HashSet<(String, String)>,
    /// Models sent as `multipart/form-data` (they write themselves as parts).
    multipart: HashSet<String>,
    /// Models sent as forms or multipart parts, which have no `null`.
    flat: HashSet<String>,
}

impl<'a> Context<'a> {
    /// The context of `defs`, of which `multipart` are sent as multipart bodies, and `flat` as
    /// forms or multipart bodies.
    pub fn new(defs: &'a [TypeDef], multipart: HashSet<String>, flat: HashSet<String>) -> Self {
        let rt_text = "rt";
        let rt = quote!(rt);
        let by_name: HashMap<&str, &TypeDef> = defs.iter().map(|def| (def.name.as_str(), def)).collect();
        let mut context = Context {
            rt,
            rt_text: rt_text.to_owned(),
            defs: by_name,
            files: HashSet::new(),
            boxed: HashSet::new(),
            multipart,
            flat,
        };
        context.files = context.find_files(defs);
        context.boxed = context.find_cycles(defs);
        context
    }

    /// The types each definition's members hold: `(member, type)`.
    fn members(def: &TypeDef) -> Vec<(String, &Ty)> {
        match &def.kind {
            Kind::Struct { fields, extra } => {
                let mut members: Vec<(String, &Ty)> =
                    fields.iter().map(|f| (f.name.clone(), &f.ty)).collect();
                if let Some(extra) = extra {
                    members.push(("extra".to_owned(), extra));
                }
                members
            }
            Kind::Union { variants, .. } => variants.iter().map(|v| (v.name.clone(), &v.ty)).collect(),
            Kind::Alias(ty) => vec![(String::new(), ty)],
            Kind::Enum { .. } => Vec::new(),
        }
    }

    fn find_files(&self, defs: &[TypeDef]) -> HashSet<String> {
        let mut files = HashSet::new();
        loop {
            let before = files.len();
            for def in defs {
                let holds = Self::members(def).iter().any(|(_, ty)| {
                    holds_file(ty) || {
                        let mut named = Vec::new();
                        ty.named(true, &mut named);
                        named.iter().any(|(name, _)| files.contains(name))
                    }
                });
                if holds {
                    files.insert(def.name.clone());
                }
            }
            if files.len() == before {
                return files;
            }
        }
    }

    fn find_cycles(&self, defs: &[TypeDef]) -> HashSet<(String, String)> {
        let direct = |def: &TypeDef| -> Vec<String> {
            let mut all = Vec::new();
            for (_, ty) in Self::members(def) {
                let mut named = Vec::new();
                ty.named(true, &mut named);
                all.extend(
                    named
                        .into_iter()
                        .filter(|(_, direct)| *direct)
                        .map(|(name, _)| name),
                );
            }
            all
        };
        let edges: HashMap<&str, Vec<String>> =
            defs.iter().map(|def| (def.name.as_str(), direct(def))).collect();
        let reaches = |from: &str, to: &str| -> bool {
            let mut seen = HashSet::new();
            let mut stack = vec![from.to_owned()];
            while let Some(at) = stack.pop() {
                if at == to {
                    return true;
                }
                if seen.insert(at.clone()) {
                    stack.extend(edges.get(at.as_str()).into_iter().flatten().cloned());
                }
            }
            false
        };
        let mut boxed = HashSet::new();
        for def in defs {
            for (member, ty) in Self::members(def) {
                let mut named = Vec::new();
                ty.named(true, &mut named);
                if named
                    .iter()
                    .any(|(name, direct)| *direct && reaches(name, &def.name))
                {
                    boxed.insert((def.name.clone(), member));
                }
            }
        }
        boxed
    }

    /// The definition named `name`.
    pub fn def(&self, name: &str) -> Option<&'a TypeDef> {
        self.defs.get(name).copied()
    }

    /// The items of `def` name the runtime (`rt::…`): every struct, enum and union derives or
    /// implements its traits; an alias only if its type is one of the runtime's.
    pub fn names_runtime(&self, def: &TypeDef) -> bool {
        match &def.kind {
            Kind::Struct { .. } | Kind::Enum { .. } | Kind::Union { .. } => true,
            Kind::Alias(ty) => ty.names_runtime(),
        }
    }

    /// `ty` is written as a parameter's text.
    pub fn is_param(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Named(name) => match self.def(name).map(|def| &def.kind) {
                Some(Kind::Enum { .. }) => true,
                Some(Kind::Union { variants, tag: None }) => variants.iter().all(|v| self.is_param(&v.ty)),
                Some(Kind::Alias(ty)) => self.is_param(ty),
                _ => false,
            },
            Ty::Option(inner) | Ty::Vec(inner) => self.is_param(inner),
            Ty::Map(_) | Ty::Object | Ty::Tuple(_) | Ty::File => false,
            _ => true,
        }
    }

    /// The tokens of `ty`, named from `scope`.
    pub fn ty(&self, ty: &Ty, scope: Scope) -> TokenStream {
        let rt = &self.rt;
        match ty {
            Ty::Named(name) => {
                let ident = format_ident!("{}", name);
                match scope {
                    Scope::Types => quote!(#ident),
                    Scope::Operations => quote!(types::#ident),
                }
            }
            Ty::String => quote!(String),
            Ty::Bool => quote!(bool),
            Ty::Int(kind) | Ty::Float(kind) => {
                let ident = format_ident!("{}", kind);
                quote!(#ident)
            }
            Ty::Value => quote!(#rt::Json),
            Ty::Object => quote!(#rt::JsonObject),
            Ty::DateTime => quote!(#rt::DateTime),
            Ty::Date => quote!(#rt::chrono::NaiveDate),
            Ty::Time => quote!(#rt::Time),
            Ty::Duration => quote!(#rt::Duration),
            Ty::Uuid => quote!(#rt::uuid::Uuid),
            Ty::Decimal => quote!(#rt::rust_decimal::Decimal),
            Ty::Url => quote!(#rt::url::Url),
            Ty::IpAddr => quote!(::std::net::IpAddr),
            Ty::Ipv4 => quote!(::std::net::Ipv4Addr),
            Ty::Ipv6 => quote!(::std::net::Ipv6Addr),
            Ty::File => quote!(#rt::File),
            Ty::Vec(inner) => {
                let inner = self.ty(inner, scope);
                quote!(Vec<#inner>)
            }
            Ty::Map(inner) => {
                let inner = self.ty(inner, scope);
                quote!(::std::collections::BTreeMap<String, #inner>)
            }
            Ty::Option(inner) => {
                let inner = self.ty(inner, scope);
                quote!(Option<#inner>)
            }
            Ty::Tuple(items) => {
                let items = items.iter().map(|item| self.ty(item, scope));
                quote!((#(#items,)*))
            }
        }
    }

    /// The tokens of member `member` of `def`, of type `ty`: boxed where it closes a cycle.
    fn member_ty(&self, def: &str, member: &str, ty: &Ty) -> TokenStream {
        if !self.boxed.contains(&(def.to_owned(), member.to_owned())) {
            return self.ty(ty, Scope::Types);
        }
        match ty {
            Ty::Option(inner) => {
                let inner = self.ty(inner, Scope::Types);
                quote!(Option<Box<#inner>>)
            }
            other => {
                let inner = self.ty(other, Scope::Types);
                quote!(Box<#inner>)
            }
        }
    }

    /// The serde derives and attribute of a type.
    fn serde(&self) -> (TokenStream, TokenStream) {
        let rt = &self.rt;
        let path = format!("{}::serde", self.rt_text);
        (
            quote!(#rt::serde::Serialize, #rt::serde::Deserialize),
            quote!(#[serde(crate = #path)]),
        )
    }

    /// The items of `def`.
    pub fn def_items(&self, def: &TypeDef) -> TokenStream {
        let doc = doc_attrs(&type_doc(def));
        let name = format_ident!("{}", def.name);
        match &def.kind {
            Kind::Struct { fields, extra } => self.struct_items(def, &name, doc, fields, extra.as_ref()),
            Kind::Enum { values } => self.enum_items(&name, doc, values),
            Kind::Union { variants, tag } => self.union_items(def, &name, doc, variants, tag.as_deref()),
            Kind::Alias(ty) => {
                let ty = self.member_ty(&def.name, "", ty);
                quote! {
                    #doc
                    pub type #name = #ty;
                }
            }
        }
    }

    fn struct_items(
        &self,
        def: &TypeDef,
        name: &proc_macro2::Ident,
        doc: TokenStream,
        fields: &[Field],
        extra: Option<&Ty>,
    ) -> TokenStream {
        let with_files = self.files.contains(&def.name);
        // Forms and parts have no `null` (FastAPI reads none): such a model keeps `Option`s.
        let as_parts = with_files || self.flat.contains(&def.name);
        let members = fields.iter().map(|field| {
            let ident = format_ident!("{}", field.name);
            let three_states = field.three_states() && !as_parts;
            let ty = if three_states {
                let rt = &self.rt;
                let inner = self.member_ty(&def.name, &field.name, &field.ty);
                quote!(#rt::Nullable<#inner>)
            } else if field.optional {
                self.member_ty(&def.name, &field.name, &Ty::Option(Box::new(field.ty.clone())))
            } else {
                self.member_ty(&def.name, &field.name, &field.ty)
            };
            let field_doc = doc_attrs(&field_doc(field));
            let mut serde = Vec::new();
            if !with_files {
                if field.json != field.name {
                    let json = &field.json;
                    serde.push(quote!(rename = #json));
                }
                if three_states {
                    let is_absent = format!("{}::Nullable::is_absent", self.rt_text);
                    serde.push(quote!(default, skip_serializing_if = #is_absent));
                } else if field.optional && field.skip_none {
                    serde.push(quote!(default, skip_serializing_if = "Option::is_none"));
                }
            }
            let serde = (!serde.is_empty()).then(|| quote!(#[serde(#(#serde),*)]));
            quote! {
                #field_doc
                #serde
                pub #ident: #ty,
            }
        });
        let extra = extra.map(|extra| {
            let ty = self.member_ty(&def.name, "extra", extra);
            let attr = (!with_files).then(|| quote!(#[serde(flatten)]));
            quote! {
                /// The other properties.
                #attr
                pub extra: ::std::collections::BTreeMap<String, #ty>,
            }
        });
        let parts = (with_files || self.multipart.contains(&def.name)).then(|| {
            let rt = &self.rt;
            let parts = fields.iter().map(|field| self.part(field));
            quote! {
                impl #rt::ToParts for #name {
                    fn write_parts(&self, form: &mut #rt::Multipart) {
                        #(#parts)*
                    }
                }
            }
        });
        if with_files {
            return quote! {
                #doc
                #[derive(Debug)]
                pub struct #name {
                    #(#members)*
                    #extra
                }

                #parts
            };
        }
        let (derives, crate_attr) = self.serde();
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq, #derives)]
            #crate_attr
            pub struct #name {
                #(#members)*
                #extra
            }

            #parts
        }
    }

    /// The statement writing `field` as multipart parts.
    fn part(&self, field: &Field) -> TokenStream {
        let ident = format_ident!("{}", field.name);
        let json = &field.json;
        match (&field.ty, field.optional) {
            (Ty::File, false) => quote!(form.file(#json, &self.#ident);),
            (Ty::File, true) => quote!(if let Some(file) = &self.#ident { form.file(#json, file); }),
            (Ty::Vec(inner), false) if **inner == Ty::File => quote!(form.files(#json, &self.#ident);),
            (Ty::Vec(inner), true) if **inner == Ty::File => {
                quote!(form.files(#json, self.#ident.iter().flatten());)
            }
            (ty, _) if self.is_param(ty) => quote!(form.text(#json, &self.#ident);),
            (_, false) => quote!(form.json(#json, &self.#ident);),
            (_, true) => quote!(if let Some(value) = &self.#ident { form.json(#json, value); }),
        }
    }

    fn enum_items(
        &self,
        name: &proc_macro2::Ident,
        doc: TokenStream,
        values: &[(String, String)],
    ) -> TokenStream {
        let rt = &self.rt;
        let (derives, crate_attr) = self.serde();
        let constant = values.len() == 1;
        let variants = values.iter().map(|(variant, value)| {
            let ident = format_ident!("{}", variant);
            let default = constant.then(|| quote!(#[default]));
            let text = format!("`{value}`.");
            quote! {
                #[doc = #text]
                #[serde(rename = #value)]
                #default
                #ident,
            }
        });
        let arms = values.iter().map(|(variant, value)| {
            let ident = format_ident!("{}", variant);
            quote!(Self::#ident => #value,)
        });
        let default = constant.then(|| quote!(Default,));
        quote! {
            #doc
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, #default #derives)]
            #crate_attr
            pub enum #name {
                #(#variants)*
            }

            impl #name {
                /// The value as the document writes it.
                pub fn as_str(&self) -> &'static str {
                    match self {
                        #(#arms)*
                    }
                }
            }

            impl ::std::fmt::Display for #name {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl #rt::ToParam for #name {
                fn write_param(&self, out: &mut String) {
                    out.push_str(self.as_str());
                }
            }
        }
    }

    fn union_items(
        &self,
        def: &TypeDef,
        name: &proc_macro2::Ident,
        doc: TokenStream,
        variants: &[super::Variant],
        tag: Option<&str>,
    ) -> TokenStream {
        let rt = &self.rt;
        let (_, crate_attr) = self.serde();
        let members = variants.iter().map(|variant| {
            let ident = format_ident!("{}", variant.name);
            let ty = self.member_ty(&def.name, &variant.name, &variant.ty);
            let text = match &variant.tag {
                Some(tag) => format!("`{tag}`."),
                None => format!("A `{}`.", variant.name),
            };
            quote! {
                #[doc = #text]
                #ident(#ty),
            }
        });
        let param = variants.iter().all(|v| self.is_param(&v.ty)).then(|| {
            let arms = variants.iter().map(|variant| {
                let ident = format_ident!("{}", variant.name);
                quote!(Self::#ident(value) => value.write_param(out),)
            });
            quote! {
                impl #rt::ToParam for #name {
                    fn write_param(&self, out: &mut String) {
                        match self {
                            #(#arms)*
                        }
                    }
                }
            }
        });
        let Some(tag) = tag else {
            return quote! {
                #doc
                #[derive(Clone, Debug, PartialEq, #rt::serde::Serialize, #rt::serde::Deserialize)]
                #crate_attr
                #[serde(untagged)]
                pub enum #name {
                    #(#members)*
                }

                #param
            };
        };
        let tags: Vec<&str> = variants.iter().filter_map(|v| v.tag.as_deref()).collect();
        let arms = variants.iter().map(|variant| {
            let ident = format_ident!("{}", variant.name);
            let value = variant.tag.as_deref().unwrap_or_default();
            quote!(#value => #rt::tagged::variant(value).map(Self::#ident),)
        });
        quote! {
            #doc
            #[derive(Clone, Debug, PartialEq, #rt::serde::Serialize)]
            #crate_attr
            #[serde(untagged)]
            pub enum #name {
                #(#members)*
            }

            impl<'de> #rt::serde::Deserialize<'de> for #name {
                fn deserialize<D: #rt::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let (tag, value) = #rt::tagged::read(deserializer, #tag)?;
                    match tag.as_str() {
                        #(#arms)*
                        other => Err(#rt::tagged::unknown(other, &[#(#tags),*])),
                    }
                }
            }
        }
    }
}

fn holds_file(ty: &Ty) -> bool {
    match ty {
        Ty::File => true,
        Ty::Option(inner) | Ty::Vec(inner) | Ty::Map(inner) => holds_file(inner),
        Ty::Tuple(items) => items.iter().any(holds_file),
        _ => false,
    }
}

/// A type's documentation.
fn type_doc(def: &TypeDef) -> String {
    let mut doc = match &def.doc {
        Some(doc) => rustdoc(doc),
        None => match &def.key {
            Some(key) => format!("The schema `{key}`."),
            None => format!("A schema at `{}`.", def.pointer),
        },
    };
    if let (Some(_), Some(key)) = (&def.doc, &def.key) {
        if !key.chars().all(|c| c.is_ascii_alphanumeric()) || *key != def.name {
            doc.push_str(&format!("\n\nThe schema `{key}`."));
        }
    }
    doc
}

/// A field's documentation.
fn field_doc(field: &Field) -> String {
    let mut doc = match &field.doc {
        Some(doc) => rustdoc(doc),
        None => format!("`{}`.", field.json),
    };
    if let Some(default) = &field.default {
        if !default.is_null() {
            doc.push_str(&format!("\n\nDefault: `{default}`."));
        }
    }
    doc
}

/// `text` as `#[doc]` attributes, a line each.
pub fn doc_attrs(text: &str) -> TokenStream {
    let lines = text.lines().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}
