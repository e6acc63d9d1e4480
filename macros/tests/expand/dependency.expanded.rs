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
    impl __rt::Arg for CurrentUser {
        const SOURCE: __rt::Source = __rt::Source::Dependency;
        type Input = (
            <String as __rt::Arg>::Input,
            <State<Users> as __rt::Arg>::Input,
            <Settings as __rt::Arg>::Input,
        );
        #[allow(unused_variables)]
        fn extract(
            __cx: &__rt::RequestCx<'_>,
            _param: __rt::Param<Self>,
            __errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self::Input> {
            __rt::assert_text::<String>();
            __rt::assert_not_body::<
                String,
                { <String as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_not_body::<
                State<Users>,
                { <State<Users> as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_not_body::<
                Settings,
                { <Settings as __rt::Arg>::SOURCE.is_body() },
            >();
            let __arg0 = <String as __rt::Arg>::extract(
                __cx,
                __rt::Param::constrained(
                    "token",
                    &[__rt::Constraint::MinLength(1usize)],
                ),
                __errors,
            );
            let __arg1 = <State<
                Users,
            > as __rt::Arg>::extract(__cx, __rt::Param::named("users"), __errors);
            let __arg2 = <Settings as __rt::Arg>::extract(
                __cx,
                __rt::Param::named("settings"),
                __errors,
            );
            ::core::option::Option::Some((__arg0?, __arg1?, __arg2?))
        }
        #[allow(unused_variables)]
        fn resolve(
            __input: Self::Input,
            __deps: &mut __rt::Deps,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<Self, __rt::Response>,
        > + ::core::marker::Send {
            async move {
                let (__arg0, __arg1, __arg2) = __input;
                let __arg0 = <String as __rt::Arg>::__resolve(
                        __arg0,
                        __deps,
                        <String as __rt::Share<
                            { <String as __rt::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                let __arg1 = <State<
                    Users,
                > as __rt::Arg>::__resolve(
                        __arg1,
                        __deps,
                        <State<
                            Users,
                        > as __rt::Share<
                            { <State<Users> as __rt::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                let __arg2 = <Settings as __rt::Arg>::__resolve(
                        __arg2,
                        __deps,
                        <Settings as __rt::Share<
                            { <Settings as __rt::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                ::core::result::Result::map_err(
                    current_user(__arg0, __arg1, __arg2).await,
                    <HttpError as __rt::IntoResponse>::into_response,
                )
            }
        }
        #[allow(unused_variables)]
        fn doc(
            _param: __rt::Param<Self>,
            __op: &mut __rt::Operation,
            __registry: &mut __rt::SchemaRegistry,
        ) {
            <String as __rt::Arg>::doc(
                __rt::Param::constrained(
                    "token",
                    &[__rt::Constraint::MinLength(1usize)],
                ),
                __op,
                __registry,
            );
            <State<
                Users,
            > as __rt::Arg>::doc(__rt::Param::named("users"), __op, __registry);
            <Settings as __rt::Arg>::doc(
                __rt::Param::named("settings"),
                __op,
                __registry,
            );
            __op.dependency_response(401, "Not authenticated");
        }
        fn check(
            __state: &__rt::StateMap,
        ) -> ::core::result::Result<(), ::std::string::String> {
            <String as __rt::Arg>::check(__state)?;
            <State<Users> as __rt::Arg>::check(__state)?;
            <Settings as __rt::Arg>::check(__state)?;
            ::core::result::Result::Ok(())
        }
    }
};
fn pagination(skip: i64, limit: i64) -> Pagination {
    Pagination { skip, limit }
}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Arg for Pagination {
        const SOURCE: __rt::Source = __rt::Source::Dependency;
        type Input = (<i64 as __rt::Arg>::Input, <i64 as __rt::Arg>::Input);
        #[allow(unused_variables)]
        fn extract(
            __cx: &__rt::RequestCx<'_>,
            _param: __rt::Param<Self>,
            __errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self::Input> {
            __rt::assert_numeric::<i64>();
            __rt::assert_not_body::<i64, { <i64 as __rt::Arg>::SOURCE.is_body() }>();
            __rt::assert_not_body::<i64, { <i64 as __rt::Arg>::SOURCE.is_body() }>();
            let __arg0 = <i64 as __rt::Arg>::extract(
                __cx,
                __rt::Param::new(
                    "skip",
                    ::core::option::Option::Some(
                        (|| {
                            let value: i64 = 0;
                            value
                        }) as fn() -> i64,
                    ),
                    &[__rt::Constraint::Ge(__rt::Bound::Int(0i128))],
                ),
                __errors,
            );
            let __arg1 = <i64 as __rt::Arg>::extract(
                __cx,
                __rt::Param::new(
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
            __deps: &mut __rt::Deps,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<Self, __rt::Response>,
        > + ::core::marker::Send {
            async move {
                let (__arg0, __arg1) = __input;
                let __arg0 = <i64 as __rt::Arg>::__resolve(
                        __arg0,
                        __deps,
                        <i64 as __rt::Share<
                            { <i64 as __rt::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                let __arg1 = <i64 as __rt::Arg>::__resolve(
                        __arg1,
                        __deps,
                        <i64 as __rt::Share<
                            { <i64 as __rt::Arg>::SOURCE.is_dependency() },
                        >>::SHARE,
                        __rt::SEALED,
                    )
                    .await?;
                ::core::result::Result::Ok(pagination(__arg0, __arg1))
            }
        }
        #[allow(unused_variables)]
        fn doc(
            _param: __rt::Param<Self>,
            __op: &mut __rt::Operation,
            __registry: &mut __rt::SchemaRegistry,
        ) {
            <i64 as __rt::Arg>::doc(
                __rt::Param::new(
                    "skip",
                    ::core::option::Option::Some(
                        (|| {
                            let value: i64 = 0;
                            value
                        }) as fn() -> i64,
                    ),
                    &[__rt::Constraint::Ge(__rt::Bound::Int(0i128))],
                ),
                __op,
                __registry,
            );
            <i64 as __rt::Arg>::doc(
                __rt::Param::new(
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
            __state: &__rt::StateMap,
        ) -> ::core::result::Result<(), ::std::string::String> {
            <i64 as __rt::Arg>::check(__state)?;
            <i64 as __rt::Arg>::check(__state)?;
            ::core::result::Result::Ok(())
        }
    }
};
