//! Why an app does not build: every mistake the build found, each typed and placed where it was
//! declared (dropshot's `ApiDescriptionBuildErrors`).
//!
//! Rules enforced here:
//! - a build reports every mistake of the app at once, not the first: a user fixes them in one
//!   round instead of one build per mistake;
//! - the order is stable: by the check that found them (group prefixes, then the route table,
//!   then the app's versions and the routes' ranges of versions, then the states the routes and their groups' dependencies take,
//!   then the app's own
//!   settings, then — once those pass, as the document is written — the routes' `paged`
//!   promises), and in declaration order within each check;
//! - each mistake says what is wrong ([`MistakeKind`]) and where it was declared
//!   ([`Declared`]): the route's method, full path and function, or the group's prefix, with
//!   where it was added to the app (the caller of `App::routes`, `Group::route`, ...), or the
//!   app's setting (named as the `App` method that sets it);
//! - one mistake displays as one line, as the single error did before; several as a count and
//!   one line each, so `ServeError`'s message and a test's panic show them all.

use std::fmt;
use std::panic::Location;

use hyper::Method;

/// Why an app could not be built: every mistake found, in a stable order (see
/// [`BuildError::errors`]). Its `Display` is the one mistake's line, or, for several, their count
/// and one line each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    mistakes: Vec<Mistake>,
}

impl BuildError {
    /// Every mistake, in the order the build checks them (group prefixes, the route table, the
    /// states routes and their groups' dependencies take, the app's settings), each check's in
    /// declaration order. Never empty.
    pub fn errors(&self) -> std::slice::Iter<'_, Mistake> {
        self.mistakes.iter()
    }

    /// `Ok(())` without mistakes, else the error holding them all.
    pub(crate) fn of(mistakes: Vec<Mistake>) -> Result<(), BuildError> {
        if mistakes.is_empty() {
            Ok(())
        } else {
            Err(BuildError { mistakes })
        }
    }
}

impl BuildError {
    /// The error of `mistakes`, which a check found (so there are some).
    pub(crate) fn new(mistakes: Vec<Mistake>) -> Self {
        BuildError { mistakes }
    }
}

impl IntoIterator for BuildError {
    type Item = Mistake;
    type IntoIter = std::vec::IntoIter<Mistake>;

    fn into_iter(self) -> Self::IntoIter {
        self.mistakes.into_iter()
    }
}

