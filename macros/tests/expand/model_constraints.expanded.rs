// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

#[derive(Model)]
struct Item {
    #[min_length(1)]
    #[max_length(50)]
    name: String,
    #[ge(0.0)]
    price: f64,
    #[default(1)]
    #[gt(0)]
    #[le(1000)]
    quantity: u32,
    #[ge(-10)]
    #[lt(10)]
    offset: Option<i32>,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    #[allow(clippy::type_complexity)]
    const __PARTS: (
        fn(
            &__rt::Map<::std::string::String, __rt::Value>,
            &mut __rt::Loc,
            &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Item>,
        fn(&mut __rt::SchemaRegistry) -> __rt::Value,
    ) = {
        __rt::assert_from_json::<String>();
        __rt::assert_text::<String>();
        __rt::assert_from_json::<f64>();
        __rt::assert_numeric::<f64>();
        __rt::assert_from_json::<u32>();
        __rt::assert_numeric::<u32>();
        __rt::assert_from_json::<Option<i32>>();
        __rt::assert_numeric::<Option<i32>>();
        (
            #[allow(unused_variables)]
            |
                object: &__rt::Map<::std::string::String, __rt::Value>,
                loc: &mut __rt::Loc,
                errors: &mut __rt::ValidationErrors,
            | -> ::core::option::Option<Item> {
                let __f0 = __rt::field::<
                    String,
                >(
                    object,
                    "name",
                    ::core::option::Option::None,
                    &[
                        __rt::Constraint::MinLength(1usize),
                        __rt::Constraint::MaxLength(50usize),
                    ],
                    loc,
                    errors,
                );
                let __f1 = __rt::field::<
                    f64,
                >(
                    object,
                    "price",
                    ::core::option::Option::None,
                    &[__rt::Constraint::Ge(__rt::Bound::Float(0f64))],
                    loc,
                    errors,
                );
                let __f2 = __rt::field::<
                    u32,
                >(
                    object,
                    "quantity",
                    ::core::option::Option::Some((|| -> u32 { 1 }) as fn() -> u32),
                    &[
                        __rt::Constraint::Le(__rt::Bound::Int(1000i128)),
                        __rt::Constraint::Gt(__rt::Bound::Int(0i128)),
                    ],
                    loc,
                    errors,
                );
                let __f3 = __rt::field::<
                    Option<i32>,
                >(
                    object,
                    "offset",
                    ::core::option::Option::None,
                    &[
                        __rt::Constraint::Lt(__rt::Bound::Int(10i128)),
                        __rt::Constraint::Ge(__rt::Bound::Int(-10i128)),
                    ],
                    loc,
                    errors,
                );
                ::core::option::Option::Some(Item {
                    name: __f0?,
                    price: __f1?,
                    quantity: __f2?,
                    offset: __f3?,
                })
            },
            |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                registry
                    .named(
                        "Item",
                        |registry| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            properties
                                .insert(
                                    "name".to_owned(),
                                    __rt::field_schema::<
                                        String,
                                    >(
                                        "name",
                                        ::core::option::Option::None,
                                        &[
                                            __rt::Constraint::MinLength(1usize),
                                            __rt::Constraint::MaxLength(50usize),
                                        ],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <String as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("name"));
                            }
                            properties
                                .insert(
                                    "price".to_owned(),
                                    __rt::field_schema::<
                                        f64,
                                    >(
                                        "price",
                                        ::core::option::Option::None,
                                        &[__rt::Constraint::Ge(__rt::Bound::Float(0f64))],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <f64 as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("price"));
                            }
                            properties
                                .insert(
                                    "quantity".to_owned(),
                                    __rt::field_schema::<
                                        u32,
                                    >(
                                        "quantity",
                                        (::core::option::Option::Some(
                                            (|| -> u32 { 1 }) as fn() -> u32,
                                        ))
                                            .and_then(|default: fn() -> u32| {
                                                __rt::serde_json::to_value(&default()).ok()
                                            }),
                                        &[
                                            __rt::Constraint::Le(__rt::Bound::Int(1000i128)),
                                            __rt::Constraint::Gt(__rt::Bound::Int(0i128)),
                                        ],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <u32 as __rt::FromJson>::REQUIRED && !true {
                                required.push(__rt::Value::from("quantity"));
                            }
                            properties
                                .insert(
                                    "offset".to_owned(),
                                    __rt::field_schema::<
                                        Option<i32>,
                                    >(
                                        "offset",
                                        ::core::option::Option::None,
                                        &[
                                            __rt::Constraint::Lt(__rt::Bound::Int(10i128)),
                                            __rt::Constraint::Ge(__rt::Bound::Int(-10i128)),
                                        ],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Option<i32> as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("offset"));
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
                            schema.insert("title".to_owned(), __rt::Value::from("Item"));
                            __rt::Value::Object(schema)
                        },
                    )
            },
        )
    };
    impl __rt::Model for Item {
        const NAME: &'static str = "Item";
        fn validate_object(
            object: &__rt::Map<::std::string::String, __rt::Value>,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            (__PARTS.0)(object, loc, errors)
        }
    }
    impl __rt::FromJson for Item {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::validate_model::<Self>(value, loc, errors)
        }
    }
    impl __rt::FastJson for Item {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor;
            impl<'de> __rt::serde::de::Visitor<'de> for __Visitor {
                type Value = Item;
                fn expecting(
                    &self,
                    f: &mut ::core::fmt::Formatter<'_>,
                ) -> ::core::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> ::core::result::Result<Item, A::Error> {
                    #[allow(unused_imports)]
                    use __rt::FieldDecline as _;
                    #[allow(unused_imports)]
                    use __rt::FieldFast as _;
                    let mut __f0: ::core::option::Option<String> = ::core::option::Option::None;
                    let __probe0 = __rt::FieldProbe::<String>::new();
                    let mut __f1: ::core::option::Option<f64> = ::core::option::Option::None;
                    let __probe1 = __rt::FieldProbe::<f64>::new();
                    let mut __f2: ::core::option::Option<u32> = ::core::option::Option::None;
                    let __probe2 = __rt::FieldProbe::<u32>::new();
                    let mut __f3: ::core::option::Option<Option<i32>> = ::core::option::Option::None;
                    let __probe3 = __rt::FieldProbe::<Option<i32>>::new();
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
                                    "name" => 0usize,
                                    "price" => 1usize,
                                    "quantity" => 2usize,
                                    "offset" => 3usize,
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
                            3usize => {
                                __f3 = ::core::option::Option::Some(
                                    map.next_value_seed((&__probe3).seed())?,
                                );
                            }
                            _ => {
                                map.next_value_seed(__rt::Skip)?;
                            }
                        }
                    }
                    let __f0: String = match __f0 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> String| default())
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
                    if (&__probe0)
                        .violates(
                            &[
                                __rt::Constraint::MinLength(1usize),
                                __rt::Constraint::MaxLength(50usize),
                            ],
                            &__f0,
                        )
                    {
                        return ::core::result::Result::Err(
                            <A::Error as __rt::serde::de::Error>::custom("constraint"),
                        );
                    }
                    let __f1: f64 = match __f1 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> f64| default())
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
                    if (&__probe1)
                        .violates(
                            &[__rt::Constraint::Ge(__rt::Bound::Float(0f64))],
                            &__f1,
                        )
                    {
                        return ::core::result::Result::Err(
                            <A::Error as __rt::serde::de::Error>::custom("constraint"),
                        );
                    }
                    let __f2: u32 = match __f2 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::Some(
                                (|| -> u32 { 1 }) as fn() -> u32,
                            ))
                                .map(|default: fn() -> u32| default())
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
                    if (&__probe2)
                        .violates(
                            &[
                                __rt::Constraint::Le(__rt::Bound::Int(1000i128)),
                                __rt::Constraint::Gt(__rt::Bound::Int(0i128)),
                            ],
                            &__f2,
                        )
                    {
                        return ::core::result::Result::Err(
                            <A::Error as __rt::serde::de::Error>::custom("constraint"),
                        );
                    }
                    let __f3: Option<i32> = match __f3 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> Option<i32>| default())
                                .or_else(|| (&__probe3).absent())
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
                    if (&__probe3)
                        .violates(
                            &[
                                __rt::Constraint::Lt(__rt::Bound::Int(10i128)),
                                __rt::Constraint::Ge(__rt::Bound::Int(-10i128)),
                            ],
                            &__f3,
                        )
                    {
                        return ::core::result::Result::Err(
                            <A::Error as __rt::serde::de::Error>::custom("constraint"),
                        );
                    }
                    ::core::result::Result::Ok(Item {
                        name: __f0,
                        price: __f1,
                        quantity: __f2,
                        offset: __f3,
                    })
                }
            }
            deserializer.deserialize_map(__Visitor)
        }
    }
    impl __rt::JsonSchema for Item {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            (__PARTS.1)(registry)
        }
    }
    impl __rt::Constrainable for Item {}
    impl __rt::Extract for Item {
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
    impl __rt::Body for Item {}
};
