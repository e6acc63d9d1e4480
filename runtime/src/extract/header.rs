//! Header and cookie parameters: [`Header<T>`] and [`Cookie<T>`], typed and validated like query
//! parameters, and the value shapes they take ([`ParamValue`]).
//!
//! Rules enforced here (FastAPI's, measured with `tests/fastapi/probe.py`, see
//! `tests/fastapi/observed.json`):
//! - a header argument `user_agent` reads `User-Agent`: underscores become hyphens, the lookup
//!   ignores case (HTTP header names do), and errors and the document use the hyphenated name
//!   (`loc: ["header", "user-agent"]`); [`param_name!`](crate::param_name) gives the exact name
//!   instead (FastAPI's `alias`), used as written in errors and the document;
//! - a repeated header gives its *first* value to a scalar (Starlette's `Headers.get`) and every
//!   value, in order, to a `Vec<T>` (one element per header line; a comma inside a value is not
//!   split); an empty header value is a value, not a missing one;
//! - header values are read as Latin-1 (as Starlette decodes them), so no byte is refused;
//! - a cookie argument reads the cookie of its exact name from the `Cookie` header(s), parsed as
//!   Starlette's `cookie_parser` does: pairs split on `;`, name and value split at the first `=`
//!   and trimmed, a double-quoted value unquoted as Python's `http.cookies` does (`\"` and octal
//!   escapes), the last pair of a name wins;
//! - a scalar is required unless it has a `#[default(..)]` or is an `Option` (absent → `None`); a
//!   `Vec` header is `[]` when absent; constraints are checked as for query parameters;
//! - header errors follow query errors and cookie errors follow header errors in a 422, as in
//!   FastAPI (see `ValidationErrors::to_json_bytes`);
//! - nothing here runs for a route without such an argument.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Value;

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use crate::openapi::{option_param_schema, param_schema, vec_param_schema, Operation};
use crate::validate::{convert_param, Constraint, FromParam, LocItem, SchemaRegistry, ValidationErrors};

/// The name a [`Header`] or [`Cookie`] argument reads, when it is not the argument's own
/// (FastAPI's `alias`). Write one with [`param_name!`](crate::arg::param_name).
pub trait ParamName: Send + 'static {
    /// The exact name; empty for [`FromArgument`].
    const NAME: &'static str;
}

/// The default [`ParamName`]: the argument's name (hyphenated, for a header).
#[derive(Debug, Clone, Copy, Default)]
pub struct FromArgument;

impl ParamName for FromArgument {
    const NAME: &'static str = "";
}

/// Declare a [`ParamName`]: `param_name!(RequestId = "X-Request_ID");` makes a unit type
/// `RequestId` for `Header<String, RequestId>`, which reads header `X-Request_ID` exactly (no
/// underscore is turned into a hyphen).
// Public as `ferrapi::arg::param_name` (and in the prelude); the exported name is hidden.
#[doc(hidden)]
#[macro_export]
macro_rules! __param_name {
    ($(#[$meta:meta])* $vis:vis $ty:ident = $name:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $ty;
        impl $crate::arg::ParamName for $ty {
            const NAME: &'static str = $name;
        }
    };
}

/// A header parameter: `user_agent: Header<String>` reads `User-Agent`, `x_count:
/// Header<Option<i64>>` an optional `X-Count`, `x_tag: Header<Vec<String>>` every `X-Tag`
/// line; `Header<T, N>` reads the header [`N::NAME`](ParamName) exactly. `T` is what a query
/// parameter can be; `#[default(5)]` and the constraints apply as they do there.
pub struct Header<T, N = FromArgument>(pub T, PhantomData<fn() -> N>);

/// A cookie parameter: `session: Cookie<String>` reads cookie `session`, `Cookie<Option<i64>>`
/// an optional one; `Cookie<T, N>` reads cookie [`N::NAME`](ParamName). `T` is a scalar a query
/// parameter can be, or an `Option` of one.
pub struct Cookie<T, N = FromArgument>(pub T, PhantomData<fn() -> N>);

macro_rules! wrapper {
    ($name:ident) => {
        impl<T, N> $name<T, N> {
            /// The value, wrapped (for a `#[default(..)]`).
            pub const fn new(value: T) -> Self {
                $name(value, PhantomData)
            }

            /// The value.
            pub fn into_inner(self) -> T {
                self.0
            }
        }

        impl<T, N> From<T> for $name<T, N> {
            fn from(value: T) -> Self {
                $name::new(value)
            }
        }

        impl<T, N> std::ops::Deref for $name<T, N> {
            type Target = T;

            fn deref(&self) -> &T {
                &self.0
            }
        }

        impl<T: Clone, N> Clone for $name<T, N> {
            fn clone(&self) -> Self {
                $name::new(self.0.clone())
            }
        }

        impl<T: std::fmt::Debug, N> std::fmt::Debug for $name<T, N> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.0).finish()
            }
        }

        impl<T: PartialEq, N> PartialEq for $name<T, N> {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }
    };
}

