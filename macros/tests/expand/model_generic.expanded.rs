// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// A page of any model.
#[derive(Model)]
struct Page<T> {
    items: Vec<T>,
    total: u64,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl<T> Page<T>
    where
        T: __rt::FromJson,
    {
        #[doc(hidden)]
        #[allow(clippy::type_complexity)]
        const __PARTS: (
            fn(
                &__rt::Map<::std::string::String, __rt::Value>,
                &mut __rt::Loc,
                &mut __rt::ValidationErrors,
            ) -> ::core::option::Option<Page<T>>,
            fn(&mut __rt::SchemaRegistry) -> __rt::Value,
        ) = {
            __rt::assert_from_json::<Vec<T>>();
            __rt::assert_from_json::<u64>();
            (
                #[allow(unused_variables)]
                |
                    object: &__rt::Map<::std::string::String, __rt::Value>,
                    loc: &mut __rt::Loc,
                    errors: &mut __rt::ValidationErrors,
                | -> ::core::option::Option<Page<T>> {
                    let __f0 = __rt::field::<
                        Vec<T>,
                    >(object, "items", ::core::option::Option::None, &[], loc, errors);
                    let __f1 = __rt::field::<
                        u64,
                    >(object, "total", ::core::option::Option::None, &[], loc, errors);
                    ::core::option::Option::Some(Page { items: __f0?, total: __f1? })
                },
                |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                    __rt::generic_schema(
                        "Page",
                        &[<T as __rt::JsonSchema>::python_name()],
                        registry,
                        |registry, title| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            properties
                                .insert(
                                    "items".to_owned(),
                                    __rt::field_schema::<
                                        Vec<T>,
                                    >(
                                        "items",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Vec<T> as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("items"));
                            }
                            properties
                                .insert(
                                    "total".to_owned(),
                                    __rt::field_schema::<
                                        u64,
                                    >(
                                        "total",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <u64 as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("total"));
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
                            schema.insert("title".to_owned(), __rt::Value::from(title));
                            schema
                                .insert(
                                    "description".to_owned(),
                                    __rt::Value::from("A page of any model."),
                                );
                            __rt::Value::Object(schema)
                        },
                    )
                },
            )
        };
    }
    impl<T> __rt::Model for Page<T>
    where
        T: __rt::FromJson,
    {
        const NAME: &'static str = "Page";
        fn validate_object(
            object: &__rt::Map<::std::string::String, __rt::Value>,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            (Self::__PARTS.0)(object, loc, errors)
        }
    }
    impl<T> __rt::FromJson for Page<T>
    where
        T: __rt::FromJson,
    {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::validate_model::<Self>(value, loc, errors)
        }
    }
    impl<T> __rt::FastJson for Page<T>
    where
        T: __rt::FromJson,
    {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor<T>(
                ::core::marker::PhantomData<fn() -> Page<T>>,
            )
            where
                T: __rt::FromJson;
            impl<'de, T> __rt::serde::de::Visitor<'de> for __Visitor<T>
            where
                T: __rt::FromJson,
            {
                type Value = Page<T>;
                fn expecting(
                    &self,
                    f: &mut ::core::fmt::Formatter<'_>,
                ) -> ::core::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> ::core::result::Result<Page<T>, A::Error> {
                    #[allow(unused_imports)]
                    use __rt::FieldDecline as _;
                    #[allow(unused_imports)]
                    use __rt::FieldFast as _;
                    let mut __f0: ::core::option::Option<Vec<T>> = ::core::option::Option::None;
                    let __probe0 = __rt::FieldProbe::<Vec<T>>::new();
                    let mut __f1: ::core::option::Option<u64> = ::core::option::Option::None;
                    let __probe1 = __rt::FieldProbe::<u64>::new();
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
                                    "items" => 0usize,
                                    "total" => 1usize,
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
                            _ => {
                                map.next_value_seed(__rt::Skip)?;
                            }
                        }
                    }
                    let __f0: Vec<T> = match __f0 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> Vec<T>| default())
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
                    let __f1: u64 = match __f1 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> u64| default())
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
                    ::core::result::Result::Ok(Page { items: __f0, total: __f1 })
                }
            }
            deserializer.deserialize_map(__Visitor(::core::marker::PhantomData))
        }
    }
    impl<T> __rt::JsonSchema for Page<T>
    where
        T: __rt::FromJson,
    {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            (Self::__PARTS.1)(registry)
        }
        fn python_name() -> ::std::string::String {
            __rt::generic_title("Page", &[<T as __rt::JsonSchema>::python_name()])
        }
    }
    impl<T> __rt::Constrainable for Page<T>
    where
        T: __rt::FromJson,
    {}
    impl<T> __rt::Extract for Page<T>
    where
        T: __rt::FromJson,
        T: ::core::marker::Send + 'static,
    {
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
    impl<T> __rt::Body for Page<T>
    where
        T: __rt::FromJson,
        T: ::core::marker::Send + 'static,
    {}
};
#[derive(Model)]
struct Pair<A, B: Clone>
where
    A: Clone,
{
    #[examples(1, 2)]
    first: A,
    second: Option<B>,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl<A, B: Clone> Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
    {
        #[doc(hidden)]
        #[allow(clippy::type_complexity)]
        const __PARTS: (
            fn(
                &__rt::Map<::std::string::String, __rt::Value>,
                &mut __rt::Loc,
                &mut __rt::ValidationErrors,
            ) -> ::core::option::Option<Pair<A, B>>,
            fn(&mut __rt::SchemaRegistry) -> __rt::Value,
        ) = {
            __rt::assert_from_json::<A>();
            __rt::assert_from_json::<Option<B>>();
            (
                #[allow(unused_variables)]
                |
                    object: &__rt::Map<::std::string::String, __rt::Value>,
                    loc: &mut __rt::Loc,
                    errors: &mut __rt::ValidationErrors,
                | -> ::core::option::Option<Pair<A, B>> {
                    let __f0 = __rt::param_field::<
                        A,
                    >(object, "first", ::core::option::Option::None, &[], loc, errors);
                    let __f1 = __rt::field::<
                        Option<B>,
                    >(object, "second", ::core::option::Option::None, &[], loc, errors);
                    ::core::option::Option::Some(Pair {
                        first: __f0?,
                        second: __f1?,
                    })
                },
                |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                    __rt::generic_schema(
                        "Pair",
                        &[
                            <A as __rt::JsonSchema>::python_name(),
                            <B as __rt::JsonSchema>::python_name(),
                        ],
                        registry,
                        |registry, title| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            properties
                                .insert(
                                    "first".to_owned(),
                                    __rt::with_examples(
                                        __rt::field_schema::<
                                            A,
                                        >(
                                            "first",
                                            ::core::option::Option::None,
                                            &[],
                                            ::core::option::Option::None,
                                            registry,
                                        ),
                                        __rt::json!([1, 2]),
                                    ),
                                );
                            if !false {
                                required.push(__rt::Value::from("first"));
                            }
                            properties
                                .insert(
                                    "second".to_owned(),
                                    __rt::field_schema::<
                                        Option<B>,
                                    >(
                                        "second",
                                        ::core::option::Option::None,
                                        &[],
                                        ::core::option::Option::None,
                                        registry,
                                    ),
                                );
                            if <Option<B> as __rt::FromJson>::REQUIRED && !false {
                                required.push(__rt::Value::from("second"));
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
                            schema.insert("title".to_owned(), __rt::Value::from(title));
                            __rt::Value::Object(schema)
                        },
                    )
                },
            )
        };
    }
    impl<A, B: Clone> __rt::Model for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
    {
        const NAME: &'static str = "Pair";
        fn validate_object(
            object: &__rt::Map<::std::string::String, __rt::Value>,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            (Self::__PARTS.0)(object, loc, errors)
        }
    }
    impl<A, B: Clone> __rt::FromJson for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
    {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::validate_model::<Self>(value, loc, errors)
        }
    }
    impl<A, B: Clone> __rt::FastJson for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
    {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor<A, B: Clone>(
                ::core::marker::PhantomData<fn() -> Pair<A, B>>,
            )
            where
                A: Clone,
                A: __rt::FromJson,
                B: __rt::FromJson;
            impl<'de, A, B: Clone> __rt::serde::de::Visitor<'de> for __Visitor<A, B>
            where
                A: Clone,
                A: __rt::FromJson,
                B: __rt::FromJson,
            {
                type Value = Pair<A, B>;
                fn expecting(
                    &self,
                    f: &mut ::core::fmt::Formatter<'_>,
                ) -> ::core::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> ::core::result::Result<Pair<A, B>, A::Error> {
                    #[allow(unused_imports)]
                    use __rt::FieldDecline as _;
                    #[allow(unused_imports)]
                    use __rt::FieldFast as _;
                    let mut __f0: ::core::option::Option<A> = ::core::option::Option::None;
                    let __probe0 = __rt::FieldProbe::<A>::new();
                    let mut __f1: ::core::option::Option<Option<B>> = ::core::option::Option::None;
                    let __probe1 = __rt::FieldProbe::<Option<B>>::new();
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
                                    "first" => 0usize,
                                    "second" => 1usize,
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
                            _ => {
                                map.next_value_seed(__rt::Skip)?;
                            }
                        }
                    }
                    let __f0: A = match __f0 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> A| default())
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
                    let __f1: Option<B> = match __f1 {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => {
                            match (::core::option::Option::None)
                                .map(|default: fn() -> Option<B>| default())
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
                    ::core::result::Result::Ok(Pair { first: __f0, second: __f1 })
                }
            }
            deserializer.deserialize_map(__Visitor(::core::marker::PhantomData))
        }
    }
    impl<A, B: Clone> __rt::JsonSchema for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
    {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            (Self::__PARTS.1)(registry)
        }
        fn python_name() -> ::std::string::String {
            __rt::generic_title(
                "Pair",
                &[
                    <A as __rt::JsonSchema>::python_name(),
                    <B as __rt::JsonSchema>::python_name(),
                ],
            )
        }
    }
    impl<A, B: Clone> __rt::Constrainable for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
    {}
    impl<A, B: Clone> __rt::Extract for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
        A: ::core::marker::Send + 'static,
        B: ::core::marker::Send + 'static,
    {
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
    impl<A, B: Clone> __rt::Body for Pair<A, B>
    where
        A: Clone,
        A: __rt::FromJson,
        B: __rt::FromJson,
        A: ::core::marker::Send + 'static,
        B: ::core::marker::Send + 'static,
    {}
};
