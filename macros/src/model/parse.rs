//! Parsing: the struct deriving `Model` into its name, doc comment and fields.
//!
//! Rules enforced here: `Model` is derived for a struct with named fields (the names are the JSON
//! keys, or `#[serde(rename = "..")]`), generic over types only: each type parameter is bound by
//! `FromJson` (what a field type needs; it brings the schema), a lifetime or a const parameter is
//! an error at the parameter (a model owns what it validated, and pydantic parametrises models by
//! types only); a field takes the framework's attributes
//! (`#[default(..)]`, constraints, `#[validate(path)]`), lint and doc attributes, and
//! `#[serde(..)]` (the keys `serde_attrs` lets through: `rename`, and the struct's `rename_all`
//! rule, name the JSON keys); the struct may take `#[validate(path)]`, its model validator. A validator is a path to a function (`fn(&T) ->
//! Result<(), String>`), reported at the attribute otherwise.

use proc_macro2::TokenStream;
use quote::format_ident;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, GenericParam, Generics, Ident, Type};

use super::serde_attrs::{self, Place};
use super::version_attrs::{model_options, take_since, Changed, ModelOptions, Removed, Since};
use crate::attrs::{doc_text, param_attrs, ParamAttrs};
use crate::diag::Diagnostics;
use crate::{paths, tokens};

/// A struct deriving `Model`.
pub struct ModelInput {
    /// The struct's name.
    pub name: Ident,
    /// Its doc comment: the schema's description.
    pub description: Option<String>,
    /// Its fields in declaration order.
    pub fields: Vec<Field>,
    /// `#[validate(path)]` on the struct: run once every field converted.
    pub validator: Option<syn::Path>,
    /// The struct's generics, each type parameter bound by `FromJson` in the where clause.
    pub generics: Generics,
    /// `#[model(removed(..))]`: fields it had before a version (`versions.rs`).
    pub removed: Vec<Removed>,
    /// `#[model(changed(..))]`: the struct it was before a version, as a whole.
    pub changed: Option<Changed>,
    /// The name its schema is registered under, when not its own: an older shape's is the
    /// model's (the hidden `#[model(__schema_name = "Item")]` the versions' expansion writes).
    pub schema_name: Option<String>,
}

impl ModelInput {
    /// True when the struct has type parameters: its parts are then an associated constant and
    /// its schema is named per parametrisation.
    pub fn is_generic(&self) -> bool {
        !self.generics.params.is_empty()
    }

    /// True when it changed between versions (`#[since]` on a field, `removed(..)`): its
    /// validation, `Serialize` and schema then follow the version.
    pub fn is_versioned(&self) -> bool {
        self.fields.iter().any(|f| !f.since.is_empty()) || !self.removed.is_empty() || self.changed.is_some()
    }

    /// The type parameters, in order.
    pub fn type_params(&self) -> impl Iterator<Item = &Ident> {
        self.generics.type_params().map(|param| &param.ident)
    }
}

/// One field, with what every generated function needs of it.
pub struct Field {
    /// The Rust name.
    pub ident: Ident,
    /// The type.
    pub ty: Type,
    /// The JSON key.
    pub key: String,
    /// `#[default(..)]` and the constraints.
    pub attrs: ParamAttrs,
    /// The doc comment: the property's description.
    pub doc: Option<String>,
    /// Position in the struct.
    pub index: usize,
    /// `#[validate(path)]`: run on the converted value.
    pub validator: Option<syn::Path>,
    /// True when the type is a bare type parameter of the struct (`second: U`): required
    /// whatever the argument, as pydantic reads the annotation.
    pub of_type_param: bool,
    /// `#[since(..)]`: how the field was before each version it changed in (`versions.rs`).
    pub since: Vec<Since>,
    /// Its attributes as written, `#[since(..)]` aside: an older shape's field repeats them.
    pub raw_attrs: Vec<syn::Attribute>,
}

