// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

#[derive(Model)]
struct Page {
    #[default(1)]
    page: u32,
    #[default(String::from("asc"))]
    order: String,
    #[default(Vec::new())]
    tags: Vec<String>,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    #[allow(clippy::type_complexity)]
    const __PARTS: (
        fn(
            &__rt::Map<::std::string::String, __rt::Value>,
            &mut __rt::Loc,
            &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Page>,
        fn(&mut __rt::SchemaRegistry) -> __rt::Value,
    ) = {
        __rt::assert_from_json::<u32>();
        __rt::assert_from_json::<String>();
        __rt::assert_from_json::<Vec<String>>();
        (
            #[allow(unused_variables)]
            |
                object: &__rt::Map<::std::string::String, __rt::Value>,
                loc: &mut __rt::Loc,
                errors: &mut __rt::ValidationErrors,
            | -> ::core::option::Option<Page> {
                let __f0 = __rt::field::<
                    u32,
                >(
                    object,
                    "page",
                    ::core::option::Option::Some((|| -> u32 { 1 }) as fn() -> u32),
                    &[],
                    loc,
                    errors,
                );
                let __f1 = __rt::field::<
                    String,
                >(
                    object,
                    "order",
                    ::core::option::Option::Some(
                        (|| -> String { String::from("asc") }) as fn() -> String,
                    ),
                    &[],
                    loc,
                    errors,
                );
                let __f2 = __rt::field::<
                    Vec<String>,
                >(
                    object,
                    "tags",
                    ::core::option::Option::Some(
                        (|| -> Vec<String> { Vec::new() }) as fn() -> Vec<String>,
                    ),
                    &[],
                    loc,
                    errors,
                );
                ::core::option::Option::Some(Page {
                    page: __f0?,
                    order: __f1?,
                    tags: __f2?,
                })
            },
            |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                registry
                    .named(
                        "Page",
                        |registry| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            properties
                                .insert(
                                    "page".to_owned(),
                                    __rt::field_schema::<
                                        u32,
                                    >(
                                        "page",
                                        (::core::option::Option::Some(
                                            (|| -> u32 { 1 }) as fn() -> u32,
                                        ))
                                            .and_then(|default: fn() -> u32| {
                                                __rt::serde_json::to_value(&default()).ok()
                                            }),
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <u32 as __rt::FromJson>::REQUIRED && !true {
                                required.push(__rt::Value::from("page"));
                            }
                            properties
                                .insert(
                                    "order".to_owned(),
                                    __rt::field_schema::<
                                        String,
                                    >(
                                        "order",
                                        (::core::option::Option::Some(
                                            (|| -> String { String::from("asc") }) as fn() -> String,
                                        ))
                                            .and_then(|default: fn() -> String| {
                                                __rt::serde_json::to_value(&default()).ok()
                                            }),
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <String as __rt::FromJson>::REQUIRED && !true {
                                required.push(__rt::Value::from("order"));
                            }
                            properties
                                .insert(
                                    "tags".to_owned(),
                                    __rt::field_schema::<
                                        Vec<String>,
                                    >(
                                        "tags",
                                        (::core::option::Option::Some(
                                            (|| -> Vec<String> { Vec::new() }) as fn() -> Vec<String>,
                                        ))
                                            .and_then(|default: fn() -> Vec<String>| {
                                                __rt::serde_json::to_value(&default()).ok()
                                            }),
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Vec<String> as __rt::FromJson>::REQUIRED && !true {
                                required.push(__rt::Value::from("tags"));
                            }
                            let mut schema = __rt::Map::new();
                            schema
                                .insert(
                                    "properties".to_owned(),
                                    __rt::Value::Object(properties),
                                );
                            schema
                                .insert("type".to_owned(), __rt::Value::from("object"));
                            if !required.is_empty() {
                                schema
                                    .insert(
                                        "required".to_owned(),
                                        __rt::Value::Array(required),
                                    );
                            }
                            schema.insert("title".to_owned(), __rt::Value::from("Page"));
                            __rt::Value::Object(schema)
                        },
                    )
            },
        )
    };
    impl __rt::Model for Page {
        const NAME: &'static str = "Page";
        fn validate_object(
            object: &__rt::Map<::std::string::String, __rt::Value>,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            (__PARTS.0)(object, loc, errors)
        }
    }
    impl __rt::FromJson for Page {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::validate_model::<Self>(value, loc, errors)
        }
    }
    impl __rt::FastJson for Page {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor;
            impl<'de> __rt::serde::de::Visitor<'de> for __Visitor {
                type Value = Page;
                fn expecting(
                    &self,
                    f: &mut ::core::fmt::Formatter<'_>,
                ) -> ::core::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> ::core::result::Result<Page, A::Error> {
                    #[allow(unused_imports)]
                    use __rt::FieldDecline as _;
                    #[allow(unused_imports)]
                    use __rt::FieldFast as _;
                    let mut __f0: ::core::option::Option<u32> = ::core::option::Option::None;
                    let __probe0 = __rt::FieldProbe::<u32>::new();
                    let mut __f1: ::core::option::Option<String> = ::core::option::Option::None;
                    let __probe1 = __rt::FieldProbe::<String>::new();
                    let mut __f2: ::core::option::Option<Vec<String>> = ::core::option::Option::None;
                    let __probe2 = __rt::FieldProbe::<Vec<String>>::new();
                    struct __Key;
                    impl<'de> __rt::serde::de::DeserializeSeed<'de> for __Key {
                        type Value = usize;
                        fn deserialize<K: __rt::serde::Deserializer<'de>>(
                            self,
                            deserializer: K,
                        ) -> ::core::result::Result<usize, K::Error> {
                            deserializer.deserialize_identifier(self)
                        }
                    }
                    impl<'de> __rt::serde::de::Visitor<'de> for __Key {
                        type Value = usize;
                        fn expecting(
                            &self,
                            f: &mut ::core::fmt::Formatter<'_>,
                        ) -> ::core::fmt::Result {
                            f.write_str("a field name")
                        }
                        fn visit_str<E: __rt::serde::de::Error>(
                            self,
                            key: &str,
                        ) -> ::core::result::Result<usize, E> {
                            ::core::result::Result::Ok(
                                match key {
                                    "page" => 0usize,
                                    "order" => 1usize,
                                    "tags" => 2usize,
                                    _ => usize::MAX,
                                },
                            )
                        }
                    }
                    while let ::core::option::Option::Some(key) = map
                        .next_key_seed(__Key)?
                    {
                        match key {
                            0usize => {
                                __f0 = ::core::option::Option::Some(
                                    map.next_value_seed((&__probe0).seed())?,
                                );
                            }
                            1usize => {
                                __f1 = ::core::option::Option::Some(
                                    map.next_value_seed((&__probe1).seed())?,
                                );
                            }
                            2usize => {
                                __f2 = ::core::option::Option::Some(
                                    map.next_value_seed((&__probe2).seed())?,
                                );
                            }
                            _ => {
                                map.next_value_seed(__rt::Skip)?;
                            }
                        }
                    }
                    let __f0: u32 = match __f0 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::Some(
                                (|| -> u32 { 1 }) as fn() -> u32,
                            ))
                                .map(|default: fn() -> u32| default())
                                .or_else(|| (&__probe0).absent())
                            {
                                ::core::option::Option::Some(value) => value,
                                ::core::option::Option::None => {
                                    return ::core::result::Result::Err(
                                        <A::Error as __rt::serde::de::Error>::custom(
                                            "missing field",
                                        ),
                                    );
                                }
                            }
                        }
                    };
                    let __f1: String = match __f1 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::Some(
                                (|| -> String { String::from("asc") }) as fn() -> String,
                            ))
                                .map(|default: fn() -> String| default())
                                .or_else(|| (&__probe1).absent())
                            {
                                ::core::option::Option::Some(value) => value,
                                ::core::option::Option::None => {
                                    return ::core::result::Result::Err(
                                        <A::Error as __rt::serde::de::Error>::custom(
                                            "missing field",
                                        ),
                                    );
                                }
                            }
                        }
                    };
                    let __f2: Vec<String> = match __f2 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::Some(
                                (|| -> Vec<String> { Vec::new() }) as fn() -> Vec<String>,
                            ))
                                .map(|default: fn() -> Vec<String>| default())
                                .or_else(|| (&__probe2).absent())
                            {
                                ::core::option::Option::Some(value) => value,
                                ::core::option::Option::None => {
                                    return ::core::result::Result::Err(
                                        <A::Error as __rt::serde::de::Error>::custom(
                                            "missing field",
                                        ),
                                    );
                                }
                            }
                        }
                    };
                    ::core::result::Result::Ok(Page {
                        page: __f0,
                        order: __f1,
                        tags: __f2,
                    })
                }
            }
            deserializer.deserialize_map(__Visitor)
        }
    }
    impl __rt::JsonSchema for Page {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            (__PARTS.1)(registry)
        }
    }
    impl __rt::Constrainable for Page {}
    impl __rt::Extract for Page {
        fn extract(
            cx: &__rt::RequestCx<'_>,
            _param: __rt::Param<Self>,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::body_model::<Self>(cx, errors)
        }
        fn doc(
            _param: __rt::Param<Self>,
            op: &mut __rt::Operation,
            registry: &mut __rt::SchemaRegistry,
        ) {
            op.request_body(<Self as __rt::JsonSchema>::schema(registry));
        }
    }
    impl __rt::Body for Page {}
};
