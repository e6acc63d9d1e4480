// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn list_user_items(user_id: i64, user: CurrentUser, skip: i64) -> Json<Value> {
    Json(json!({ "user_id" : user_id, "by" : user.name, "skip" : skip }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct list_user_items {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for list_user_items {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_path_param::<i64>();
            let _ = <CurrentUser as __rt::Arg>::SOURCE;
            __rt::assert_numeric::<i64>();
            let _ = <i64 as __rt::Arg>::SOURCE;
            __rt::assert_one_body::<
                i64,
                { <CurrentUser as __rt::Arg>::SOURCE.is_body() },
                { <i64 as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_into_response::<Json<Value>>();
            let handler: __rt::Handler = |
                __cx: &__rt::RequestCx<'_>,
                __group: &[__rt::DependencyFn]|
            {
                #[allow(unused_mut)]
                let mut __errors = __rt::ValidationErrors::new();
                let __arg0: ::core::option::Option<i64> = __rt::path_param::<
                    i64,
                >(__cx, 0usize, "user_id", &[], &mut __errors);
                let __group = if __group.is_empty() {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(
                        __rt::GroupInputs::extract(__group, __cx, &mut __errors),
                    )
                };
                let mut __arg1: ::core::option::Option<
                    <CurrentUser as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<CurrentUser as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <CurrentUser as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("user", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                let mut __arg2: ::core::option::Option<<i64 as __rt::Arg>::Input> = ::core::option::Option::None;
                if !<i64 as __rt::Arg>::SOURCE.is_body() {
                    __arg2 = <i64 as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new(
                            "skip",
                            ::core::option::Option::None,
                            &[__rt::Constraint::Ge(__rt::Bound::Int(0i128))],
                        ),
                        &mut __errors,
                    );
                }
                if <CurrentUser as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <CurrentUser as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("user", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <i64 as __rt::Arg>::SOURCE.is_body() {
                    __arg2 = <i64 as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new(
                            "skip",
                            ::core::option::Option::None,
                            &[__rt::Constraint::Ge(__rt::Bound::Int(0i128))],
                        ),
                        &mut __errors,
                    );
                }
                if __group.is_some()
                    || <CurrentUser as __rt::Arg>::SOURCE.is_dependency()
                    || <i64 as __rt::Arg>::SOURCE.is_dependency()
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
                            let __arg1 = match __arg1 {
                                ::core::option::Option::Some(__input) => {
                                    match <CurrentUser as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <CurrentUser as __rt::Share<
                                                { <CurrentUser as __rt::Arg>::SOURCE.is_dependency() },
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
                            let __arg2 = match __arg2 {
                                ::core::option::Option::Some(__input) => {
                                    match <i64 as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <i64 as __rt::Share<
                                                { <i64 as __rt::Arg>::SOURCE.is_dependency() },
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
                                ::core::option::Option::Some(__arg2),
                            ) = (__arg0, __arg1, __arg2) else {
                                return __rt::internal_error();
                            };
                            <Json<
                                Value,
                            > as __rt::IntoResponse>::into_response(
                                list_user_items(__arg0, __arg1, __arg2).await,
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
                    ::core::option::Option::Some(__arg2),
                ) = (
                    __arg0,
                    <CurrentUser as __rt::Arg>::__now(__arg1, __rt::SEALED),
                    <i64 as __rt::Arg>::__now(__arg2, __rt::SEALED),
                ) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "list_user_items",
                        async move { list_user_items(__arg0, __arg1, __arg2).await },
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
                <CurrentUser as __rt::Arg>::check(state)?;
                <i64 as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "list_user_items",
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                    &[],
                );
                op.path_param::<i64>("user_id", &[], registry);
                <CurrentUser as __rt::Arg>::doc(
                    __rt::Param::new("user", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                <i64 as __rt::Arg>::doc(
                    __rt::Param::new(
                        "skip",
                        ::core::option::Option::None,
                        &[__rt::Constraint::Ge(__rt::Bound::Int(0i128))],
                    ),
                    &mut op,
                    registry,
                );
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "list_user_items",
                method: __rt::Method::GET,
                path: "/users/{user_id}/items",
                handler,
                reads_body: <CurrentUser as __rt::Arg>::SOURCE.is_body()
                    || <i64 as __rt::Arg>::SOURCE.is_body(),
                streams_body: <CurrentUser as __rt::Arg>::SOURCE.is_stream()
                    || <i64 as __rt::Arg>::SOURCE.is_stream(),
                include_in_schema: true,
                operation,
                check,
            })
        }
    }
};
