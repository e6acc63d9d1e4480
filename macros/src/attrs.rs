//! The attributes this framework reads on a route's arguments and a model's fields
//! (`#[default(..)]`, the constraints, `#[examples(..)]`), and doc comments.
//!
//! Rules enforced here: a constraint's bound is a literal of the right kind (a number for `ge`,
//! `gt`, `le`, `lt`, `multiple_of`; a non-negative integer for `min_length`, `max_length`,
//! `max_digits`, `decimal_places`; a string that is a valid regular expression for `pattern`),
//! reported at the expression otherwise; `#[examples(..)]` holds one or more values, each written
//! as `serde_json::json!` takes it (a JSON literal or a Rust expression), and
//! `#[openapi_examples(..)]` one or more `name = {..}` (an Example Object), each at most once per
//! argument or field; the constraints are sorted into pydantic's order of checks, whatever order
//! they are written in; framework attributes are stripped so the item stays valid Rust; an
//! attribute that is neither the framework's, a lint/`cfg`/doc attribute nor one the caller
//! allows is an error at its name.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Lit};

use crate::diag::Diagnostics;

const LINT_ATTRS: &[&str] = &[
    "allow", "warn", "deny", "forbid", "expect", "cfg", "cfg_attr", "doc",
];
/// The attributes [`param_attrs`] reads besides the constraints, in the order its error lists
/// them (a model field refuses `alias` and `openapi_examples`, each with what it takes instead).
/// The parser reads an attribute only if it is listed here or in [`CONSTRAINTS`], and the
/// manual's model table must list the ones a field takes (a test in `manual_tables.rs`).
pub(crate) const VALUE_ATTRS: &[&str] = &["default", "alias", "examples", "openapi_examples"];

/// The constraints, in the order the unknown attribute's error lists them.
pub(crate) const CONSTRAINTS: &[&str] = &[
    "ge",
    "gt",
    "le",
    "lt",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "max_digits",
    "decimal_places",
];

/// The bound of a constraint, as written.
pub enum Bound {
    /// The length of `min_length` / `max_length`.
    Length(usize),
    /// The count of `max_digits` / `decimal_places`.
    Digits(u32),
    /// The regular expression of `pattern`, checked when the route compiles.
    Pattern(String),
    /// An integer bound; `negative` when written with a leading `-`.
    Int {
        /// Written with a leading `-`.
        negative: bool,
        /// The magnitude.
        value: i128,
    },
    /// A float bound; `negative` when written with a leading `-`.
    Float {
        /// Written with a leading `-`.
        negative: bool,
        /// The magnitude.
        value: f64,
    },
}

/// A numeric or length constraint written on an argument or field.
pub struct ConstraintSpec {
    /// `ge`, `gt`, `le`, `lt`, `multiple_of`, `min_length`, `max_length`, `max_digits`,
    /// `decimal_places`, `pattern`.
    pub kind: String,
    /// The bound.
    pub bound: Bound,
    /// Where it was written.
    pub span: Span,
}

/// Which type requirement a constraint has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `ge`, `gt`, `le`, `lt`, `multiple_of`: a number.
    Numeric,
    /// `min_length`, `max_length`: a string or a list.
    Length,
    /// `pattern`: a string.
    Pattern,
    /// `max_digits`, `decimal_places`: a decimal.
    Digits,
}

impl ConstraintSpec {
    /// The constraint's type requirement.
    pub fn family(&self) -> Family {
        family(&self.kind)
    }
}

fn family(kind: &str) -> Family {
    match kind {
        "min_length" | "max_length" => Family::Length,
        "pattern" => Family::Pattern,
        "max_digits" | "decimal_places" => Family::Digits,
        _ => Family::Numeric,
    }
}

/// A `pattern`'s string, checked with the regex crate's own parser.
fn pattern(expr: &Expr, diag: &mut Diagnostics) -> Option<Bound> {
    let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(text), ..
    }) = expr
    else {
        diag.error_spanned(
            expr,
            r#"`#[pattern(..)]` takes a string literal, e.g. `#[pattern(r"^[a-z]+$")]`"#,
        );
        return None;
    };
    match regex_syntax::Parser::new().parse(&text.value()) {
        Ok(_) => Some(Bound::Pattern(text.value())),
        Err(error) => {
            diag.error_spanned(
                text,
                format!("`#[pattern(..)]` is not a valid regular expression:\n{error}"),
            );
            None
        }
    }
}

