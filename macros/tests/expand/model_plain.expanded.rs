// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

#[derive(Model)]
struct Point {
    x: i64,
    y: f64,
    label: String,
    visible: bool,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    #[allow(clippy::type_complexity)]
    const __PARTS: (
        fn(
            &__rt::Map<::std::string::String, __rt::Value>,
            &mut __rt::Loc,
            &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Point>,
        fn(&mut __rt::SchemaRegistry) -> __rt::Value,
    ) = {
        __rt::assert_from_json::<i64>();
        __rt::assert_from_json::<f64>();
        __rt::assert_from_json::<String>();
        __rt::assert_from_json::<bool>();
        (
            #[allow(unused_variables)]
            |
                object: &__rt::Map<::std::string::String, __rt::Value>,
                loc: &mut __rt::Loc,
                errors: &mut __rt::ValidationErrors,
            | -> ::core::option::Option<Point> {
                let __f0 = __rt::field::<
                    i64,
                >(object, "x", ::core::option::Option::None, &[], loc, errors);
                let __f1 = __rt::field::<
                    f64,
                >(object, "y", ::core::option::Option::None, &[], loc, errors);
                let __f2 = __rt::field::<
                    String,
                >(object, "label", ::core::option::Option::None, &[], loc, errors);
                let __f3 = __rt::field::<
                    bool,
                >(object, "visible", ::core::option::Option::None, &[], loc, errors);
                ::core::option::Option::Some(Point {
                    x: __f0?,
                    y: __f1?,
                    label: __f2?,
                    visible: __f3?,
                })
            },
            |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                registry
                    .named(
                        "Point",
                        |registry| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            properties
                                .insert(
                                    "x".to_owned(),
                                    __rt::field_schema::<
                                        i64,
                                    >(
                                        "x",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <i64 as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("x"));
                            }
                            properties
                                .insert(
                                    "y".to_owned(),
                                    __rt::field_schema::<
                                        f64,
                                    >(
                                        "y",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <f64 as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("y"));
                            }
                            properties
                                .insert(
                                    "label".to_owned(),
                                    __rt::field_schema::<
                                        String,
                                    >(
                                        "label",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <String as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("label"));
                            }
                            properties
                                .insert(
                                    "visible".to_owned(),
                                    __rt::field_schema::<
                                        bool,
                                    >(
                                        "visible",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <bool as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("visible"));
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
                            schema
                                .insert("title".to_owned(), __rt::Value::from("Point"));
                            __rt::Value::Object(schema)
                        },
                    )
            },
        )
    };
    impl __rt::Model for Point {
        const NAME: &'static str = "Point";
        fn validate_object(
            object: &__rt::Map<::std::string::String, __rt::Value>,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            (__PARTS.0)(object, loc, errors)
        }
    }
    impl __rt::FromJson for Point {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::validate_model::<Self>(value, loc, errors)
        }
    }
    impl __rt::FastJson for Point {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor;
            impl<'de> __rt::serde::de::Visitor<'de> for __Visitor {
                type Value = Point;
                fn expecting(
                    &self,
                    f: &mut ::core::fmt::Formatter<'_>,
                ) -> ::core::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> ::core::result::Result<Point, A::Error> {
                    #[allow(unused_imports)]
                    use __rt::FieldDecline as _;
                    #[allow(unused_imports)]
                    use __rt::FieldFast as _;
                    let mut __f0: ::core::option::Option<i64> = ::core::option::Option::None;
                    let __probe0 = __rt::FieldProbe::<i64>::new();
                    let mut __f1: ::core::option::Option<f64> = ::core::option::Option::None;
                    let __probe1 = __rt::FieldProbe::<f64>::new();
                    let mut __f2: ::core::option::Option<String> = ::core::option::Option::None;
                    let __probe2 = __rt::FieldProbe::<String>::new();
                    let mut __f3: ::core::option::Option<bool> = ::core::option::Option::None;
                    let __probe3 = __rt::FieldProbe::<bool>::new();
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
                                    "x" => 0usize,
                                    "y" => 1usize,
                                    "label" => 2usize,
                                    "visible" => 3usize,
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
                    let __f0: i64 = match __f0 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> i64| default())
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
                    let __f2: String = match __f2 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> String| default())
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
                    let __f3: bool = match __f3 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> bool| default())
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
                    ::core::result::Result::Ok(Point {
                        x: __f0,
                        y: __f1,
                        label: __f2,
                        visible: __f3,
                    })
                }
            }
            deserializer.deserialize_map(__Visitor)
        }
    }
    impl __rt::JsonSchema for Point {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            (__PARTS.1)(registry)
        }
    }
    impl __rt::Constrainable for Point {}
    impl __rt::Extract for Point {
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
    impl __rt::Body for Point {}
};
