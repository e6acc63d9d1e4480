//! Parsing: the route attribute's options and the function's arguments. Nothing is checked
//! against the path here beyond syntax; see `infer.rs`.
//!
//! Rules enforced here: the attribute starts with the path template as a string literal and
//! takes only the options of [`ROUTE_OPTIONS`] (`tags(..)`, `status = N`, `responses(N = "..")`,
//! `include_in_schema = bool`, `deprecated = bool` or `deprecated(since = "..", sunset = "..")`
//! (dates, the sunset not before the deprecation), `operation_id = ".."`, `summary = ".."`,
//! `response_description = ".."`, `paged` or `paged(offset = "..", limit = "..")` and
//! `versions = "from".."until"`, each end a `YYYY-MM-DD` date, the end exclusive and after the
//! start; `status_before("YYYY-MM-DD" = N, ..)`, each date once), the one list the parser, its error and the manual's tables
//! are checked against (`manual_tables.rs`); a status is an unsuffixed integer literal from 100 to 599 and a
//! response's description a string literal or the path of a `&str` constant, each mistake
//! reported at the culprit (all of them, not only the first); a route function takes no `self`
//! and names each argument with a plain identifier, which is the parameter's name in the API
//! without one leading `_`, unless `#[alias("..")]` names it.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, FnArg, Ident, ItemFn, LitInt, LitStr, Pat, Token, Type};

use ferrapi_template::version::is_date;

use crate::attrs::{doc_text, param_attrs, ParamAttrs};
use crate::diag::Diagnostics;

/// The arguments of `#[get("/path", ...)]`.
pub struct RouteAttr {
    /// The path template literal.
    pub path: LitStr,
    /// `tags("a", "b")`.
    pub tags: Vec<LitStr>,
    /// `include_in_schema = false`.
    pub include_in_schema: bool,
    /// `status = 201`: the documented success status.
    pub status: Option<LitInt>,
    /// `responses(404 = "Not found", 503 = UNAVAILABLE, ...)`.
    pub responses: Vec<ExtraResponse>,
    /// `deprecated = true`, or `deprecated(since = ..)`.
    pub deprecated: bool,
    /// `deprecated(since = "YYYY-MM-DD", sunset = "YYYY-MM-DD")`: when the route was deprecated
    /// and its last day, for its answers' `Deprecation` and `Sunset`.
    pub deprecation: Option<Deprecation>,
    /// `operation_id = ".."`, in place of the function's name.
    pub operation_id: Option<LitStr>,
    /// `summary = ".."`, in place of the doc comment's first line.
    pub summary: Option<LitStr>,
    /// `response_description = ".."`, in place of "Successful Response".
    pub response_description: Option<LitStr>,
    /// `paged` or `paged(offset = "..", limit = "..")`: the route answers a list page by page.
    pub paged: Option<Paged>,
    /// `versions = "2026-01-15"..`: the API versions the route exists in.
    pub versions: Option<VersionRange>,
    /// `status_before("2026-03-01" = 200, ..)`: the success status the route had before each
    /// version its status changed at, oldest date first.
    pub status_before: Vec<(LitStr, LitInt)>,
}

/// `deprecated(since = "..", sunset = "..")`: each a `YYYY-MM-DD` date, the sunset (the route's
/// last day) not before the deprecation.
pub struct Deprecation {
    /// The day the route was deprecated.
    pub since: LitStr,
    /// Its last day, if known.
    pub sunset: Option<LitStr>,
}

/// `versions = "from".."until"`: the first version the route exists in and the first it is gone
/// in (either left out), each a `YYYY-MM-DD` date; the app checks that they are its versions.
pub struct VersionRange {
    /// The first version the route exists in; `None` from the oldest.
    pub from: Option<LitStr>,
    /// The first version the route is gone in; `None` to the newest.
    pub until: Option<LitStr>,
}

