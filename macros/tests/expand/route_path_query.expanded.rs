// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// List a user's items.
///
/// Filtered by name and paged.
pub async fn list_items(
    user_id: i64,
    kind: String,
    q: Option<String>,
    limit: i64,
    min_price: Option<f64>,
) -> Json<Value> {
    Json(
        json!(
            { "user_id" : user_id, "kind" : kind, "q" : q, "limit" : limit, "min_price" :
            min_price }
        ),
    )
}
/// List a user's items.
///
/// Filtered by name and paged.
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
pub struct list_items {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<i64> = __rt::Param::named("user_id")
        .constrained(&[__rt::Constraint::Ge(__rt::Bound::Int(1i128))]);
    const __ARG1: __rt::Param<String> = __rt::Param::named("kind")
        .constrained(&[__rt::Constraint::MinLength(3usize)]);
    const __ARG2: __rt::Param<Option<String>> = __rt::Param::named("q");
    const __BODY2: __rt::Bodies = __rt::BodyProbe::<Option<String>>::BODY;
    const __ARG3: __rt::Param<i64> = __rt::Param::named("limit")
        .default(|| -> i64 { 10 })
        .constrained(
            &[
                __rt::Constraint::Le(__rt::Bound::Int(100i128)),
                __rt::Constraint::Ge(__rt::Bound::Int(0i128)),
            ],
        );
    const __BODY3: __rt::Bodies = __BODY2.with(__rt::BodyProbe::<i64>::BODY);
    const __ARG4: __rt::Param<Option<f64>> = __rt::Param::named("min_price")
        .constrained(&[__rt::Constraint::Gt(__rt::Bound::Float(-1.5f64))]);
    const __BODY4: __rt::Bodies = __BODY3.with(__rt::BodyProbe::<Option<f64>>::BODY);
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = __rt::path_param::<i64>(__cx, 0usize, __ARG0, __err);
            let __arg1 = __rt::path_param::<String>(__cx, 1usize, __ARG1, __err);
            let __arg2 = <Option<String> as __rt::Arg<_>>::extract(__cx, __ARG2, __err);
            let __arg3 = <i64 as __rt::Arg<_>>::extract(__cx, __ARG3, __err);
            let __arg4 = <Option<f64> as __rt::Arg<_>>::extract(__cx, __ARG4, __err);
            (__arg0, (__arg1, (__arg2, (__arg3, (__arg4, ())))))
        },
        |(__arg0, (__arg1, (__arg2, (__arg3, (__arg4, ())))))| async move {
            list_items(__arg0, __arg1, __arg2, __arg3, __arg4).await
        },
        |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("list_items"),
    );
    impl __rt::Route for list_items {
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_numeric::<i64>();
            let _ = __rt::path_param::<i64>;
            __rt::assert_text::<String>();
            let _ = __rt::path_param::<String>;
            __rt::assert_numeric::<i64>();
            __rt::assert_one_body::<i64, { __BODY3.repeated }>();
            __rt::assert_numeric::<Option<f64>>();
            __rt::assert_one_body::<Option<f64>, { __BODY4.repeated }>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "list_items",
                method: __rt::Method::GET,
                path: "/user/{user_id}/items/{kind}",
                handler: __HANDLER,
                body: __BODY4.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("list_items", &[]);
                    op.doc("List a user's items.", "Filtered by name and paged.");
                    __rt::path_param_doc::<i64>(__ARG0, &mut op, registry);
                    __rt::path_param_doc::<String>(__ARG1, &mut op, registry);
                    <Option<String> as __rt::Arg<_>>::doc(__ARG2, &mut op, registry);
                    <i64 as __rt::Arg<_>>::doc(__ARG3, &mut op, registry);
                    <Option<f64> as __rt::Arg<_>>::doc(__ARG4, &mut op, registry);
                    op
                },
                check: |state| {
                    <Option<String> as __rt::Arg<_>>::check(state)?;
                    <i64 as __rt::Arg<_>>::check(state)?;
                    <Option<f64> as __rt::Arg<_>>::check(state)
                },
            })
        }
    }
};
