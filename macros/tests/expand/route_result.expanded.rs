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
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for delete_thing {
        #[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_path_param::<u64>();
            const __ARG0: __rt::Param<u64> = __rt::Param::named("thing_id");
            __rt::assert_into_response::<Result<(StatusCode, String), HttpError>>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "delete_thing",
                method: __rt::Method::DELETE,
                path: "/thing/{thing_id}",
                handler: |__cx, __group| __rt::start(
                    __cx,
                    __group,
                    |__cx, __errors| {
                        let __arg0 = __rt::path_param::<
                            u64,
                        >(__cx, 0usize, __ARG0, __errors);
                        (__arg0, ())
                    },
                    |(__arg0, ())| async move { delete_thing(__arg0).await },
                    |__out| <Result<
                        (StatusCode, String),
                        HttpError,
                    > as __rt::IntoResponse>::into_response(__out),
                    __rt::Call::InPlace("delete_thing"),
                ),
                body: __rt::BodyMode::None,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new(
                        "delete_thing",
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        &[],
                    );
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
