//! The path-template grammar of ferrapi, in one place: the route macros check a template with it
//! at compile time (so a mistake is reported at the attribute), and the router compiles it at
//! start-up. Dependency-free. Its `version` module is the grammar of an API version (a date),
//! shared the same way by the route option `versions = ..` and `App::versions`.
//!
//! ```
//! use ferrapi_template::Template;
//!
//! let template = Template::parse("/user/:user_id/item/{item_id}/").unwrap();
//! assert_eq!(template.openapi_path(), "/user/{user_id}/item/{item_id}");
//! assert_eq!(template.shape(), "/user/{p0}/item/{p1}");
//! assert!(Template::parse("/user/{id}/{id}").is_err());
//! ```
//!
//! Rules enforced here:
//! - a parameter is written `{name}` (FastAPI style) or `:name` (Express style); a leading `/` is
//!   optional;
//! - a segment is either wholly a parameter or wholly literal text (`x{id}` and `{id` are refused),
//!   and no segment is empty (`//`);
//! - a parameter name is letters, digits and `_`, not starting with a digit, and each name appears
//!   once (it names one handler argument);
//! - a trailing `/` is not significant (`/post/` and `/post` are one template);
//! - the *shape* of a template names its parameters by position (`/item/{p0}`), so templates that
//!   differ only in parameter names are recognised as the same route;
//! - every problem of a template is reported, not only the first;
//! - a route group's *prefix* ([`check_prefix`]) is empty or starts with `/`, does not end with
//!   `/`, follows the same grammar and has no parameters (a route's handler reads only the
//!   parameters of its own template); [`join`] puts it before a route's template.

#![forbid(unsafe_code)]

pub mod version;

use std::fmt;

/// One segment of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// Literal text that must match exactly.
    Literal(String),
    /// A parameter with its name.
    Param(String),
}

/// A parsed path template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    segments: Vec<Segment>,
}

/// Why a template was refused: every problem found, each a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    path: String,
    problems: Vec<String>,
}

impl TemplateError {
    /// The template as written.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Each problem, in path order (the route macros report each at the attribute).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "path `{}`: {}", self.path, self.problems.join("; "))
    }
}

impl std::error::Error for TemplateError {}

/// What one raw segment is, or why it is refused.
fn segment(path: &str, raw: &str) -> Result<Segment, String> {
    let name = if let Some(name) = raw.strip_prefix(':') {
        name
    } else if raw.contains(['{', '}']) {
        match raw.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            Some(name) if !name.contains(['{', '}']) => name,
            _ => {
                return Err(format!(
                    "malformed path segment `{raw}`: braces must enclose a whole segment, as in `{{name}}`"
                ))
            }
        }
    } else if raw.is_empty() {
        return Err(format!("path `{path}` has an empty segment (`//`)"));
    } else {
        return Ok(Segment::Literal(raw.to_owned()));
    };
    if name.is_empty() {
        return Err(format!(
            "empty parameter name in segment `{raw}`: name the parameter after its argument, as in `{{id}}`"
        ));
    }
    let valid = name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if !valid {
        return Err(format!(
            "`{name}` is not a valid parameter name (use letters, digits and `_`)"
        ));
    }
    Ok(Segment::Param(name.to_owned()))
}

impl Template {
    /// Parse `path`; on failure, every problem found.
    pub fn parse(path: &str) -> Result<Self, TemplateError> {
        let trimmed = path.trim_start_matches('/');
        let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        let mut segments: Vec<Segment> = Vec::new();
        let mut problems = Vec::new();
        if !trimmed.is_empty() {
            for raw in trimmed.split('/') {
                match segment(path, raw) {
                    Ok(Segment::Param(name)) if segments.contains(&Segment::Param(name.clone())) => {
                        problems.push(format!(
                            "parameter `{name}` appears twice in the path: each parameter needs its own name and argument"
                        ));
                    }
                    Ok(segment) => segments.push(segment),
                    Err(problem) => problems.push(problem),
                }
            }
        }
        if problems.is_empty() {
            Ok(Template { segments })
        } else {
            Err(TemplateError {
                path: path.to_owned(),
                problems,
            })
        }
    }

