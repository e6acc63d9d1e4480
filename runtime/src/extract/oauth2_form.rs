//! [`OAuth2PasswordRequestForm`]: the form a client posts to an OAuth2 password flow's token URL,
//! FastAPI's class of the same name.
//!
//! Rules enforced here (FastAPI 0.165's, measured; see the `/token` cases in
//! tests/fastapi/observed_forms.json): the fields are read as form field arguments are (see
//! `form`), in FastAPI's order `grant_type`, `username`, `password`, `scope`, `client_id`,
//! `client_secret`; `grant_type` is optional but, when given, must be `password`
//! (`string_pattern_mismatch` against `^password$` otherwise); `username` and `password` are
//! required; `scope` (default empty) is split on whitespace into `scopes`; the form is
//! documented as FastAPI documents it (the password and client secret as `format: password`), so
//! Swagger UI's "Authorize" posts to the token route.

use serde_json::{json, Value};

use super::arg::{Body, Extract};
use super::form::{read_field, Form};
use super::header::is_py_space;
use super::param::Param;
use super::request::RequestCx;
use crate::openapi::Operation;
use crate::validate::{Failure, LocItem, SchemaRegistry, ValidationErrors};

/// The pattern `grant_type` must match, as pydantic reports it.
const GRANT_TYPE_PATTERN: &str = "^password$";

/// The form of OAuth2's password flow (`grant_type=password&username=..&password=..`), FastAPI's
/// `OAuth2PasswordRequestForm`: take it in the route at the token URL of an
/// [`OAuth2PasswordBearer`](crate::security::OAuth2PasswordBearer), check the credentials, and
/// answer `{"access_token": .., "token_type": "bearer"}`.
#[derive(Clone, PartialEq, Eq)]
pub struct OAuth2PasswordRequestForm {
    /// `password` when the client sent it (it may leave it out).
    pub grant_type: Option<String>,
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
    /// The scopes asked for: the `scope` field split on whitespace.
    pub scopes: Vec<String>,
    /// The client's id, when sent in the form.
    pub client_id: Option<String>,
    /// The client's secret, when sent in the form.
    pub client_secret: Option<String>,
}

impl std::fmt::Debug for OAuth2PasswordRequestForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The password and the secret stay out of logs.
        f.debug_struct("OAuth2PasswordRequestForm")
            .field("grant_type", &self.grant_type)
            .field("username", &self.username)
            .field("scopes", &self.scopes)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

/// Field `name` of the form as `T`, `default` when absent.
fn field<T: super::header::ParamValue>(
    cx: &RequestCx<'_>,
    name: &'static str,
    default: Option<fn() -> Form<T>>,
    errors: &mut ValidationErrors,
) -> Option<T> {
    read_field(cx, Param::new(name, default, &[]), false, errors)
}

/// `grant_type`, which must be `password` when given.
fn grant_type(cx: &RequestCx<'_>, errors: &mut ValidationErrors) -> Option<Option<String>> {
    match field::<Option<String>>(cx, "grant_type", None, errors)? {
        Some(value) if value != "password" => {
            let failure = Failure::with_ctx(
                "string_pattern_mismatch",
                format!("String should match pattern '{GRANT_TYPE_PATTERN}'"),
                json!({ "pattern": GRANT_TYPE_PATTERN }),
            );
            let loc = vec![LocItem::Static("body"), LocItem::Static("grant_type")];
            errors.push(failure.at(loc, Value::String(value)));
            None
        }
        grant_type => Some(grant_type),
    }
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl Extract for OAuth2PasswordRequestForm {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let grant_type = grant_type(cx, errors);
        let username = field::<String>(cx, "username", None, errors);
        let password = field::<String>(cx, "password", None, errors);
        let scope = field::<String>(cx, "scope", Some(|| Form(String::new())), errors);
        let client_id = field::<Option<String>>(cx, "client_id", None, errors);
        let client_secret = field::<Option<String>>(cx, "client_secret", None, errors);
        Some(OAuth2PasswordRequestForm {
            grant_type: grant_type?,
            username: username?,
            password: password?,
            scopes: scope?
                .split(is_py_space)
                .filter(|scope| !scope.is_empty())
                .map(str::to_owned)
                .collect(),
            client_id: client_id?,
            client_secret: client_secret?,
        })
    }

    fn doc(_param: Param<Self>, op: &mut Operation, _registry: &mut SchemaRegistry) {
        let optional = |extra: Value, title: &str| {
            let mut schema = json!({ "anyOf": [{ "type": "string" }, { "type": "null" }], "title": title });
            if let (Value::Object(schema), Value::Object(extra)) = (&mut schema, extra) {
                schema.extend(extra);
            }
            schema
        };
        let grant_type = json!({
            "anyOf": [{ "type": "string", "pattern": GRANT_TYPE_PATTERN }, { "type": "null" }],
            "title": "Grant Type"
        });
        op.form_field("grant_type", grant_type, false);
        op.form_field("username", json!({ "type": "string", "title": "Username" }), true);
        let password = json!({ "type": "string", "format": "password", "title": "Password" });
        op.form_field("password", password, true);
        let scope = json!({ "type": "string", "title": "Scope", "default": "" });
        op.form_field("scope", scope, false);
        op.form_field("client_id", optional(json!({}), "Client Id"), false);
        let secret = optional(json!({ "format": "password" }), "Client Secret");
        op.form_field("client_secret", secret, false);
    }
}

impl Body for OAuth2PasswordRequestForm {}
