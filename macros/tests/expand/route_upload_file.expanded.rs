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
#[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
const _: () = {
    use ::ferrapi::__private::{self as __rt, NoBody as _};
    const __ARG0: __rt::Param<UploadFile> = __rt::Param::named("file");
    const __BODY0: __rt::Bodies = __rt::BodyProbe::<UploadFile>::BODY;
    const __ARG1: __rt::Param<Option<UploadFile>> = __rt::Param::named("extra");
    const __BODY1: __rt::Bodies = __BODY0
        .with(__rt::BodyProbe::<Option<UploadFile>>::BODY);
    const __ARG2: __rt::Param<Form<String>> = __rt::Param::named("note");
    const __BODY2: __rt::Bodies = __BODY1.with(__rt::BodyProbe::<Form<String>>::BODY);
    const __HANDLER: __rt::Handler = |__cx, __group| __rt::start(
        __cx,
        __group,
        |__cx, __err| {
            let __arg0 = <UploadFile as __rt::Arg<_>>::extract(__cx, __ARG0, __err);
            let __arg1 = <Option<
                UploadFile,
            > as __rt::Arg<_>>::extract(__cx, __ARG1, __err);
            let __arg2 = <Form<String> as __rt::Arg<_>>::extract(__cx, __ARG2, __err);
            (__arg0, (__arg1, (__arg2, ())))
        },
        |(__arg0, (__arg1, (__arg2, ())))| async move {
            upload(__arg0, __arg1, __arg2).await
        },
        |__out| <Json<Value> as __rt::IntoResponse>::into_response(__out),
        __rt::Call::InPlace("upload"),
    );
    impl __rt::Route for upload {
        fn def(&self) -> __rt::RouteDef {
            __rt::assert_form_part::<
                UploadFile,
                { __rt::BodyProbe::<UploadFile>::BODY.mode.reads() },
            >();
            __rt::assert_form_part::<
                Option<UploadFile>,
                { __rt::BodyProbe::<Option<UploadFile>>::BODY.mode.reads() },
            >();
            __rt::assert_form_part::<
                Form<String>,
                { __rt::BodyProbe::<Form<String>>::BODY.mode.reads() },
            >();
            __rt::RouteDef::from(__rt::RouteParts {
                name: "upload",
                method: __rt::Method::POST,
                path: "/upload",
                handler: __HANDLER,
                body: __rt::BodyMode::Form,
                include_in_schema: true,
                operation: |registry: &mut __rt::SchemaRegistry| -> __rt::Operation {
                    let mut op = __rt::Operation::new("upload", &[]);
                    op.summary(
                        "A route that takes files: its body is read as a form first (`__reads_form`), and every body argument is asserted to be a part of that form.",
                    );
                    <UploadFile as __rt::Arg<_>>::doc(__ARG0, &mut op, registry);
                    <Option<UploadFile> as __rt::Arg<_>>::doc(__ARG1, &mut op, registry);
                    <Form<String> as __rt::Arg<_>>::doc(__ARG2, &mut op, registry);
                    op
                },
                check: |state| {
                    <UploadFile as __rt::Arg<_>>::check(state)?;
                    <Option<UploadFile> as __rt::Arg<_>>::check(state)?;
                    <Form<String> as __rt::Arg<_>>::check(state)
                },
            })
        }
    }
};
