// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn delete_thing(thing_id: u64) -> Result<(StatusCode, String), HttpError> {
    if thing_id == 0 {
        return Err(HttpError::new(404, "No such thing"));
    }
    Ok((StatusCode::NO_CONTENT, String::new()))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct delete_thing {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for delete_thing {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_path_param::<u64>();
            __rt::assert_into_response::<Result<(StatusCode, String), HttpError>>();
            let handler: __rt::Handler = |
                __cx: &__rt::RequestCx<'_>,
                __group: &[__rt::DependencyFn]|
            {
                #[allow(unused_mut)]
                let mut __errors = __rt::ValidationErrors::new();
                let __arg0: ::core::option::Option<u64> = __rt::path_param::<
                    u64,
                >(__cx, 0usize, "thing_id", &[], &mut __errors);
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
                            let (::core::option::Option::Some(__arg0),) = (__arg0,) else {
                                return __rt::internal_error();
                            };
                            <Result<
                                (StatusCode, String),
                                HttpError,
                            > as __rt::IntoResponse>::into_response(
                                delete_thing(__arg0).await,
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
                let (::core::option::Option::Some(__arg0),) = (__arg0,) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "delete_thing",
                        async move { delete_thing(__arg0).await },
                        |__output| <Result<
                            (StatusCode, String),
                            HttpError,
                        > as __rt::IntoResponse>::into_response(__output),
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
                    "delete_thing",
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                    &[],
                );
                op.path_param::<u64>("thing_id", &[], registry);
                op.response("text/plain", __rt::json!({ "type" : "string" }));
                op.success_status(204);
                op.extra_response(404, "No such thing");
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "delete_thing",
                method: __rt::Method::DELETE,
                path: "/thing/{thing_id}",
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