/// A route that pages: the names of its offset and limit query parameters (`skip` and `limit`
/// unless `paged(..)` names others), and where the option was written (a `paged` on a route that
/// is not a `GET` is an error there).
pub struct Paged {
    /// Where `paged` was written.
    pub span: Span,
    /// The offset's query parameter.
    pub offset: String,
    /// The page size's query parameter.
    pub limit: String,
}

/// One entry of `responses(..)`: a documented response besides the success.
pub struct ExtraResponse {
    /// The status, an integer literal from 100 to 599.
    pub status: LitInt,
    /// What the response means.
    pub description: Description,
}

/// A response's description: a string literal, or the path of a `&str` constant (or static),
/// so a description shared by many routes is written once.
pub enum Description {
    /// `"Not found"`.
    Literal(LitStr),
    /// `UNAVAILABLE`, `crate::messages::UNAVAILABLE`.
    Constant(syn::Path),
}

/// One function argument.
pub struct Param {
    /// The argument's name.
    pub name: Ident,
    /// Its type.
    pub ty: Type,
    /// Framework attributes.
    pub attrs: ParamAttrs,
}

/// The doc comment split as FastAPI/OpenAPI want it.
pub struct Doc {
    /// The first paragraph, its lines joined into one.
    pub summary: Option<String>,
    /// The paragraphs after it.
    pub description: Option<String>,
    /// The whole doc comment (the description when the route sets `summary = ".."`).
    pub whole: Option<String>,
}

/// An identifier as written, without a raw `r#` prefix.
pub fn bare_name(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

impl Param {
    /// The argument's name in the API: its `#[alias("..")]`, else its identifier without a raw
    /// `r#` prefix and without one leading `_` (`_password` is `password`: the `_` only tells
    /// rustc the value is unused, as its warning suggests).
    pub fn wire_name(&self) -> String {
        if let Some(alias) = &self.attrs.alias {
            return alias.value();
        }
        let name = bare_name(&self.name);
        match name.strip_prefix('_') {
            Some(rest) if !rest.is_empty() => rest.to_owned(),
            _ => name,
        }
    }

    /// True when the path template's parameter `name` is this argument: by its name in the API,
    /// or by its identifier as written (`{_id}` is argument `_id`).
    pub fn is_path_param(&self, name: &str) -> bool {
        self.wire_name() == name || (self.attrs.alias.is_none() && bare_name(&self.name) == name)
    }
}

/// The tokens up to the next top-level `stop` character (not included), or to the end.
pub(super) fn tokens_until(input: ParseStream, stop: char) -> syn::Result<TokenStream> {
    let mut tokens = TokenStream::new();
    while !input.is_empty() && input.cursor().punct().is_none_or(|(p, _)| p.as_char() != stop) {
        tokens.extend([input.parse::<TokenTree>()?]);
    }
    Ok(tokens)
}

/// An HTTP status written as an unsuffixed integer literal from 100 to 599; `None` (an error at
/// the tokens, or at `span` when there are none) otherwise.
fn status(tokens: TokenStream, span: Span, example: &str, diag: &mut Diagnostics) -> Option<LitInt> {
    let valid = |lit: &LitInt| {
        lit.suffix().is_empty() && lit.base10_parse::<u16>().is_ok_and(|n| (100..=599).contains(&n))
    };
    match syn::parse2::<LitInt>(tokens.clone()) {
        Ok(lit) if valid(&lit) => Some(lit),
        _ => {
            let message = format!("expected an HTTP status, an integer from 100 to 599, e.g. `{example}`");
            if tokens.is_empty() {
                diag.error(span, message);
            } else {
                diag.error_spanned(tokens, message);
            }
            None
        }
    }
}

/// A response's description: a string literal or a plain path (no generic arguments).
fn description(tokens: TokenStream, span: Span, diag: &mut Diagnostics) -> Option<Description> {
    if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
        return Some(Description::Literal(lit));
    }
    if let Ok(path) = syn::parse2::<syn::Path>(tokens.clone()) {
        if path.segments.iter().all(|s| s.arguments.is_none()) {
            return Some(Description::Constant(path));
        }
    }
    let message = "expected the response's description: a string literal or the name of a `&str` constant, e.g. `503 = \"The database is unavailable\"` or `503 = UNAVAILABLE`";
    if tokens.is_empty() {
        diag.error(span, message);
    } else {
        diag.error_spanned(tokens, message);
    }
    None
}

