// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn count(counter: State<Counter>, headers: HeaderMap) -> Json<Value> {
    Json(json!({ "hits" : counter.hit(), "headers" : headers.len() }))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct count {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for count {
        #[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
        fn def(&self) -> __rt::RouteDef {
            use __rt::NoBody as _;
            const __ARG0: __rt::Param<State<Counter>> = __rt::Param::named("counter");
            const __BODY0: __rt::Bodies = __rt::Bodies::NONE
                .with(__rt::BodyProbe::<State<Counter>>::MODE);
            const __ARG1: __rt::Param<HeaderMap> = __rt::Param::named("headers");
            const __BODY1: __rt::Bodies = __BODY0
                .with(__rt::BodyProbe::<HeaderMap>::MODE);
            __rt::assert_one_body::<HeaderMap, { __BODY1.repeated }>();
            __rt::assert_into_response::<Json<Value>>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "count",
                method: __rt::Method::GET,
                path: "/count",
                handler: |__cx, __group| __rt::start(
                    __cx,
                    __group,
                    |__cx, __errors| {
                        let __arg0 = <State<
                            Counter,
                        > as __rt::Arg<_>>::extract(__cx, __ARG0, __errors);
                        let __arg1 = <HeaderMap as __rt::Arg<
                            _,
                        >>::extract(__cx, __ARG1, __errors);
                        (__arg0, (__arg1, ()))
                    },
                    |(__arg0, (__arg1, ()))| async move { count(__arg0, __arg1).await },
                    |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
                    __rt::Call::InPlace("count"),
                ),
                body: __BODY1.mode,
                include_in_schema: false,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new(
                        "count",
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        &[],
                    );
                    <State<Counter> as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    <HeaderMap as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    op
                },
                check: |state| {
                    <State<Counter> as __rt::Arg<_>>::check(state)?;
                    <HeaderMap as __rt::Arg<_>>::check(state)?;
                    ::core::result::Result::Ok(())
                },
            })
        }
    }
};
