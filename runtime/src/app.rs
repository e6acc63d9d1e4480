//! The application: an ordered route list, shared state and configuration, compiled once into a
//! [`Service`] that answers requests.
//!
//! Rules enforced here:
//! - everything that can be computed before the first request is: the router, the shadowing
//!   report, the OpenAPI document (kept as serialized bytes) and the docs pages, the state checks;
//! - a configuration mistake (a bad template, a missing state) stops the build with a clear error
//!   instead of surfacing on some later request;
//! - a panic in a handler is a logged 500, and the server keeps serving.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::{Method, Request};

use crate::dispatch::HandleFuture;
use crate::docs::DocsRoutes;
use crate::openapi::{document, document_path, Info};
use crate::response::Response;
use crate::route::{Route, RouteDef};
use crate::router::{Lookup, RouteStatus, Router};
use crate::schema::SchemaRegistry;
use crate::state::StateMap;
use crate::template::Template;

/// Limits and switches of a server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Largest accepted request body, in bytes (default 1 MiB).
    pub body_limit: usize,
    /// Time allowed to receive a request head (default 10 s). The clock starts when a connection
    /// is accepted and whenever it waits for its next request, so it is also the idle keep-alive
    /// timeout.
    pub header_read_timeout: Duration,
    /// Largest request head (request line plus headers), in bytes (default 64 KiB); a larger head
    /// is answered 431 by hyper, however the client split its writes. At most 100 header fields
    /// are accepted.
    pub max_head_bytes: usize,
    /// Requests served at once (default 1024; `None`: unlimited). A request beyond the limit is
    /// answered at once with 503 and `Retry-After: 1`, instead of waiting in a queue.
    pub max_concurrency: Option<usize>,
    /// Time in-flight requests get to finish after a shutdown signal (default 10 s).
    pub shutdown_timeout: Duration,
    /// Where the OpenAPI document is served (`None`: not served, and neither are the pages).
    /// Default `/openapi.json`.
    pub openapi_url: Option<String>,
    /// Where Swagger UI is served (`None`: not served). Default `/docs`.
    pub docs_url: Option<String>,
    /// Where ReDoc is served (`None`: not served). Default `/redoc`.
    pub redoc_url: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            body_limit: 1024 * 1024,
            header_read_timeout: Duration::from_secs(10),
            max_head_bytes: 64 * 1024,
            max_concurrency: Some(1024),
            shutdown_timeout: Duration::from_secs(10),
            openapi_url: Some("/openapi.json".to_owned()),
            docs_url: Some("/docs".to_owned()),
            redoc_url: Some("/redoc".to_owned()),
        }
    }
}

/// A row of the route table shown at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteInfo {
    /// The method.
    pub method: Method,
    /// The path in `{name}` form.
    pub path: String,
    /// The handler function's name.
    pub name: &'static str,
    /// `None` when served; the winning route's name and path when shadowed.
    pub shadowed_by: Option<(&'static str, String)>,
}

impl std::fmt::Display for RouteInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:<7} {:<40} {}", self.method.as_str(), self.path, self.name)?;
        if let Some((name, path)) = &self.shadowed_by {
            write!(f, "  [shadowed by {name} ({path})]")?;
        }
        Ok(())
    }
}

/// Why an app could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

/// An application under construction: `App::new().routes(routes![...]).serve(addr)`.
#[derive(Debug)]
pub struct App {
    routes: Vec<RouteDef>,
    state: StateMap,
    config: Config,
    info: Info,
}

impl Default for App {
    fn default() -> Self {
        Self::new()
    }
}

impl App {
    /// An empty app titled "API", version "0.1.0" (see [`App::title`], [`crate::app_info!`]).
    pub fn new() -> Self {
        App {
            routes: Vec::new(),
            state: StateMap::default(),
            config: Config::default(),
            info: Info {
                title: "API".to_owned(),
                version: "0.1.0".to_owned(),
                description: None,
            },
        }
    }

    /// Append routes, in declaration order.
    pub fn routes(mut self, routes: impl IntoIterator<Item = RouteDef>) -> Self {
        self.routes.extend(routes);
        self
    }

    /// Append one route.
    pub fn route(mut self, route: impl Route) -> Self {
        self.routes.push(route.def());
        self
    }