/// One `status = description` entry of `responses(..)`: a mistake in either is recorded in
/// `diag` (the entry is then left out) and parsing goes on, so all of them are reported.
fn extra_response(input: ParseStream, diag: &mut Diagnostics) -> syn::Result<Option<ExtraResponse>> {
    let status_span = input.span();
    let status_tokens = tokens_until(input, '=')?;
    let eq: Token![=] = input.parse()?;
    let status = status(status_tokens, status_span, "404 = \"Not found\"", diag);
    let description = description(tokens_until(input, ',')?, eq.span, diag);
    Ok(status
        .zip(description)
        .map(|(status, description)| ExtraResponse { status, description }))
}

/// `responses(404 = "Not found", ..)`: the entries inside the parentheses.
pub(super) fn responses(input: ParseStream, diag: &mut Diagnostics) -> syn::Result<Vec<ExtraResponse>> {
    let content;
    syn::parenthesized!(content in input);
    let mut entries = Vec::new();
    while !content.is_empty() {
        entries.extend(extra_response(&content, diag)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(entries)
}

/// `tags("a", "b")`: the string literals inside the parentheses.
pub(super) fn tags(input: ParseStream) -> syn::Result<Vec<LitStr>> {
    let content;
    syn::parenthesized!(content in input);
    let tags = content.parse_terminated(|p| p.parse::<LitStr>(), Token![,])?;
    Ok(tags.into_iter().collect())
}

/// The options a route attribute takes after its path, each with how it is written, in the
/// order its error lists them: the parser reads an option only if it is here, and the manual's
/// route-option tables must list exactly these (a test in `manual_tables.rs`).
pub(crate) const ROUTE_OPTIONS: &[(&str, &str)] = &[
    ("tags", "tags(..)"),
    ("status", "status = N"),
    ("responses", "responses(N = \"..\")"),
    ("include_in_schema", "include_in_schema = bool"),
    ("deprecated", "deprecated = bool"),
    ("operation_id", "operation_id = \"..\""),
    ("summary", "summary = \"..\""),
    ("response_description", "response_description = \"..\""),
    ("paged", "paged(offset = \"..\", limit = \"..\")"),
    ("versions", "versions = \"YYYY-MM-DD\".."),
    ("status_before", "status_before(\"YYYY-MM-DD\" = N)"),
];

/// The error for an option `key` that is not one of [`ROUTE_OPTIONS`], listing them.
fn unknown_option(key: &Ident) -> syn::Error {
    let written: Vec<String> = ROUTE_OPTIONS
        .iter()
        .map(|(_, syntax)| format!("`{syntax}`"))
        .collect();
    let expected = match written.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    syn::Error::new(
        key.span(),
        format!("unknown route option `{key}`; expected {expected}"),
    )
}

/// One option after the path, `key` already read, into `attr`.
fn route_option(
    key: &Ident,
    input: ParseStream,
    attr: &mut RouteAttr,
    diag: &mut Diagnostics,
) -> syn::Result<()> {
    let Some(&(option, _)) = ROUTE_OPTIONS.iter().find(|(name, _)| key == name) else {
        return Err(unknown_option(key));
    };
    match option {
        "tags" => attr.tags.extend(tags(input)?),
        "include_in_schema" => {
            input.parse::<Token![=]>()?;
            let value: syn::LitBool = input.parse()?;
            attr.include_in_schema = value.value;
        }
        "status" => {
            let eq: Token![=] = input.parse()?;
            attr.status = status(tokens_until(input, ',')?, eq.span, "status = 201", diag);
        }
        "responses" => attr.responses.extend(responses(input, diag)?),
        "deprecated" if input.peek(syn::token::Paren) => {
            attr.deprecated = true;
            attr.deprecation = deprecation(key, input, "route", diag)?;
        }
        "deprecated" => {
            input.parse::<Token![=]>()?;
            attr.deprecated = input.parse::<syn::LitBool>()?.value;
        }
        "operation_id" | "summary" | "response_description" => {
            input.parse::<Token![=]>()?;
            let text: LitStr = input.parse()?;
            let slot = match key.to_string().as_str() {
                "operation_id" => &mut attr.operation_id,
                "summary" => &mut attr.summary,
                _ => &mut attr.response_description,
            };
            *slot = Some(text);
        }
        "paged" => attr.paged = Some(paged(key, input, diag)?),
        "versions" => {
            let eq: Token![=] = input.parse()?;
            attr.versions = versions(tokens_until(input, ',')?, eq.span, diag);
        }
        "status_before" => attr.status_before.extend(status_before(input, diag)?),
        // Listed but not read here: `manual_tables.rs` parses every listed option, so this is
        // a test failure before it can be anyone's compile error.
        listed => {
            return Err(syn::Error::new(
                key.span(),
                format!("route option `{listed}` is listed but not read (a bug of ferrapi-macros)"),
            ))
        }
    }
    Ok(())
}

/// `paged`, or `paged(offset = "..", limit = "..")` naming either parameter (the other keeps its
/// default): each name a non-empty string, the two different; a mistake is recorded in `diag`
/// and the default kept, so parsing goes on.
fn paged(key: &Ident, input: ParseStream, diag: &mut Diagnostics) -> syn::Result<Paged> {
    let mut paged = Paged {
        span: key.span(),
        offset: "skip".to_owned(),
        limit: "limit".to_owned(),
    };
    if !input.peek(syn::token::Paren) {
        return Ok(paged);
    }
    let content;
    syn::parenthesized!(content in input);
    while !content.is_empty() {
        let name: Ident = content.parse()?;
        content.parse::<Token![=]>()?;
        let value: LitStr = content.parse()?;
        let slot = match name.to_string().as_str() {
            "offset" => &mut paged.offset,
            "limit" => &mut paged.limit,
            _ => {
                return Err(syn::Error::new(
                    name.span(),
                    format!(
                        "unknown `paged` option `{name}`; expected `offset = \"..\"` or `limit = \"..\"`"
                    ),
                ))
            }
        };
        if value.value().is_empty() {
            diag.error(
                value.span(),
                "expected the name of a query parameter, e.g. `offset = \"skip\"`",
            );
        } else {
            *slot = value.value();
        }
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    if paged.offset == paged.limit {
        diag.error(
            paged.span,
            format!(
                "`paged` names `{}` for both the offset and the limit: they are two query parameters",
                paged.offset
            ),
        );
    }
    Ok(paged)
}

/// The path template and the options after it.
fn parse_route_attr(input: ParseStream, diag: &mut Diagnostics) -> syn::Result<RouteAttr> {
    let path: LitStr = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected the path template as a string, e.g. `#[get(\"/item/{id}\")]`",
        )
    })?;
    let mut attr = RouteAttr {
        path,
        tags: Vec::new(),
        include_in_schema: true,
        status: None,
        responses: Vec::new(),
        deprecated: false,
        deprecation: None,
        operation_id: None,
        summary: None,
        response_description: None,
        paged: None,
        versions: None,
        status_before: Vec::new(),
    };
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key: Ident = input.parse()?;
        route_option(&key, input, &mut attr, diag)?;
    }
    Ok(attr)
}

