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
        #[allow(unused_variables, clippy::redundant_closure)]
        fn def(&self) -> __rt::RouteDef {
            let _ = <UploadFile as __rt::Arg>::SOURCE;
            __rt::assert_form_part::<
                UploadFile,
                { <UploadFile as __rt::Arg>::SOURCE.is_body() },
            >();
            let _ = <Option<UploadFile> as __rt::Arg>::SOURCE;
            __rt::assert_form_part::<
                Option<UploadFile>,
                { <Option<UploadFile> as __rt::Arg>::SOURCE.is_body() },
            >();
            let _ = <Form<String> as __rt::Arg>::SOURCE;
            __rt::assert_form_part::<
                Form<String>,
                { <Form<String> as __rt::Arg>::SOURCE.is_body() },
            >();
            __rt::assert_into_response::<Json<Value>>();
            let handler: __rt::Handler = |
                __cx: &__rt::RequestCx<'_>,
                __group: &[__rt::DependencyFn]|
            {
                #[allow(unused_mut)]
                let mut __errors = __rt::ValidationErrors::new();
                let __group = if __group.is_empty() {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(
                        __rt::GroupInputs::extract(__group, __cx, &mut __errors),
                    )
                };
                let mut __arg0: ::core::option::Option<
                    <UploadFile as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<UploadFile as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <UploadFile as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("file", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                let mut __arg1: ::core::option::Option<
                    <Option<UploadFile> as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<Option<UploadFile> as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <Option<
                        UploadFile,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("extra", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                let mut __arg2: ::core::option::Option<
                    <Form<String> as __rt::Arg>::Input,
                > = ::core::option::Option::None;
                if !<Form<String> as __rt::Arg>::SOURCE.is_body() {
                    __arg2 = <Form<
                        String,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("note", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <UploadFile as __rt::Arg>::SOURCE.is_body() {
                    __arg0 = <UploadFile as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("file", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <Option<UploadFile> as __rt::Arg>::SOURCE.is_body() {
                    __arg1 = <Option<
                        UploadFile,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("extra", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if <Form<String> as __rt::Arg>::SOURCE.is_body() {
                    __arg2 = <Form<
                        String,
                    > as __rt::Arg>::extract(
                        __cx,
                        __rt::Param::new("note", ::core::option::Option::None, &[]),
                        &mut __errors,
                    );
                }
                if __group.is_some() || <UploadFile as __rt::Arg>::SOURCE.is_dependency()
                    || <Option<UploadFile> as __rt::Arg>::SOURCE.is_dependency()
                    || <Form<String> as __rt::Arg>::SOURCE.is_dependency()
                {
                    if __rt::bad_body(&__errors) {
                        return __rt::Started::Now(__rt::invalid(__cx, __errors));
                    }
                    let __invalid = __rt::defer_invalid(__cx, __errors);
                    return __rt::Started::Later(
                        __rt::boxed(async move {
                            let mut __deps = __rt::Deps::new();
                            if let ::core::option::Option::Some(__group) = __group {
                                if let ::core::result::Result::Err(__response) = __group
                                    .resolve(&mut __deps)
                                    .await
                                {
                                    return __response;
                                }
                            }
                            let __arg0 = match __arg0 {
                                ::core::option::Option::Some(__input) => {
                                    match <UploadFile as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <UploadFile as __rt::Share<
                                                { <UploadFile as __rt::Arg>::SOURCE.is_dependency() },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            let __arg1 = match __arg1 {
                                ::core::option::Option::Some(__input) => {
                                    match <Option<
                                        UploadFile,
                                    > as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <Option<
                                                UploadFile,
                                            > as __rt::Share<
                                                {
                                                    <Option<UploadFile> as __rt::Arg>::SOURCE.is_dependency()
                                                },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            let __arg2 = match __arg2 {
                                ::core::option::Option::Some(__input) => {
                                    match <Form<
                                        String,
                                    > as __rt::Arg>::__resolve(
                                            __input,
                                            &mut __deps,
                                            <Form<
                                                String,
                                            > as __rt::Share<
                                                { <Form<String> as __rt::Arg>::SOURCE.is_dependency() },
                                            >>::SHARE,
                                            __rt::SEALED,
                                        )
                                        .await
                                    {
                                        ::core::result::Result::Ok(__value) => {
                                            ::core::option::Option::Some(__value)
                                        }
                                        ::core::result::Result::Err(__response) => return __response,
                                    }
                                }
                                ::core::option::Option::None => ::core::option::Option::None,
                            };
                            if let ::core::option::Option::Some(__invalid) = __invalid {
                                return __invalid.answer();
                            }
                            #[allow(irrefutable_let_patterns)]
                            let (
                                ::core::option::Option::Some(__arg0),
                                ::core::option::Option::Some(__arg1),
                                ::core::option::Option::Some(__arg2),
                            ) = (__arg0, __arg1, __arg2) else {
                                return __rt::internal_error();
                            };
                            <Json<
                                Value,
                            > as __rt::IntoResponse>::into_response(
                                upload(__arg0, __arg1, __arg2).await,
                            )
                        }),
                    );
                }
                if let ::core::result::Result::Err(__response) = __rt::reject_invalid(
                    __cx,
                    __errors,
                ) {
                    return __rt::Started::Now(__response);
                }
                #[allow(irrefutable_let_patterns)]
                let (
                    ::core::option::Option::Some(__arg0),
                    ::core::option::Option::Some(__arg1),
                    ::core::option::Option::Some(__arg2),
                ) = (
                    <UploadFile as __rt::Arg>::__now(__arg0, __rt::SEALED),
                    <Option<UploadFile> as __rt::Arg>::__now(__arg1, __rt::SEALED),
                    <Form<String> as __rt::Arg>::__now(__arg2, __rt::SEALED),
                ) else {
                    return __rt::Started::Now(__rt::internal_error());
                };
                __rt::Started::Now(
                    __rt::complete_now(
                        "upload",
                        async move { upload(__arg0, __arg1, __arg2).await },
                        |__output| <Json<
                            Value,
                        > as __rt::IntoResponse>::into_response(__output),
                    ),
                )
            };
            let check: fn(
                &__rt::StateMap,
            ) -> ::core::result::Result<(), ::std::string::String> = |
                state: &__rt::StateMap|
            {
                <UploadFile as __rt::Arg>::check(state)?;
                <Option<UploadFile> as __rt::Arg>::check(state)?;
                <Form<String> as __rt::Arg>::check(state)?;
                ::core::result::Result::Ok(())
            };
            let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Operation = |
                registry: &mut __rt::SchemaRegistry,
            | -> __rt::Operation {
                let mut op = __rt::Operation::new(
                    "upload",
                    ::core::option::Option::Some(
                        "A route that takes files: its body is read as a form first (`__reads_form`), and every body argument is asserted to be a part of that form.",
                    ),
                    ::core::option::Option::None,
                    &[],
                );
                <UploadFile as __rt::Arg>::doc(
                    __rt::Param::new("file", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                <Option<
                    UploadFile,
                > as __rt::Arg>::doc(
                    __rt::Param::new("extra", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                <Form<
                    String,
                > as __rt::Arg>::doc(
                    __rt::Param::new("note", ::core::option::Option::None, &[]),
                    &mut op,
                    registry,
                );
                op
            };
            __rt::RouteDef::from(__rt::RouteParts {
                    name: "upload",
                    method: __rt::Method::POST,
                    path: "/upload",
                    handler,
                    reads_body: <UploadFile as __rt::Arg>::SOURCE.is_body()
                        || <Option<UploadFile> as __rt::Arg>::SOURCE.is_body()
                        || <Form<String> as __rt::Arg>::SOURCE.is_body(),
                    streams_body: <UploadFile as __rt::Arg>::SOURCE.is_stream()
                        || <Option<UploadFile> as __rt::Arg>::SOURCE.is_stream()
                        || <Form<String> as __rt::Arg>::SOURCE.is_stream(),
                    include_in_schema: true,
                    operation,
                    check,
                })
                .__reads_form()
        }
    }
};
