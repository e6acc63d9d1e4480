// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn count(counter: State<Counter>, headers: HeaderMap) -> Json<Value> {
    Json(json!({ "hits" : counter.hit(), "headers" : headers.len() }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct count {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for count {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            let _ = <State<Counter> as __rt::Arg>::SOURCE;
            let _ = <HeaderMap as __rt::Arg>::SOURCE;
            __rt::assert_one_body::<
                HeaderMap,
                { <State<Counter> as __rt::Arg>::SOURCE.is_body() },
                { <HeaderMap as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_into_response::<Json<Value>>();
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
                    <State<Counter> as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<State<Counter> as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <State<
                        Counter,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("counter", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                let mut __arg1: ::core::option::Option<
                    <HeaderMap as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<HeaderMap as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <HeaderMap as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("headers", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <State<Counter> as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <State<
                        Counter,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("counter", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <HeaderMap as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <HeaderMap as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("headers", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if __group.is_some()
                    || <State<Counter> as __rt::Arg>::SOURCE.is_dependency()
                    || <HeaderMap as __rt::Arg>::SOURCE.is_dependency()
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
                                        Counter,
                                    > as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <State<
                                                Counter,
                                            > as __rt::Share<
                                                { <State<Counter> as __rt::Arg>::SOURCE.is_dependency() },
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
                            let __arg1 = match __arg1 {
                                ::core::option::Option::Some(__input) => {
                                    match <HeaderMap as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <HeaderMap as __rt::Share<
                                                { <HeaderMap as __rt::Arg>::SOURCE.is_dependency() },
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
                            let (
                                ::core::option::Option::Some(__arg0),
                                ::core::option::Option::Some(__arg1),
                            ) = (__arg0, __arg1) else {
                                return __rt::internal_error();
                            };
                            <Json<
                                Value,
                            > as __rt::IntoResponse>::into_response(
                                count(__arg0, __arg1).await,
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
                let (
                    ::core::option::Option::Some(__arg0),
                    ::core::option::Option::Some(__arg1),
                ) = (
                    <State<Counter> as __rt::Arg>::__now(__arg0, __rt::SEALED),
                    <HeaderMap as __rt::Arg>::__now(__arg1, __rt::SEALED),
                ) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "count",
                        async move { count(__arg0, __arg1).await },
                        |__output| <Json<
                            Value,
                        > as __rt::IntoResponse>::into_response(__output),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
                <State<Counter> as __rt::Arg>::check(state)?;
                <HeaderMap as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "count",
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                    &[],
                );
                <State<
                    Counter,
                > as __rt::Arg>::doc(
                    __rt::Param::new("counter", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                <HeaderMap as __rt::Arg>::doc(
                    __rt::Param::new("headers", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "count",
                method: __rt::Method::GET,
                path: "/count",
                handler,
                reads_body: <State<Counter> as __rt::Arg>::SOURCE.is_body()
                    || <HeaderMap as __rt::Arg>::SOURCE.is_body(),
                streams_body: <State<Counter> as __rt::Arg>::SOURCE.is_stream()
                    || <HeaderMap as __rt::Arg>::SOURCE.is_stream(),
                include_in_schema: false,
                operation,
                check,
            })
        }
    }
};
