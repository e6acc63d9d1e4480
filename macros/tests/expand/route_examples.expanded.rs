// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn update_item(
    item_id: i64,
    q: Option<String>,
    limit: i64,
    item: Item,
) -> Json<Value> {
    Json(json!({ "item_id" : item_id, "q" : q, "limit" : limit, "name" : item.name }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct update_item {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<i64> = __rt::Param::named("item_id");
    const __ARG1: __rt::Param<Option<String>> = __rt::Param::named("q");
    const __BODY1: __rt::Bodies = __rt::BodyProbe::<Option<String>>::BODY;
    const __ARG2: __rt::Param<i64> = __rt::Param::named("limit");
    const __BODY2: __rt::Bodies = __BODY1.with(__rt::BodyProbe::<i64>::BODY);
    const __ARG3: __rt::Param<Item> = __rt::Param::named("item");
    const __BODY3: __rt::Bodies = __BODY2.with(__rt::BodyProbe::<Item>::BODY);
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = __rt::path_param::<i64>(__cx, 0usize, __ARG0, __err);
            let __arg1 = <Option<String> as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            let __arg2 = <i64 as __rt::Arg<_>>::extract(__cx, __ARG2, __err);
            let __arg3 = <Item as __rt::Arg<_>>::extract(__cx, __ARG3, __err);
            (__arg0, (__arg1, (__arg2, (__arg3, ()))))
        },
        |(__arg0, (__arg1, (__arg2, (__arg3, ()))))| async move {
            update_item(__arg0, __arg1, __arg2, __arg3).await
        },
        |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("update_item"),
    );
    impl __rt::Route for update_item {
        fn def(&self) -> __rt::RouteDef {
            let _ = __rt::path_param::<i64>;
            __rt::assert_one_body::<i64, { __BODY2.repeated }>();
            __rt::assert_one_body::<Item, { __BODY3.repeated }>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "update_item",
                method: __rt::Method::POST,
                path: "/items/{item_id}",
                handler: __HANDLER,
                body: __BODY3.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("update_item", &[]);
                    op.with_examples(
                        __rt::json!([42]),
                        |op| {
                            __rt::path_param_doc::<i64>(__ARG0, op, registry);
                        },
                    );
                    op.with_openapi_examples(
                        __rt::json!({ "normal" : { "value" : "foo" } }),
                        |op| {
                            op.with_examples(
                                __rt::json!(["foo", "bar"]),
                                |op| {
                                    <Option<String> as __rt::Arg<_>>::doc(__ARG1, op, registry);
                                },
                            );
                        },
                    );
                    <i64 as __rt::Arg<_>>::doc(__ARG2, &mut op, registry);
                    op.with_openapi_examples(
                        __rt::json!(
                            { "one" : { "summary" : "One item", "value" : { "name" :
                            "Foo" } } }
                        ),
                        |op| {
                            <Item as __rt::Arg<_>>::doc(__ARG3, op, registry);
                        },
                    );
                    op
                },
                check: |state| {
                    <Option<String> as __rt::Arg<_>>::check(state)?;
                    <i64 as __rt::Arg<_>>::check(state)?;
                    <Item as __rt::Arg<_>>::check(state)
                },
            })
        }
    }
};
