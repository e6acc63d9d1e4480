// A path issue 33 moved from the crate root answers with its new path: each deprecated alias
// warns with a note naming it (here an error, under `deny`). `ferrapi::header` has no alias:
// rustc does not warn on a path through a deprecated module (see runtime/src/moved.rs).
#![deny(deprecated)]

ferrapi::param_name!(RequestId = "X-Request-Id");
ferrapi::token_url!(Login = "token");

fn takes_a_route(_: impl ferrapi::Route) {}

fn main() {
    let _ = ferrapi::StatusCode::CREATED;
    let _ = ferrapi::Method::GET;
    let _ = ferrapi::HeaderMap::new();
    let _ = ferrapi::Uri::from_static("/");
    let _ = ferrapi::escape_html("<");
    let _ = ferrapi::HTML_CONTENT_SECURITY_POLICY;
    let _ = ferrapi::shutdown_signal;
    let _: Option<ferrapi::Sse> = None;
    let _: Option<ferrapi::Event> = None;
    let _: Option<ferrapi::KeepAlive> = None;
    let _: Option<ferrapi::LastEventId> = None;
    let _: Option<ferrapi::StreamingResponse> = None;
    let _: Option<ferrapi::FileResponse> = None;
    let _: Option<ferrapi::StaticDir> = None;
    let _: Option<ferrapi::ServeStatic<ferrapi::Service>> = None;
    let _: Option<ferrapi::ServeStaticFuture<std::convert::Infallible>> = None;
    let _: Option<ferrapi::Multipart> = None;
    let _: Option<ferrapi::Part> = None;
    let _: Option<ferrapi::MultipartError> = None;
    let _: Option<ferrapi::RouteDef> = None;
    let _: Option<ferrapi::RouteInfo> = None;
    let _: Option<ferrapi::ServeError> = None;
    let _: Option<ferrapi::ServiceFuture<ferrapi::Body>> = None;
    let _: Option<ferrapi::BoxError> = None;
    let _: Option<ferrapi::BodyError> = None;
    let _: Option<ferrapi::Validation> = None;
    let _: Option<ferrapi::idempotency::KeptAnswer> = None;
    let _ = (RequestId, Login);
}
