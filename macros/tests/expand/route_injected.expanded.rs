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
    impl ::ferrapi::Route for count {
        #[allow(unused_variables, clippy::result_large_err, clippy::redundant_closure)]
        fn def(&self) -> ::ferrapi::RouteDef {
            let _ = <State<Counter> as __rt::Arg>::SOURCE;
            let _ = <HeaderMap as __rt::Arg>::SOURCE;
            __rt::assert_one_body::<
                HeaderMap,
                { <State<Counter> as __rt::Arg>::SOURCE.is_body() },
                { <HeaderMap as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_into_response::<Json<Value>>();
            let handler: __rt::Handler = |__cx: &__rt::RequestCx<'_>| {
                #[allow(unused_mut)]
                let mut __errors = ::ferrapi::types::ValidationErrors::new();
                let mut __arg0: ::core::option::Option<State<Counter>> = ::core::option::Option::None;
                if !<State<Counter> as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <State<
                        Counter,
                    > as __rt::Arg>::extract(
                        __cx,
                        "counter",
                        ::core::option::Option::None,
                        &[],
                        &mut __errors,
                    );
                }
                let mut __arg1: ::core::option::Option<HeaderMap> = ::core::option::Option::None;
                if !<HeaderMap as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <HeaderMap as __rt::Arg>::extract(
                        __cx,
                        "headers",
                        ::core::option::Option::None,
                        &[],
                        &mut __errors,
                    );
                }
                if <State<Counter> as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <State<
                        Counter,
                    > as __rt::Arg>::extract(
                        __cx,
                        "counter",
                        ::core::option::Option::None,
                        &[],
                        &mut __errors,
                    );
                }
                if <HeaderMap as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <HeaderMap as __rt::Arg>::extract(
                        __cx,
                        "headers",
                        ::core::option::Option::None,
                        &[],
                        &mut __errors,
                    );
                }
                if let ::core::result::Result::Err(__response) = __errors.finish() {
                    return ::core::result::Result::Err(__response);
                }
                #[allow(irrefutable_let_patterns)]
                let (
                    ::core::option::Option::Some(__arg0),
                    ::core::option::Option::Some(__arg1),
                ) = (__arg0, __arg1) else {
                    return ::core::result::Result::Err(__rt::internal_error());
                };
                ::core::result::Result::Err(
                    __rt::answer_now(
                        "count",
                        async move { count(__arg0, __arg1).await },
                        |__output| <Json<
                            Value,
                        > as ::ferrapi::IntoResponse>::into_response(__output),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
                <State<Counter> as __rt::Arg>::check(state)?;
                <HeaderMap as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut ::ferrapi::types::SchemaRegistry) -> __rt::Value = |
                registry: &mut ::ferrapi::types::SchemaRegistry,
            | -> __rt::Value {
                let mut op = __rt::Operation::new(
                    "count",
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                    &[],
                );
                op.arg::<
                        State<Counter>,
                    >("counter", ::core::option::Option::None, &[], registry);
                op.arg::<
                        HeaderMap,
                    >("headers", ::core::option::Option::None, &[], registry);
                op.finish()
            };
            ::ferrapi::RouteDef::from(__rt::RouteParts {
                name: "count",
                method: ::ferrapi::Method::GET,
                path: "/count",
                handler,
                reads_body: <State<Counter> as __rt::Arg>::SOURCE.is_body()
                    || <HeaderMap as __rt::Arg>::SOURCE.is_body(),
                include_in_schema: false,
                operation,
                check,
            })
        }
    }
};