wrapper!(Header);
wrapper!(Cookie);

/// What a [`Header`] or [`Cookie`] holds: a scalar, an `Option` of one, or (headers only) a
/// `Vec` of one.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a header or cookie value",
    label = "not a scalar, `Option` or `Vec` of scalars",
    note = "a header or cookie value is an integer, float, bool, String, an enum deriving `StrEnum`, or `Option` of those; a header may also be a `Vec` of those (one element per header line)"
)]
pub trait ParamValue: Sized + Send + 'static {
    /// True for `Vec<T>`, which takes every value.
    #[doc(hidden)]
    const REPEATED: bool = false;

    /// The value from the raw values found (the first is taken by a scalar), or `default` when
    /// there is none; errors recorded at `loc`.
    #[doc(hidden)]
    fn from_values<'v>(
        values: impl Iterator<Item = Cow<'v, str>>,
        default: Option<Self>,
        constraints: &[Constraint],
        loc: &dyn Fn(Option<usize>) -> Vec<LocItem>,
        errors: &mut ValidationErrors,
    ) -> Option<Self>;

    /// The parameter's schema and whether it is required.
    #[doc(hidden)]
    fn schema(
        name: &str,
        default: Option<Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> (Value, bool);
}

/// Marker for the [`ParamValue`]s a cookie can be (not a `Vec`: a cookie has one value).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a cookie value",
    label = "a cookie has one value",
    note = "a cookie value is an integer, float, bool, String, an enum deriving `StrEnum`, or `Option` of those"
)]
pub trait CookieValue: ParamValue {}

impl<T: FromParam + Serialize + Send + 'static> CookieValue for T {}
impl<T: FromParam + Serialize + Send + 'static> CookieValue for Option<T> {}

impl<T: FromParam + Serialize + Send + 'static> ParamValue for T {
    fn from_values<'v>(
        mut values: impl Iterator<Item = Cow<'v, str>>,
        default: Option<Self>,
        constraints: &[Constraint],
        loc: &dyn Fn(Option<usize>) -> Vec<LocItem>,
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        match values.next() {
            Some(raw) => convert_param(&raw, constraints, || loc(None), errors),
            None if default.is_some() => default,
            None => {
                errors.missing(loc(None));
                None
            }
        }
    }

    fn schema(
        name: &str,
        default: Option<Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> (Value, bool) {
        let required = default.is_none();
        (
            param_schema::<T>(name, default.as_ref(), constraints, registry),
            required,
        )
    }
}

