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
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for health {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_into_response::<&'static str>();
            let handler: __rt::Handler = |
                __cx: &__rt::RequestCx<'_>,
                __group: &[__rt::DependencyFn]|
            {
                #[allow(unused_mut)]
                let mut __errors = __rt::ValidationErrors::new();
                let __group = if __group.is_empty() {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(
                        __rt::GroupInputs::extract(__group, __cx, &mut __errors),
                    )
                };
                if __group.is_some() {
                    if __rt::bad_body(&__errors) {
                        return __rt::Started::Now(__rt::invalid(__cx, __errors));
                    }
                    let __invalid = __rt::defer_invalid(__cx, __errors);
                    return __rt::Started::Later(
                        __rt::boxed(async move {
                            let mut __deps = __rt::Deps::new();
                            if let ::core::option::Option::Some(__group) = __group {
                                if let ::core::result::Result::Err(__response) = __group
                                    .resolve(&mut __deps)
                                    .await
                                {
                                    return __response;
                                }
                            }
                            if let ::core::option::Option::Some(__invalid) = __invalid {
                                return __invalid.answer();
                            }
                            #[allow(irrefutable_let_patterns)]
                            let () = () else {
                                return __rt::internal_error();
                            };
                            <&'static str as __rt::IntoResponse>::into_response(
                                health().await,
                            )
                        }),
                    );
                }
                if let ::core::result::Result::Err(__response) = __rt::reject_invalid(
                    __cx,
                    __errors,
                ) {
                    return __rt::Started::Now(__response);
                }
                #[allow(irrefutable_let_patterns)]
                let () = () else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "health",
                        async move { health().await },
                        |__output| <&'static str as __rt::IntoResponse>::into_response(
                            __output,
                        ),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            { ::core::result::Result::Ok(()) };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "health",
                    ::core::option::Option::Some("Liveness probe."),
                    ::core::option::Option::None,
                    &[],
                );
                op.response("text/plain", __rt::json!({ "type" : "string" }));
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "health",
                method: __rt::Method::GET,
                path: "/health",
                handler,
                reads_body: false,
                streams_body: false,
                include_in_schema: true,
                operation,
                check,
            })
        }
    }
};
