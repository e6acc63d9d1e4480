// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn update_item(id: u32, item: Item) -> Json<Item> {
    let _ = id;
    Json(item)
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct update_item {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for update_item {
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_path_param::<u32>();
            let _ = <Item as __rt::Arg>::SOURCE;
            __rt::assert_into_response::<Json<Item>>();
            let handler: __rt::Handler = |
                __cx: &__rt::RequestCx<'_>,
                __group: &[__rt::DependencyFn]|
            {
                #[allow(unused_mut)]
                let mut __errors = __rt::ValidationErrors::new();
                let __arg0: ::core::option::Option<u32> = __rt::path_param::<
                    u32,
                >(__cx, 0usize, "id", &[], &mut __errors);
                let __group = if __group.is_empty() {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(
                        __rt::GroupInputs::extract(__group, __cx, &mut __errors),
                    )
                };
                let mut __arg1: ::core::option::Option<<Item as __rt::Arg>::Input> = ::core::option::Option::None;
                if !<Item as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <Item as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("item", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <Item as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <Item as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("item", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if __group.is_some() || <Item as __rt::Arg>::SOURCE.is_dependency() {
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
                            ) = (__arg0, __arg1) else {
                                return __rt::internal_error();
                            };
                            <Json<
                                Item,
                            > as __rt::IntoResponse>::into_response(
                                update_item(__arg0, __arg1).await,
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
                ) = (__arg0, <Item as __rt::Arg>::__now(__arg1, __rt::SEALED)) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "update_item",
                        async move { update_item(__arg0, __arg1).await },
                        |__output| <Json<
                            Item,
                        > as __rt::IntoResponse>::into_response(__output),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
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
                op.path_param::<u32>("id", &[], registry);
                <Item as __rt::Arg>::doc(
                    __rt::Param::new("item", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                {
                    use __rt::ProbeKnown as _;
                    use __rt::ProbeUnknown as _;
                    let probe = __rt::SchemaProbe::<Item>(::core::marker::PhantomData);
                    let schema = registry
                        .in_mode(
                            __rt::SchemaMode::Output,
                            |registry| (&probe).probe_schema(registry),
                        );
                    if let ::core::option::Option::Some(schema) = schema {
                        op.response("application/json", schema);
                    }
                }
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                name: "update_item",
                method: __rt::Method::PUT,
                path: "/item/{id}",
                handler,
                reads_body: <Item as __rt::Arg>::SOURCE.is_body(),
                streams_body: <Item as __rt::Arg>::SOURCE.is_stream(),
                include_in_schema: true,
                operation,
                check,
            })
        }
    }
};
