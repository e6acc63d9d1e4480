//! `#[derive(Model)]`: validation of a JSON object into the struct (pydantic's lax mode, every
//! error collected), its JSON Schema, and its use as a route's JSON body.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::diag::Diagnostics;
use crate::emit_handler::{constraint_assertions, constraints_tokens, default_tokens};
use crate::parse::param_attrs;

/// The JSON key of a field: its name, or `#[serde(rename = "..")]`.
fn json_key(field: &syn::Field, diag: &mut Diagnostics) -> String {
    let mut key = field
        .ident
        .as_ref()
        .map(|i| i.to_string().trim_start_matches("r#").to_owned())
        .unwrap_or_default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: LitStr = meta.value()?.parse()?;
                key = value.value();
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
                let _: TokenStream = _content.parse()?;
            }
            Ok(())
        });
        if let Err(err) = result {
            diag.push(err);
        }
    }
    key
}

/// The expansion of `#[derive(Model)]` on `item`.
pub fn derive(item: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(item) {
        Ok(input) => expand(input),
        Err(err) => err.to_compile_error(),
    }
}

/// Expand the derive.
fn expand(input: DeriveInput) -> TokenStream {
    let mut diag = Diagnostics::default();
    let name = &input.ident;
    let name_str = name.to_string();
    if !input.generics.params.is_empty() {
        diag.error_spanned(&input.generics, "`Model` cannot be derived for a generic struct");
    }
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named.named.iter().cloned().collect::<Vec<_>>(),
            other => {
                diag.error_spanned(
                    other,
                    "`Model` needs a struct with named fields: the names are the JSON keys",
                );
                Vec::new()
            }
        },
        _ => {
            diag.error(
                name.span(),
                "`Model` can only be derived for a struct with named fields (use `StrEnum` for string enums)",
            );
            Vec::new()
        }
    };

    let mut assertions = TokenStream::new();
    let mut validate = TokenStream::new();
    let mut build = Vec::new();
    let mut schema = TokenStream::new();
    let mut fast_slots = TokenStream::new();
    let mut fast_arms = TokenStream::new();
    let mut fast_finish = TokenStream::new();
    let mut fast_keys = Vec::new();
    let mut fast_indexes: Vec<usize> = Vec::new();
    let mut fast_build = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let mut attrs = field.attrs.clone();
        let parsed = param_attrs(&mut attrs, &mut diag, &["serde"]);
        let ty = &field.ty;
        let Some(ident) = &field.ident else { continue };
        let key = json_key(field, &mut diag);
        let slot = format_ident!("__f{}", i);
        let constraints = constraints_tokens(&parsed.constraints);
        let default = default_tokens(ty, parsed.default.as_ref());
        assertions.extend(quote_spanned!(ty.span()=> __rt::assert_from_json::<#ty>();));
        assertions.extend(constraint_assertions(ty, &parsed.constraints));
        validate.extend(quote! {
            let #slot = __rt::field::<#ty>(object, #key, #default, #constraints, loc, errors);
        });
        build.push(quote!(#ident: #slot?));
        let index = fast_keys.len();
        fast_keys.push(key.clone());
        fast_indexes.push(index);
        fast_build.push(quote!(#ident: #slot));
        fast_slots.extend(quote! {
            let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;
        });
        let probe = format_ident!("__probe{}", i);
        fast_slots.extend(quote! {
            let #probe = __rt::FieldProbe::<#ty>::new();
        });
        fast_arms.extend(quote! {
            #index => #slot = ::core::option::Option::Some(map.next_value_seed((&#probe).seed())?),
        });
        fast_finish.extend(quote! {
            let #slot: #ty = match #slot {
                ::core::option::Option::Some(value) => value,
                ::core::option::Option::None => {
                    match (#default).map(|default: fn() -> #ty| default()).or_else(|| (&#probe).absent()) {
                        ::core::option::Option::Some(value) => value,
                        ::core::option::Option::None => return ::core::result::Result::Err(
                            <A::Error as __rt::serde::de::Error>::custom("missing field"),
                        ),
                    }
                }
            };
        });
        if !parsed.constraints.is_empty() {
            fast_finish.extend(quote! {
                if (&#probe).violates(#constraints, &#slot) {
                    return ::core::result::Result::Err(<A::Error as __rt::serde::de::Error>::custom("constraint"));
                }
            });
        }
        // The same `default` tokens as in validation, so a mistyped default is one error.
        let default_json = match &parsed.default {
            Some(_) => quote! {
                (#default).and_then(|default: fn() -> #ty| __rt::serde_json::to_value(&default()).ok())
            },
            None => quote!(::core::option::Option::None),
        };
        let has_default = parsed.default.is_some();
        let field_doc = match crate::parse::doc_text(&field.attrs) {
            Some(text) => quote!(::core::option::Option::Some(#text)),
            None => quote!(::core::option::Option::None),
        };
        schema.extend(quote! {
            properties.insert(
                #key.to_owned(),
                __rt::field_schema::<#ty>(#key, #default_json, #constraints, #field_doc, registry),
            );
            if <#ty as __rt::FromJson>::REQUIRED && !#has_default {
                required.push(__rt::Value::from(#key));
            }
        });
    }
    if !diag.is_empty() {
        return diag.to_tokens();
    }
    let description = crate::parse::doc_text(&input.attrs);
    let description =
        description.map(|d| quote!(schema.insert("description".to_owned(), __rt::Value::from(#d));));

    // The field types are named only in the one body of `__PARTS` (its closures included): the
    // compiler reports an unsatisfied bound once per span and body, so an unsupported field type
    // is one error at the field rather than one per generated function.
    quote! {
        const _: () = {
            use ::ferrapi::__private as __rt;

            #[allow(clippy::type_complexity)]
            const __PARTS: (
                fn(
                    &__rt::Map<::std::string::String, __rt::Value>,
                    &mut __rt::Loc,
                    &mut __rt::ValidationErrors,
                ) -> ::core::option::Option<#name>,
                fn(&mut __rt::SchemaRegistry) -> __rt::Value,
            ) = {
                #assertions
                (
                    #[allow(unused_variables)]
                    |object: &__rt::Map<::std::string::String, __rt::Value>,
                     loc: &mut __rt::Loc,
                     errors: &mut __rt::ValidationErrors|
                     -> ::core::option::Option<#name> {
                        #validate
                        ::core::option::Option::Some(#name { #(#build),* })
                    },
                    |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
                        registry.named(#name_str, |registry| {
                            #[allow(unused_mut)]
                            let mut properties = __rt::Map::new();
                            #[allow(unused_mut)]
                            let mut required: ::std::vec::Vec<__rt::Value> = ::std::vec::Vec::new();
                            #schema
                            let mut schema = __rt::Map::new();
                            schema.insert("properties".to_owned(), __rt::Value::Object(properties));
                            schema.insert("type".to_owned(), __rt::Value::from("object"));
                            if !required.is_empty() {
                                schema.insert("required".to_owned(), __rt::Value::Array(required));
                            }
                            schema.insert("title".to_owned(), __rt::Value::from(#name_str));
                            #description
                            __rt::Value::Object(schema)
                        })
                    },
                )
            };

            impl __rt::Model for #name {
                const NAME: &'static str = #name_str;

                fn validate_object(
                    object: &__rt::Map<::std::string::String, __rt::Value>,
                    loc: &mut __rt::Loc,
                    errors: &mut __rt::ValidationErrors,
                ) -> ::core::option::Option<Self> {
                    (__PARTS.0)(object, loc, errors)
                }
            }

            impl __rt::FromJson for #name {
                fn from_json(
                    value: &__rt::Value,
                    loc: &mut __rt::Loc,
                    errors: &mut __rt::ValidationErrors,
                ) -> ::core::option::Option<Self> {
                    __rt::validate_model::<Self>(value, loc, errors)
                }
            }

            // The strict fast path (see the runtime's `fast_json`): any doubt declines, and the
            // lax path above reports the errors.
            impl __rt::FastJson for #name {
                fn fast<'de, D: __rt::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<Self, D::Error> {
                    struct __Visitor;
                    impl<'de> __rt::serde::de::Visitor<'de> for __Visitor {
                        type Value = #name;

                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str("a JSON object")
                        }

                        fn visit_map<A: __rt::serde::de::MapAccess<'de>>(
                            self,
                            mut map: A,
                        ) -> ::core::result::Result<#name, A::Error> {
                            #[allow(unused_imports)]
                            use __rt::{FieldDecline as _, FieldFast as _};
                            #fast_slots
                            // A `match` on the key compiles to a length switch and one comparison.
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
                                fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                                    f.write_str("a field name")
                                }
                                fn visit_str<E: __rt::serde::de::Error>(
                                    self,
                                    key: &str,
                                ) -> ::core::result::Result<usize, E> {
                                    ::core::result::Result::Ok(match key {
                                        #(#fast_keys => #fast_indexes,)*
                                        _ => usize::MAX,
                                    })
                                }
                            }
                            while let ::core::option::Option::Some(key) = map.next_key_seed(__Key)? {
                                match key {
                                    #fast_arms
                                    _ => {
                                        map.next_value_seed(__rt::Skip)?;
                                    }
                                }
                            }
                            #fast_finish
                            ::core::result::Result::Ok(#name { #(#fast_build),* })
                        }
                    }
                    deserializer.deserialize_map(__Visitor)
                }
            }

            impl __rt::JsonSchema for #name {
                fn schema(registry: &mut __rt::SchemaRegistry) -> __rt::Value {
                    (__PARTS.1)(registry)
                }
            }

            impl __rt::Constrainable for #name {}

            impl __rt::Arg for #name {
                const SOURCE: __rt::Source = __rt::Source::Body;

                fn extract(
                    cx: &__rt::RequestCx,
                    _name: &'static str,
                    _default: ::core::option::Option<fn() -> Self>,
                    _constraints: &'static [__rt::Constraint],
                    errors: &mut __rt::ValidationErrors,
                ) -> ::core::option::Option<Self> {
                    __rt::body_model::<Self>(cx, errors)
                }

                fn doc(
                    _name: &'static str,
                    _default: ::core::option::Option<fn() -> Self>,
                    _constraints: &[__rt::Constraint],
                    registry: &mut __rt::SchemaRegistry,
                ) -> __rt::ArgDoc {
                    __rt::ArgDoc::Body(<Self as __rt::JsonSchema>::schema(registry))
                }
            }
        };
    }
}
