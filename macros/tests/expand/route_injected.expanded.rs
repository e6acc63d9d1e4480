// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn count(counter: State<Counter>, headers: HeaderMap) -> Json<Value> {
    Json(json!({ "hits" : counter.hit(), "headers" : headers.len() }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct count {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<State<Counter>> = __rt::Param::named("counter");
    const __BODY0: __rt::Bodies = __rt::BodyProbe::<State<Counter>>::BODY;
    const __ARG1: __rt::Param<HeaderMap> = __rt::Param::named("headers");
    const __BODY1: __rt::Bodies = __BODY0.with(__rt::BodyProbe::<HeaderMap>::BODY);
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = <State<Counter> as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            let __arg1 = <HeaderMap as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            (__arg0, (__arg1, ()))
        },
        |(__arg0, (__arg1, ()))| async move { count(__arg0, __arg1).await },
        |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("count"),
    );
    impl __rt::Route for count {
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_one_body::<HeaderMap, { __BODY1.repeated }>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "count",
                method: __rt::Method::GET,
                path: "/count",
                handler: __HANDLER,
                body: __BODY1.mode,
                include_in_schema: false,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("count", &[]);
                    <State<Counter> as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    <HeaderMap as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    op
                },
                check: |state| {
                    <State<Counter> as __rt::Arg<_>>::check(state)?;
                    <HeaderMap as __rt::Arg<_>>::check(state)
                },
            })
        }
    }
};
