//! Security schemes (FastAPI's `fastapi.security`): dependencies that read a credential, answer
//! 401 when it is missing, and document themselves, so Swagger UI's "Authorize" can send them.
//!
//! Rules enforced here (FastAPI's, measured; see the `/sec/*` cases in
//! tests/fastapi/observed.json):
//! - a missing or malformed credential answers 401 `{"detail":"Not authenticated"}` with
//!   `WWW-Authenticate: Bearer` (HTTP bearer, OAuth2 password), `Basic` (HTTP basic) or `APIKey`
//!   (API keys) before the route's validation errors, as a dependency that fails does;
//! - `Authorization` (and an API key's header) must be sent once: two field lines are a
//!   validation error at `["header", "authorization"]` (422, `single.rs`), where FastAPI reads
//!   the first; a gateway that checked the other one must not let this one through;
//! - `Authorization` is split at the first space into a
//!   scheme, compared without case, and the credential, with Python's whitespace stripped from
//!   its ends (`Bearer  token` is the token `token`: FastAPI's `get_authorization_scheme_param`);
//!   an empty header or credential is missing, except for the OAuth2 bearer, which FastAPI lets
//!   through with an empty token;
//! - HTTP basic decodes base64 as Python's non-validating `b64decode` does (characters outside
//!   the alphabet skipped, a completing pad ends the data, a quad left unfinished is an error)
//!   and splits the text at the first `:`; no `:`, bad base64, or text that is not ASCII, is a
//!   malformed credential;
//! - an empty API key is missing;
//! - each scheme documents itself once in `components.securitySchemes`, under FastAPI's names
//!   (`HTTPBearer`, `HTTPBasic`, `APIKeyHeader`, `APIKeyQuery`, `APIKeyCookie`,
//!   `OAuth2PasswordBearer`), and adds it to the operation's `security`, with the 401 response;
//! - whether a present credential is *valid* is the application's decision: take the scheme as
//!   an input of your own dependency, which answers 401 or 403 as it sees fit.

use std::borrow::Cow;
use std::marker::PhantomData;

use base64::Engine as _;
use hyper::header::{HeaderValue, WWW_AUTHENTICATE};
use hyper::StatusCode;
use serde_json::{json, Value};

use super::dependency::{Dependency, Deps, Resolve};
use super::header::{cookie, is_py_space, latin1, ParamName};
use super::request::RequestCx;
use super::single::single_field;
use crate::openapi::Operation;
use crate::response::{error_response, Response};
use crate::validate::{ErrorItem, SchemaRegistry, ValidationErrors};

/// The answer to a missing or malformed credential.
fn not_authenticated(challenge: &'static str) -> Response {
    let mut response = error_response(StatusCode::UNAUTHORIZED, &json!("Not authenticated"));
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
    response
}

/// Document scheme `name` in the components and require it on the operation.
fn document(name: &'static str, scheme: Value, op: &mut Operation, registry: &mut SchemaRegistry) {
    registry.security_scheme(name, scheme);
    op.security(name);
    op.implicit_response(401, "Not authenticated");
}

/// The `Authorization` line (`None` when absent or empty), split as FastAPI's
/// `get_authorization_scheme_param` splits it: the scheme up to the first space, and the rest with
/// Python's whitespace stripped from both ends as the credential; `Err` when it was sent twice.
fn authorization<'a>(cx: &RequestCx<'a>) -> Result<Option<(Cow<'a, str>, String)>, ErrorItem> {
    let Some(value) = single_field(cx.headers(), "authorization", "Authorization")? else {
        return Ok(None);
    };
    let text = latin1(value.as_bytes());
    if text.is_empty() {
        return Ok(None);
    }
    Ok(Some(split_authorization(&text)))
}

/// [`authorization`]'s split of one header value.
fn split_authorization(text: &str) -> (Cow<'static, str>, String) {
    let (scheme, param) = text.split_once(' ').unwrap_or((text, ""));
    (
        Cow::Owned(scheme.to_owned()),
        param.trim_matches(is_py_space).to_owned(),
    )
}

