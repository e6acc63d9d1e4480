// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

const UNAVAILABLE: &str = "The database is unavailable";
async fn list_doctors(store: State<Store>) -> Result<Json<Vec<Doctor>>, HttpError> {
    store.doctors().await.map(Json)
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct list_doctors {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for list_doctors {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            let _ = <State<Store> as __rt::Arg>::SOURCE;
            __rt::assert_into_response::<Result<Json<Vec<Doctor>>, HttpError>>();
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
                let mut __arg0: ::core::option::Option<
                    <State<Store> as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<State<Store> as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <State<
                        Store,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("store", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <State<Store> as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <State<
                        Store,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("store", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if __group.is_some()
                    || <State<Store> as __rt::Arg>::SOURCE.is_dependency()
                {
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
                                    match <State<
                                        Store,
                                    > as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <State<
                                                Store,
                                            > as __rt::Share<
                                                { <State<Store> as __rt::Arg>::SOURCE.is_dependency() },
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
                            <Result<
                                Json<Vec<Doctor>>,
                                HttpError,
                            > as __rt::IntoResponse>::into_response(
                                list_doctors(__arg0).await,
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
                    <State<Store> as __rt::Arg>::__now(__arg0, __rt::SEALED),
                ) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Later(
                    __rt::boxed(async move {
                        <Result<
                            Json<Vec<Doctor>>,
                            HttpError,
                        > as __rt::IntoResponse>::into_response(
                            list_doctors(__arg0).await,
                        )
                    }),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
                <State<Store> as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "list_doctors",
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                    &["doctors"],
                );
                <State<
                    Store,
                > as __rt::Arg>::doc(
                    __rt::Param::new("store", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                {
                    use __rt::ProbeKnown as _;
                    use __rt::ProbeUnknown as _;
                    let probe = __rt::SchemaProbe::<
                        Vec<Doctor>,
                    >(::core::marker::PhantomData);
                    let schema = registry
                        .in_mode(
                            __rt::SchemaMode::Output,
                            |registry| (&probe).probe_schema(registry),
                        );
                    if let ::core::option::Option::Some(schema) = schema {
                        op.response("application/json", schema);
                    }
                }
                op.extra_response(404, "No doctor");
                op.extra_response(
                    503,
                    {
                        let description: &'static str = UNAVAILABLE;
                        description
                    },
                );
                op.extra_response(
                    504,
                    {
                        let description: &'static str = crate::messages::TIMEOUT;
                        description
                    },
                );
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "list_doctors",
                method: __rt::Method::GET,
                path: "/doctors",
                handler,
                reads_body: <State<Store> as __rt::Arg>::SOURCE.is_body(),
                streams_body: <State<Store> as __rt::Arg>::SOURCE.is_stream(),
                include_in_schema: true,
                operation,
                check,
            })
        }
    }
};
