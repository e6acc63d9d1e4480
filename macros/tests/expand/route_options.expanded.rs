// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// Create a thing.
async fn create_thing(thing: Thing) -> (StatusCode, Json<Thing>) {
    (StatusCode::CREATED, Json(thing))
}
/// Create a thing.
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct create_thing {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<Thing> = __rt::Param::named("thing");
    const __BODY0: __rt::Bodies = __rt::BodyProbe::<Thing>::BODY;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = <Thing as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            (__arg0, ())
        },
        |(__arg0, ())| async move { create_thing(__arg0).await },
        |__out| <(StatusCode, Json<Thing>) as __rt::IntoResponse>::into_response(__out),
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
                    let mut op = __rt::Operation::new(
                        "create_thing",
                        &["things", "writes"],
                    );
                    op.summary("Create a thing.");
                    <Thing as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    {
                        use __rt::ProbeKnown as _;
                        use __rt::ProbeUnknown as _;
                        let probe = __rt::SchemaProbe::<
                            Thing,
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
                    op.success_status(201);
                    op.extra_response(409, "Already exists");
                    op.extra_response(422, "Invalid");
                    op
                },
                check: |state| { <Thing as __rt::Arg<_>>::check(state) },
            })
        }
    }
};
