//! Dependencies: arguments a route takes by type, resolved (possibly asynchronously) before it runs.
//!
//! Shows: a `CurrentUser` looked up by bearer token in a store behind `State` (an async lookup),
//! answering 401 with `WWW-Authenticate: Bearer` when the token is missing or unknown; an `Admin`
//! that takes `CurrentUser` (a sub-dependency, resolved once per request even though the route
//! takes both) and answers 403; a `Pagination` with constrained `skip`/`limit` query parameters,
//! reused by two list routes, whose errors join the route's own in one 422; the bearer token
//! itself read by a hand-written `Dependency` implementation, the trait `#[dependency]`
//! implements.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example dependencies
//! ```
//!
//! then try the session below; <http://127.0.0.1:8000/docs> shows each route's parameters and the
//! 401/403 answers its dependencies may give. `PORT` picks another port, `RUST_LOG` the log level
//! (default `info`). Stop it with Ctrl-C.
//!
//! A session from a fresh start (real output; with `curl -i` only the status line and the header
//! of interest are kept):
//!
//! ```text
//! $ curl 'http://127.0.0.1:8000/items?limit=2'
//! [{"name":"Hammer","owner":"alice"},{"name":"Saw","owner":"bob"}]
//!
//! $ curl 'http://127.0.0.1:8000/items?q=&skip=-1&limit=500'
//! {"detail":[{"type":"string_too_short","loc":["query","q"],"msg":"String should have at least 1 character","input":"","ctx":{"min_length":1}},{"type":"greater_than_equal","loc":["query","skip"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}},{"type":"less_than_equal","loc":["query","limit"],"msg":"Input should be less than or equal to 100","input":"500","ctx":{"le":100}}]}
//!
//! $ curl -i http://127.0.0.1:8000/users/me
//! HTTP/1.1 401 Unauthorized
//! www-authenticate: Bearer
//! {"detail":"Not authenticated"}
//!
//! $ curl -H 'Authorization: Bearer alice-token' http://127.0.0.1:8000/users/me
//! {"name":"alice","admin":true}
//!
//! $ curl -H 'Authorization: Bearer bob-token' 'http://127.0.0.1:8000/users/me/items?limit=1'
//! [{"name":"Saw","owner":"bob"}]
//!
//! $ curl -i -H 'Authorization: Bearer bob-token' http://127.0.0.1:8000/admin/lookups
//! HTTP/1.1 403 Forbidden
//! {"detail":"Not an administrator"}
//!
//! $ curl -H 'Authorization: Bearer alice-token' http://127.0.0.1:8000/admin/lookups
//! {"admin":"alice","lookups":4}
//! ```

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use ferrapi::arg::{Deps, RequestCx, Resolve};
use ferrapi::http::header::{HeaderValue, AUTHORIZATION, WWW_AUTHENTICATE};
use ferrapi::prelude::*;
use ferrapi::schema::{Operation, SchemaRegistry};
use ferrapi::validation::ValidationErrors;
use ferrapi::Dependency;
use serde::Serialize;

/// A user, as the store knows them.
#[derive(Debug, Clone, Serialize)]
pub struct User {
    /// The user's name.
    pub name: String,
    /// Whether the user may use the admin routes.
    pub admin: bool,
}

/// An item, owned by a user.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// Its owner's name.
    pub owner: String,
}

/// The store: users by token, the items, and how many token lookups it answered (so that the
/// tests can see each request look the token up once).
pub struct Store {
    users: HashMap<String, User>,
    items: Vec<Item>,
    lookups: AtomicUsize,
}

impl Store {
    /// Two users (`alice-token` is an administrator, `bob-token` is not) and four items.
    pub fn sample() -> Self {
        let user = |name: &str, admin| User {
            name: name.to_owned(),
            admin,
        };
        let item = |name: &str, owner: &str| Item {
            name: name.to_owned(),
            owner: owner.to_owned(),
        };
        Store {
            users: HashMap::from([
                ("alice-token".to_owned(), user("alice", true)),
                ("bob-token".to_owned(), user("bob", false)),
            ]),
            items: vec![
                item("Hammer", "alice"),
                item("Saw", "bob"),
                item("Drill", "alice"),
                item("Level", "bob"),
            ],
            lookups: AtomicUsize::new(0),
        }
    }

    /// The user holding `token`. Asynchronous, as a database lookup would be: it yields to the
    /// runtime once before answering.
    async fn user_by_token(&self, token: &str) -> Option<User> {
        tokio::task::yield_now().await;
        self.lookups.fetch_add(1, Ordering::Relaxed);
        self.users.get(token).cloned()
    }
}

