// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// Create a thing.
async fn create_thing(thing: Thing) -> (StatusCode, Json<Thing>) {
    (StatusCode::CREATED, Json(thing))
}
/// Create a thing.
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct create_thing {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for create_thing {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            let _ = <Thing as __rt::Arg>::SOURCE;
            __rt::assert_into_response::<(StatusCode, Json<Thing>)>();
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
                let mut __arg0: ::core::option::Option<<Thing as __rt::Arg>::Input> = ::core::option::Option::None;
                if !<Thing as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <Thing as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("thing", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <Thing as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <Thing as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("thing", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if __group.is_some() || <Thing as __rt::Arg>::SOURCE.is_dependency() {
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
                            let __arg0 = match __arg0 {
                                ::core::option::Option::Some(__input) => {
                                    match <Thing as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <Thing as __rt::Share<
                                                { <Thing as __rt::Arg>::SOURCE.is_dependency() },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            if let ::core::option::Option::Some(__invalid) = __invalid {
                                return __invalid.answer();
                            }
                            #[allow(irrefutable_let_patterns)]
                            let (::core::option::Option::Some(__arg0),) = (__arg0,) else {
                                return __rt::internal_error();
                            };
                            <(
                                StatusCode,
                                Json<Thing>,
                            ) as __rt::IntoResponse>::into_response(
                                create_thing(__arg0).await,
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
                let (::core::option::Option::Some(__arg0),) = (
                    <Thing as __rt::Arg>::__now(__arg0, __rt::SEALED),
                ) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "create_thing",
                        async move { create_thing(__arg0).await },
                        |__output| <(
                            StatusCode,
                            Json<Thing>,
                        ) as __rt::IntoResponse>::into_response(__output),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
                <Thing as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "create_thing",
                    ::core::option::Option::Some("Create a thing."),
                    ::core::option::Option::None,
                    &["things", "writes"],
                );
                <Thing as __rt::Arg>::doc(
                    __rt::Param::new("thing", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                {
                    use __rt::ProbeKnown as _;
                    use __rt::ProbeUnknown as _;
                    let probe = __rt::SchemaProbe::<Thing>(::core::marker::PhantomData);
                    let schema = registry
                        .in_mode(
                            __rt::SchemaMode::Output,
                            |registry| (&probe).probe_schema(registry),
                        );
                    if let ::core::option::Option::Some(schema) = schema {
                        op.response("application/json", schema);
                    }
                }
                op.success_status(201);
                op.extra_response(409, "Already exists");
                op.extra_response(422, "Invalid");
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "create_thing",
                method: __rt::Method::POST,
                path: "/things",
                handler,
                reads_body: <Thing as __rt::Arg>::SOURCE.is_body(),
                streams_body: <Thing as __rt::Arg>::SOURCE.is_stream(),
                include_in_schema: true,
                operation,
                check,
            })
        }
    }
};
