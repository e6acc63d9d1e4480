//! Code generation: the strict fast path of `#[derive(Model)]` (the runtime's `FastJson`), which
//! deserializes the struct straight from the body's bytes.
//!
//! Rules enforced here: any doubt declines (a missing field without a default, a violated
//! constraint, a validator's rejection, a value the field's type does not read strictly), and the lax path then reports
//! the errors; unknown keys are skipped, as the lax path ignores them; a key is matched by one
//! `match` on the string, which compiles to a length switch and one comparison.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::head::Head;
use super::parse::{Field, ModelInput};
use crate::paths;

/// `__probeN`: the field's `FieldProbe`, which picks its strict reader.
fn probe(field: &Field) -> syn::Ident {
    format_ident!("__probe{}", field.index)
}

/// The empty slot and the probe of a field.
fn slot(field: &Field) -> TokenStream {
    let (ty, slot, probe, field_probe) = (&field.ty, field.slot(), probe(field), paths::field_probe());
    quote! {
        let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;
        let #probe = #field_probe::<#ty>::new();
    }
}

/// The `match` arm reading the value of the field's key.
fn arm(field: &Field) -> TokenStream {
    let (index, slot, probe) = (field.index, field.slot(), probe(field));
    quote! {
        #index => #slot = ::core::option::Option::Some(map.next_value_seed((&#probe).seed())?),
    }
}

/// After the last key: the field's value, its default, or a decline; then its constraints.
fn finish(field: &Field) -> TokenStream {
    let (ty, slot, probe, serde) = (&field.ty, field.slot(), probe(field), paths::serde());
    let default = field.default();
    // A field of a bare type parameter has no value when absent (see the runtime's `param_field`).
    let absent = match field.of_type_param {
        true => TokenStream::new(),
        false => quote!(.or_else(|| (&#probe).absent())),
    };
    let mut out = quote! {
        let #slot: #ty = match #slot {
            ::core::option::Option::Some(value) => value,
            ::core::option::Option::None => {
                match (#default).map(|default: fn() -> #ty| default())#absent {
                    ::core::option::Option::Some(value) => value,
                    ::core::option::Option::None => return ::core::result::Result::Err(
                        <A::Error as #serde::de::Error>::custom("missing field"),
                    ),
                }
            }
        };
    };
    if let Some(check) = &field.validator {
        // A rejection is reported by the lax path, with the other errors.
        out.extend(quote! {
            if (#check)(&#slot).is_err() {
                return ::core::result::Result::Err(<A::Error as #serde::de::Error>::custom("validator"));
            }
        });
    }
    if !field.attrs.constraints.is_empty() {
        let constraints = field.constraints();
        out.extend(quote! {
            if (&#probe).violates(#constraints, &#slot) {
                return ::core::result::Result::Err(<A::Error as #serde::de::Error>::custom("constraint"));
            }
        });
    }
    out
}

/// `__Key`: reads a key as the field's index (`usize::MAX` for an unknown key).
fn key_seed(fields: &[Field]) -> TokenStream {
    let keys = fields.iter().map(|f| &f.key);
    let indexes = fields.iter().map(|f| f.index);
    let serde = paths::serde();
    quote! {
        struct __Key;
        impl<'de> #serde::de::DeserializeSeed<'de> for __Key {
            type Value = usize;
            fn deserialize<K: #serde::Deserializer<'de>>(
                self,
                deserializer: K,
            ) -> ::core::result::Result<usize, K::Error> {
                deserializer.deserialize_identifier(self)
            }
        }
        impl<'de> #serde::de::Visitor<'de> for __Key {
            type Value = usize;
            fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: #serde::de::Error>(
                self,
                key: &str,
            ) -> ::core::result::Result<usize, E> {
                ::core::result::Result::Ok(match key {
                    #(#keys => #indexes,)*
                    _ => usize::MAX,
                })
            }
        }
    }
}

/// The body of `visit_map`: every key read into its slot, then the struct built.
fn visit_map_body(model: &ModelInput) -> TokenStream {
    let name = &model.name;
    let fields = &model.fields;
    let slots = fields.iter().map(slot);
    let key_seed = key_seed(fields);
    let arms = fields.iter().map(arm);
    let finish = fields.iter().map(finish);
    let build = fields.iter().map(|f| {
        let (ident, slot) = (&f.ident, f.slot());
        quote!(#ident: #slot)
    });
    let (field_decline, field_fast, skip) = (paths::field_decline(), paths::field_fast(), paths::skip());
    // With a model validator, the built value is checked before it is accepted.
    let build = match &model.validator {
        Some(check) => {
            let serde = paths::serde();
            quote! {
                let value = #name { #(#build),* };
                if (#check)(&value).is_err() {
                    return ::core::result::Result::Err(<A::Error as #serde::de::Error>::custom("validator"));
                }
                ::core::result::Result::Ok(value)
            }
        }
        None => quote!(::core::result::Result::Ok(#name { #(#build),* })),
    };
    quote! {
        #[allow(unused_imports)]
        use #field_decline as _;
        #[allow(unused_imports)]
        use #field_fast as _;
        #(#slots)*
        #key_seed
        while let ::core::option::Option::Some(key) = map.next_key_seed(__Key)? {
            match key {
                #(#arms)*
                _ => {
                    map.next_value_seed(#skip)?;
                }
            }
        }
        #(#finish)*
        #build
    }
}

/// `__Visitor` (a generic model's carries the type parameters, which an item inside a function
/// cannot take from the outer impl), its `impl<'de, ..> Visitor<'de> for` head, and the value
/// that builds it.
fn visitor(model: &ModelInput) -> (TokenStream, TokenStream, TokenStream) {
    let serde = paths::serde();
    if !model.is_generic() {
        return (
            quote!(
                struct __Visitor;
            ),
            quote!(impl<'de> #serde::de::Visitor<'de> for __Visitor),
            quote!(__Visitor),
        );
    }
    let this = Head::of(model).ty();
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let mut with_de = model.generics.clone();
    with_de.params.insert(0, syn::parse_quote!('de));
    let (impl_de, _, _) = with_de.split_for_impl();
    (
        quote! {
            struct __Visitor #impl_generics (::core::marker::PhantomData<fn() -> #this>) #where_clause;
        },
        quote!(impl #impl_de #serde::de::Visitor<'de> for __Visitor #ty_generics #where_clause),
        quote!(__Visitor(::core::marker::PhantomData)),
    )
}

/// `impl FastJson`: a serde visitor of the object's keys.
pub fn fast_json_impl(model: &ModelInput) -> TokenStream {
    let this = Head::of(model).ty();
    let body = visit_map_body(model);
    let (fast_json, serde) = (paths::fast_json(), paths::serde());
    let fast_impl = Head::of(model).impl_for(&fast_json, None);
    let (visitor_struct, visitor_impl, visitor) = visitor(model);
    let decline = super::versions::fast_decline(model);
    quote! {
        #fast_impl {
            fn fast<'de, D: #serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #decline
                #visitor_struct
                #visitor_impl {
                    type Value = #this;

                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str("a JSON object")
                    }

                    fn visit_map<A: #serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> ::core::result::Result<#this, A::Error> {
                        #body
                    }
                }
                deserializer.deserialize_map(#visitor)
            }
        }
    }
}
