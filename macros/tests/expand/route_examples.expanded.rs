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
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for update_item {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_path_param::<i64>();
            let _ = <Option<String> as __rt::Arg>::SOURCE;
            let _ = <i64 as __rt::Arg>::SOURCE;
            __rt::assert_one_body::<
                i64,
                { <Option<String> as __rt::Arg>::SOURCE.is_body() },
                { <i64 as __rt::Arg>::SOURCE.is_body() },
            >();
            let _ = <Item as __rt::Arg>::SOURCE;
            __rt::assert_one_body::<
                Item,
                { <Option<String> as __rt::Arg>::SOURCE.is_body() },
                { <Item as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_one_body::<
                Item,
                { <i64 as __rt::Arg>::SOURCE.is_body() },
                { <Item as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_into_response::<Json<Value>>();
            let handler: __rt::Handler = |
                __cx: &__rt::RequestCx<'_>,
                __group: &[__rt::DependencyFn]|
            {
                #[allow(unused_mut)]
                let mut __errors = __rt::ValidationErrors::new();
                let __arg0: ::core::option::Option<i64> = __rt::path_param::<
                    i64,
                >(__cx, 0usize, "item_id", &[], &mut __errors);
                let __group = if __group.is_empty() {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(
                        __rt::GroupInputs::extract(__group, __cx, &mut __errors),
                    )
                };
                let mut __arg1: ::core::option::Option<
                    <Option<String> as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<Option<String> as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <Option<
                        String,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("q", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                let mut __arg2: ::core::option::Option<<i64 as __rt::Arg>::Input> = ::core::option::Option::None;
                if !<i64 as __rt::Arg>::SOURCE.is_body() {
                    __arg2 = <i64 as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("limit", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                let mut __arg3: ::core::option::Option<<Item as __rt::Arg>::Input> = ::core::option::Option::None;
                if !<Item as __rt::Arg>::SOURCE.is_body() {
                    __arg3 = <Item as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("item", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <Option<String> as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <Option<
                        String,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("q", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <i64 as __rt::Arg>::SOURCE.is_body() {
                    __arg2 = <i64 as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("limit", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <Item as __rt::Arg>::SOURCE.is_body() {
                    __arg3 = <Item as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("item", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if __group.is_some()
                    || <Option<String> as __rt::Arg>::SOURCE.is_dependency()
                    || <i64 as __rt::Arg>::SOURCE.is_dependency()
                    || <Item as __rt::Arg>::SOURCE.is_dependency()
                {
                    if __rt::bad_body(&__errors) {
                        return __rt::Started::Now(__rt::invalid(__cx, __errors));
                    }
                    let __invalid = __rt::defer_invalid(__cx, __errors);
                    return __rt::Started::Later(
                        __rt::boxed(async move {
                            let mut __deps = __rt::Deps::new();
                            if let ::core::option::Option::Some(__group) = __group {
                                if let ::core::result::Result::Err(__response) = __group
                                    .resolve(&mut __deps)
                                    .await
                                {
                                    return __response;
                                }
                            }
                            let __arg1 = match __arg1 {
                                ::core::option::Option::Some(__input) => {
                                    match <Option<
                                        String,
                                    > as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <Option<
                                                String,
                                            > as __rt::Share<
                                                { <Option<String> as __rt::Arg>::SOURCE.is_dependency() },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            let __arg2 = match __arg2 {
                                ::core::option::Option::Some(__input) => {
                                    match <i64 as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <i64 as __rt::Share<
                                                { <i64 as __rt::Arg>::SOURCE.is_dependency() },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            let __arg3 = match __arg3 {
                                ::core::option::Option::Some(__input) => {
                                    match <Item as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <Item as __rt::Share<
                                                { <Item as __rt::Arg>::SOURCE.is_dependency() },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            if let ::core::option::Option::Some(__invalid) = __invalid {
                                return __invalid.answer();
                            }
                            #[allow(irrefutable_let_patterns)]
                            let (
                                ::core::option::Option::Some(__arg0),
                                ::core::option::Option::Some(__arg1),
                                ::core::option::Option::Some(__arg2),
                                ::core::option::Option::Some(__arg3),
                            ) = (__arg0, __arg1, __arg2, __arg3) else {
                                return __rt::internal_error();
                            };
                            <Json<
                                Value,
                            > as __rt::IntoResponse>::into_response(
                                update_item(__arg0, __arg1, __arg2, __arg3).await,
                            )
                        }),
                    );
                }
                if let ::core::result::Result::Err(__response) = __rt::reject_invalid(
                    __cx,
                    __errors,
                ) {
                    return __rt::Started::Now(__response);
                }
                #[allow(irrefutable_let_patterns)]
                let (
                    ::core::option::Option::Some(__arg0),
                    ::core::option::Option::Some(__arg1),
                    ::core::option::Option::Some(__arg2),
                    ::core::option::Option::Some(__arg3),
                ) = (
                    __arg0,
                    <Option<String> as __rt::Arg>::__now(__arg1, __rt::SEALED),
                    <i64 as __rt::Arg>::__now(__arg2, __rt::SEALED),
                    <Item as __rt::Arg>::__now(__arg3, __rt::SEALED),
                ) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "update_item",
                        async move { update_item(__arg0, __arg1, __arg2, __arg3).await },
                        |__output| <Json<
                            Value,
                        > as __rt::IntoResponse>::into_response(__output),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
                <Option<String> as __rt::Arg>::check(state)?;
                <i64 as __rt::Arg>::check(state)?;
                <Item as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "update_item",
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                    &[],
                );
                op.with_examples(
                    __rt::json!([42]),
                    |op| {
                        op.path_param::<i64>("item_id", &[], registry);
                    },
                );
                op.with_openapi_examples(
                    __rt::json!({ "normal" : { "value" : "foo" } }),
                    |op| {
                        op.with_examples(
                            __rt::json!(["foo", "bar"]),
                            |op| {
                                <Option<
                                    String,
                                > as __rt::Arg>::doc(
                                    __rt::Param::new("q", ::core::option::Option::None, &[]),
                                    op,
                                    registry,
                                );
                            },
                        );
                    },
                );
                <i64 as __rt::Arg>::doc(
                    __rt::Param::new("limit", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                op.with_openapi_examples(
                    __rt::json!(
                        { "one" : { "summary" : "One item", "value" : { "name" : "Foo" }
                        } }
                    ),
                    |op| {
                        <Item as __rt::Arg>::doc(
                            __rt::Param::new("item", ::core::option::Option::None, &[]),
                            op,
                            registry,
                        );
                    },
                );
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "update_item",
                method: __rt::Method::POST,
                path: "/items/{item_id}",
                handler,
                reads_body: <Option<String> as __rt::Arg>::SOURCE.is_body()
                    || <i64 as __rt::Arg>::SOURCE.is_body()
                    || <Item as __rt::Arg>::SOURCE.is_body(),
                streams_body: <Option<String> as __rt::Arg>::SOURCE.is_stream()
                    || <i64 as __rt::Arg>::SOURCE.is_stream()
                    || <Item as __rt::Arg>::SOURCE.is_stream(),
                include_in_schema: true,
                operation,
                check,
            })
        }
    }
};
