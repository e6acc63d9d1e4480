//! Routing in declaration order on top of matchit.
//!
//! Rules enforced here:
//! - routes match in declaration order and the first match wins, whatever matchit's own
//!   preference for static segments;
//! - a route whose every path is already taken, for its method, by an earlier route (the same
//!   template, or one that covers it like `/user/{id}` before `/user/me`) never runs: it is
//!   reported as shadowed, once, when the router is built;
//! - no route for the path is a 404; a path served only for other methods is a 405 with `Allow`;
//!   HEAD is answered by GET routes; a trailing `/` on the request path is not significant.
//!
//! How: each distinct *shape* (`/item/{p0}`) is inserted into matchit once. Per shape the router
//! keeps the candidate routes of that shape and of every overlapping shape, sorted by declaration
//! index; a request walks that short list. Shapes without overlaps have one candidate per method.

use hyper::header::HeaderValue;
use hyper::Method;

use ferrapi_template::{Segment, Template};

use crate::extract::{PathParams, MAX_PARAMS};

#[derive(Debug, Clone)]
struct Candidate {
    route: usize,
    method: Method,
    shape: usize,
}

#[derive(Debug)]
struct Shape {
    template: Template,
    /// Where the parameter values of a path of this shape are (see [`Step`]).
    layout: Vec<Step>,
    candidates: Vec<Candidate>,
}

/// One step of finding the parameter values in a path that matched a shape, without reading its
/// literal segments: matchit compared those byte for byte, so each spans exactly as many bytes as
/// in the template. Only a parameter that is not the last segment is scanned, for its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// A literal segment of this many bytes, then its `/`.
    Skip(usize),
    /// A parameter value, up to the next `/`.
    Param,
    /// The last segment, a parameter: the rest of the path.
    Tail,
}

/// The steps for `template`, ending at its last parameter (nothing after it is read).
fn layout(template: &Template) -> Vec<Step> {
    let segments = template.segments();
    let Some(last_param) = segments.iter().rposition(|s| matches!(s, Segment::Param(_))) else {
        return Vec::new();
    };
    segments[..=last_param]
        .iter()
        .enumerate()
        .map(|(i, segment)| match segment {
            Segment::Literal(text) => Step::Skip(text.len()),
            Segment::Param(_) if i + 1 == segments.len() => Step::Tail,
            Segment::Param(_) => Step::Param,
        })
        .collect()
}

/// Whether a declared route is served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouteStatus {
    /// The route answers requests.
    Served,
    /// An earlier route (by index) answers every request this one would.
    Shadowed {
        /// Declaration index of the route that wins.
        by: usize,
    },
}

/// The outcome of a lookup.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Route `route` answers; `params` are byte ranges of the parameter values in the path.
    Found {
        /// Declaration index.
        route: usize,
        /// Byte ranges of the parameter values in the request path, in template order.
        params: PathParams,
    },
    /// The path exists for other methods (the `Allow` header value).
    MethodNotAllowed(HeaderValue),
    /// No route has this path.
    NotFound,
}

/// A route table compiled for lookups.
#[derive(Debug)]
pub struct Router {
    matcher: matchit::Router<usize>,
    shapes: Vec<Shape>,
    statuses: Vec<RouteStatus>,
}

/// A route the router cannot hold (one per such route: [`Router::new`] reports them all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouterError {
    /// The route's declaration index.
    pub route: usize,
    /// What is wrong with it.
    pub kind: RouterErrorKind,
}

/// Why the router cannot hold a route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouterErrorKind {
    /// The template has more path parameters than a request's [`PathParams`] can hold.
    TooManyParams {
        /// The most a route may have.
        max: usize,
    },
    /// matchit refuses the template's shape beside the shapes before it (its message).
    Conflict(String),
}

impl std::fmt::Display for RouterErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RouterErrorKind::TooManyParams { max } => write!(f, "more than {max} path parameters"),
            RouterErrorKind::Conflict(message) => f.write_str(message),
        }
    }
}

