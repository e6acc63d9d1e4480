// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// A route that takes files: its body is read as a form first (`__reads_form`), and every body
/// argument is asserted to be a part of that form.
async fn upload(
    file: UploadFile,
    extra: Option<UploadFile>,
    note: Form<String>,
) -> Json<Value> {
    Json(json!({ "note" : note.0 }))
}
/// A route that takes files: its body is read as a form first (`__reads_form`), and every body
/// argument is asserted to be a part of that form.
#[allow(non_camel_case_types, missing_docs)]
#[derive(Debug, Clone, Copy)]
struct upload {}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::Route for upload {
        #[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
        fn def(&self) -> __rt::RouteDef {
            use __rt::NoSource as _;
            const __ARG0: __rt::Param<UploadFile> = __rt::Param::named("file");
            let _ = <UploadFile as __rt::Arg>::SOURCE;
            __rt::assert_form_part::<
                UploadFile,
                { <UploadFile as __rt::Arg>::SOURCE.is_body() },
            >();
            const __SHAPE0: __rt::Shape = __rt::Shape::NONE
                .with(__rt::SourceProbe::<UploadFile>::SOURCE);
            const __ARG1: __rt::Param<Option<UploadFile>> = __rt::Param::named("extra");
            let _ = <Option<UploadFile> as __rt::Arg>::SOURCE;
            __rt::assert_form_part::<
                Option<UploadFile>,
                { <Option<UploadFile> as __rt::Arg>::SOURCE.is_body() },
            >();
            const __SHAPE1: __rt::Shape = __SHAPE0
                .with(__rt::SourceProbe::<Option<UploadFile>>::SOURCE);
            const __ARG2: __rt::Param<Form<String>> = __rt::Param::named("note");
            let _ = <Form<String> as __rt::Arg>::SOURCE;
            __rt::assert_form_part::<
                Form<String>,
                { <Form<String> as __rt::Arg>::SOURCE.is_body() },
            >();
            const __SHAPE2: __rt::Shape = __SHAPE1
                .with(__rt::SourceProbe::<Form<String>>::SOURCE);
            __rt::assert_into_response::<Json<Value>>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "upload",
                method: __rt::Method::POST,
                path: "/upload",
                handler: |__cx, __group| __rt::start(
                    __cx,
                    __group,
                    __SHAPE2.dependency,
                    |__cx, __errors| {
                        let __arg0 = <UploadFile as __rt::Share<
                            { <UploadFile as __rt::Arg>::SOURCE.is_dependency() },
                        >>::slot(__cx, __ARG0, __errors);
                        let __arg1 = <Option<
                            UploadFile,
                        > as __rt::Share<
                            { <Option<UploadFile> as __rt::Arg>::SOURCE.is_dependency() },
                        >>::slot(__cx, __ARG1, __errors);
                        let __arg2 = <Form<
                            String,
                        > as __rt::Share<
                            { <Form<String> as __rt::Arg>::SOURCE.is_dependency() },
                        >>::slot(__cx, __ARG2, __errors);
                        (__arg0, (__arg1, (__arg2, ())))
                    },
                    |(__arg0, (__arg1, (__arg2, ())))| async move {
                        upload(__arg0, __arg1, __arg2).await
                    },
                    |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
                    __rt::Call::InPlace("upload"),
                ),
                body: __rt::BodyMode::Form,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new(
                        "upload",
                        ::core::option::Option::Some(
                            "A route that takes files: its body is read as a form first (`__reads_form`), and every body argument is asserted to be a part of that form.",
                        ),
                        ::core::option::Option::None,
                        &[],
                    );
                    <UploadFile as __rt::Arg>::doc(__ARG0, &mut op, registry);
                    <Option<UploadFile> as __rt::Arg>::doc(__ARG1, &mut op, registry);
                    <Form<String> as __rt::Arg>::doc(__ARG2, &mut op, registry);
                    op
                },
                check: |state| {
                    <UploadFile as __rt::Arg>::check(state)?;
                    <Option<UploadFile> as __rt::Arg>::check(state)?;
                    <Form<String> as __rt::Arg>::check(state)?;
                    ::core::result::Result::Ok(())
                },
            })
        }
    }
};
