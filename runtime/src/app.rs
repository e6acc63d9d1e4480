//! The application: an ordered route list, shared state and configuration, compiled once into a
//! [`Service`] that answers requests.
//!
//! Rules enforced here:
//! - everything that can be computed before the first request is: the router, the shadowing
//!   report, the OpenAPI document (kept as serialized bytes) and the docs pages, the state checks;
//! - a configuration mistake (a bad template or group prefix, a missing state) stops the build
//!   instead of surfacing on some later request, and the build reports every such mistake at
//!   once, each where it was declared (the checks in `checks.rs`, the error in `build_error.rs`);
//! - routes are declared in order, groups' routes where the group is added (flattened, see
//!   `group.rs`); each route becomes a dispatch `Target` here, with its groups' layer stacks
//!   (built once per group) and dependencies, empty for a route whose groups have none.

use std::panic::Location;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::Method;

mod build_error;
mod changelog;
mod checks;
mod deprecated;
mod errors;
mod lifecycle;
mod problem_details;
mod versioned;

pub use build_error::{BuildError, Declared, Mistake, MistakeKind};

pub(crate) use lifecycle::{start, stop, Lifecycle};

use crate::budget::MemoryBudget;
use crate::config::Config;
use crate::dispatch::{Compiled, Endpoint, LayerFn, MatchedRoute, Service, Target};
use crate::extract::{Shared, StateMap};
use crate::group::{Group, Inherited, Mounted, RefusedPrefix};
use crate::metrics::{HttpMetrics, Metrics};
use crate::openapi::{
    deprecate_operations, document, document_path, fastapi_layout, name_version, DocsRoutes, DocumentVersion,
    ErrorBody, Info, VersionDoc,
};
use crate::response::{Body, BoxError, ErrorAnswers};
use crate::routing::{Lookup, Route, RouteDef, RouteInfo, RouteStatus, RouteTable, Router, VersionRouter};
use crate::trace::{Tracing, TracingOn};
use crate::validate::SchemaRegistry;
use crate::versions::{VersionSet, Versions};

