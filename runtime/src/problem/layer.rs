//! [`ProblemLayer`]: the tower layer [`App::problem_details`](crate::App::problem_details) adds,
//! which rewrites every error answer of the app as problem details.
//!
//! Rules enforced here: the request's path is taken before the request is handed on (it is the
//! problem's `instance`); the inner service's answer is awaited and converted, nothing else of the
//! request or the answer is touched.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::Request;

use super::body::to_problem;
use crate::dispatch::Endpoint;
use crate::response::{Body, Response};

/// The layer of [`App::problem_details`](crate::App::problem_details).
#[derive(Debug, Clone, Copy, Default)]
pub struct ProblemLayer;

/// The service [`ProblemLayer`] makes of the app's endpoint.
#[derive(Clone)]
pub struct ProblemService {
    inner: Endpoint,
}

impl std::fmt::Debug for ProblemService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProblemService")
    }
}

impl tower::Layer<Endpoint> for ProblemLayer {
    type Service = ProblemService;

    fn layer(&self, inner: Endpoint) -> ProblemService {
        ProblemService { inner }
    }
}

impl tower::Service<Request<Body>> for ProblemService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        tower::Service::<Request<Body>>::poll_ready(&mut self.inner, cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let instance = request.uri().path().to_owned();
        let answer = tower::Service::<Request<Body>>::call(&mut self.inner, request);
        Box::pin(async move {
            let response = answer.await?;
            Ok(to_problem(response, &instance))
        })
    }
}