/// Python's `base64.b64decode` without `validate` (CPython's non-strict `a2b_base64`): characters
/// outside the alphabet are skipped, a pad that completes a quad ends the data (what follows is
/// ignored), a pad elsewhere is skipped, and data that ends inside a quad is an error
/// (`None`), as is any character that is not ASCII.
fn py_b64decode(text: &str) -> Option<Vec<u8>> {
    if !text.is_ascii() {
        return None;
    }
    let mut data = Vec::with_capacity(text.len());
    let (mut quad_pos, mut pads, mut terminated) = (0usize, 0usize, false);
    for byte in text.bytes() {
        if byte == b'=' {
            if quad_pos >= 2 {
                pads += 1;
                if quad_pos + pads >= 4 {
                    terminated = true;
                    break;
                }
            }
            continue;
        }
        if !(byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/') {
            continue;
        }
        pads = 0;
        data.push(byte);
        quad_pos = (quad_pos + 1) % 4;
    }
    if quad_pos == 1 || (quad_pos != 0 && !terminated) {
        return None;
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireNone)
            .with_decode_allow_trailing_bits(true),
    );
    engine.decode(&data).ok()
}

/// What a scheme read from the request: its credential, or the challenge to answer 401 with.
type Read<T> = Result<T, &'static str>;

/// [`Read`], or the validation error of a field the request sent twice.
type Reading<T> = Result<Read<T>, ErrorItem>;

/// What a scheme's first step read, for its second: the credential, or the challenge that
/// answers 401.
pub(super) struct Credential<T>(Read<T>);

impl<T: Send + 'static> Resolve<T> for Credential<T> {
    async fn resolve(self, _deps: &mut Deps) -> Result<T, Response> {
        self.0.map_err(not_authenticated)
    }
}

macro_rules! scheme_arg {
    ($ty:ty, $(<$($generic:ident: $bound:path),*>)?) => {
        // Not recommended: kept out of the list of argument kinds a compile error suggests.
        #[diagnostic::do_not_recommend]
        impl$(<$($generic: $bound),*>)? Dependency for $ty {
            fn extract(
                cx: &RequestCx<'_>,
                errors: &mut ValidationErrors,
            ) -> Option<impl Resolve<Self> + use<$($($generic),*)?>> {
                match Self::read(cx) {
                    Ok(read) => Some(Credential(read)),
                    Err(repeated) => {
                        errors.push(repeated);
                        None
                    }
                }
            }

            fn doc(op: &mut Operation, registry: &mut SchemaRegistry) {
                let (name, scheme) = Self::scheme();
                document(name, scheme, op, registry);
            }
        }
    };
}

/// HTTP bearer authentication (`Authorization: Bearer <token>`), FastAPI's `HTTPBearer`: the
/// token, unchecked. Take it in a dependency of yours that checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpBearer {
    /// The scheme as sent (`Bearer`, any case).
    pub scheme: String,
    /// The token.
    pub credentials: String,
}

impl HttpBearer {
    fn read(cx: &RequestCx<'_>) -> Reading<Self> {
        Ok(match authorization(cx)? {
            Some((scheme, credentials))
                if !scheme.is_empty() && !credentials.is_empty() && scheme.eq_ignore_ascii_case("bearer") =>
            {
                Ok(HttpBearer {
                    scheme: scheme.into_owned(),
                    credentials,
                })
            }
            _ => Err("Bearer"),
        })
    }

    fn scheme() -> (&'static str, Value) {
        ("HTTPBearer", json!({ "type": "http", "scheme": "bearer" }))
    }
}

scheme_arg!(HttpBearer,);

/// HTTP basic authentication, FastAPI's `HTTPBasic`: the user name and password, unchecked.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpBasic {
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
}

