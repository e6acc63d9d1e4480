// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn part_lines() -> JsonLines<Part> {
    JsonLines::new(stream::iter(parts()))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct part_lines {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private as __rt;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| { () },
        |()| async move { part_lines().await },
        |__out| <JsonLines<Part> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("part_lines"),
    );
    impl __rt::Route for part_lines {
        fn def(&self) -> __rt::RouteDef {
            __rt::RouteDef::from(__rt::RouteParts {
                name: "part_lines",
                method: __rt::Method::GET,
                path: "/parts.jsonl",
                handler: __HANDLER,
                body: __rt::BodyMode::None,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("part_lines", &[]);
                    {
                        use __rt::ProbeKnown as _;
                        use __rt::ProbeUnknown as _;
                        let probe = __rt::SchemaProbe::<
                            Part,
                        >(::core::marker::PhantomData);
                        let schema = registry
                            .in_mode(
                                __rt::SchemaMode::Output,
                                |registry| (&probe).probe_schema(registry),
                            );
                        op.json_lines_response(schema);
                    }
                    op
                },
                check: |state| { ::core::result::Result::Ok(()) },
            })
        }
    }
};
async fn part_events() -> Result<Sse<Part>, HttpError> {
    Ok(Sse::json(stream::iter(parts())))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct part_events {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private as __rt;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| { () },
        |()| async move { part_events().await },
        |__out| <Result<
            Sse<Part>,
            HttpError,
        > as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("part_events"),
    );
    impl __rt::Route for part_events {
        fn def(&self) -> __rt::RouteDef {
            __rt::RouteDef::from(__rt::RouteParts {
                name: "part_events",
                method: __rt::Method::GET,
                path: "/parts/events",
                handler: __HANDLER,
                body: __rt::BodyMode::None,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("part_events", &[]);
                    {
                        use __rt::ProbeKnown as _;
                        use __rt::ProbeUnknown as _;
                        let probe = __rt::SchemaProbe::<
                            Part,
                        >(::core::marker::PhantomData);
                        let schema = registry
                            .in_mode(
                                __rt::SchemaMode::Output,
                                |registry| (&probe).probe_schema(registry),
                            );
                        op.json_events_response(schema);
                    }
                    op
                },
                check: |state| { ::core::result::Result::Ok(()) },
            })
        }
    }
};
async fn ticks() -> Sse {
    Sse::new(stream::empty::<Result<Event, Infallible>>())
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct ticks {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private as __rt;
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| { () },
        |()| async move { ticks().await },
        |__out| <Sse as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("ticks"),
    );
    impl __rt::Route for ticks {
        fn def(&self) -> __rt::RouteDef {
            __rt::RouteDef::from(__rt::RouteParts {
                name: "ticks",
                method: __rt::Method::GET,
                path: "/ticks",
                handler: __HANDLER,
                body: __rt::BodyMode::None,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("ticks", &[]);
                    op.response("text/event-stream", __rt::json!({ "type" : "string" }));
                    op
                },
                check: |state| { ::core::result::Result::Ok(()) },
            })
        }
    }
};