impl Router {
    /// Compile `routes` (method and template, in declaration order); every route it cannot
    /// hold is reported, in declaration order.
    pub fn new(routes: &[(Method, Template)]) -> Result<Self, Vec<RouterError>> {
        let mut matcher = matchit::Router::new();
        let mut shapes: Vec<Shape> = Vec::new();
        let mut statuses = Vec::with_capacity(routes.len());
        let mut route_shape = Vec::with_capacity(routes.len());
        let mut errors = Vec::new();

        for (index, (method, template)) in routes.iter().enumerate() {
            // A route the router cannot hold is reported and the next is compiled on, so one
            // build names every such route; the router is not returned then.
            let refused = |kind| RouterError { route: index, kind };
            if template.param_names().count() > MAX_PARAMS {
                errors.push(refused(RouterErrorKind::TooManyParams { max: MAX_PARAMS }));
                statuses.push(RouteStatus::Served);
                continue;
            }
            let key = template.shape();
            let shape = match shapes.iter().position(|s| s.template.shape() == key) {
                Some(found) => found,
                None => {
                    if let Err(err) = matcher.insert(key.clone(), shapes.len()) {
                        errors.push(refused(RouterErrorKind::Conflict(err.to_string())));
                        statuses.push(RouteStatus::Served);
                        continue;
                    }
                    shapes.push(Shape {
                        template: template.clone(),
                        layout: layout(template),
                        candidates: Vec::new(),
                    });
                    shapes.len() - 1
                }
            };
            route_shape.push(shape);
            let earlier = (0..index).find(|&e| {
                statuses[e] == RouteStatus::Served && routes[e].0 == *method && routes[e].1.covers(template)
            });
            statuses.push(match earlier {
                Some(by) => RouteStatus::Shadowed { by },
                None => RouteStatus::Served,
            });
        }

        if !errors.is_empty() {
            return Err(errors);
        }
        let templates: Vec<Template> = shapes.iter().map(|s| s.template.clone()).collect();
        for (shape_index, shape) in shapes.iter_mut().enumerate() {
            for (route, (method, _)) in routes.iter().enumerate() {
                let other = route_shape[route];
                let relevant = other == shape_index || templates[shape_index].overlaps(&templates[other]);
                if relevant && statuses[route] == RouteStatus::Served {
                    shape.candidates.push(Candidate {
                        route,
                        method: method.clone(),
                        shape: other,
                    });
                }
            }
        }
        Ok(Router {
            matcher,
            shapes,
            statuses,
        })
    }

    /// The router answering `ids[i]` where it answered route `i` (a version's router answers
    /// the app's declaration indexes: `versioned.rs`). `statuses` keep the router's own order.
    pub(crate) fn answering(mut self, ids: &[usize]) -> Self {
        for shape in &mut self.shapes {
            for candidate in &mut shape.candidates {
                candidate.route = ids.get(candidate.route).copied().unwrap_or(candidate.route);
            }
        }
        self
    }

    /// Whether each route (by declaration index) is served.
    pub fn statuses(&self) -> &[RouteStatus] {
        &self.statuses
    }

    /// Find the route for `method` and `path` (the raw, percent-encoded request path).
    pub fn lookup(&self, method: &Method, path: &str) -> Lookup {
        let key = if path.len() > 1 {
            path.strip_suffix('/').unwrap_or(path)
        } else {
            path
        };
        let Ok(matched) = self.matcher.at(key) else {
            return Lookup::NotFound;
        };
        let matched_shape = *matched.value;
        let Some(shape) = self.shapes.get(matched_shape) else {
            return Lookup::NotFound;
        };
        let applies = |candidate: &&Candidate| {
            candidate.shape == matched_shape
                || self
                    .shapes
                    .get(candidate.shape)
                    .is_some_and(|target| target.template.matches_path(key))
        };
        // The method first: it is the cheaper test, and a candidate of the matched shape itself
        // (the usual winner) needs no other.
        for candidate in &shape.candidates {
            if candidate.method != *method && !(*method == Method::HEAD && candidate.method == Method::GET) {
                continue;
            }
            let target = if candidate.shape == matched_shape {
                shape
            } else {
                match self.shapes.get(candidate.shape) {
                    Some(target) if target.template.matches_path(key) => target,
                    _ => continue,
                }
            };
            return Lookup::Found {
                route: candidate.route,
                params: param_ranges(&target.layout, key),
            };
        }
        // A miss: the rarer path, so the list of allowed methods is only built here.
        let mut allowed: Vec<&Method> = Vec::new();
        for candidate in shape.candidates.iter().filter(applies) {
            if !allowed.contains(&&candidate.method) {
                allowed.push(&candidate.method);
            }
        }
        if allowed.is_empty() {
            return Lookup::NotFound;
        }
        let mut allow = allowed.iter().map(|m| m.as_str()).collect::<Vec<_>>();
        if allow.contains(&"GET") && !allow.contains(&"HEAD") {
            allow.push("HEAD");
        }
        let allow = HeaderValue::from_str(&allow.join(", ")).unwrap_or(HeaderValue::from_static("GET"));
        Lookup::MethodNotAllowed(allow)
    }
}