/// Parse the attribute's tokens.
pub fn route_attr(tokens: TokenStream, diag: &mut Diagnostics) -> Option<RouteAttr> {
    match (|input: ParseStream| parse_route_attr(input, diag)).parse2(tokens) {
        Ok(attr) => Some(attr),
        Err(err) => {
            diag.push(err);
            None
        }
    }
}

/// Read the function's arguments, stripping framework attributes so the function stays valid.
pub fn params(func: &mut ItemFn, diag: &mut Diagnostics) -> Vec<Param> {
    let mut params = Vec::new();
    for input in func.sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(receiver) => {
                diag.error_spanned(
                    &*receiver,
                    "route handlers are free functions; `self` is not allowed",
                );
            }
            FnArg::Typed(typed) => {
                let attrs = param_attrs(&mut typed.attrs, diag, &[]);
                match &*typed.pat {
                    Pat::Ident(ident) if ident.subpat.is_none() => params.push(Param {
                        name: ident.ident.clone(),
                        ty: (*typed.ty).clone(),
                        attrs,
                    }),
                    other => diag.error_spanned(
                        other,
                        "route arguments need a plain name: the name is the parameter's name in the API",
                    ),
                }
            }
        }
    }
    params
}

/// The doc comment of `attrs`, split into summary (its first paragraph, the lines joined with a
/// space, so a sentence wrapped in the source is whole on the docs page) and description (the
/// paragraphs after it).
pub fn doc(attrs: &[Attribute]) -> Doc {
    let Some(text) = doc_text(attrs) else {
        return Doc {
            summary: None,
            description: None,
            whole: None,
        };
    };
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .position(|line| line.trim().is_empty())
        .unwrap_or(lines.len());
    let summary: Vec<&str> = lines[..end].iter().map(|line| line.trim()).collect();
    let rest = lines[end..].join("\n");
    let rest = rest.trim();
    Doc {
        summary: Some(summary.join(" ")),
        description: (!rest.is_empty()).then(|| rest.to_owned()),
        whole: Some(text),
    }
}

