// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn delete_thing(thing_id: u64) -> Result<(StatusCode, String), HttpError> {
    if thing_id == 0 {
        return Err(HttpError::new(404, "No such thing"));
    }
    Ok((StatusCode::NO_CONTENT, String::new()))
}
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct delete_thing {}
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private as __rt;
    const __ARG0: __rt::Param<u64> = __rt::Param::named("thing_id");
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = __rt::path_param::<u64>(__cx, 0usize, __ARG0, __err);
            (__arg0, ())
        },
        |(__arg0, ())| async move { delete_thing(__arg0).await },
        |__out| <Result<
            (StatusCode, String),
            HttpError,
        > as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("delete_thing"),
    );
    impl __rt::Route for delete_thing {
        fn def(&self) -> __rt::RouteDef {
            let _ = __rt::path_param::<u64>;
            __rt::RouteDef::from(__rt::RouteParts {
                name: "delete_thing",
                method: __rt::Method::DELETE,
                path: "/thing/{thing_id}",
                handler: __HANDLER,
                body: __rt::BodyMode::None,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("delete_thing", &[]);
                    __rt::path_param_doc::<u64>(__ARG0, &mut op, registry);
                    op.response("text/plain", __rt::json!({ "type" : "string" }));
                    op.success_status(204);
                    op.extra_response(404, "No such thing");
                    op
                },
                check: |state| { ::core::result::Result::Ok(()) },
            })
        }
    }
};
