//! What the tests of API versions and deprecation share: the route mistakes an app that does not
//! build reports, and a group layer that answers for its routes.

use ferrapi::build::{Declared, MistakeKind};
use ferrapi::prelude::*;

/// Build `app`, which must not build, and list each mistake as (its sentence, the route's
/// function); every mistake must be a route's `MistakeKind::RouteVersions`.
pub fn route_version_mistakes(app: App) -> Vec<(String, &'static str)> {
    let error = app.build().map(drop).expect_err("an app that does not build");
    error
        .errors()
        .map(|mistake| match (mistake.kind(), mistake.declared()) {
            (MistakeKind::RouteVersions { problem }, Declared::Route { name, .. }) => {
                (problem.clone(), *name)
            }
            other => panic!("{other:?}"),
        })
        .collect()
}

/// A group layer answering 401 for the routes: its answer is theirs, so it carries what the
/// routes' answers carry (a deprecation notice, the version's echo).
#[derive(Clone)]
pub struct Refuse;

impl<S> tower::Layer<S> for Refuse {
    type Service = tower::util::MapResponse<S, fn(Response) -> Response>;
    fn layer(&self, inner: S) -> Self::Service {
        tower::util::MapResponse::new(inner, |mut response: Response| {
            *response.status_mut() = StatusCode::UNAUTHORIZED;
            response
        })
    }
}
