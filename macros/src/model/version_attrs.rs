//! The attributes of a model's version changes (issue 44, item 3), read: `#[since("date", ..)]`
//! on a field and `#[model(removed(..))]` on the struct. What they expand into is `versions.rs`,
//! which reads these; this file needs nothing of the model's parse, so `parse.rs` can use it.
//!
//! Rules enforced here: dates are literals `YYYY-MM-DD`, a field names a date once, each option is
//! known and complete (`was` needs `forward` and `backward`); each mistake is recorded, not fatal.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, LitStr, Path, Type};

use crate::diag::Diagnostics;
use ferrapi_template::version::is_date;

/// How a field was before a date.
pub enum Change {
    /// It did not exist: an older request gets `default`, an older answer leaves it out.
    Added { default: Expr },
    /// It was named `from` in JSON.
    Renamed { from: LitStr },
    /// It was of type `was`: `forward(old) -> Result<new, String>`, `backward(&new) -> old`.
    Retyped {
        was: Type,
        forward: Path,
        backward: Path,
    },
}

/// One `#[since("date", ..)]`.
pub struct Since {
    /// `YYYY-MM-DD`, checked.
    pub date: String,
    /// What changed at `date` (`None`: its constraints only).
    pub change: Option<Change>,
    /// `was_constraints(max_length = 200, ..)`: the constraints before `date`, as attributes.
    pub was_constraints: Option<Vec<TokenStream>>,
    /// The same constraints as the changelog writes them (`max_length = 200`).
    pub was_constraints_text: Option<String>,
    /// The attribute, for errors.
    pub span: Span,
}

const SINCE_HELP: &str = r#"`#[since("YYYY-MM-DD", ..)]` says how the field was before that version: `default = expr` (added then), `renamed_from = "old"`, or `was = OldType, forward = old_to_new, backward = new_to_old`, and/or `was_constraints(max_length = 200, ..)`"#;

