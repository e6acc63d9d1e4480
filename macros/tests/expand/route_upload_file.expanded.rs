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
            use __rt::NoBody as _;
            const __ARG0: __rt::Param<UploadFile> = __rt::Param::named("file");
            const __BODY0: __rt::Bodies = __rt::Bodies::NONE
                .with(__rt::BodyProbe::<UploadFile>::MODE);
            __rt::assert_form_part::<
                UploadFile,
                { __rt::BodyProbe::<UploadFile>::MODE.reads() },
            >();
            const __ARG1: __rt::Param<Option<UploadFile>> = __rt::Param::named("extra");
            const __BODY1: __rt::Bodies = __BODY0
                .with(__rt::BodyProbe::<Option<UploadFile>>::MODE);
            __rt::assert_form_part::<
                Option<UploadFile>,
                { __rt::BodyProbe::<Option<UploadFile>>::MODE.reads() },
            >();
            const __ARG2: __rt::Param<Form<String>> = __rt::Param::named("note");
            const __BODY2: __rt::Bodies = __BODY1
                .with(__rt::BodyProbe::<Form<String>>::MODE);
            __rt::assert_form_part::<
                Form<String>,
                { __rt::BodyProbe::<Form<String>>::MODE.reads() },
            >();
            __rt::assert_into_response::<Json<Value>>();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "upload",
                method: __rt::Method::POST,
                path: "/upload",
                handler: |__cx, __group| __rt::start(
                    __cx,
                    __group,
                    |__cx, __errors| {
                        let __arg0 = <UploadFile as __rt::Arg<
                            _,
                        >>::extract(__cx, __ARG0, __errors);
                        let __arg1 = <Option<
                            UploadFile,
                        > as __rt::Arg<_>>::extract(__cx, __ARG1, __errors);
                        let __arg2 = <Form<
                            String,
                        > as __rt::Arg<_>>::extract(__cx, __ARG2, __errors);
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
                    <UploadFile as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    <Option<UploadFile> as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    <Form<String> as __rt::Arg<_>>::doc(__ARG2, &mut op, registry);
                    op
                },
                check: |state| {
                    <UploadFile as __rt::Arg<_>>::check(state)?;
                    <Option<UploadFile> as __rt::Arg<_>>::check(state)?;
                    <Form<String> as __rt::Arg<_>>::check(state)?;
                    ::core::result::Result::Ok(())
                },
            })
        }
    }
};