impl<'a> IntoIterator for &'a BuildError {
    type Item = &'a Mistake;
    type IntoIter = std::slice::Iter<'a, Mistake>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors()
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mistakes.as_slice() {
            [one] => write!(f, "{one}"),
            all => {
                write!(f, "{} mistakes in the app:", all.len())?;
                for mistake in all {
                    write!(f, "\n  {mistake}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// One mistake of an app: what is wrong, and where it was declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    kind: MistakeKind,
    declared: Declared,
}

impl Mistake {
    pub(crate) fn new(kind: MistakeKind, declared: Declared) -> Self {
        Mistake { kind, declared }
    }

    /// What is wrong.
    pub fn kind(&self) -> &MistakeKind {
        &self.kind
    }

    /// Where the culprit was declared.
    pub fn declared(&self) -> &Declared {
        &self.declared
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.declared, self.kind)
    }
}

/// What is wrong, by kind: each names the check that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MistakeKind {
    /// A group's prefix is malformed (a group made without `group!`, which checks it at compile
    /// time): one sentence per problem. Its routes' full paths are not reported again.
    GroupPrefix {
        /// What is wrong with the prefix.
        problems: Vec<String>,
    },
    /// A route's full path (its groups' prefixes, then its own template) is not a template.
    Template {
        /// The template parser's message.
        problem: String,
    },
    /// A route's path has more parameters than a request can carry.
    TooManyPathParams {
        /// The most a route may have.
        max: usize,
    },
    /// The router refuses a route's path beside the routes declared before it.
    RouteConflict {
        /// The router's message.
        problem: String,
    },
    /// An argument of the route needs what the app does not hold (a `State<T>` without
    /// `App::state`): the argument's own check, its first unmet need.
    MissingState {
        /// The argument's message.
        problem: String,
    },
    /// A dependency the route's groups run needs what the app does not hold.
    GroupDependencyState {
        /// The dependency's name.
        dependency: &'static str,
        /// The dependency's message.
        problem: String,
    },
    /// `App::on_validation_error`'s status is not a client error (4xx).
    ValidationStatus {
        /// The status given.
        status: u16,
    },
    /// A URL of the OpenAPI document or a docs page is malformed, or taken twice.
    DocsUrl {
        /// What is wrong with it.
        problem: String,
    },
    /// A route declared `paged`, but its query parameters or its answer are not what the
    /// `x-paging` extension promises clients (both parameters integers, the 200 answer a JSON
    /// array): one sentence per problem.
    Paging {
        /// What is wrong.
        problems: Vec<String>,
    },
    /// The app's versions (`App::versions`) are declared wrong: a date that is not
    /// `YYYY-MM-DD`, released versions out of order or repeated, an unreleased version older
    /// than a released one, a default that is not released, a malformed header. One mistake per
    /// problem.
    Versions {
        /// What is wrong.
        problem: String,
    },
    /// A route's versions (`versions = "from".."until"`) name a version the app does not
    /// declare, hold none of its versions, or the app declares no versions. One mistake per
    /// problem, where the route was added.
    RouteVersions {
        /// What is wrong.
        problem: String,
    },
    /// A model a route reads changes (`#[since("date", ..)]`) at a date that is not a version
    /// of the app: one mistake per route, naming the model and the dates.
    VersionChange {
        /// What is wrong.
        problem: String,
    },
    /// The OpenAPI document could not be written.
    Document {
        /// The serializer's message.
        problem: String,
    },
}

impl fmt::Display for MistakeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MistakeKind::GroupPrefix { problems } | MistakeKind::Paging { problems } => {
                f.write_str(&problems.join("; "))
            }
            MistakeKind::Template { problem }
            | MistakeKind::RouteConflict { problem }
            | MistakeKind::MissingState { problem }
            | MistakeKind::DocsUrl { problem }
            | MistakeKind::Versions { problem }
            | MistakeKind::RouteVersions { problem }
            | MistakeKind::VersionChange { problem } => f.write_str(problem),
            MistakeKind::TooManyPathParams { max } => write!(f, "more than {max} path parameters"),
            MistakeKind::GroupDependencyState { dependency, problem } => {
                write!(f, "its groups' dependency `{dependency}`: {problem}")
            }
            MistakeKind::ValidationStatus { status } => {
                write!(f, "status {status} is not a client error (4xx)")
            }
            MistakeKind::Document { problem } => write!(f, "OpenAPI document: {problem}"),
        }
    }
}

/// Where the culprit of a mistake was declared.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Declared {
    /// A route.
    Route {
        /// Its method.
        method: Method,
        /// Its full path, its groups' prefixes included, as declared.
        path: String,
        /// Its function's name.
        name: &'static str,
        /// Where it was added to its app or group (the caller of `App::routes`, `App::route`,
        /// `Group::routes` or `Group::route`).
        added_at: &'static Location<'static>,
    },
    /// A route group.
    Group {
        /// Its own prefix (without its enclosing groups').
        prefix: &'static str,
        /// Where it was added to its app or enclosing group (the caller of `App::group` or
        /// `Group::group`).
        added_at: &'static Location<'static>,
    },
    /// A setting of the app itself, or the app as a whole.
    App {
        /// The setting, as the `App` method that sets it is named (`"docs_url"`), or `"App"`.
        setting: &'static str,
    },
}

impl fmt::Display for Declared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Declared::Route {
                method,
                path,
                name,
                added_at,
            } => write!(f, "route `{name}` ({method} {path}) added at {added_at}"),
            Declared::Group { prefix, added_at } => {
                write!(f, "group `{prefix}` added at {added_at}")
            }
            Declared::App { setting } => f.write_str(setting),
        }
    }
}