/// An application under construction: `App::new().routes(routes![...]).serve(addr)`.
pub struct App {
    routes: Vec<Mounted>,
    /// Groups with a malformed prefix, refused when the app is built.
    refused: Vec<RefusedPrefix>,
    /// The user's state (`App::state`), and nothing else but the marker of tracing
    /// (`trace::TracingOn`), which a `TraceContext` argument checks for.
    state: StateMap,
    /// The app's error answers (`App::on_not_found`, ...).
    answers: ErrorAnswers,
    /// The tracker of its background tasks, which the server waits for when it stops.
    tasks: tokio_util::task::TaskTracker,
    /// Errors are answered as problem details (`App::problem_details`).
    problem_details: bool,
    config: Config,
    info: Info,
    layers: Vec<LayerFn>,
    metrics: Option<Metrics>,
    /// The app's tracing (`App::tracing`), when it traces.
    tracing: Option<Tracing>,
    lifecycle: Lifecycle,
    /// The app's API versions (`App::versions`), when it has them.
    versions: Option<Versions>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("routes", &self.routes)
            .field("state", &self.state)
            .field("answers", &self.answers)
            .field("config", &self.config)
            .field("info", &self.info)
            .field("layers", &self.layers.len())
            .field("metrics", &self.metrics)
            .field("versions", &self.versions)
            .field("tracing", &self.tracing)
            .finish()
    }
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
            refused: Vec::new(),
            state: StateMap::default(),
            answers: ErrorAnswers::default(),
            tasks: tokio_util::task::TaskTracker::new(),
            problem_details: false,
            config: Config::default(),
            info: Info {
                title: "API".to_owned(),
                version: "0.1.0".to_owned(),
                description: None,
                tags: Vec::new(),
                separate_schemas: true,
                implicit_responses: false,
            },
            layers: Vec::new(),
            metrics: None,
            tracing: None,
            lifecycle: Lifecycle::default(),
            versions: None,
        }
    }

    /// Append routes, in declaration order.
    #[track_caller]
    pub fn routes(mut self, routes: impl IntoIterator<Item = RouteDef>) -> Self {
        let added_at = Location::caller();
        self.routes
            .extend(routes.into_iter().map(|def| Mounted::plain(def, added_at)));
        self
    }

    /// Append one route.
    #[track_caller]
    pub fn route(mut self, route: impl Route) -> Self {
        self.routes.push(Mounted::plain(route.def(), Location::caller()));
        self
    }

    /// Append a route group's routes (its nested groups' included), in declaration order, each
    /// under its full path and with what its groups state (see [`Group`] and the manual's
    /// [Route groups](crate#route-groups)).
    #[track_caller]
    pub fn group(mut self, group: Group) -> Self {
        group.flatten(None, Location::caller(), &mut self.routes, &mut self.refused);
        self
    }

    /// Wrap every request in a `tower` layer (`tower-http`'s `CorsLayer`, `CompressionLayer`,
    /// `TimeoutLayer`, `TraceLayer`, a layer of your own...). The route is matched before the layers
    /// run, so a layer can read the [`MatchedRoute`] request extension; every answer goes through
    /// them, also 404s, 405s and the docs pages. A layer added later wraps the ones added before
    /// (it sees the request first and the response last). A layer's error is answered, never a
    /// dropped connection: tower's `Elapsed` is 408, `Overloaded` is 503, any other error 500.
    ///
    /// An app without layers does not pay for them: its requests take the direct path.
    pub fn layer<L, ResBody>(mut self, layer: L) -> Self
    where
        L: tower::Layer<Endpoint> + Send + Sync + 'static,
        L::Service: tower::Service<hyper::Request<Body>, Response = hyper::Response<ResBody>>
            + Clone
            + Send
            + Sync
            + 'static,
        <L::Service as tower::Service<hyper::Request<Body>>>::Error: Into<BoxError>,
        <L::Service as tower::Service<hyper::Request<Body>>>::Future: Send + 'static,
        ResBody: hyper::body::Body<Data = Bytes> + Send + 'static,
        ResBody::Error: Into<BoxError>,
    {
        self.layers
            .push(Arc::new(move |endpoint: Endpoint| endpoint.layered(&layer)));
        self
    }

    /// Give every request an id and a span (off by default): the incoming `X-Request-Id` when it
    /// is well-formed (1 to 128 ASCII letters, digits or `-_.:/+=@`), a new random one otherwise;
    /// returned in the response's `X-Request-Id`; the request is handled inside a `tracing` span
    /// (`request`, with `request_id`, `method`, `route`, `status`, `latency_ms`), so every line
    /// logged while handling it carries the id. See the manual's *Logging* section.
    pub fn request_ids(mut self, on: bool) -> Self {
        self.config.request_ids = on;
        self
    }

    /// Record Prometheus metrics of every request (off by default) and serve them at
    /// `metrics`' path (`/metrics` unless set): requests and their latency by method, route
    /// template and status, requests in flight, requests refused for overload. Register metrics
    /// of the app's own in [`Metrics::registry`] first; they are served with these.
    pub fn metrics(mut self, metrics: Metrics) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// Serve these API versions (see [`Versions`] and the manual's *API versions*): a request
    /// names one in the versions' header (`API-Version` unless set) or gets the default; one the
    /// app does not serve is answered 400, listing the served ones; every answer echoes the
    /// version served in that header, with `Vary` naming it; a route reads it as an
    /// [`ApiVersion`](crate::versions::ApiVersion) argument. A declaration out of order, or
    /// whose dates or header are malformed, stops the build ([`MistakeKind::Versions`]).
    ///
    /// An app without versions does not pay for them: its requests take the path they took.
    pub fn versions(mut self, versions: Versions) -> Self {
        self.versions = Some(versions);
        self
    }

    /// Trace every request with W3C Trace Context (off by default): its `traceparent` read (the
    /// caller's trace continued when valid, a new one otherwise), a span id of its own, the
    /// sampler's decision; its trace id, span id and flags on the access line and on every line
    /// logged while it is handled; a route can take them as a
    /// [`TraceContext`](crate::trace::TraceContext) argument. `Tracing::from_env()` reads
    /// OpenTelemetry's `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG` and `OTEL_PROPAGATORS`.
    /// See the manual's *Tracing* section.
    pub fn tracing(mut self, tracing: Tracing) -> Self {
        self.state.insert(TracingOn);
        self.tracing = Some(tracing);
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

    /// Set the largest multipart upload (all parts) and the largest part of one, in bytes.
    pub fn upload_limits(mut self, total: u64, part: u64) -> Self {
        self.config.upload_limit = total;
        self.config.upload_part_limit = part;
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

    /// Set the time allowed to receive a request body and the slowest accepted rate, which
    /// lengthens it (see [`Config::body_timeout`] and [`Config::body_min_rate`]).
    pub fn body_timeout(mut self, timeout: Duration, min_rate: Option<u32>) -> Self {
        self.config.body_timeout = timeout;
        self.config.body_min_rate = min_rate;
        self
    }

    /// Set the time a response may wait for the client to read (see [`Config::write_timeout`]).
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.config.write_timeout = timeout;
        self
    }

    /// Set how many connections may be open at once (`None`: unlimited; see
    /// [`Config::max_connections`]).
    pub fn max_connections(mut self, limit: Option<usize>) -> Self {
        self.config.max_connections = limit;
        self
    }

    /// Refuse (default) or accept HTTP/1.1 requests whose framing RFC 9112 does not allow (see
    /// [`Config::strict_http1`]).
    pub fn strict_http1(mut self, on: bool) -> Self {
        self.config.strict_http1 = on;
        self
    }

    /// Set how many requests are served at once (`None`: unlimited); beyond it, 503 at once.
    pub fn max_concurrency(mut self, limit: Option<usize>) -> Self {
        self.config.max_concurrency = limit;
        self
    }

    /// Set the bytes clients can make the server hold at once (`None`: no budget; see
    /// [`Config::memory_budget`]).
    pub fn memory_budget(mut self, bytes: Option<usize>) -> Self {
        self.config.memory_budget = bytes;
        self
    }

    /// Set the most the bodies being received on one HTTP/2 connection may hold of the memory
    /// budget (`None`: no share per connection, for a trusted proxy multiplexing many clients;
    /// see [`Config::connection_body_share`]).
    pub fn connection_body_share(mut self, bytes: Option<usize>) -> Self {
        self.config.connection_body_share = bytes;
        self
    }

    /// Serve the address [`App::bind`] binds over TLS with this certificate and key (the `tls`
    /// feature): HTTP/2 and HTTP/1.1 chosen by ALPN on the one port, TLS 1.2 and 1.3, with every
    /// protection of a plain connection, and the handshake's own deadline and cap (see
    /// [`TlsConfig`](crate::tls::TlsConfig)). [`Server::also_bind`](crate::Server::also_bind)
    /// adds a plain listener beside it.
    #[cfg(feature = "tls")]
    pub fn tls(mut self, tls: crate::config::TlsConfig) -> Self {
        self.config.tls = Some(tls);
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

    /// Describe a tag in the document's top-level `tags` list (FastAPI's `openapi_tags`); the
    /// list keeps the order of these calls. A tag no route uses may be described too.
    pub fn tag(mut self, tag: crate::openapi::Tag) -> Self {
        self.info.tags.push(tag);
        self
    }

    /// Whether a type whose schema differs between what the API reads and what it writes (a
    /// decimal in it) is documented twice, `Name-Input` and `Name-Output`, as FastAPI does by
    /// default (`true`); `false` documents every schema as the input one, under one name
    /// (FastAPI's `separate_input_output_schemas=False`), for client generators that want one
    /// type per model.
    pub fn separate_input_output_schemas(mut self, separate: bool) -> Self {
        self.info.separate_schemas = separate;
        self
    }

    /// Also document the answers FastAPI gives too but leaves out of its document: on a route
    /// with a body, those of the body reader before validation, `400` (the body could not be
    /// read, or is not UTF-8) and `413` (over [`App::body_limit`]); on a route that requires a
    /// security scheme, its `401` "Not authenticated". Off by default, so the document is
    /// FastAPI's; on, a client generator or a tester such as schemathesis knows every status the
    /// service answers.
    pub fn document_implicit_responses(mut self, document: bool) -> Self {
        self.info.implicit_responses = document;
        self
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The route table with shadowed routes marked (the same one the server logs at start-up),
    /// or every mistake of the group prefixes and the routes' paths.
    pub fn route_table(&self) -> Result<Vec<RouteInfo>, BuildError> {
        self.table().map(|table| table.rows()).map_err(BuildError::new)
    }

    /// The app's startup and shutdown hooks, taken out (the server runs them), and the tracker
    /// of its background tasks (the server waits for them).
    pub(crate) fn take_lifecycle(&mut self) -> (Lifecycle, tokio_util::task::TaskTracker) {
        (std::mem::take(&mut self.lifecycle), self.tasks.clone())
    }

    /// Compile the app into a service: check it (its group prefixes and route paths, every
    /// state a route or a group's dependency takes is the app's, its settings), document it (the
    /// OpenAPI document), compile it (what requests run on). Every mistake the checks find is
    /// reported at once.
    pub fn build(self) -> Result<Service, BuildError> {
        let mut app = self.wrap_problems();
        let mut mistakes = Vec::new();
        let table = app.table().map_err(|found| mistakes.extend(found)).ok();
        // Before the routes' checks: a route taking `ApiVersion` needs the app's versions.
        let versions = app.declare_versions(&mut mistakes);
        match (&app.versions, &versions) {
            (None, _) => app.check_route_versions(None, &mut mistakes),
            (Some(_), Some(set)) => app.check_route_versions(Some(set), &mut mistakes),
            // A refused declaration is the mistake; the ranges are checked once it is fixed.
            (Some(_), None) => {}
        }
        // Every route's operation at each version: the versioned models it meets (their dates
        // checked here) and the changelog the documents carry.
        let survey = versions.as_deref().map(|set| {
            let survey = app.survey(set);
            app.check_changes(&survey, set, &mut mistakes);
            (survey, set)
        });
        let routers = match (&table, &versions) {
            (Some(table), Some(set)) if mistakes.is_empty() => app
                .version_routers(table, set)
                .map_err(|found| mistakes.extend(found))
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        app.check(&mut mistakes);
        let validation_error = app
            .validation_error_body()
            .map_err(|found| mistakes.push(found))
            .ok();
        app.check_docs_urls(&mut mistakes);
        let (Some(table), Some(validation_error)) = (table, validation_error) else {
            return Err(BuildError::new(mistakes));
        };
        BuildError::of(mistakes)?;
        // An app with versions: one document per version (its routes, its models' shapes),
        // `/openapi.json` the default version's; without: the one document, as before.
        let changelog = survey.map(|(survey, set)| app.changelog(&survey, set));
        let (openapi_json, per_version) = match (&versions, routers.as_slice(), &changelog) {
            (Some(set), [_, ..], Some(changelog)) => {
                let per_version =
                    app.version_documents(&table, set, &routers, validation_error, changelog)?;
                let default = per_version
                    .iter()
                    .find(|version| version.default)
                    .map(|version| version.bytes.clone())
                    .unwrap_or_default();
                (default, per_version)
            }
            _ => {
                let statuses = table.router.statuses().to_vec();
                (
                    app.document(&table, &statuses, validation_error, None)?,
                    Vec::new(),
                )
            }
        };
        let changes = changelog.map(|changelog| changelog.json());
        app.compile(table, (openapi_json, per_version, changes), (versions, routers))
    }

    /// The app's versions compiled (`None` without them), held as a state of the framework's own
    /// so the `ApiVersion` argument finds them (and its check, when the app is built); every
    /// problem of the declaration is a mistake.
    fn declare_versions(&mut self, mistakes: &mut Vec<Mistake>) -> Option<Arc<VersionSet>> {
        let declared = self.versions.as_ref()?;
        match declared.compile() {
            Ok(set) => {
                self.state.insert(set);
                self.state.get::<VersionSet>()
            }
            Err(problems) => {
                self.state.insert(VersionSet::refused());
                mistakes.extend(problems.into_iter().map(|problem| {
                    Mistake::new(
                        MistakeKind::Versions { problem },
                        Declared::App { setting: "versions" },
                    )
                }));
                None
            }
        }
    }

    /// Each version's document (its date and bytes, in the set's order): the routes live at
    /// that version, its models as they were then (the version is on the thread while the
    /// operations' schemas are made, as while a request's code runs), its `info` naming it.
    fn version_documents(
        &self,
        table: &RouteTable,
        set: &VersionSet,
        routers: &[VersionRouter],
        validation_error: Option<ErrorBody>,
        changelog: &changelog::Changelog,
    ) -> Result<Vec<VersionDoc>, BuildError> {
        let mut documents = Vec::with_capacity(routers.len());
        for (index, router) in routers.iter().enumerate() {
            let changes = set
                .dates()
                .get(index)
                .map(|date| changelog.markdown(date))
                .unwrap_or_default();
            let Some(named) = u8::try_from(index)
                .ok()
                .and_then(|index| named_version(set, index, &changes))
            else {
                continue;
            };
            let statuses = versioned::statuses_at(router, self.routes.len());
            let bytes = crate::versions::scoped(Some(named.date), || {
                self.document(table, &statuses, validation_error, Some(named))
            })?;
            documents.push(VersionDoc {
                date: named.date,
                bytes,
                default: index == set.default_index(),
                label: match (named.released, named.deprecated) {
                    (false, _) => Some("unreleased"),
                    (true, true) => Some("deprecated"),
                    (true, false) => None,
                },
            });
        }
        Ok(documents)
    }

    /// The OpenAPI document, serialized: the operations of the routes the router serves (a
    /// shadowed route is left out) with what their groups add.
    fn document(
        &self,
        table: &RouteTable,
        statuses: &[RouteStatus],
        validation_error: Option<ErrorBody>,
        version: Option<DocumentVersion<'_>>,
    ) -> Result<Bytes, BuildError> {
        let mut registry = SchemaRegistry::new();
        registry.separate_input_output(self.info.separate_schemas);
        let mut operations = Vec::new();
        let mut mistakes = Vec::new();
        let served = statuses.iter().zip(&table.templates);
        for (route, (status, template)) in self.routes.iter().zip(served) {
            let def = &route.def;
            if def.include_in_schema && *status == RouteStatus::Served {
                let mut operation = (def.operation)(&mut registry);
                if let Some(inherited) = &route.inherited {
                    operation.in_groups(&inherited.tags, &inherited.responses);
                    if inherited.deprecated {
                        operation.deprecated();
                    }
                    operation.group_parameters(|operation| {
                        for dependency in &inherited.dependencies {
                            (dependency.doc)(operation, &mut registry);
                        }
                    });
                }
                let path = document_path(template, &route.path);
                operation.place(def.method.as_str(), &path, &mut registry);
                let operation = operation.finish(self.info.implicit_responses);
                let problems = crate::openapi::paging_problems(def.method.as_str(), &operation);
                if !problems.is_empty() {
                    mistakes.push(Mistake::new(
                        MistakeKind::Paging { problems },
                        checks::declared(route),
                    ));
                }
                operations.push((def.method.to_string(), path, operation));
            }
        }
        BuildError::of(mistakes)?;
        let mut doc = document(&self.info, operations, registry, validation_error);
        if let Some(version) = version {
            if version.deprecated {
                deprecate_operations(&mut doc);
            }
            name_version(&mut doc, version);
        }
        if self.answers_problems() {
            crate::problem::document_problems(&mut doc);
        }
        fastapi_layout(&mut doc);
        serde_json::to_vec(&doc).map(Bytes::from).map_err(|e| {
            let kind = MistakeKind::Document {
                problem: e.to_string(),
            };
            BuildError::new(vec![Mistake::new(kind, Declared::App { setting: "App" })])
        })
    }

    /// The data the per-request path runs on ([`Compiled`]): the router, each route's target
    /// with its groups' layer stacks, the docs pages and metrics (a route they hide is warned
    /// of), the app's layer stack around it all.
    fn compile(
        mut self,
        table: RouteTable,
        (openapi_json, per_version, changes): (Bytes, Vec<VersionDoc>, Option<Bytes>),
        (versions, routers): (Option<Arc<VersionSet>>, Vec<VersionRouter>),
    ) -> Result<Service, BuildError> {
        let route_table = match routers.is_empty() {
            true => table.rows(),
            false => versioned::rows_per_version(table.rows(), &routers),
        };
        let matched: Vec<MatchedRoute> = route_table
            .iter()
            .map(|row| MatchedRoute::new(row.path.clone(), row.name))
            .collect();
        let RouteTable { router, .. } = table;
        let version_documents = per_version
            .iter()
            .map(|version| (version.date, version.bytes.clone()))
            .collect();
        // The URLs were checked with the app's other settings (`url_mistakes`); what is left is
        // an asset's path taken by another page, which `new` still refuses.
        let docs = DocsRoutes::new(
            &self.config,
            &self.info.title,
            openapi_json.clone(),
            per_version,
            changes,
        )
        .map_err(|problem| {
            let declared = Declared::App {
                setting: "openapi_url/docs_url/redoc_url",
            };
            BuildError::new(vec![Mistake::new(MistakeKind::DocsUrl { problem }, declared)])
        })?;
        for path in docs.paths() {
            self.warn_hidden(
                &router,
                path,
                "the OpenAPI document or a docs page",
                "App::openapi_url/docs_url/redoc_url",
            );
        }
        let metrics = self.metrics.take().map(|metrics| {
            self.warn_hidden(&router, metrics.served_at(), "the metrics", "Metrics::path");
            let templates: Vec<&str> = matched.iter().map(MatchedRoute::path).collect();
            let docs_paths: Vec<&str> = docs.paths().collect();
            HttpMetrics::new(metrics, &templates, &docs_paths)
        });
        let targets = targets(self.routes, matched);
        let compiled = Compiled {
            targets,
            router,
            shared: Shared {
                state: self.state,
                answers: self.answers,
                tasks: self.tasks,
            },
            observe: self.config.request_ids || metrics.is_some() || self.tracing.is_some(),
            tracer: self.tracing.as_ref().map(Tracing::compile),
            budget: self.config.memory_budget.map(MemoryBudget::new),
            config: self.config,
            openapi_json,
            version_documents,
            docs,
            route_table,
            metrics,
            versions,
            routers: routers.into_boxed_slice(),
        };
        Ok(Service::new(compiled, &self.layers))
    }

    /// Warn that `GET path`, which a route answers, is answered by `what` instead.
    fn warn_hidden(&self, router: &Router, path: &str, what: &str, move_with: &str) {
        if let Lookup::Found { route, .. } = router.lookup(&Method::GET, path) {
            let name = self.routes.get(route).map_or("?", |route| route.def.name);
            tracing::warn!(
                "GET {path} is answered by {what}, not by route `{name}`; move them with {move_with}"
            );
        }
    }
}

/// The version at `index` as a document names it in its `info`, for generators; `None` past the
/// set's end.
fn named_version<'a>(set: &VersionSet, index: u8, changes: &'a str) -> Option<DocumentVersion<'a>> {
    let (date, released) = set.get(index)?;
    Some(DocumentVersion {
        changes,
        header: set.spelled(),
        date,
        released,
        deprecated: set.is_deprecated(index),
    })
}

/// Each route as the dispatcher runs it (by declaration index), with `matched`, its extension
/// for the layers: its groups' dependencies and layers, empty for a route whose groups have
/// neither. The dispatcher composes each route's layers into its own stack (`Service::new`).
fn targets(routes: Vec<Mounted>, matched: Vec<MatchedRoute>) -> Vec<Target> {
    routes
        .into_iter()
        .zip(matched)
        .map(|(route, matched)| {
            let inherited: Option<&Inherited> = route.inherited.as_deref();
            // The innermost group's layers first: each group's stack folds over the nested one's.
            let mut layers: Vec<LayerFn> = inherited
                .map(|inherited| {
                    inherited
                        .layers
                        .iter()
                        .rev()
                        .flat_map(|group| group.iter().cloned())
                        .collect()
                })
                .unwrap_or_default();
            // A deprecated route's notice, outside its groups' layers so every answer of it
            // carries it: the route's own stack, which only such a route pays for.
            if let Some(layer) = route.def.deprecation.and_then(deprecated::notice_layer) {
                layers.push(layer);
            }
            let dependencies = inherited
                .map(|inherited| inherited.dependencies.clone().into())
                .unwrap_or_default();
            Target::new(route.def, matched, layers.into(), dependencies)
        })
        .collect()
}

/// `App::new()` titled and versioned after the calling package (`CARGO_PKG_NAME`/`VERSION`).
#[doc = include_str!("../manual/macros/app_info.md")]
#[macro_export]
macro_rules! app_info {
    () => {
        $crate::App::new()
            .title(env!("CARGO_PKG_NAME"))
            .version(env!("CARGO_PKG_VERSION"))
    };
}