/// `deprecated(since = "..", sunset = "..")` of a `what` (`route`, `group`), `key` (`deprecated`)
/// read: `since` required, each a string literal that is a `YYYY-MM-DD` date, given once, the
/// sunset not before `since`. An unknown key is an error at it; the other mistakes are recorded in
/// `diag`, each at its culprit, and `None` returned.
pub(super) fn deprecation(
    key: &Ident,
    input: ParseStream,
    what: &str,
    diag: &mut Diagnostics,
) -> syn::Result<Option<Deprecation>> {
    const EXAMPLE: &str = "e.g. `deprecated(since = \"2026-03-01\", sunset = \"2026-12-31\")`";
    let content;
    syn::parenthesized!(content in input);
    let (mut since, mut sunset): (Option<LitStr>, Option<LitStr>) = (None, None);
    let mut ok = true;
    while !content.is_empty() {
        let name: Ident = content.parse()?;
        let slot = match name.to_string().as_str() {
            "since" => &mut since,
            "sunset" => &mut sunset,
            _ => {
                return Err(syn::Error::new(
                    name.span(),
                    format!("unknown `deprecated` option `{name}`; expected `since = \"YYYY-MM-DD\"` or `sunset = \"YYYY-MM-DD\"`"),
                ))
            }
        };
        content.parse::<Token![=]>()?;
        let date: LitStr = content.parse()?;
        if slot.is_some() {
            diag.error(name.span(), format!("`{name}` is given twice"));
            ok = false;
        } else if !is_date(&date.value()) {
            diag.error(
                date.span(),
                format!("`{}` is not a date written `YYYY-MM-DD`; {EXAMPLE}", date.value()),
            );
            ok = false;
        } else {
            *slot = Some(date);
        }
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    let Some(since) = since else {
        if ok {
            diag.error(
                key.span(),
                format!("`deprecated(..)` needs the day the {what} was deprecated, `since`; {EXAMPLE} (or `deprecated = true` for the document alone)"),
            );
        }
        return Ok(None);
    };
    if let Some(sunset) = sunset.as_ref().filter(|sunset| sunset.value() < since.value()) {
        diag.error(
            sunset.span(),
            format!(
                "the sunset `{}` (the {what}'s last day) is before its deprecation `{}`",
                sunset.value(),
                since.value()
            ),
        );
        return Ok(None);
    }
    Ok(ok.then_some(Deprecation { since, sunset }))
}

/// `versions = "from".."until"` (either end left out; `..` for every version): each end a string
/// literal that is a `YYYY-MM-DD` date, the end exclusive and after the start. Every mistake is
/// recorded in `diag`, at the culprit (inside the range), and `None` returned.
pub(super) fn versions(tokens: TokenStream, span: Span, diag: &mut Diagnostics) -> Option<VersionRange> {
    const EXAMPLE: &str = "e.g. `versions = \"2026-01-15\"..` (from that version on) or `versions = \"2026-01-15\"..\"2026-06-01\"`";
    let Ok(syn::Expr::Range(range)) = syn::parse2::<syn::Expr>(tokens.clone()) else {
        let at = tokens.clone().into_iter().next().map_or(span, |t| t.span());
        diag.error(at, format!("expected a range of versions, {EXAMPLE}"));
        return None;
    };
    if let syn::RangeLimits::Closed(dots) = range.limits {
        diag.error(
            dots.spans[0],
            "a range of versions does not include its end (the first version the route is gone in): write `..`, not `..=`",
        );
        return None;
    }
    let mut date = |end: Option<Box<syn::Expr>>| -> Result<Option<LitStr>, ()> {
        match end.as_deref() {
            None => Ok(None),
            Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(lit),
                ..
            })) if is_date(&lit.value()) => Ok(Some(lit.clone())),
            Some(other) => {
                let message = match other {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(lit),
                        ..
                    }) => format!("`{}` is not a version: a date written `YYYY-MM-DD`", lit.value()),
                    _ => format!("a version is a string literal, a date written `YYYY-MM-DD`; {EXAMPLE}"),
                };
                diag.error(syn::spanned::Spanned::span(other), message);
                Err(())
            }
        }
    };
    let (from, until) = (date(range.start), date(range.end));
    let (Ok(from), Ok(until)) = (from, until) else {
        return None;
    };
    if let (Some(from), Some(until)) = (&from, &until) {
        if from.value() >= until.value() {
            diag.error(
                until.span(),
                format!(
                    "the range of versions is empty: it ends (the first version the route is gone in, `{}`) before it starts (`{}`)",
                    until.value(),
                    from.value()
                ),
            );
            return None;
        }
    }
    Some(VersionRange { from, until })
}

