//! The `#[serde(..)]` attributes a `Model` honours. A model is read by ferrapi (validation, the
//! document) and written by serde (the response), so an attribute serde reads and ferrapi does
//! not would make the two disagree: such an attribute is an error at its key, naming what to
//! write instead.
//!
//! Rules enforced here:
//! - a struct honours `rename_all = ".."` (serde's rules; the fields' JSON keys are renamed for
//!   reading, writing and the document alike), and `rename`, `bound`, `crate`, which do not
//!   touch the JSON;
//! - a field honours `rename = ".."` (read, written and documented), and `skip_serializing`,
//!   `skip_serializing_if` and `serialize_with`, which only change what is written;
//! - a union (an enum) honours `tag = ".."`, `untagged`, `rename`, `bound`, `crate`; a variant
//!   `rename = ".."` (its tag);
//! - any other key is an error at it: `default` (write `#[default(..)]`), `alias`, `flatten`,
//!   `skip`, `skip_deserializing`, `deserialize_with`, `with`, `deny_unknown_fields`,
//!   `rename_all` on an enum, a `rename(serialize = .., deserialize = ..)` pair, ...

use syn::Attribute;

use crate::diag::Diagnostics;

/// Where a `#[serde(..)]` stands.
#[derive(Clone, Copy)]
pub enum Place {
    /// On a struct deriving `Model`.
    Struct,
    /// On one of its fields.
    Field,
    /// On an enum deriving `Model` (a union).
    Union,
    /// On one of its variants.
    Variant,
}

impl Place {
    /// The keys honoured there.
    fn honoured(self) -> &'static [&'static str] {
        match self {
            Place::Struct => &["rename", "rename_all", "bound", "crate"],
            Place::Field => &[
                "rename",
                "skip_serializing",
                "skip_serializing_if",
                "serialize_with",
            ],
            Place::Union => &["tag", "untagged", "rename", "bound", "crate"],
            Place::Variant => &["rename"],
        }
    }

    /// The keys whose value must be one string.
    fn one_string(self) -> &'static [&'static str] {
        match self {
            Place::Struct => &["rename_all"],
            Place::Field | Place::Variant => &["rename"],
            Place::Union => &["tag"],
        }
    }
}

/// What to write instead of `key`, where a hint says more than the list of honoured keys.
fn instead(key: &str) -> Option<&'static str> {
    Some(match key {
        "default" => "a field's default is `#[default(..)]`, which validation and the document use too",
        "alias" => "a field is read by its one name, `#[serde(rename = \"..\")]`",
        "flatten" => "a model holds another as a field (`address: Address`), or names its fields itself",
        "skip" | "skip_deserializing" => {
            "a model reads every field: give it `#[default(..)]` to make it optional, or leave it out of the model"
        }
        "deserialize_with" | "with" => {
            "a model's fields are read by ferrapi, not serde: a type of your own implements `FromJson` (the manual's \"Custom parameter and field types\")"
        }
        "deny_unknown_fields" => "keys a model does not have are ignored, as pydantic ignores them",
        _ => return None,
    })
}

/// Check every `#[serde(..)]` of `attrs` at `place`; record each key it does not honour.
pub fn check(attrs: &[Attribute], place: Place, diag: &mut Diagnostics) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            let is_string = meta.input.peek(syn::Token![=]);
            if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                content.parse::<proc_macro2::TokenStream>()?;
            }
            if !place.honoured().contains(&key.as_str()) {
                let honoured = place.honoured().iter().map(|k| format!("`{k}`")).collect::<Vec<_>>();
                let mut message = format!(
                    "`#[serde({key})]` is not read by `#[derive(Model)]`, so what serde writes would differ from what is read and documented; here a model honours {}",
                    honoured.join(", ")
                );
                if let Some(hint) = instead(&key) {
                    message = format!("{message}: {hint}");
                }
                diag.error_spanned(&meta.path, message);
            } else if place.one_string().contains(&key.as_str()) && !is_string {
                diag.error_spanned(
                    &meta.path,
                    format!("`#[serde({key} = \"..\")]` takes one name here, the same for reading and writing"),
                );
            }
            Ok(())
        });
        if let Err(err) = result {
            diag.push(err);
        }
    }
}

/// serde's `rename_all` rules, applied to a field's name (written in snake case).
pub fn rename_all(rule: &str, field: &str) -> Option<String> {
    let words = field.split('_').filter(|w| !w.is_empty());
    let capitalized = |w: &str| {
        let mut chars = w.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    Some(match rule {
        "lowercase" => field.to_lowercase(),
        "UPPERCASE" => field.to_uppercase(),
        "PascalCase" => words.map(capitalized).collect(),
        "camelCase" => {
            let pascal: String = words.map(capitalized).collect();
            let mut chars = pascal.chars();
            chars
                .next()
                .map(|first| first.to_lowercase().chain(chars).collect())
                .unwrap_or_default()
        }
        "snake_case" => field.to_owned(),
        "SCREAMING_SNAKE_CASE" => field.to_uppercase(),
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_uppercase().replace('_', "-"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serdes_rules() {
        for (rule, out) in [
            ("camelCase", "startTime"),
            ("PascalCase", "StartTime"),
            ("kebab-case", "start-time"),
            ("SCREAMING_SNAKE_CASE", "START_TIME"),
            ("lowercase", "start_time"),
        ] {
            assert_eq!(rename_all(rule, "start_time").as_deref(), Some(out), "{rule}");
        }
        assert_eq!(rename_all("Title", "a"), None);
    }
}
