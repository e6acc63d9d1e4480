// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn list_user_items(user_id: i64, user: CurrentUser, skip: i64) -> Json<Value> {
    Json(json!({ "user_id" : user_id, "by" : user.name, "skip" : skip }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct list_user_items {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<i64> = __rt::Param::named("user_id");
    const __ARG1: __rt::Param<CurrentUser> = __rt::Param::named("user");
    const __BODY1: __rt::Bodies = __rt::BodyProbe::<CurrentUser>::BODY;
    const __ARG2: __rt::Param<i64> = __rt::Param::named("skip")
        .constrained(&[__rt::Constraint::Ge(__rt::Bound::Int(0i128))]);
    const __BODY2: __rt::Bodies = __BODY1.with(__rt::BodyProbe::<i64>::BODY);
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = __rt::path_param::<i64>(__cx, 0usize, __ARG0, __err);
            let __arg1 = <CurrentUser as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            let __arg2 = <i64 as __rt::Arg<_>>::extract(__cx, __ARG2, __err);
            (__arg0, (__arg1, (__arg2, ())))
        },
        |(__arg0, (__arg1, (__arg2, ())))| async move {
            list_user_items(__arg0, __arg1, __arg2).await
        },
        |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("list_user_items"),
    );
    impl __rt::Route for list_user_items {
        fn def(&self) -> __rt::RouteDef {
            let _ = __rt::path_param::<i64>;
            __rt::assert_numeric::<i64>();
            __rt::assert_one_body::<i64, { __BODY2.repeated }>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "list_user_items",
                method: __rt::Method::GET,
                path: "/users/{user_id}/items",
                handler: __HANDLER,
                body: __BODY2.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("list_user_items", &[]);
                    __rt::path_param_doc::<i64>(__ARG0, &mut op, registry);
                    <CurrentUser as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    <i64 as __rt::Arg<_>>::doc(__ARG2, &mut op, registry);
                    op
                },
                check: |state| {
                    <CurrentUser as __rt::Arg<_>>::check(state)?;
                    <i64 as __rt::Arg<_>>::check(state)
                },
            })
        }
    }
};