impl<T: FromParam + Serialize + Send + 'static> ParamValue for Option<T> {
    fn from_values<'v>(
        mut values: impl Iterator<Item = Cow<'v, str>>,
        default: Option<Self>,
        constraints: &[Constraint],
        loc: &dyn Fn(Option<usize>) -> Vec<LocItem>,
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        match values.next() {
            Some(raw) => convert_param::<T>(&raw, constraints, || loc(None), errors).map(Some),
            None => Some(default.flatten()),
        }
    }

    fn schema(
        name: &str,
        _default: Option<Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> (Value, bool) {
        (option_param_schema::<T>(name, constraints, registry), false)
    }
}

impl<T: FromParam + Serialize + Send + 'static> ParamValue for Vec<T> {
    const REPEATED: bool = true;

    fn from_values<'v>(
        values: impl Iterator<Item = Cow<'v, str>>,
        default: Option<Self>,
        constraints: &[Constraint],
        loc: &dyn Fn(Option<usize>) -> Vec<LocItem>,
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        let mut out = Vec::new();
        let (mut ok, mut seen) = (true, false);
        for (index, raw) in values.enumerate() {
            seen = true;
            match convert_param::<T>(&raw, constraints, || loc(Some(index)), errors) {
                Some(value) => out.push(value),
                None => ok = false,
            }
        }
        if !seen {
            return Some(default.unwrap_or_default());
        }
        ok.then_some(out)
    }

    fn schema(
        name: &str,
        default: Option<Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> (Value, bool) {
        (
            vec_param_schema::<T>(name, default.unwrap_or_default(), constraints, registry),
            false,
        )
    }
}

/// A header argument's name: the exact one, or the argument's with `_` turned into `-`.
fn header_name<N: ParamName>(argument: &'static str) -> Cow<'static, str> {
    if !N::NAME.is_empty() {
        Cow::Borrowed(N::NAME)
    } else if argument.contains('_') {
        Cow::Owned(argument.replace('_', "-"))
    } else {
        Cow::Borrowed(argument)
    }
}

/// A cookie argument's name: the exact one, or the argument's.
fn cookie_name<N: ParamName>(argument: &'static str) -> &'static str {
    if N::NAME.is_empty() {
        argument
    } else {
        N::NAME
    }
}

/// A location `[where, name]` or `[where, name, index]`.
fn loc_at(location: &'static str, name: &str, index: Option<usize>) -> Vec<LocItem> {
    let mut loc = vec![LocItem::Static(location), LocItem::Owned(name.to_owned())];
    if let Some(index) = index {
        loc.push(LocItem::Index(index));
    }
    loc
}

/// A header value as text: Latin-1, as Starlette decodes it (ASCII, the usual case, is borrowed).
pub(crate) fn latin1(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) if bytes.is_ascii() => Cow::Borrowed(text),
        _ => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl<T: ParamValue, N: ParamName> Extract for Header<T, N> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = header_name::<N>(param.name());
        let values = cx.headers().get_all(name.as_ref()).into_iter();
        let values = values.map(|value| latin1(value.as_bytes()));
        let default = param.default_value().map(Header::into_inner);
        let loc = |index| loc_at("header", &name, index);
        T::from_values(values, default, param.constraints(), &loc, errors).map(Header::new)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let name = header_name::<N>(param.name());
        let default = param.default_value().map(Header::into_inner);
        let (schema, required) = T::schema(&name, default, param.constraints(), registry);
        op.header_param(&name, schema, required);
    }
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl<T: CookieValue, N: ParamName> Extract for Cookie<T, N> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = cookie_name::<N>(param.name());
        let value = cookie(cx, name);
        let default = param.default_value().map(Cookie::into_inner);
        let loc = |index| loc_at("cookie", name, index);
        T::from_values(value.into_iter(), default, param.constraints(), &loc, errors).map(Cookie::new)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let name = cookie_name::<N>(param.name());
        let default = param.default_value().map(Cookie::into_inner);
        let (schema, required) = T::schema(name, default, param.constraints(), registry);
        op.cookie_param(name, schema, required);
    }
}