/// 401 with `WWW-Authenticate: Bearer`, as FastAPI's `OAuth2PasswordBearer` answers.
fn unauthorized(detail: &'static str) -> Response {
    HttpError::new(401, detail)
        .with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))
        .into_response()
}

/// The request's bearer token: a dependency implemented by hand (the `Dependency` trait), reading
/// one header. A request without `Authorization: Bearer <token>` is answered 401.
#[derive(Debug, Clone)]
pub struct BearerToken(String);

impl Dependency for BearerToken {
    fn extract(cx: &RequestCx<'_>, _errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<>> {
        let header = cx.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok());
        let token = header.and_then(|v| v.strip_prefix("Bearer ")).map(str::to_owned);
        Some(Bearer(token))
    }

    fn doc(op: &mut Operation, _registry: &mut SchemaRegistry) {
        op.dependency_response(401, "Not authenticated");
    }
}

/// The header's token, read with the route's other arguments: what resolves a [`BearerToken`].
pub struct Bearer(Option<String>);

impl Resolve<BearerToken> for Bearer {
    async fn resolve(self, _deps: &mut Deps) -> Result<BearerToken, Response> {
        self.0
            .map(BearerToken)
            .ok_or_else(|| unauthorized("Not authenticated"))
    }
}

/// The user the request's bearer token belongs to; 401 when the token is unknown.
#[derive(Debug, Clone)]
pub struct CurrentUser(User);

/// Look the token up in the store (a dependency taking another dependency and the state).
#[dependency(responses(401 = "Not authenticated"))]
async fn current_user(token: BearerToken, store: State<Store>) -> Result<CurrentUser, Response> {
    match store.user_by_token(&token.0).await {
        Some(user) => Ok(CurrentUser(user)),
        None => Err(unauthorized("Invalid authentication credentials")),
    }
}

/// The current user, when an administrator; 403 otherwise.
#[derive(Debug, Clone)]
pub struct Admin(User);

#[dependency(responses(403 = "Not an administrator"))]
async fn admin(user: CurrentUser) -> Result<Admin, HttpError> {
    if user.0.admin {
        Ok(Admin(user.0))
    } else {
        Err(HttpError::new(403, "Not an administrator"))
    }
}

/// Which page of a list to answer: `skip` items, then at most `limit`.
#[derive(Debug, Clone, Copy)]
pub struct Pagination {
    skip: usize,
    limit: usize,
}

impl Pagination {
    fn page<'a>(self, items: impl Iterator<Item = &'a Item>) -> Vec<Item> {
        items.skip(self.skip).take(self.limit).cloned().collect()
    }
}

/// A dependency need not await: this one only declares two query parameters, validated (and
/// documented) with the route's own.
#[dependency]
fn pagination(
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(10)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
) -> Pagination {
    // Both are validated non-negative before this runs.
    Pagination {
        skip: usize::try_from(skip).unwrap_or(0),
        limit: usize::try_from(limit).unwrap_or(0),
    }
}

/// List every item, optionally those whose name contains `q`.
#[get("/items", tags("items"))]
pub async fn list_items(
    store: State<Store>,
    #[min_length(1)] q: Option<String>,
    page: Pagination,
) -> Json<Vec<Item>> {
    let matches = store
        .items
        .iter()
        .filter(|item| q.as_ref().is_none_or(|q| item.name.contains(q.as_str())));
    Json(page.page(matches))
}

/// The current user.
#[get("/users/me", tags("users"))]
pub async fn read_me(user: CurrentUser) -> Json<User> {
    Json(user.0)
}

/// The current user's items.
#[get("/users/me/items", tags("users"))]
pub async fn list_my_items(store: State<Store>, user: CurrentUser, page: Pagination) -> Json<Vec<Item>> {
    let mine = store.items.iter().filter(|item| item.owner == user.0.name);
    Json(page.page(mine))
}

/// How many token lookups the store answered; administrators only. The route takes
/// `CurrentUser` and `Admin`, which takes `CurrentUser` too: the token is looked up once.
#[get("/admin/lookups", tags("admin"))]
pub async fn read_lookups(store: State<Store>, user: CurrentUser, admin: Admin) -> Json<Value> {
    debug_assert_eq!(user.0.name, admin.0.name);
    Json(json!({ "admin": admin.0.name, "lookups": store.lookups.load(Ordering::Relaxed) }))
}

/// The example's app over `store`.
pub fn app(store: Store) -> App {
    App::new()
        .title("dependencies example")
        .state(store)
        .routes(routes![list_items, read_me, list_my_items, read_lookups])
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> ExitCode {
    let _log = ferrapi::logging::init();
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app(Store::sample())).await
}