impl Field {
    /// `__fN`: the local holding the field's value in the generated functions.
    pub fn slot(&self) -> Ident {
        format_ident!("__f{}", self.index)
    }

    /// `&[Constraint, ..]`.
    pub fn constraints(&self) -> TokenStream {
        tokens::constraints(&self.attrs.constraints)
    }

    /// `Some(fn() -> T)` / `None`: the same tokens wherever the default is used, so a mistyped
    /// default is one error.
    pub fn default(&self) -> TokenStream {
        tokens::default_fn(&self.ty, self.attrs.default.as_ref())
    }
}

/// The keys of every `#[serde(..)]` among `attrs`, each with its string value if it has one
/// (`tag = "kind"`, `untagged`); a value that is not a string is skipped, serde's business.
fn serde_keys(attrs: &[syn::Attribute], diag: &mut Diagnostics) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            let mut value = None;
            if meta.input.peek(syn::Token![=]) {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) = meta.value()?.parse::<syn::Expr>()?
                {
                    value = Some(text.value());
                }
            } else if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
                let _: TokenStream = _content.parse()?;
            }
            found.push((key, value));
            Ok(())
        });
        if let Err(err) = result {
            diag.push(err);
        }
    }
    found
}

/// The value of `#[serde(key = "..")]` among `attrs`.
pub(super) fn serde_str(attrs: &[syn::Attribute], key: &str, diag: &mut Diagnostics) -> Option<String> {
    serde_keys(attrs, diag)
        .into_iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v)
}

/// True when `#[serde(key)]` is among `attrs` (`untagged`).
pub(super) fn serde_flag(attrs: &[syn::Attribute], key: &str, diag: &mut Diagnostics) -> bool {
    serde_keys(attrs, diag).iter().any(|(k, _)| k == key)
}

/// The JSON key of a field: `#[serde(rename = "..")]`, else its name under the struct's
/// `#[serde(rename_all = "..")]` rule, else its name.
fn json_key(field: &syn::Field, rule: Option<&str>, diag: &mut Diagnostics) -> String {
    serde_str(&field.attrs, "rename", diag).unwrap_or_else(|| {
        let name = field
            .ident
            .as_ref()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned())
            .unwrap_or_default();
        rule.and_then(|rule| serde_attrs::rename_all(rule, &name))
            .unwrap_or(name)
    })
}

/// The struct's `#[serde(rename_all = "..")]` rule, an error at the struct when serde has no
/// such rule.
fn rename_rule(input: &DeriveInput, diag: &mut Diagnostics) -> Option<String> {
    let rule = serde_str(&input.attrs, "rename_all", diag)?;
    if serde_attrs::rename_all(&rule, "a").is_none() {
        diag.error(
            input.ident.span(),
            format!(
                "unknown `rename_all` rule `{rule}`: serde's are \"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\""
            ),
        );
        return None;
    }
    Some(rule)
}

/// The named fields of the struct; an error when `input` is not a struct with named fields.
fn named_fields(input: &DeriveInput, diag: &mut Diagnostics) -> Vec<syn::Field> {
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named.named.iter().cloned().collect(),
            other => {
                diag.error_spanned(
                    other,
                    "`Model` needs a struct with named fields: the names are the JSON keys",
                );
                Vec::new()
            }
        },
        _ => {
            diag.error(
                input.ident.span(),
                "`Model` can only be derived for a struct with named fields (use `StrEnum` for string enums)",
            );
            Vec::new()
        }
    }
}

/// The attributes a model field takes besides those of a route argument's ([`param_attrs`]):
/// serde's own (checked in `serde_attrs.rs`) and `#[validate(path)]`. The manual's model table
/// lists them with the others (a test in `manual_tables.rs`).
pub(crate) const MODEL_OWN_ATTRS: &[&str] = &["serde", "validate"];