/// The value of cookie `name` in the request (the last pair of that name), unquoted.
pub(crate) fn cookie<'a>(cx: &RequestCx<'a>, name: &str) -> Option<Cow<'a, str>> {
    let mut found = None;
    for header in cx.headers().get_all(hyper::header::COOKIE) {
        let text = latin1(header.as_bytes());
        if let Some(value) = cookie_in(&text, name) {
            found = Some(Cow::Owned(value.into_owned()));
        }
    }
    found
}

/// Python's `str.strip()` whitespace, for the characters a Latin-1 header can hold.
pub(crate) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The value of cookie `name` in one `Cookie` header, as Starlette's `cookie_parser` finds it.
fn cookie_in<'t>(header: &'t str, name: &str) -> Option<Cow<'t, str>> {
    let mut found = None;
    for chunk in header.split(';') {
        let (key, value) = chunk.split_once('=').unwrap_or(("", chunk));
        let (key, value) = (key.trim_matches(is_py_space), value.trim_matches(is_py_space));
        if key == name && !(key.is_empty() && value.is_empty()) {
            found = Some(unquote(value));
        }
    }
    found
}

/// Python's `http.cookies._unquote`: a value in double quotes loses them, and inside, `\ooo`
/// (octal, first digit 0–3) is that character and `\c` is `c`.
fn unquote(value: &str) -> Cow<'_, str> {
    let inner = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) if value.len() >= 2 => inner,
        _ => return Cow::Borrowed(value),
    };
    let chars: Vec<char> = inner.chars().collect();
    let mut out = String::with_capacity(inner.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let octal = chars
            .get(i + 1..i + 4)
            .filter(|d| matches!(d[0], '0'..='3') && matches!(d[1], '0'..='7') && matches!(d[2], '0'..='7'));
        if let Some(digits) = octal {
            let code = digits
                .iter()
                .fold(0u32, |n, d| n * 8 + d.to_digit(8).unwrap_or(0));
            out.extend(char::from_u32(code));
            i += 4;
        } else if let Some(&next) = chars.get(i + 1).filter(|&&n| n != '\n') {
            out.push(next);
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_parse_as_starlette_does() {
        assert_eq!(cookie_in("session=abc; n=4", "n").as_deref(), Some("4"));
        assert_eq!(cookie_in("n=1; n=2", "n").as_deref(), Some("2"));
        assert_eq!(
            cookie_in("session = spaced ;  n=5", "session").as_deref(),
            Some("spaced")
        );
        assert_eq!(cookie_in("theme=dark; session", "session"), None);
        assert_eq!(cookie_in("theme=dark; session", "").as_deref(), Some("session"));
        assert_eq!(cookie_in(r#"s="quoted\"x""#, "s").as_deref(), Some("quoted\"x"));
        assert_eq!(cookie_in(r#"s="\303\251t\351""#, "s").as_deref(), Some("Ã©té"));
        assert_eq!(cookie_in(r#"s="""#, "s").as_deref(), Some(""));
        assert_eq!(cookie_in(r#"s="""#, "t"), None);
        assert_eq!(cookie_in(r#"s=""#, "s").as_deref(), Some("\""));
        assert_eq!(cookie_in(r#"s="a\"#, "s").as_deref(), Some("\"a\\"));
    }

    #[test]
    fn header_values_are_latin1() {
        assert!(matches!(latin1(b"plain"), Cow::Borrowed("plain")));
        assert_eq!(latin1(b"caf\xe9"), "café");
    }

    #[test]
    fn header_names_are_hyphenated_unless_exact() {
        crate::arg::param_name!(Exact = "X-Request_ID");
        assert_eq!(header_name::<FromArgument>("user_agent"), "user-agent");
        assert_eq!(header_name::<FromArgument>("accept"), "accept");
        assert_eq!(header_name::<Exact>("request_id"), "X-Request_ID");
        assert_eq!(cookie_name::<FromArgument>("session_id"), "session_id");
    }
}
