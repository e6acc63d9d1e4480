// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

const UNAVAILABLE: &str = "The database is unavailable";
async fn list_doctors(store: State<Store>) -> Result<Json<Vec<Doctor>>, HttpError> {
    store.doctors().await.map(Json)
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct list_doctors {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<State<Store>> = __rt::Param::named("store");
    const __BODY0: __rt::Bodies = __rt::BodyProbe::<State<Store>>::BODY;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = <State<Store> as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            (__arg0, ())
        },
        |(__arg0, ())| async move { list_doctors(__arg0).await },
        |__out| <Result<
            Json<Vec<Doctor>>,
            HttpError,
        > as __rt::IntoResponse>::into_response(__out),
        __rt::Call::Boxed,
    );
    impl __rt::Route for list_doctors {
        fn def(&self) -> __rt::RouteDef {
            __rt::RouteDef::from(__rt::RouteParts {
                name: "list_doctors",
                method: __rt::Method::GET,
                path: "/doctors",
                handler: __HANDLER,
                body: __BODY0.mode,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("list_doctors", &["doctors"]);
                    <State<Store> as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    {
                        use __rt::ProbeKnown as _;
                        use __rt::ProbeUnknown as _;
                        let probe = __rt::SchemaProbe::<
                            Vec<Doctor>,
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
                    op.extra_response(404, "No doctor");
                    op.extra_response(
                        503,
                        {
                            let description: &'static str = UNAVAILABLE;
                            description
                        },
                    );
                    op.extra_response(
                        504,
                        {
                            let description: &'static str = crate::messages::TIMEOUT;
                            description
                        },
                    );
                    op
                },
                check: |state| { <State<Store> as __rt::Arg<_>>::check(state) },
            })
        }
    }
};