/// The path of the one `#[validate(path)]` among `attrs`.
fn validator(attrs: &[syn::Attribute], diag: &mut Diagnostics) -> Option<syn::Path> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("validate")) {
        match attr.parse_args::<syn::Path>() {
            Ok(_) if found.is_some() => diag.error_spanned(attr, "one `#[validate(..)]` only: call the other checks from it"),
            Ok(path) => found = Some(path),
            Err(_) => diag.error_spanned(
                attr,
                "`#[validate(..)]` takes the path of a function `fn(&T) -> Result<(), String>`, e.g. `#[validate(not_reserved)]`",
            ),
        }
    }
    found
}

fn field(
    index: usize,
    field: &syn::Field,
    generics: &Generics,
    rule: Option<&str>,
    diag: &mut Diagnostics,
) -> Option<Field> {
    serde_attrs::check(&field.attrs, Place::Field, diag);
    let of_type_param = match &field.ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .get_ident()
            .is_some_and(|ident| generics.type_params().any(|param| param.ident == *ident)),
        _ => false,
    };
    let mut attrs = field.attrs.clone();
    let since = take_since(&mut attrs, diag);
    let raw_attrs = attrs.clone();
    let parsed = param_attrs(&mut attrs, diag, MODEL_OWN_ATTRS);
    if let Some(attr) = &parsed.openapi_examples_attr {
        diag.error_spanned(
            attr,
            "`#[openapi_examples(..)]` documents a route argument (FastAPI's `Query(openapi_examples=..)`); a model field takes `#[examples(..)]`",
        );
    }
    if let Some(attr) = &parsed.alias_attr {
        diag.error_spanned(
            attr,
            r#"a model field's name in JSON is set with `#[serde(rename = "..")]`, which serde reads too; `#[alias(..)]` names a route argument"#,
        );
    }
    let ident = field.ident.clone()?;
    Some(Field {
        ident,
        ty: field.ty.clone(),
        key: json_key(field, rule, diag),
        attrs: parsed,
        doc: doc_text(&field.attrs),
        index,
        validator: validator(&field.attrs, diag),
        of_type_param,
        since,
        raw_attrs,
    })
}

/// The struct's generics with `T: FromJson` added for each type parameter (at the parameter, so
/// a type argument that is no field type is reported against it); lifetimes and consts refused.
fn generics(input: &DeriveInput, diag: &mut Diagnostics) -> Generics {
    let mut generics = input.generics.clone();
    for param in &input.generics.params {
        match param {
            GenericParam::Type(param) => {
                let (ident, from_json) = (&param.ident, paths::at(param.ident.span(), paths::from_json()));
                generics
                    .make_where_clause()
                    .predicates
                    .push(syn::parse_quote_spanned!(param.ident.span()=> #ident: #from_json));
            }
            GenericParam::Lifetime(param) => diag.error(
                param.span(),
                "`Model` cannot take a lifetime parameter: a model owns what it validated from the JSON body, so it cannot borrow; use `String` for `&'a str`, `Vec<T>` for `&'a [T]`",
            ),
            GenericParam::Const(param) => diag.error(
                param.span(),
                "`Model` takes type parameters only (as pydantic's generic models do): a const parameter has no JSON Schema; use a constraint such as `#[max_length(..)]` on the field instead",
            ),
        }
    }
    generics
}

/// Parse the derive's input; every mistake is recorded in `diag`.
pub fn model(input: &DeriveInput, diag: &mut Diagnostics) -> ModelInput {
    serde_attrs::check(&input.attrs, Place::Struct, diag);
    let rule = rename_rule(input, diag);
    let generics = generics(input, diag);
    let fields = named_fields(input, diag);
    let fields = fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| field(i, f, &generics, rule.as_deref(), diag))
        .collect();
    let ModelOptions {
        removed,
        changed,
        schema_name,
    } = model_options(&input.attrs, diag);
    ModelInput {
        removed,
        changed,
        schema_name,
        generics,
        validator: validator(&input.attrs, diag),
        name: input.ident.clone(),
        description: doc_text(&input.attrs),
        fields,
    }
}
