// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn current_user(
    token: String,
    users: State<Users>,
    settings: Settings,
) -> Result<CurrentUser, HttpError> {
    users
        .find(&token, &settings)
        .await
        .ok_or_else(|| HttpError::new(401, "Not authenticated"))
}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl ::ferrapi::Arg for CurrentUser {
        const SOURCE: ::ferrapi::arg::Source = ::ferrapi::arg::Source::Dependency;
        type Input = (
            <String as ::ferrapi::Arg>::Input,
            <State<Users> as ::ferrapi::Arg>::Input,
            <Settings as ::ferrapi::Arg>::Input,
        );
        #[allow(unused_variables)]
        fn extract(
            __cx: &::ferrapi::arg::RequestCx<'_>,
            _param: ::ferrapi::arg::Param<Self>,
            __errors: &mut ::ferrapi::validation::ValidationErrors,
        ) -> ::core::option::Option<Self::Input> {
            __rt::assert_text::<String>();
            __rt::assert_not_body::<
                String,
                { <String as ::ferrapi::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_not_body::<
                State<Users>,
                { <State<Users> as ::ferrapi::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_not_body::<
                Settings,
                { <Settings as ::ferrapi::Arg>::SOURCE.is_body() },
            >();
            let __arg0 = <String as ::ferrapi::Arg>::extract(
                __cx,
                ::ferrapi::arg::Param::new(
                    "token",
                    ::core::option::Option::None,
                    &[__rt::Constraint::MinLength(1usize)],
                ),
                __errors,
            );
            let __arg1 = <State<
                Users,
            > as ::ferrapi::Arg>::extract(
                __cx,
                ::ferrapi::arg::Param::new("users", ::core::option::Option::None, &[]),
                __errors,
            );
            let __arg2 = <Settings as ::ferrapi::Arg>::extract(
                __cx,
                ::ferrapi::arg::Param::new(
                    "settings",
                    ::core::option::Option::None,
                    &[],
                ),
                __errors,
            );
            ::core::option::Option::Some((__arg0?, __arg1?, __arg2?))
        }
        #[allow(unused_variables)]
        fn resolve(
            __input: Self::Input,
            __deps: &mut ::ferrapi::arg::Deps,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<Self, ::ferrapi::Response>,
        > + ::core::marker::Send {
            async move {
                let (__arg0, __arg1, __arg2) = __input;
                let __arg0 = <String as ::ferrapi::Arg>::__resolve(
                        __arg0,
                        __deps,
                        <String as __rt::Share<
                            { <String as ::ferrapi::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                let __arg1 = <State<
                    Users,
                > as ::ferrapi::Arg>::__resolve(
                        __arg1,
                        __deps,
                        <State<
                            Users,
                        > as __rt::Share<
                            { <State<Users> as ::ferrapi::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                let __arg2 = <Settings as ::ferrapi::Arg>::__resolve(
                        __arg2,
                        __deps,
                        <Settings as __rt::Share<
                            { <Settings as ::ferrapi::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                ::core::result::Result::map_err(
                    current_user(__arg0, __arg1, __arg2).await,
                    <HttpError as ::ferrapi::IntoResponse>::into_response,
                )
            }
        }
        #[allow(unused_variables)]
        fn doc(
            _param: ::ferrapi::arg::Param<Self>,
            __op: &mut ::ferrapi::schema::Operation,
            __registry: &mut ::ferrapi::schema::SchemaRegistry,
        ) {
            <String as ::ferrapi::Arg>::doc(
                ::ferrapi::arg::Param::new(
                    "token",
                    ::core::option::Option::None,
                    &[__rt::Constraint::MinLength(1usize)],
                ),
                __op,
                __registry,
            );
            <State<
                Users,
            > as ::ferrapi::Arg>::doc(
                ::ferrapi::arg::Param::new("users", ::core::option::Option::None, &[]),
                __op,
                __registry,
            );
            <Settings as ::ferrapi::Arg>::doc(
                ::ferrapi::arg::Param::new(
                    "settings",
                    ::core::option::Option::None,
                    &[],
                ),
                __op,
                __registry,
            );
            __op.dependency_response(401, "Not authenticated");
        }
        fn check(
            __state: &::ferrapi::arg::StateMap,
        ) -> ::core::result::Result<(), ::std::string::String> {
            <String as ::ferrapi::Arg>::check(__state)?;
            <State<Users> as ::ferrapi::Arg>::check(__state)?;
            <Settings as ::ferrapi::Arg>::check(__state)?;
            ::core::result::Result::Ok(())
        }
    }
};
fn pagination(skip: i64, limit: i64) -> Pagination {
    Pagination { skip, limit }
}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl ::ferrapi::Arg for Pagination {
        const SOURCE: ::ferrapi::arg::Source = ::ferrapi::arg::Source::Dependency;
        type Input = (<i64 as ::ferrapi::Arg>::Input, <i64 as ::ferrapi::Arg>::Input);
        #[allow(unused_variables)]
        fn extract(
            __cx: &::ferrapi::arg::RequestCx<'_>,
            _param: ::ferrapi::arg::Param<Self>,
            __errors: &mut ::ferrapi::validation::ValidationErrors,
        ) -> ::core::option::Option<Self::Input> {
            __rt::assert_numeric::<i64>();
            __rt::assert_not_body::<
                i64,
                { <i64 as ::ferrapi::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_not_body::<
                i64,
                { <i64 as ::ferrapi::Arg>::SOURCE.is_body() },
            >();
            let __arg0 = <i64 as ::ferrapi::Arg>::extract(
                __cx,
                ::ferrapi::arg::Param::new(
                    "skip",
                    ::core::option::Option::Some(
                        (|| {
                            let value: i64 = 0;
                            value
                        }) as fn() -> i64,
                    ),
                    &[__rt::Constraint::Ge(::ferrapi::convert::Bound::Int(0i128))],
                ),
                __errors,
            );
            let __arg1 = <i64 as ::ferrapi::Arg>::extract(
                __cx,
                ::ferrapi::arg::Param::new(
                    "limit",
                    ::core::option::Option::Some(
                        (|| {
                            let value: i64 = 10;
                            value
                        }) as fn() -> i64,
                    ),
                    &[],
                ),
                __errors,
            );
            ::core::option::Option::Some((__arg0?, __arg1?))
        }
        #[allow(unused_variables)]
        fn resolve(
            __input: Self::Input,
            __deps: &mut ::ferrapi::arg::Deps,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<Self, ::ferrapi::Response>,
        > + ::core::marker::Send {
            async move {
                let (__arg0, __arg1) = __input;
                let __arg0 = <i64 as ::ferrapi::Arg>::__resolve(
                        __arg0,
                        __deps,
                        <i64 as __rt::Share<
                            { <i64 as ::ferrapi::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                let __arg1 = <i64 as ::ferrapi::Arg>::__resolve(
                        __arg1,
                        __deps,
                        <i64 as __rt::Share<
                            { <i64 as ::ferrapi::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                ::core::result::Result::Ok(pagination(__arg0, __arg1))
            }
        }
        #[allow(unused_variables)]
        fn doc(
            _param: ::ferrapi::arg::Param<Self>,
            __op: &mut ::ferrapi::schema::Operation,
            __registry: &mut ::ferrapi::schema::SchemaRegistry,
        ) {
            <i64 as ::ferrapi::Arg>::doc(
                ::ferrapi::arg::Param::new(
                    "skip",
                    ::core::option::Option::Some(
                        (|| {
                            let value: i64 = 0;
                            value
                        }) as fn() -> i64,
                    ),
                    &[__rt::Constraint::Ge(::ferrapi::convert::Bound::Int(0i128))],
                ),
                __op,
                __registry,
            );
            <i64 as ::ferrapi::Arg>::doc(
                ::ferrapi::arg::Param::new(
                    "limit",
                    ::core::option::Option::Some(
                        (|| {
                            let value: i64 = 10;
                            value
                        }) as fn() -> i64,
                    ),
                    &[],
                ),
                __op,
                __registry,
            );
        }
        fn check(
            __state: &::ferrapi::arg::StateMap,
        ) -> ::core::result::Result<(), ::std::string::String> {
            <i64 as ::ferrapi::Arg>::check(__state)?;
            <i64 as ::ferrapi::Arg>::check(__state)?;
            ::core::result::Result::Ok(())
        }
    }
};