impl std::fmt::Debug for HttpBasic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The password stays out of logs.
        f.debug_struct("HttpBasic")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

impl HttpBasic {
    fn read(cx: &RequestCx<'_>) -> Reading<Self> {
        const CHALLENGE: &str = "Basic";
        let Some((scheme, param)) = authorization(cx)? else {
            return Ok(Err(CHALLENGE));
        };
        if !scheme.eq_ignore_ascii_case("basic") {
            return Ok(Err(CHALLENGE));
        }
        let Some(bytes) = py_b64decode(&param) else {
            return Ok(Err(CHALLENGE));
        };
        let Some(text) = bytes.is_ascii().then(|| String::from_utf8(bytes).ok()).flatten() else {
            return Ok(Err(CHALLENGE));
        };
        Ok(match text.split_once(':') {
            Some((username, password)) => Ok(HttpBasic {
                username: username.to_owned(),
                password: password.to_owned(),
            }),
            None => Err(CHALLENGE),
        })
    }

    fn scheme() -> (&'static str, Value) {
        ("HTTPBasic", json!({ "type": "http", "scheme": "basic" }))
    }
}

scheme_arg!(HttpBasic,);

/// An API key in header [`N::NAME`](ParamName), FastAPI's `APIKeyHeader`: the key, unchecked.
/// Name the header with [`param_name!`](crate::arg::param_name).
pub struct ApiKeyHeader<N>(pub String, PhantomData<fn() -> N>);

/// An API key in query parameter [`N::NAME`](ParamName), FastAPI's `APIKeyQuery`.
pub struct ApiKeyQuery<N>(pub String, PhantomData<fn() -> N>);

/// An API key in cookie [`N::NAME`](ParamName), FastAPI's `APIKeyCookie`.
pub struct ApiKeyCookie<N>(pub String, PhantomData<fn() -> N>);

macro_rules! api_key {
    ($ty:ident, $scheme:literal, $in:literal, |$cx:ident, $name:ident| $read:expr) => {
        impl<N> $ty<N> {
            /// The key.
            pub fn key(&self) -> &str {
                &self.0
            }

            fn scheme() -> (&'static str, Value)
            where
                N: ParamName,
            {
                ($scheme, json!({ "type": "apiKey", "in": $in, "name": N::NAME }))
            }

            fn read($cx: &RequestCx<'_>) -> Reading<Self>
            where
                N: ParamName,
            {
                let $name = N::NAME;
                let key: Option<String> = $read;
                Ok(match key {
                    Some(key) if !key.is_empty() => Ok($ty(key, PhantomData)),
                    _ => Err("APIKey"),
                })
            }
        }

        impl<N> Clone for $ty<N> {
            fn clone(&self) -> Self {
                $ty(self.0.clone(), PhantomData)
            }
        }

        impl<N> std::fmt::Debug for $ty<N> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                // The key stays out of logs.
                f.write_str(concat!(stringify!($ty), "(..)"))
            }
        }

        scheme_arg!($ty<N>, <N: ParamName>);
    };
}

api_key!(ApiKeyHeader, "APIKeyHeader", "header", |cx, name| single_field(
    cx.headers(),
    name,
    name
)?
.map(|v| latin1(v.as_bytes()).into_owned()));
api_key!(ApiKeyQuery, "APIKeyQuery", "query", |cx, name| cx
    .query_last(name)
    .map(Cow::into_owned));
api_key!(ApiKeyCookie, "APIKeyCookie", "cookie", |cx, name| cookie(
    cx, name
)
.map(Cow::into_owned));

/// The token URL of an [`OAuth2PasswordBearer`]: where a client posts the user name and password
/// (a form) to get a token. Declare one with [`token_url!`](crate::security::token_url).
pub trait TokenUrl: Send + 'static {
    /// The URL, relative to the app (`"token"`, `"/auth/token"`).
    const URL: &'static str;
}