/// Attributes this framework reads on arguments and fields.
pub struct ParamAttrs {
    /// `#[default(expr)]`.
    pub default: Option<Expr>,
    /// Constraints in pydantic's order of checks (sorted when read).
    pub constraints: Vec<ConstraintSpec>,
    /// The `#[default(..)]` attribute as written, for errors.
    pub default_attr: Option<Attribute>,
    /// `#[examples(..)]`: each value's tokens, as `json!` takes them.
    pub examples: Option<Vec<TokenStream>>,
    /// `#[openapi_examples(..)]`: each example's name and its Example Object's tokens.
    pub openapi_examples: Option<Vec<(String, TokenStream)>>,
    /// The `#[openapi_examples(..)]` attribute as written, for errors.
    pub openapi_examples_attr: Option<Attribute>,
    /// `#[alias("..")]`: the argument's name in the API (FastAPI's `alias=`).
    pub alias: Option<syn::LitStr>,
    /// The `#[alias(..)]` attribute as written, for errors.
    pub alias_attr: Option<Attribute>,
}

impl ParamAttrs {
    /// `json!([example, ..])` of `#[examples(..)]`, if written.
    pub fn examples_json(&self) -> Option<TokenStream> {
        let examples = self.examples.as_ref()?;
        let json = crate::paths::json();
        Some(quote::quote!(#json!([#(#examples),*])))
    }

    /// `json!({"name": {..}, ..})` of `#[openapi_examples(..)]`, if written.
    pub fn openapi_examples_json(&self) -> Option<TokenStream> {
        let examples = self.openapi_examples.as_ref()?;
        let (names, objects) = (examples.iter().map(|(n, _)| n), examples.iter().map(|(_, o)| o));
        let json = crate::paths::json();
        Some(quote::quote!(#json!({ #(#names: #objects),* })))
    }

    /// `doc` (statements documenting the argument through `op`) run through
    /// `op.with_examples(..)` and `op.with_openapi_examples(..)` for the argument's examples,
    /// which add them to what it documented; `doc` as it is without examples.
    pub fn document_with_examples(&self, op: &TokenStream, doc: TokenStream) -> TokenStream {
        let mut doc = doc;
        if let Some(examples) = self.examples_json() {
            doc = quote::quote!(#op.with_examples(#examples, |#op| { #doc }););
        }
        if let Some(examples) = self.openapi_examples_json() {
            doc = quote::quote!(#op.with_openapi_examples(#examples, |#op| { #doc }););
        }
        doc
    }

    /// True when the argument has `#[examples(..)]` or `#[openapi_examples(..)]`.
    pub fn has_examples(&self) -> bool {
        self.examples.is_some() || self.openapi_examples.is_some()
    }
}

const OPENAPI_EXAMPLES_USAGE: &str = r#"`#[openapi_examples(..)]` takes one or more named OpenAPI Example Objects, `name = {..}`, e.g. `#[openapi_examples(normal = {"summary": "A normal item", "value": "foo"}, empty = {"value": ""})]`"#;

/// The tokens of a list attribute's arguments, split at its top-level commas (a trailing comma
/// allowed); `None` when it is not a list or a piece is empty.
fn comma_separated(attr: &Attribute) -> Option<Vec<TokenStream>> {
    let syn::Meta::List(list) = &attr.meta else {
        return None;
    };
    let mut values = vec![TokenStream::new()];
    for tree in list.tokens.clone() {
        match &tree {
            TokenTree::Punct(p) if p.as_char() == ',' => values.push(TokenStream::new()),
            _ => values
                .last_mut()
                .into_iter()
                .for_each(|v| v.extend([tree.clone()])),
        }
    }
    // A trailing comma leaves one empty value, which is no mistake.
    if values.len() > 1 && values.last().is_some_and(TokenStream::is_empty) {
        values.pop();
    }
    (!values.iter().any(TokenStream::is_empty)).then_some(values)
}

/// `name = {..}`: the name (an identifier or a string) and the Example Object's tokens.
fn named_example(tokens: TokenStream) -> Option<(String, TokenStream)> {
    let mut trees = tokens.into_iter();
    let name = match trees.next()? {
        TokenTree::Ident(ident) => ident.to_string(),
        TokenTree::Literal(literal) => match syn::parse_str::<syn::LitStr>(&literal.to_string()) {
            Ok(text) => text.value(),
            Err(_) => return None,
        },
        _ => return None,
    };
    match trees.next()? {
        TokenTree::Punct(p) if p.as_char() == '=' => {}
        _ => return None,
    }
    let object: TokenStream = trees.collect();
    (!object.is_empty()).then_some((name, object))
}

/// The examples of `#[openapi_examples(name = {..}, ..)]`.
fn openapi_examples_attr(attr: &Attribute, out: &mut ParamAttrs, diag: &mut Diagnostics) {
    if out.openapi_examples.is_some() {
        diag.error_spanned(
            attr,
            "one `#[openapi_examples(..)]` per argument: name every example in it",
        );
        return;
    }
    let examples: Option<Vec<(String, TokenStream)>> =
        comma_separated(attr).and_then(|pieces| pieces.into_iter().map(named_example).collect());
    match examples {
        Some(examples) => {
            out.openapi_examples = Some(examples);
            out.openapi_examples_attr = Some(attr.clone());
        }
        None => diag.error_spanned(attr, OPENAPI_EXAMPLES_USAGE),
    }
}

const EXAMPLES_USAGE: &str = r#"`#[examples(..)]` takes one or more example values, each written as `json!` takes it, e.g. `#[examples("Foo", "Bar")]`, `#[examples(35.4)]`, `#[examples({"name": "Foo"})]`"#;

/// The values of `#[examples(v1, v2, ..)]`: the tokens between top-level commas.
fn examples_attr(attr: &Attribute, out: &mut ParamAttrs, diag: &mut Diagnostics) {
    if out.examples.is_some() {
        diag.error_spanned(
            attr,
            "one `#[examples(..)]` per argument or field: list every example in it",
        );
        return;
    }
    match comma_separated(attr) {
        Some(values) => out.examples = Some(values),
        None => diag.error_spanned(attr, EXAMPLES_USAGE),
    }
}

/// The literal of a bound and whether a `-` precedes it; anything else reads as a literal no
/// constraint accepts, so it is reported with the constraint's own message.
fn signed_literal(expr: &Expr) -> (bool, Lit) {
    let not_a_literal = Lit::Verbatim(proc_macro2::Literal::u8_unsuffixed(0));
    match expr {
        Expr::Lit(lit) => (false, lit.lit.clone()),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(lit) => (true, lit.lit.clone()),
            _ => (false, not_a_literal),
        },
        _ => (false, not_a_literal),
    }
}

fn bound(expr: &Expr, kind: &str, diag: &mut Diagnostics) -> Option<Bound> {
    let family = family(kind);
    if family == Family::Pattern {
        return pattern(expr, diag);
    }
    let (negative, lit) = signed_literal(expr);
    let is_length = family != Family::Numeric;
    match &lit {
        Lit::Int(int) if family == Family::Digits && !negative => {
            int.base10_parse::<u32>().ok().map(Bound::Digits)
        }
        Lit::Int(int) if is_length && !negative => int.base10_parse::<usize>().ok().map(Bound::Length),
        Lit::Int(int) if !is_length => match int.base10_parse::<i128>() {
            Ok(value) => Some(Bound::Int { negative, value }),
            Err(e) => {
                diag.push(e);
                None
            }
        },
        Lit::Float(float) if !is_length => match float.base10_parse::<f64>() {
            Ok(value) => Some(Bound::Float { negative, value }),
            Err(e) => {
                diag.push(e);
                None
            }
        },
        _ => {
            let expected = if is_length {
                "a non-negative integer literal"
            } else {
                "a number literal"
            };
            diag.error_spanned(
                expr,
                format!("`#[{kind}(..)]` takes {expected}, e.g. `#[{kind}(0)]`"),
            );
            None
        }
    }
}

/// Read `#[alias("name")]` into `out`: one string, once.
fn alias_attr(attr: Attribute, out: &mut ParamAttrs, diag: &mut Diagnostics) {
    if out.alias.is_some() {
        diag.error_spanned(&attr, "one `#[alias(..)]` per argument");
        return;
    }
    match attr.parse_args::<syn::LitStr>() {
        Ok(name) if !name.value().is_empty() => {
            out.alias = Some(name);
            out.alias_attr = Some(attr);
        }
        _ => diag.error_spanned(
            &attr,
            r#"`#[alias(..)]` takes the argument's name in the API as a string, e.g. `#[alias("item-query")]`"#,
        ),
    }
}

/// Read `#[default(expr)]` into `out`.
fn default_attr(attr: Attribute, out: &mut ParamAttrs, diag: &mut Diagnostics) {
    match attr.parse_args::<Expr>() {
        Ok(expr) => {
            out.default = Some(expr);
            out.default_attr = Some(attr);
        }
        Err(_) => diag.error_spanned(
            &attr,
            "`#[default(..)]` takes an expression, e.g. `#[default(0)]`",
        ),
    }
}

/// Read the constraint `#[kind(bound)]` into `out`.
fn constraint_attr(attr: &Attribute, kind: String, out: &mut ParamAttrs, diag: &mut Diagnostics) {
    match attr.parse_args::<Expr>() {
        Ok(expr) => {
            if let Some(bound) = bound(&expr, &kind, diag) {
                out.constraints.push(ConstraintSpec {
                    kind,
                    bound,
                    span: attr.span(),
                });
            }
        }
        Err(_) => diag.error_spanned(
            attr,
            format!("`#[{kind}(..)]` takes a literal, e.g. `#[{kind}(0)]`"),
        ),
    }
}

/// Read and strip this framework's attributes from `attrs`; report unknown ones.
pub fn param_attrs(attrs: &mut Vec<Attribute>, diag: &mut Diagnostics, extra_allowed: &[&str]) -> ParamAttrs {
    let mut out = ParamAttrs {
        default: None,
        constraints: Vec::new(),
        default_attr: None,
        examples: None,
        openapi_examples: None,
        openapi_examples_attr: None,
        alias: None,
        alias_attr: None,
    };
    let mut kept = Vec::new();
    for attr in attrs.drain(..) {
        let Some(ident) = attr.path().get_ident().map(|i| i.to_string()) else {
            kept.push(attr);
            continue;
        };
        let ours = VALUE_ATTRS.contains(&ident.as_str()) || CONSTRAINTS.contains(&ident.as_str());
        match ident.as_str() {
            _ if !ours => {
                if LINT_ATTRS.contains(&ident.as_str()) || extra_allowed.contains(&ident.as_str()) {
                    kept.push(attr);
                } else {
                    diag.error(attr.path().span(), unknown_attribute(&ident));
                }
            }
            "default" => default_attr(attr, &mut out, diag),
            "examples" => examples_attr(&attr, &mut out, diag),
            "openapi_examples" => openapi_examples_attr(&attr, &mut out, diag),
            "alias" => alias_attr(attr, &mut out, diag),
            // The rest of the listed names are the constraints.
            _ => constraint_attr(&attr, ident, &mut out, diag),
        }
    }
    *attrs = kept;
    // pydantic checks a value's constraints in a fixed order, whatever order they are written
    // in: the list is sorted into it here, once, so the runtime checks them as listed.
    out.constraints.sort_by_key(|c| pydantic_rank(&c.kind));
    out
}

/// The error for an attribute `ident` this framework does not read, listing those it does.
fn unknown_attribute(ident: &str) -> String {
    let values: Vec<String> = VALUE_ATTRS
        .iter()
        .map(|name| format!("`#[{name}(..)]`"))
        .collect();
    let constraints: Vec<String> = CONSTRAINTS.iter().map(|name| format!("`{name}`")).collect();
    format!(
        "unknown attribute `#[{ident}]`; arguments take {} and the constraints {}",
        values.join(", "),
        constraints.join(", ")
    )
}

/// A constraint's place in pydantic's order of checks (pydantic-core's validators: a decimal's
/// digits, then `multiple_of`, `le`, `lt`, `ge`, `gt`; a string's lengths, then its pattern).
fn pydantic_rank(kind: &str) -> usize {
    const ORDER: &[&str] = &[
        "max_digits",
        "decimal_places",
        "multiple_of",
        "le",
        "lt",
        "ge",
        "gt",
        "min_length",
        "max_length",
        "pattern",
    ];
    ORDER.iter().position(|k| *k == kind).unwrap_or(ORDER.len())
}

/// The whole doc comment of `attrs`: its lines (one leading space removed) joined, trimmed;
/// `None` when there is none.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) = &nv.value {
                let text = s.value();
                lines.push(text.strip_prefix(' ').unwrap_or(&text).to_owned());
            }
        }
    }
    let text = lines.join("\n");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}
