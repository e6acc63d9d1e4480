// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn search(tag: Vec<String>) -> Json<Vec<String>> {
    Json(tag)
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct search {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<Vec<String>> = __rt::Param::named("tag")
        .constrained(&[__rt::Constraint::MaxLength(5usize)]);
    const __BODY0: __rt::Bodies = __rt::BodyProbe::<Vec<String>>::BODY;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = <Vec<String> as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            (__arg0, ())
        },
        |(__arg0, ())| async move { search(__arg0).await },
        |__out| <Json<Vec<String>> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("search"),
    );
    impl __rt::Route for search {
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_text::<Vec<String>>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "search",
                method: __rt::Method::GET,
                path: "/search",
                handler: __HANDLER,
                body: __BODY0.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("search", &[]);
                    <Vec<String> as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    {
                        use __rt::ProbeKnown as _;
                        use __rt::ProbeUnknown as _;
                        let probe = __rt::SchemaProbe::<
                            Vec<String>,
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
                check: |state| { <Vec<String> as __rt::Arg<_>>::check(state) },
            })
        }
    }
};
