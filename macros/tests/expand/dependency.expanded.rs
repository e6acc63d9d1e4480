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
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<String> = __rt::Param::named("token")
        .constrained(&[__rt::Constraint::MinLength(1usize)]);
    const __ARG1: __rt::Param<State<Users>> = __rt::Param::named("users");
    const __ARG2: __rt::Param<Settings> = __rt::Param::named("settings");
    impl __rt::Dependency for CurrentUser {
        #[allow(unused_variables, clippy::unused_unit)]
        fn extract(
            __cx: &__rt::RequestCx<'_>,
            __err: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<impl __rt::Resolve<Self> + use<>> {
            __rt::assert_text::<String>();
            __rt::BodyProbe::<String>::not_body();
            __rt::BodyProbe::<State<Users>>::not_body();
            __rt::BodyProbe::<Settings>::not_body();
            let __arg0 = <String as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            let __arg1 = <State<Users> as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            let __arg2 = <Settings as __rt::Arg<_>>::extract(__cx, __ARG2, __err);
            let __resolve = __rt::depend(
                (__arg0, (__arg1, (__arg2, ()))),
                |(__arg0, (__arg1, (__arg2, ())))| async move {
                    ::core::result::Result::map_err(
                        current_user(__arg0, __arg1, __arg2).await,
                        <HttpError as __rt::IntoResponse>::into_response,
                    )
                },
            );
            __rt::assert_acyclic(&__resolve);
            __resolve
        }
        #[allow(unused_variables)]
        fn doc(__op: &mut __rt::Operation, __registry: &mut __rt::SchemaRegistry) {
            <String as __rt::Arg<_>>::doc(__ARG0, __op, __registry);
            <State<Users> as __rt::Arg<_>>::doc(__ARG1, __op, __registry);
            <Settings as __rt::Arg<_>>::doc(__ARG2, __op, __registry);
            __op.dependency_response(401, "Not authenticated");
        }
        fn check(
            __state: &__rt::StateMap,
        ) -> ::core::result::Result<(), ::std::string::String> {
            <String as __rt::Arg<_>>::check(__state)?;
            <State<Users> as __rt::Arg<_>>::check(__state)?;
            <Settings as __rt::Arg<_>>::check(__state)
        }
    }
};
fn pagination(skip: i64, limit: i64) -> Pagination {
    Pagination { skip, limit }
}
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<i64> = __rt::Param::named("skip")
        .default(|| -> i64 { 0 })
        .constrained(&[__rt::Constraint::Ge(__rt::Bound::Int(0i128))]);
    const __ARG1: __rt::Param<i64> = __rt::Param::named("limit")
        .default(|| -> i64 { 10 });
    impl __rt::Dependency for Pagination {
        #[allow(unused_variables, clippy::unused_unit)]
        fn extract(
            __cx: &__rt::RequestCx<'_>,
            __err: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<impl __rt::Resolve<Self> + use<>> {
            __rt::assert_numeric::<i64>();
            __rt::BodyProbe::<i64>::not_body();
            __rt::BodyProbe::<i64>::not_body();
            let __arg0 = <i64 as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            let __arg1 = <i64 as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            let __resolve = __rt::depend(
                (__arg0, (__arg1, ())),
                |(__arg0, (__arg1, ()))| async move {
                    ::core::result::Result::Ok(pagination(__arg0, __arg1))
                },
            );
            __rt::assert_acyclic(&__resolve);
            __resolve
        }
        #[allow(unused_variables)]
        fn doc(__op: &mut __rt::Operation, __registry: &mut __rt::SchemaRegistry) {
            <i64 as __rt::Arg<_>>::doc(__ARG0, __op, __registry);
            <i64 as __rt::Arg<_>>::doc(__ARG1, __op, __registry);
        }
        fn check(
            __state: &__rt::StateMap,
        ) -> ::core::result::Result<(), ::std::string::String> {
            <i64 as __rt::Arg<_>>::check(__state)?;
            <i64 as __rt::Arg<_>>::check(__state)
        }
    }
};
