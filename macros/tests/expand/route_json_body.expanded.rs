// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn update_item(id: u32, item: Item) -> Json<Item> {
    let _ = id;
    Json(item)
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct update_item {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<u32> = __rt::Param::named("id");
    const __ARG1: __rt::Param<Item> = __rt::Param::named("item");
    const __BODY1: __rt::Bodies = __rt::BodyProbe::<Item>::BODY;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = __rt::path_param::<u32>(__cx, 0usize, __ARG0, __err);
            let __arg1 = <Item as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            (__arg0, (__arg1, ()))
        },
        |(__arg0, (__arg1, ()))| async move { update_item(__arg0, __arg1).await },
        |__out| <Json<Item> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("update_item"),
    );
    impl __rt::Route for update_item {
        fn def(&self) -> __rt::RouteDef {
            let _ = __rt::path_param::<u32>;
            __rt::RouteDef::from(__rt::RouteParts {
                name: "update_item",
                method: __rt::Method::PUT,
                path: "/item/{id}",
                handler: __HANDLER,
                body: __BODY1.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("update_item", &[]);
                    __rt::path_param_doc::<u32>(__ARG0, &mut op, registry);
                    <Item as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    {
                        use __rt::ProbeKnown as _;
                        use __rt::ProbeUnknown as _;
                        let probe = __rt::SchemaProbe::<
                            Item,
                        >(::core::marker::PhantomData);
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
                },
                check: |state| { <Item as __rt::Arg<_>>::check(state) },
            })
        }
    }
};
