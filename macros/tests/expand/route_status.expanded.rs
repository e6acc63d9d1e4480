// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn create_thing(name: String) -> Json<Value> {
    Json(json!({ "name" : name }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct create_thing {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<String> = __rt::Param::named("name");
    const __BODY0: __rt::Bodies = __rt::BodyProbe::<String>::BODY;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = <String as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            (__arg0, ())
        },
        |(__arg0, ())| async move { create_thing(__arg0).await },
        |__out| __rt::success::<Json<Value>, 201>(__out),
        __rt::Call::InPlace("create_thing"),
    );
    impl __rt::Route for create_thing {
        fn def(&self) -> __rt::RouteDef {
            __rt::RouteDef::from(__rt::RouteParts {
                name: "create_thing",
                method: __rt::Method::POST,
                path: "/things",
                handler: __HANDLER,
                body: __BODY0.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("create_thing", &[]);
                    <String as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    op.success_status(201);
                    op
                },
                check: |state| { <String as __rt::Arg<_>>::check(state) },
            })
        }
    }
};
