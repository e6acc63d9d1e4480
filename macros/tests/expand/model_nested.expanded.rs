// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

#[derive(Model)]
struct Invoice {
    customer: Customer,
    lines: Vec<Line>,
    status: Option<Status>,
    extra: serde_json::Value,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    #[allow(clippy::type_complexity)]
    const __PARTS: (
        fn(
            &__rt::Map<::std::string::String, __rt::Value>,
            &mut __rt::Loc,
            &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Invoice>,
        fn(&mut __rt::SchemaRegistry) -> __rt::Value,
    ) = {
        __rt::assert_from_json::<Customer>();
        __rt::assert_from_json::<Vec<Line>>();
        __rt::assert_from_json::<Option<Status>>();
        __rt::assert_from_json::<serde_json::Value>();
        (
            #[allow(unused_variables)]
            |
                object: &__rt::Map<::std::string::String, __rt::Value>,
                loc: &mut __rt::Loc,
                errors: &mut __rt::ValidationErrors,
            | -> ::core::option::Option<Invoice> {
                let __f0 = __rt::field::<
                    Customer,
                >(object, "customer", ::core::option::Option::None, &[], loc, errors);
                let __f1 = __rt::field::<
                    Vec<Line>,
                >(object, "lines", ::core::option::Option::None, &[], loc, errors);
                let __f2 = __rt::field::<
                    Option<Status>,
                >(object, "status", ::core::option::Option::None, &[], loc, errors);
                let __f3 = __rt::field::<
                    serde_json::Value,
                >(object, "extra", ::core::option::Option::None, &[], loc, errors);
                ::core::option::Option::Some(Invoice {
                    customer: __f0?,
                    lines: __f1?,
                    status: __f2?,
                    extra: __f3?,
                })
            },
            |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                registry
                    .named(
                        "Invoice",
                        |registry| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            properties
                                .insert(
                                    "customer".to_owned(),
                                    __rt::field_schema::<
                                        Customer,
                                    >(
                                        "customer",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Customer as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("customer"));
                            }
                            properties
                                .insert(
                                    "lines".to_owned(),
                                    __rt::field_schema::<
                                        Vec<Line>,
                                    >(
                                        "lines",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Vec<Line> as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("lines"));
                            }
                            properties
                                .insert(
                                    "status".to_owned(),
                                    __rt::field_schema::<
                                        Option<Status>,
                                    >(
                                        "status",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Option<Status> as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("status"));
                            }
                            properties
                                .insert(
                                    "extra".to_owned(),
                                    __rt::field_schema::<
                                        serde_json::Value,
                                    >(
                                        "extra",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <serde_json::Value as __rt::FromJson>::REQUIRED && !false
                            {
                                required.push(__rt::Value::from("extra"));
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
                                .insert("title".to_owned(), __rt::Value::from("Invoice"));
                            __rt::Value::Object(schema)
                        },
                    )
            },
        )
    };
    impl __rt::Model for Invoice {
        const NAME: &'static str = "Invoice";
        fn validate_object(
            object: &__rt::Map<::std::string::String, __rt::Value>,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            (__PARTS.0)(object, loc, errors)
        }
    }
    impl __rt::FromJson for Invoice {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::validate_model::<Self>(value, loc, errors)
        }
    }
    impl __rt::FastJson for Invoice {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor;
            impl<'de> __rt::serde::de::Visitor<'de> for __Visitor {
                type Value = Invoice;
                fn expecting(
                    &self,
                    f: &mut ::core::fmt::Formatter<'_>,
                ) -> ::core::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> ::core::result::Result<Invoice, A::Error> {
                    #[allow(unused_imports)]
                    use __rt::FieldDecline as _;
                    #[allow(unused_imports)]
                    use __rt::FieldFast as _;
                    let mut __f0: ::core::option::Option<Customer> = ::core::option::Option::None;
                    let __probe0 = __rt::FieldProbe::<Customer>::new();
                    let mut __f1: ::core::option::Option<Vec<Line>> = ::core::option::Option::None;
                    let __probe1 = __rt::FieldProbe::<Vec<Line>>::new();
                    let mut __f2: ::core::option::Option<Option<Status>> = ::core::option::Option::None;
                    let __probe2 = __rt::FieldProbe::<Option<Status>>::new();
                    let mut __f3: ::core::option::Option<serde_json::Value> = ::core::option::Option::None;
                    let __probe3 = __rt::FieldProbe::<serde_json::Value>::new();
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
                                    "customer" => 0usize,
                                    "lines" => 1usize,
                                    "status" => 2usize,
                                    "extra" => 3usize,
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
                    let __f0: Customer = match __f0 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> Customer| default())
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
                    let __f1: Vec<Line> = match __f1 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> Vec<Line>| default())
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
                    let __f2: Option<Status> = match __f2 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> Option<Status>| default())
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
                    let __f3: serde_json::Value = match __f3 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> serde_json::Value| default())
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
                    ::core::result::Result::Ok(Invoice {
                        customer: __f0,
                        lines: __f1,
                        status: __f2,
                        extra: __f3,
                    })
                }
            }
            deserializer.deserialize_map(__Visitor)
        }
    }
    impl __rt::JsonSchema for Invoice {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            (__PARTS.1)(registry)
        }
    }
    impl __rt::Constrainable for Invoice {}
    impl __rt::Extract for Invoice {
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
    impl __rt::Body for Invoice {}
};