    /// The segments in order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Parameter names in path order.
    pub fn param_names(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Param(name) => Some(name.as_str()),
            Segment::Literal(_) => None,
        })
    }

    /// The OpenAPI form: `/item/{id}`.
    pub fn openapi_path(&self) -> String {
        self.render(|_, name| format!("{{{name}}}"))
    }

    /// The shape: parameters renamed by position, `/item/{p0}`.
    pub fn shape(&self) -> String {
        self.render(|index, _| format!("{{p{index}}}"))
    }

    fn render(&self, param: impl Fn(usize, &str) -> String) -> String {
        if self.segments.is_empty() {
            return "/".to_owned();
        }
        let mut out = String::new();
        let mut index = 0;
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Literal(text) => out.push_str(text),
                Segment::Param(name) => {
                    out.push_str(&param(index, name));
                    index += 1;
                }
            }
        }
        out
    }

    /// True when some path matches both templates.
    pub fn overlaps(&self, other: &Template) -> bool {
        self.segments.len() == other.segments.len()
            && self.segments.iter().zip(&other.segments).all(|pair| match pair {
                (Segment::Literal(a), Segment::Literal(b)) => a == b,
                _ => true,
            })
    }

    /// True when every path `other` matches is also matched by `self`.
    pub fn covers(&self, other: &Template) -> bool {
        self.segments.len() == other.segments.len()
            && self.segments.iter().zip(&other.segments).all(|pair| match pair {
                (Segment::Literal(a), Segment::Literal(b)) => a == b,
                (Segment::Param(_), _) => true,
                (Segment::Literal(_), Segment::Param(_)) => false,
            })
    }

    /// True when the request path's segments match this template.
    pub fn matches_path(&self, path: &str) -> bool {
        let trimmed = path.trim_start_matches('/');
        let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        if trimmed.is_empty() {
            return self.segments.is_empty();
        }
        let mut parts = trimmed.split('/');
        for segment in &self.segments {
            match (segment, parts.next()) {
                (_, None) => return false,
                (Segment::Literal(text), Some(part)) if text != part => return false,
                (Segment::Param(_), Some("")) => return false,
                _ => {}
            }
        }
        parts.next().is_none()
    }
}

/// Check `prefix` as a route group's path prefix: empty (no prefix), or starting with `/` and not
/// ending with it, well formed as a template, without parameters; on failure, every problem.
///
/// ```
/// assert!(ferrapi_template::check_prefix("/clinic/v1").is_ok());
/// assert!(ferrapi_template::check_prefix("").is_ok());
/// assert!(ferrapi_template::check_prefix("/tenants/{tenant}").is_err());
/// assert!(ferrapi_template::check_prefix("/clinic/").is_err());
/// ```
pub fn check_prefix(prefix: &str) -> Result<(), TemplateError> {
    if prefix.is_empty() {
        return Ok(());
    }
    let mut problems = Vec::new();
    if !prefix.starts_with('/') {
        problems.push(format!("a group prefix starts with `/`: write `/{prefix}`"));
    }
    if prefix.ends_with('/') {
        problems.push(format!(
            "a group prefix does not end with `/` (the routes' own paths start with one): write `{}`",
            prefix.trim_end_matches('/')
        ));
    }
    match Template::parse(prefix) {
        Ok(template) => {
            for name in template.param_names() {
                problems.push(format!(
                    "a group prefix cannot have path parameters: a route's handler reads only the parameters of its own path; put `{{{name}}}` in the path of each route instead"
                ));
            }
        }
        Err(err) => problems.extend(err.problems),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(TemplateError {
            path: prefix.to_owned(),
            problems,
        })
    }
}