/// `status_before("2026-03-01" = 200, ..)`, `status_before` read: each entry a string literal
/// that is a `YYYY-MM-DD` date (the version the status changed at), `=`, and the status the route
/// answered before it; each date once. A mistake is recorded in `diag` at its culprit and the
/// entry left out, so every one is reported; the entries come back oldest date first.
fn status_before(input: ParseStream, diag: &mut Diagnostics) -> syn::Result<Vec<(LitStr, LitInt)>> {
    const EXAMPLE: &str = "status_before(\"2026-03-01\" = 200)";
    let content;
    syn::parenthesized!(content in input);
    let mut entries: Vec<(LitStr, LitInt)> = Vec::new();
    while !content.is_empty() {
        let date: LitStr = content.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                format!(
                    "expected the version the status changed at, a date written `YYYY-MM-DD`: `{EXAMPLE}`"
                ),
            )
        })?;
        let eq: Token![=] = content.parse()?;
        let status = status(tokens_until(&content, ',')?, eq.span, EXAMPLE, diag);
        if !is_date(&date.value()) {
            diag.error(
                date.span(),
                format!(
                    "`{}` is not a version: a date written `YYYY-MM-DD`, e.g. `{EXAMPLE}`",
                    date.value()
                ),
            );
        } else if entries.iter().any(|(seen, _)| seen.value() == date.value()) {
            diag.error(
                date.span(),
                format!("the status before `{}` is given twice", date.value()),
            );
        } else if let Some(status) = status {
            entries.push((date, status));
        }
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    entries.sort_by_key(|(date, _)| date.value());
    Ok(entries)
}