    /// Register shared state, injected into handlers as `State<T>`.
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.state.insert(value);
        self
    }

    /// Set the largest accepted request body, in bytes.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.config.body_limit = bytes;
        self
    }

    /// Set the time allowed to receive a request head.
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.config.header_read_timeout = timeout;
        self
    }

    /// Set the largest accepted request head, in bytes.
    pub fn max_head_bytes(mut self, bytes: usize) -> Self {
        self.config.max_head_bytes = bytes;
        self
    }

    /// Set how many requests are served at once (`None`: unlimited); beyond it, 503 at once.
    pub fn max_concurrency(mut self, limit: Option<usize>) -> Self {
        self.config.max_concurrency = limit;
        self
    }

    /// Set the time in-flight requests get after a shutdown signal.
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.config.shutdown_timeout = timeout;
        self
    }

    /// Serve the OpenAPI document at `url`, or not at all with `None` (which also switches off
    /// the documentation pages).
    pub fn openapi_url(mut self, url: Option<&str>) -> Self {
        self.config.openapi_url = url.map(str::to_owned);
        self
    }

    /// Serve Swagger UI at `url` (its assets below it), or not at all with `None`.
    pub fn docs_url(mut self, url: Option<&str>) -> Self {
        self.config.docs_url = url.map(str::to_owned);
        self
    }

    /// Serve ReDoc at `url` (its assets below it), or not at all with `None`.
    pub fn redoc_url(mut self, url: Option<&str>) -> Self {
        self.config.redoc_url = url.map(str::to_owned);
        self
    }

    /// Set `info.title`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.info.title = title.into();
        self
    }

    /// Set `info.version`.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.info.version = version.into();
        self
    }

    /// Set `info.description`.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.info.description = Some(description.into());
        self
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The route table with shadowed routes marked (the same one the server logs at start-up).
    pub fn route_table(&self) -> Result<Vec<RouteInfo>, BuildError> {
        let (router, templates) = compile(&self.routes)?;
        Ok(table(&self.routes, &router, &templates))
    }

    /// Compile the app into a service.
    pub fn build(self) -> Result<Service, BuildError> {
        let (router, templates) = compile(&self.routes)?;
        for def in &self.routes {
            (def.check)(&self.state).map_err(|msg| {
                BuildError(format!(
                    "route `{}` ({} {}): {msg}",
                    def.name, def.method, def.path
                ))
            })?;
        }
        let route_table = table(&self.routes, &router, &templates);
        let mut registry = SchemaRegistry::new();
        let mut operations = Vec::new();
        for ((def, status), template) in self.routes.iter().zip(router.statuses()).zip(&templates) {
            if def.include_in_schema && *status == RouteStatus::Served {
                let operation = (def.operation)(&mut registry);
                operations.push((
                    def.method.to_string(),
                    document_path(template, def.path),
                    operation,
                ));
            }
        }
        let doc = document(&self.info, operations, registry);
        let openapi_json =
            Bytes::from(serde_json::to_vec(&doc).map_err(|e| BuildError(format!("OpenAPI document: {e}")))?);
        let docs = DocsRoutes::new(&self.config, &self.info.title, openapi_json.clone())?;
        for path in docs.paths() {
            if let Lookup::Found { route, .. } = router.lookup(&Method::GET, path) {
                let name = self.routes.get(route).map_or("?", |def| def.name);
                tracing::warn!(
                    "GET {path} is answered by the OpenAPI document or a docs page, not by route `{name}`; \
                     move them with App::openapi_url/docs_url/redoc_url"
                );
            }
        }
        Ok(Service {
            inner: Arc::new(Inner {
                routes: self.routes,
                router,
                state: self.state,
                config: self.config,
                openapi_json,
                docs,
                route_table,
            }),
        })
    }
}

fn compile(routes: &[RouteDef]) -> Result<(Router, Vec<Template>), BuildError> {
    let mut templates = Vec::with_capacity(routes.len());
    let mut keyed = Vec::with_capacity(routes.len());
    for def in routes {
        let template =
            Template::parse(def.path).map_err(|e| BuildError(format!("route `{}`: {e}", def.name)))?;
        keyed.push((def.method.clone(), template.clone()));
        templates.push(template);
    }
    let router = Router::new(&keyed).map_err(|e| BuildError(e.to_string()))?;
    Ok((router, templates))
}

fn table(routes: &[RouteDef], router: &Router, templates: &[Template]) -> Vec<RouteInfo> {
    routes
        .iter()
        .zip(router.statuses())
        .zip(templates)
        .map(|((def, status), template)| RouteInfo {
            method: def.method.clone(),
            path: template.openapi_path(),
            name: def.name,
            shadowed_by: match status {
                RouteStatus::Served => None,
                RouteStatus::Shadowed { by } => Some((routes[*by].name, templates[*by].openapi_path())),
            },
        })
        .collect()
}

pub(crate) struct Inner {
    pub(crate) routes: Vec<RouteDef>,
    pub(crate) router: Router,
    pub(crate) state: StateMap,
    pub(crate) config: Config,
    pub(crate) openapi_json: Bytes,
    pub(crate) docs: DocsRoutes,
    route_table: Vec<RouteInfo>,
}

/// A compiled app: answers requests in-process (`handle`) or over HTTP (see `Server`).
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("routes", &self.inner.routes.len())
            .finish_non_exhaustive()
    }
}

impl Service {
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The route table with shadowed routes marked.
    pub fn route_table(&self) -> &[RouteInfo] {
        &self.inner.route_table
    }

    /// The serialized OpenAPI document.
    pub fn openapi_json(&self) -> &Bytes {
        &self.inner.openapi_json
    }

    /// Answer one request (in-process; the server calls this for every request it reads).
    pub fn handle<B>(&self, request: Request<B>) -> HandleFuture<B>
    where
        B: hyper::body::Body + Unpin,
        B::Error: std::fmt::Display,
    {
        crate::dispatch::start(&self.inner, request)
    }
}

impl<B> hyper::service::Service<Request<B>> for Service
where
    B: hyper::body::Body + Unpin,
    B::Error: std::fmt::Display,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = ServiceFuture<B>;

    fn call(&self, request: Request<B>) -> Self::Future {
        ServiceFuture(self.handle(request))
    }
}

/// The future hyper awaits for one request: [`HandleFuture`] as a `Result` that cannot fail.
pub struct ServiceFuture<B>(HandleFuture<B>);

impl<B> std::future::Future for ServiceFuture<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: std::fmt::Display,
{
    type Output = Result<Response, std::convert::Infallible>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.get_mut().0).poll(cx).map(Ok)
    }
}

/// `App::new()` titled and versioned after the calling package (`CARGO_PKG_NAME`/`VERSION`).
#[macro_export]
macro_rules! app_info {
    () => {
        $crate::App::new()
            .title(env!("CARGO_PKG_NAME"))
            .version(env!("CARGO_PKG_VERSION"))
    };
}