/// A route's template `path` under a group's `prefix` (checked by [`check_prefix`]): the prefix,
/// then the path with its leading `/` (added when the path was written without one). An empty
/// prefix leaves the path as written; an empty path is the prefix itself.
///
/// ```
/// use ferrapi_template::join;
/// assert_eq!(join("/clinic", "/doctors/{id}"), "/clinic/doctors/{id}");
/// assert_eq!(join("/clinic", "doctors"), "/clinic/doctors");
/// assert_eq!(join("/clinic", ""), "/clinic");
/// assert_eq!(join("/clinic", "/"), "/clinic/");
/// assert_eq!(join("", "employee/:id"), "employee/:id");
/// ```
pub fn join(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        return path.to_owned();
    }
    if path.is_empty() || path.starts_with('/') {
        format!("{prefix}{path}")
    } else {
        format!("{prefix}/{path}")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn both_parameter_syntaxes_and_optional_leading_slash() {
        let a = Template::parse("/user/{user_id}/item/{item_id}").unwrap();
        let b = Template::parse("user/:user_id/item/:item_id").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.openapi_path(), "/user/{user_id}/item/{item_id}");
        assert_eq!(a.shape(), "/user/{p0}/item/{p1}");
        assert_eq!(a.param_names().collect::<Vec<_>>(), ["user_id", "item_id"]);
    }

    #[test]
    fn trailing_slash_is_not_significant() {
        assert_eq!(
            Template::parse("/post/").unwrap(),
            Template::parse("/post").unwrap()
        );
        assert_eq!(Template::parse("/").unwrap().openapi_path(), "/");
        assert_eq!(Template::parse("").unwrap().shape(), "/");
    }

    #[test]
    fn malformed_templates_are_refused() {
        for bad in [
            "/item/{id",
            "/item/id}",
            "/item/{{id}}",
            "/item/{}",
            "/item/:",
            "/a//b",
            "/item/x{id}",
            "/item/{a-b}",
            "/x/{1a}",
            "/x/{id}/:id",
        ] {
            assert!(Template::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_problem_is_reported_in_words() {
        let err = Template::parse("/a//{id/{}/{id}/:id/{1x}").unwrap_err();
        assert_eq!(
            err.problems(),
            [
                "path `/a//{id/{}/{id}/:id/{1x}` has an empty segment (`//`)",
                "malformed path segment `{id`: braces must enclose a whole segment, as in `{name}`",
                "empty parameter name in segment `{}`: name the parameter after its argument, as in `{id}`",
                "parameter `id` appears twice in the path: each parameter needs its own name and argument",
                "`1x` is not a valid parameter name (use letters, digits and `_`)",
            ]
        );
        assert!(err
            .to_string()
            .starts_with("path `/a//{id/{}/{id}/:id/{1x}`: path `/a//"));
        assert_eq!(err.path(), "/a//{id/{}/{id}/:id/{1x}");
    }

    #[test]
    fn overlap_and_cover() {
        let me = Template::parse("/user/me").unwrap();
        let id = Template::parse("/user/{id}").unwrap();
        let other = Template::parse("/users/{id}").unwrap();
        assert!(me.overlaps(&id) && id.overlaps(&me));
        assert!(!id.overlaps(&other));
        assert!(id.covers(&me) && !me.covers(&id));
    }

    #[test]
    fn path_matching() {
        let t = Template::parse("/user/{id}/item").unwrap();
        assert!(t.matches_path("/user/7/item"));
        assert!(t.matches_path("/user/7/item/"));
        assert!(!t.matches_path("/user//item"));
        assert!(!t.matches_path("/user/7"));
        assert!(!t.matches_path("/user/7/item/x"));
        assert!(Template::parse("/").unwrap().matches_path("/"));
    }

    #[test]
    fn group_prefixes() {
        for good in ["", "/a", "/a/b", "/api/v1"] {
            assert!(check_prefix(good).is_ok(), "{good}");
        }
        let problems = |prefix: &str| check_prefix(prefix).unwrap_err().problems().to_vec();
        assert_eq!(problems("a").len(), 1);
        assert_eq!(problems("/a/").len(), 1);
        assert_eq!(problems("a/").len(), 2);
        assert!(problems("/t/{tenant}")[0].contains("`{tenant}`"));
        assert!(problems("/t/:tenant")[0].contains("`{tenant}`"));
        assert!(problems("/a//b")[0].contains("empty segment"));
        assert!(problems("/a/{b")[0].contains("malformed"));
        assert_eq!(join("/a", "/b/{id}/"), "/a/b/{id}/");
        assert_eq!(Template::parse(&join("/a", "")).unwrap().openapi_path(), "/a");
    }
}
