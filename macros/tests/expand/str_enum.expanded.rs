// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

/// The side of an order.
#[derive(StrEnum, Debug, Clone, Copy)]
enum Side {
    #[value("buy")]
    Buy,
    #[value("sell")]
    Sell,
    ShortSell,
}
const _: () = {
    use ::ferrapi::__private as __rt;
    impl __rt::StrEnum for Side {
        const VALUES: &'static [&'static str] = &["buy", "sell", "short_sell"];
        const EXPECTED: &'static str = "'buy', 'sell' or 'short_sell'";
        fn from_value(value: &str) -> ::core::option::Option<Self> {
            match value {
                "buy" => ::core::option::Option::Some(Side::Buy),
                "sell" => ::core::option::Option::Some(Side::Sell),
                "short_sell" => ::core::option::Option::Some(Side::ShortSell),
                _ => ::core::option::Option::None,
            }
        }
        fn as_str(&self) -> &'static str {
            match self {
                Side::Buy => "buy",
                Side::Sell => "sell",
                Side::ShortSell => "short_sell",
            }
        }
    }
    impl __rt::FromParam for Side {
        fn from_param(raw: &str) -> ::core::result::Result<Self, __rt::Failure> {
            __rt::enum_from_param::<Self>(raw)
        }
    }
    impl __rt::FromJson for Side {
        fn from_json(
            value: &__rt::Value,
            loc: &mut __rt::Loc,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::enum_from_json::<Self>(value, loc, errors)
        }
    }
    impl __rt::FastJson for Side {
        fn fast<'de, D: __rt::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            __rt::fast_enum::<Self, D>(deserializer)
        }
    }
    impl __rt::JsonSchema for Side {
        fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
            registry
                .named(
                    "Side",
                    |_| {
                        #[allow(unused_mut)]
                        let mut schema = __rt::enum_schema::<Self>("Side");
                        if let __rt::Value::Object(map) = &mut schema {
                            map.insert(
                                "description".to_owned(),
                                __rt::Value::from("The side of an order."),
                            );
                        }
                        schema
                    },
                )
        }
    }
    impl __rt::Constrainable for Side {}
    impl __rt::serde::Serialize for Side {
        fn serialize<S: __rt::serde::Serializer>(
            &self,
            serializer: S,
        ) -> ::core::result::Result<S::Ok, S::Error> {
            serializer.serialize_str(__rt::StrEnum::as_str(self))
        }
    }
    impl ::core::fmt::Display for Side {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            f.write_str(__rt::StrEnum::as_str(self))
        }
    }
    impl __rt::FormValue for Side {
        fn from_form(
            cx: &__rt::RequestCx<'_>,
            param: __rt::Param<__rt::Form<Self>>,
            errors: &mut __rt::ValidationErrors,
        ) -> ::core::option::Option<Self> {
            __rt::enum_form_field::<Self>(cx, param, errors)
        }
        fn doc(
            param: __rt::Param<__rt::Form<Self>>,
            op: &mut __rt::Operation,
            registry: &mut __rt::SchemaRegistry,
        ) {
            __rt::enum_form_doc::<Self>(param, op, registry)
        }
    }
    impl __rt::FormField for Side {}
};
