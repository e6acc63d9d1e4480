// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn read_item(id: i64, store: State<Store>) -> Result<Json<Value>, HttpError> {
    store.get(id).await.map(Json)
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct read_item {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<i64> = __rt::Param::named("id");
    const __ARG1: __rt::Param<State<Store>> = __rt::Param::named("store");
    const __BODY1: __rt::Bodies = __rt::BodyProbe::<State<Store>>::BODY;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = __rt::path_param::<i64>(__cx, 0usize, __ARG0, __err);
            let __arg1 = <State<Store> as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            (__arg0, (__arg1, ()))
        },
        |(__arg0, (__arg1, ()))| async move { read_item(__arg0, __arg1).await },
        |__out| <Result<
            Json<Value>,
            HttpError,
        > as __rt::IntoResponse>::into_response(__out),
        __rt::Call::Boxed,
    );
    impl __rt::Route for read_item {
        fn def(&self) -> __rt::RouteDef {
            let _ = __rt::path_param::<i64>;
            __rt::RouteDef::from(__rt::RouteParts {
                name: "read_item",
                method: __rt::Method::GET,
                path: "/item/{id}",
                handler: __HANDLER,
                body: __BODY1.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("read_item", &[]);
                    __rt::path_param_doc::<i64>(__ARG0, &mut op, registry);
                    <State<Store> as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    op
                },
                check: |state| { <State<Store> as __rt::Arg<_>>::check(state) },
            })
        }
    }
};