/// Declare a [`TokenUrl`]: `token_url!(Login = "token");`.
// Public as `ferrapi::security::token_url`; the exported name is hidden.
#[doc(hidden)]
#[macro_export]
macro_rules! __token_url {
    ($(#[$meta:meta])* $vis:vis $ty:ident = $url:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $ty;
        impl $crate::security::TokenUrl for $ty {
            const URL: &'static str = $url;
        }
    };
}

/// OAuth2's password flow, FastAPI's `OAuth2PasswordBearer`: the bearer token of a request, which
/// a client got by posting a user name and password to [`U::URL`](TokenUrl). The token is
/// unchecked: take it in a dependency of yours that checks it.
pub struct OAuth2PasswordBearer<U>(pub String, PhantomData<fn() -> U>);

impl<U> OAuth2PasswordBearer<U> {
    /// The token.
    pub fn token(&self) -> &str {
        &self.0
    }

    fn read(cx: &RequestCx<'_>) -> Reading<Self> {
        Ok(match authorization(cx)? {
            Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
                Ok(OAuth2PasswordBearer(token, PhantomData))
            }
            _ => Err("Bearer"),
        })
    }

    fn scheme() -> (&'static str, Value)
    where
        U: TokenUrl,
    {
        (
            "OAuth2PasswordBearer",
            json!({ "type": "oauth2", "flows": { "password": { "scopes": {}, "tokenUrl": U::URL } } }),
        )
    }
}

impl<U> Clone for OAuth2PasswordBearer<U> {
    fn clone(&self) -> Self {
        OAuth2PasswordBearer(self.0.clone(), PhantomData)
    }
}

impl<U> std::fmt::Debug for OAuth2PasswordBearer<U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OAuth2PasswordBearer(..)")
    }
}

scheme_arg!(OAuth2PasswordBearer<U>, <U: TokenUrl>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorization_splits_as_fastapi() {
        let split = |text: &str| {
            let (scheme, param) = split_authorization(text);
            (scheme.into_owned(), param)
        };
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(split("Bearer token"), pair("Bearer", "token"));
        assert_eq!(split("Bearer  token"), pair("Bearer", "token"));
        assert_eq!(split("Bearer token  "), pair("Bearer", "token"));
        assert_eq!(split("Bearer \u{a0}tok en\u{85}"), pair("Bearer", "tok en"));
        assert_eq!(split("Bearer"), pair("Bearer", ""));
        assert_eq!(split(" Bearer token"), pair("", "Bearer token"));
        assert_eq!(split("Bearer\ttoken"), pair("Bearer\ttoken", ""));
    }

    #[test]
    fn base64_decodes_as_python_b64decode() {
        // Python 3.12's `base64.b64decode(s)` of each input (`None`: it raised).
        let cases: [(&str, Option<&[u8]>); 18] = [
            ("dXNlcjpwYXNz", Some(b"user:pass")),
            ("dXNlcjpwYXNz==", Some(b"user:pass")),
            ("dXNl cjpw YXNz", Some(b"user:pass")),
            ("dXNlcjpwYXM", None),
            ("dXNlcjpwYXM=x", Some(b"user:pas")),
            ("dXNlcjpwYQ==dXNl", Some(b"user:pa")),
            ("dXNlcjpwYQ=", None),
            ("=dXNlcjpwYXNz", Some(b"user:pass")),
            ("dXNlcjpwYXNz=", Some(b"user:pass")),
            ("d", None),
            ("dX", None),
            ("!!!", Some(b"")),
            ("dXNlcjpwYQ=!=", Some(b"user:pa")),
            ("dXNlcjp\u{e9}wYXNz", None),
            ("YQ==YQ==", Some(b"a")),
            ("YWJj=ZGVm", Some(b"abcdef")),
            ("dXNlcjpwYXN6", Some(b"user:pasz")),
            ("dXNlcjpwYXN", None),
        ];
        for (input, expected) in cases {
            assert_eq!(py_b64decode(input).as_deref(), expected, "{input}");
        }
    }
}