/// `was_constraints(name = value, ..)`: each a constraint attribute as the field would write it,
/// and all of them as text for the changelog.
fn parse_was_constraints(input: syn::parse::ParseStream<'_>) -> syn::Result<(Vec<TokenStream>, String)> {
    let content;
    syn::parenthesized!(content in input);
    let mut out = Vec::new();
    let mut text = Vec::new();
    while !content.is_empty() {
        let name: syn::Ident = content.parse()?;
        if !crate::attrs::CONSTRAINTS.contains(&name.to_string().as_str()) {
            return Err(syn::Error::new(
                name.span(),
                format!(
                    "`{name}` is not a constraint; `was_constraints(..)` takes {}",
                    crate::attrs::CONSTRAINTS.join(", ")
                ),
            ));
        }
        content.parse::<syn::Token![=]>()?;
        let value: Expr = content.parse()?;
        text.push(format!("{name} = {}", tokens_text(&quote!(#value))));
        out.push(quote!(#[#name(#value)]));
        if !content.is_empty() {
            content.parse::<syn::Token![,]>()?;
        }
    }
    Ok((out, text.join(", ")))
}

/// Tokens as a reader writes them (`Vec<String>`, not `Vec < String >`), for the changelog.
pub fn tokens_text(tokens: &TokenStream) -> String {
    let spaced = tokens.to_string();
    let mut out = String::with_capacity(spaced.len());
    let mut chars = spaced.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let prev = out.chars().last();
        let glued = c == ' '
            && (matches!(next, Some('<' | '>' | ',' | ':' | ')' | ']' | '.'))
                || matches!(prev, Some('<' | ':' | '(' | '[' | '&' | '.' | '-')));
        if !glued {
            out.push(c);
        }
    }
    out
}

/// `was = T`, `forward = f`, `backward = g`: the options of a retyped field and of a
/// whole-model change.
#[derive(Default)]
struct Steps {
    was: Option<Type>,
    forward: Option<Path>,
    backward: Option<Path>,
}

impl Steps {
    /// Read the value of option `key` when it is one of the three (`Ok(false)` otherwise).
    fn parse(&mut self, key: &syn::Ident, input: syn::parse::ParseStream<'_>) -> syn::Result<bool> {
        match key.to_string().as_str() {
            "was" => self.was = Some(input.parse()?),
            "forward" => self.forward = Some(input.parse()?),
            "backward" => self.backward = Some(input.parse()?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Parse one `#[since(..)]`.
fn parse_since(attr: &Attribute) -> syn::Result<Since> {
    attr.parse_args_with(|input: syn::parse::ParseStream<'_>| {
        let date: LitStr = input.parse().map_err(|err| syn::Error::new(err.span(), SINCE_HELP))?;
        if !is_date(&date.value()) {
            return Err(syn::Error::new(
                date.span(),
                format!("`{}` is not a date written `YYYY-MM-DD`: a version is a calendar date", date.value()),
            ));
        }
        let (mut default, mut from, mut steps) = (None, None, Steps::default());
        let mut was_constraints = None;
        let mut was_constraints_text = None;
        while !input.is_empty() {
            input.parse::<syn::Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key == "was_constraints" {
                let (attrs, text) = parse_was_constraints(input)?;
                was_constraints = Some(attrs);
                was_constraints_text = Some(text);
                continue;
            }
            input.parse::<syn::Token![=]>()?;
            match key.to_string().as_str() {
                "default" => default = Some(input.parse::<Expr>()?),
                "renamed_from" => from = Some(input.parse::<LitStr>()?),
                _ if steps.parse(&key, input)? => {}
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown option `{other}` of `#[since(..)]`: {SINCE_HELP}"),
                    ))
                }
            }
        }
        let change = match (default, from, steps.was, steps.forward, steps.backward) {
            (Some(default), None, None, None, None) => Some(Change::Added { default }),
            (None, Some(from), None, None, None) => Some(Change::Renamed { from }),
            (None, None, Some(was), Some(forward), Some(backward)) => Some(Change::Retyped { was, forward, backward }),
            (None, None, None, None, None) if was_constraints.is_some() => None,
            (None, None, Some(_), forward, _) => {
                let missing = if forward.is_none() { "forward" } else { "backward" };
                return Err(syn::Error::new(
                    attr.span(),
                    format!("`was = ..` needs both `forward = old_to_new` and `backward = new_to_old`: `{missing}` is missing"),
                ));
            }
            (None, None, None, Some(_), _) | (None, None, None, None, Some(_)) => {
                return Err(syn::Error::new(
                    attr.span(),
                    "`forward` and `backward` convert a retyped field: name its old type with `was = OldType`",
                ))
            }
            (None, None, None, None, None) => return Err(syn::Error::new(attr.span(), SINCE_HELP)),
            _ => {
                return Err(syn::Error::new(
                    attr.span(),
                    "one change per `#[since(..)]`: write one attribute per version the field changed in",
                ))
            }
        };
        if matches!(change, Some(Change::Added { .. })) && was_constraints.is_some() {
            return Err(syn::Error::new(
                attr.span(),
                "a field added at a version had no constraints before it: drop `was_constraints(..)`",
            ));
        }
        Ok(Since {
            date: date.value(),
            change,
            was_constraints,
            was_constraints_text,
            span: attr.span(),
        })
    })
}

/// A field the model no longer has: `#[model(removed("date", name: Type, backward = f))]`.
/// Before `date` an older request sends it (and it is dropped when moved forward), an older
/// answer has it, `f(&model)`.
pub struct Removed {
    /// `YYYY-MM-DD`, checked.
    pub date: String,
    /// Its name, which is its JSON key.
    pub ident: syn::Ident,
    /// Its type then.
    pub ty: Type,
    /// `fn(&Model) -> Type`: its value in an older answer.
    pub backward: Path,
}

const REMOVED_HELP: &str = r#"`#[model(removed("YYYY-MM-DD", name: Type, backward = value_of))]` names a field the model had before that version, and the function giving an older answer its value from the model"#;

const CHANGED_HELP: &str = r#"`#[model(changed("YYYY-MM-DD", was = OlderModel, forward = older_to_model, backward = model_to_older))]` names the model the struct was, as a whole, before that version"#;

/// A change of the whole model: `#[model(changed("date", was = Older, forward = f, backward =
/// g))]`. Before `date` the model was `Older` (itself a `Model`, with its own older changes): an
/// older request is read as `Older` and moved by `f(older) -> Result<Model, String>`, an older
/// answer is `g(&model) -> Older`, written at the request's version.
pub struct Changed {
    /// `YYYY-MM-DD`, checked.
    pub date: String,
    /// The older model.
    pub was: Type,
    /// `fn(Older) -> Result<Model, String>`.
    pub forward: Path,
    /// `fn(&Model) -> Older`.
    pub backward: Path,
}

/// What `#[model(..)]` says.
pub struct ModelOptions {
    /// `removed(..)`, each.
    pub removed: Vec<Removed>,
    /// `changed(..)`, at most one.
    pub changed: Option<Changed>,
    /// The hidden schema name of an older shape.
    pub schema_name: Option<String>,
}

/// A `"YYYY-MM-DD"` literal, checked.
fn parse_date(input: syn::parse::ParseStream<'_>) -> syn::Result<LitStr> {
    let date: LitStr = input.parse()?;
    if !is_date(&date.value()) {
        return Err(syn::Error::new(
            date.span(),
            format!(
                "`{}` is not a date written `YYYY-MM-DD`: a version is a calendar date",
                date.value()
            ),
        ));
    }
    Ok(date)
}

/// `changed("date", was = T, forward = f, backward = g)`'s parenthesis.
fn parse_changed(input: syn::parse::ParseStream<'_>, span: Span) -> syn::Result<Changed> {
    let content;
    syn::parenthesized!(content in input);
    let date = parse_date(&content)?;
    let mut steps = Steps::default();
    while !content.is_empty() {
        content.parse::<syn::Token![,]>()?;
        if content.is_empty() {
            break;
        }
        let key: syn::Ident = content.parse()?;
        content.parse::<syn::Token![=]>()?;
        if !steps.parse(&key, &content)? {
            return Err(syn::Error::new(
                key.span(),
                format!("unknown option `{key}` of `changed(..)`: {CHANGED_HELP}"),
            ));
        }
    }
    match (steps.was, steps.forward, steps.backward) {
        (Some(was), Some(forward), Some(backward)) => Ok(Changed {
            date: date.value(),
            was,
            forward,
            backward,
        }),
        (was, forward, _) => {
            let missing = match (was.is_none(), forward.is_none()) {
                (true, _) => "was",
                (false, true) => "forward",
                (false, false) => "backward",
            };
            Err(syn::Error::new(
                span,
                format!("`changed(..)` needs `{missing}`: {CHANGED_HELP}"),
            ))
        }
    }
}

/// The struct's `#[model(removed(..), changed(..))]`; each mistake recorded.
pub fn model_options(attrs: &[Attribute], diag: &mut Diagnostics) -> ModelOptions {
    let mut removed = Vec::new();
    let mut changed: Option<Changed> = None;
    let mut schema_name = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("model")) {
        let result = attr.parse_nested_meta(|meta| {
            // Written by this derive on an older shape: its schema is the model's, by name.
            if meta.path.is_ident(SCHEMA_NAME) {
                schema_name = Some(meta.value()?.parse::<LitStr>()?.value());
                return Ok(());
            }
            if meta.path.is_ident("changed") {
                let span = meta.path.span();
                let found = parse_changed(meta.input, span)?;
                if changed.is_some() {
                    return Err(syn::Error::new(
                        span,
                        "one `changed(..)` per model: the older model's own `#[since(..)]` and `changed(..)` say how it was before",
                    ));
                }
                changed = Some(found);
                return Ok(());
            }
            if !meta.path.is_ident("removed") {
                return Err(meta.error(format!(
                    "unknown option of `#[model(..)]`: {REMOVED_HELP}; or {CHANGED_HELP}"
                )));
            }
            let content;
            syn::parenthesized!(content in meta.input);
            let date = parse_date(&content)?;
            content.parse::<syn::Token![,]>()?;
            let ident: syn::Ident = content.parse()?;
            content.parse::<syn::Token![:]>()?;
            let ty: Type = content.parse()?;
            if content.is_empty() {
                return Err(syn::Error::new(
                    ident.span(),
                    format!("the removed field `{ident}` needs `backward = value_of` (`fn(&Model) -> {}`): an older answer still has it", quote!(#ty)),
                ));
            }
            content.parse::<syn::Token![,]>()?;
            let key: syn::Ident = content.parse()?;
            if key != "backward" {
                return Err(syn::Error::new(key.span(), REMOVED_HELP));
            }
            content.parse::<syn::Token![=]>()?;
            let backward: Path = content.parse()?;
            if !content.is_empty() {
                content.parse::<syn::Token![,]>()?;
            }
            removed.push(Removed {
                date: date.value(),
                ident,
                ty,
                backward,
            });
            Ok(())
        });
        if let Err(err) = result {
            diag.push(err);
        }
    }
    ModelOptions {
        removed,
        changed,
        schema_name,
    }
}

/// The hidden option naming an older shape's schema after the model (`#[model(__schema_name =
/// "Item")]`), so each version's document shows `Item` as it was then.
const SCHEMA_NAME: &str = "__schema_name";

/// The field's `#[since(..)]` attributes, taken out of `attrs`; each mistake recorded.
pub fn take_since(attrs: &mut Vec<Attribute>, diag: &mut Diagnostics) -> Vec<Since> {
    let mut found: Vec<Since> = Vec::new();
    attrs.retain(|attr| {
        if !attr.path().is_ident("since") {
            return true;
        }
        match parse_since(attr) {
            Ok(since) if found.iter().any(|s| s.date == since.date) => diag.error(
                since.span,
                format!(
                    "the field already says how it was before `{}`: one `#[since(..)]` per date",
                    since.date
                ),
            ),
            Ok(since) => found.push(since),
            Err(err) => diag.push(err),
        }
        false
    });
    found
}

#[cfg(test)]
mod tests {
    use super::tokens_text;
    use quote::quote;

    #[test]
    fn tokens_are_written_as_a_reader_writes_them() {
        assert_eq!(tokens_text(&quote!(Vec<Option<i64>>)), "Vec<Option<i64>>");
        assert_eq!(tokens_text(&quote!(std::string::String)), "std::string::String");
        assert_eq!(tokens_text(&quote!(HashMap<String, u8>)), "HashMap<String, u8>");
        assert_eq!(tokens_text(&quote!(-1)), "-1");
        assert_eq!(tokens_text(&quote!(&'static str)), "&'static str");
    }
}
