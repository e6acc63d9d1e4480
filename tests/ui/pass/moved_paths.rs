// The crate-root paths issue 33 moved still compile for one release (as deprecated aliases, see
// `moved_paths.rs` beside the compile-fail cases for the warnings), and mean the same items as
// their new paths.
#![allow(deprecated)]

use ferrapi::prelude::*;

ferrapi::param_name!(RequestId = "X-Request-Id");
ferrapi::token_url!(Login = "token");

#[get("/events")]
async fn events(last: ferrapi::LastEventId) -> ferrapi::Sse {
    let first = ferrapi::Event::default().data(last.0.unwrap_or_default());
    let stream = futures_util::stream::iter([Ok::<_, std::convert::Infallible>(first)]);
    ferrapi::Sse::new(stream).keep_alive(ferrapi::KeepAlive::new())
}

fn takes_a_route(route: impl ferrapi::Route) -> ferrapi::RouteDef {
    route.def()
}

fn main() {
    let created: ferrapi::http::StatusCode = ferrapi::StatusCode::CREATED;
    assert_eq!(created.as_u16(), 201);
    let _: ferrapi::http::Method = ferrapi::Method::GET;
    let _: ferrapi::http::HeaderMap = ferrapi::HeaderMap::new();
    let _: ferrapi::http::Uri = ferrapi::Uri::from_static("/");
    assert_eq!(ferrapi::escape_html("<"), ferrapi::html::escape_html("<"));
    assert_eq!(ferrapi::HTML_CONTENT_SECURITY_POLICY, ferrapi::html::HTML_CONTENT_SECURITY_POLICY);
    let def = takes_a_route(events {});
    let table: Vec<ferrapi::RouteInfo> = App::new().routes([def]).route_table().unwrap();
    assert_eq!(table.len(), 1);
    let _: Option<ferrapi::ServeError> = None;
    let _: Option<ferrapi::BoxError> = None;
    let _: Option<ferrapi::BodyError> = None;
    let _: Option<ferrapi::ServiceFuture<ferrapi::Body>> = None;
    let _: Option<ferrapi::Validation> = None;
    let _: Option<ferrapi::FileResponse> = None;
    let _: Option<ferrapi::StaticDir> = None;
    let _: Option<ferrapi::ServeStatic<ferrapi::Service>> = None;
    let _: Option<ferrapi::ServeStaticFuture<std::convert::Infallible>> = None;
    let _: Option<ferrapi::Multipart> = None;
    let _: Option<ferrapi::Part> = None;
    let _: Option<ferrapi::MultipartError> = None;
    let _: Option<ferrapi::StreamingResponse> = None;
    let _: Option<ferrapi::idempotency::KeptAnswer> = None;
    let _ = ferrapi::shutdown_signal;
    let _ = (RequestId, Login);
}