/// Byte ranges of the parameter values in `path`, which matched the shape of `layout` (so it
/// starts with one `/`, and each literal segment is as long as in the template). Reads only the
/// bytes of parameter values, and not even those of a last-segment parameter.
fn param_ranges(layout: &[Step], path: &str) -> PathParams {
    let bytes = path.as_bytes();
    let mut ranges = PathParams::default();
    let mut start = 1;
    for step in layout {
        match *step {
            Step::Skip(len) => start += len + 1,
            Step::Param => {
                let rest = bytes.get(start..).unwrap_or_default();
                let end = start + rest.iter().position(|&b| b == b'/').unwrap_or(rest.len());
                ranges.push((start, end));
                start = end + 1;
            }
            Step::Tail => ranges.push((start, bytes.len())),
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn router(routes: &[(&str, &str)]) -> Router {
        let routes: Vec<(Method, Template)> = routes
            .iter()
            .map(|(m, p)| {
                (
                    Method::from_bytes(m.as_bytes()).unwrap(),
                    Template::parse(p).unwrap(),
                )
            })
            .collect();
        Router::new(&routes).unwrap()
    }

    fn found(lookup: Lookup) -> (usize, Vec<(usize, usize)>) {
        match lookup {
            Lookup::Found { route, params } => (route, params.to_vec()),
            other => panic!("expected a route, got {other:?}"),
        }
    }

    #[test]
    fn every_route_the_router_cannot_hold_is_reported() {
        let nine = "/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}";
        let routes: Vec<(Method, Template)> = [nine, "/ok", nine]
            .iter()
            .map(|p| (Method::GET, Template::parse(p).unwrap()))
            .collect();
        let refused = Router::new(&routes).unwrap_err();
        let too_many = RouterErrorKind::TooManyParams { max: MAX_PARAMS };
        assert_eq!(
            refused,
            [
                RouterError {
                    route: 0,
                    kind: too_many.clone()
                },
                RouterError {
                    route: 2,
                    kind: too_many
                }
            ]
        );
    }

    #[test]
    fn first_declaration_wins_over_static_preference() {
        let r = router(&[("GET", "/user/{id}"), ("GET", "/user/me")]);
        assert_eq!(found(r.lookup(&Method::GET, "/user/me")).0, 0);
        assert_eq!(r.statuses()[1], RouteStatus::Shadowed { by: 0 });

        let r = router(&[("GET", "/user/me"), ("GET", "/user/{id}")]);
        assert_eq!(found(r.lookup(&Method::GET, "/user/me")).0, 0);
        assert_eq!(found(r.lookup(&Method::GET, "/user/7")), (1, vec![(6, 7)]));
        assert_eq!(r.statuses(), &[RouteStatus::Served, RouteStatus::Served]);
    }

    #[test]
    fn duplicates_by_shape_are_shadowed() {
        let r = router(&[
            ("GET", "/item/{id}"),
            ("GET", "/item/{id}"),
            ("GET", "/item/:item_id"),
            ("PUT", "/item/{item_id}"),
        ]);
        assert_eq!(r.statuses()[1], RouteStatus::Shadowed { by: 0 });
        assert_eq!(r.statuses()[2], RouteStatus::Shadowed { by: 0 });
        assert_eq!(r.statuses()[3], RouteStatus::Served);
        assert_eq!(found(r.lookup(&Method::GET, "/item/42")), (0, vec![(6, 8)]));
        assert_eq!(found(r.lookup(&Method::PUT, "/item/42")).0, 3);
    }

    #[test]
    fn not_found_and_method_not_allowed() {
        let r = router(&[("GET", "/item/{id}"), ("PUT", "/item/{id}"), ("POST", "/item")]);
        assert_eq!(r.lookup(&Method::GET, "/nope"), Lookup::NotFound);
        assert_eq!(r.lookup(&Method::GET, "/item/1/2"), Lookup::NotFound);
        assert_eq!(
            r.lookup(&Method::DELETE, "/item/1"),
            Lookup::MethodNotAllowed(HeaderValue::from_static("GET, PUT, HEAD"))
        );
        assert_eq!(
            r.lookup(&Method::GET, "/item"),
            Lookup::MethodNotAllowed(HeaderValue::from_static("POST"))
        );
    }

    #[test]
    fn head_uses_get_and_trailing_slash_is_tolerated() {
        let r = router(&[("GET", "/item/{id}"), ("POST", "/post/")]);
        assert_eq!(found(r.lookup(&Method::HEAD, "/item/1")).0, 0);
        assert_eq!(found(r.lookup(&Method::GET, "/item/1/")), (0, vec![(6, 7)]));
        assert_eq!(found(r.lookup(&Method::POST, "/post")).0, 1);
        assert_eq!(found(r.lookup(&Method::POST, "/post/")).0, 1);
    }

    #[test]
    fn overlapping_shapes_respect_order_per_path() {
        let r = router(&[("GET", "/a/{x}/c"), ("GET", "/a/b/{y}")]);
        assert_eq!(found(r.lookup(&Method::GET, "/a/b/c")).0, 0);
        assert_eq!(found(r.lookup(&Method::GET, "/a/b/d")), (1, vec![(5, 6)]));
        assert_eq!(found(r.lookup(&Method::GET, "/a/z/c")), (0, vec![(3, 4)]));
        assert_eq!(r.statuses(), &[RouteStatus::Served, RouteStatus::Served]);
    }

    #[test]
    fn root_route() {
        let r = router(&[("GET", "/")]);
        assert_eq!(found(r.lookup(&Method::GET, "/")), (0, vec![]));
    }

    fn ranges(template: &str, path: &str) -> Vec<(usize, usize)> {
        param_ranges(&layout(&Template::parse(template).unwrap()), path).to_vec()
    }

    #[test]
    fn parameter_ranges_from_the_layout() {
        assert_eq!(
            ranges("/user/{a}/item/{b}", "/user/7/item/abc"),
            vec![(6, 7), (13, 16)]
        );
        assert_eq!(
            ranges("/user/{a}/item/{b}/x", "/user/7/item/abc/x"),
            vec![(6, 7), (13, 16)]
        );
        assert_eq!(ranges("/{a}/{b}", "/x%2F/y"), vec![(1, 5), (6, 7)]);
        assert_eq!(ranges("/{x}", "/x"), vec![(1, 2)]);
        assert_eq!(ranges("/a/b", "/a/b"), vec![]);
        assert_eq!(ranges("/", "/"), vec![]);
    }

    #[test]
    fn parameter_ranges_of_an_overlapping_shape() {
        let r = router(&[
            ("GET", "/a/{x}/c"),
            ("GET", "/a/bb/{y}/{z}"),
            ("GET", "/{u}/bb/{v}/d"),
        ]);
        assert_eq!(found(r.lookup(&Method::GET, "/a/bb/c")), (0, vec![(3, 5)]));
        assert_eq!(
            found(r.lookup(&Method::GET, "/a/bb/cc/d")),
            (1, vec![(6, 8), (9, 10)])
        );
        assert_eq!(
            found(r.lookup(&Method::GET, "/zz/bb/cc/d")),
            (2, vec![(1, 3), (7, 9)])
        );
    }
}
