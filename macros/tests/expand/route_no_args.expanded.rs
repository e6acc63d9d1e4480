// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// Liveness probe.
async fn health() -> &'static str {
    "ok"
}
/// Liveness probe.
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct health {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private as __rt;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| { () },
        |()| async move { health().await },
        |__out| <&'static str as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("health"),
    );
    impl __rt::Route for health {
        fn def(&self) -> __rt::RouteDef {
            __rt::RouteDef::from(__rt::RouteParts {
                name: "health",
                method: __rt::Method::GET,
                path: "/health",
                handler: __HANDLER,
                body: __rt::BodyMode::None,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("health", &[]);
                    op.summary("Liveness probe.");
                    op.response("text/plain", __rt::json!({ "type" : "string" }));
                    op
                },
                check: |state| { ::core::result::Result::Ok(()) },
            })
        }
    }
};
