//! An operation's enum of answers as Rust items: a variant per documented status, how each is
//! decoded, and which is its success.
//!
//! Rules enforced here: ranges and `default` carry the status too; without `default`,
//! `Unexpected` takes the rest; `into_ok` gives the one success's value, or the answer itself when
//! there are several (or none).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::docs::rustdoc;
use crate::types::emit::{doc_attrs, Context, Scope};

use super::{Operation, Payload, Response};

/// The answer enum, its decoding and its success.
pub(super) fn answer_items(
    context: &Context<'_>,
    operation: &Operation,
    answer: &proc_macro2::Ident,
) -> (TokenStream, TokenStream) {
    let rt = &context.rt;
    let has_default = operation.responses.iter().any(|r| r.status == "default");
    let mut variants = Vec::new();
    let mut arms = Vec::new();
    for response in &operation.responses {
        let ident = format_ident!("{}", response.variant);
        let payload = payload_ty(context, &response.payload);
        let exact = response.status.bytes().all(|b| b.is_ascii_digit());
        let doc = doc_attrs(&response_doc(response));
        let decode = decode_expr(rt, &response.payload);
        let (variant, value) = match (exact, payload, decode) {
            (true, None, _) => (quote!(#ident,), quote!({ incoming.empty(); Self::#ident })),
            (true, Some(payload), Some(decode)) => (quote!(#ident(#payload),), quote!(Self::#ident(#decode))),
            (false, None, _) => (
                quote!(#ident(#rt::StatusCode),),
                quote!({ incoming.empty(); Self::#ident(incoming.status()) }),
            ),
            (false, Some(payload), Some(decode)) => (
                quote!(#ident(#rt::StatusCode, #payload),),
                quote!(Self::#ident(incoming.status(), #decode)),
            ),
            (_, Some(_), None) => continue,
        };
        variants.push(quote!(#doc #variant));
        let pattern = match response.status.as_str() {
            "default" => quote!(_),
            exact if exact.bytes().all(|b| b.is_ascii_digit()) => {
                let code = proc_macro2::Literal::u16_unsuffixed(exact.parse().unwrap_or_default());
                quote!(#code)
            }
            range => {
                let hundreds = u16::from(range.as_bytes()[0].saturating_sub(b'0')) * 100;
                let (first, last) = (
                    proc_macro2::Literal::u16_unsuffixed(hundreds),
                    proc_macro2::Literal::u16_unsuffixed(hundreds + 99),
                );
                quote!(#first..=#last)
            }
        };
        arms.push(quote!(#pattern => #value,));
    }
    if !has_default {
        variants.push(quote! {
            /// A status the document does not list for this operation.
            Unexpected(#rt::Unexpected),
        });
        arms.push(quote!(_ => Self::Unexpected(incoming.unexpected().await?),));
    }
    let outcome = outcome(context, operation);
    let doc = doc_attrs(&format!(
        "The answers of [`Client::{}`](super::Client::{}) (`{} {}`), one variant per documented status.",
        operation.function, operation.function, operation.method, operation.path
    ));
    let items = quote! {
        #[derive(Debug)]
        pub enum #answer {
            #(#variants)*
        }

        impl #rt::Decode for #answer {
            async fn decode(incoming: &mut #rt::Incoming) -> Result<Self, #rt::Error> {
                Ok(match incoming.status().as_u16() {
                    #(#arms)*
                })
            }
        }

        impl #rt::Outcome for #answer {
            #outcome
        }
    };
    (items, doc)
}

fn outcome(context: &Context<'_>, operation: &Operation) -> TokenStream {
    let successes: Vec<&Response> = operation
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .filter(|r| payload_ty(context, &r.payload).is_some() || matches!(r.payload, Payload::Unit))
        .collect();
    match successes.as_slice() {
        [only] => {
            let ident = format_ident!("{}", only.variant);
            let exact = only.status.bytes().all(|b| b.is_ascii_digit());
            let (ok, pattern, value) = match (payload_ty(context, &only.payload), exact) {
                (None, true) => (quote!(()), quote!(Self::#ident), quote!(())),
                (None, false) => (quote!(()), quote!(Self::#ident(_)), quote!(())),
                (Some(payload), true) => (payload, quote!(Self::#ident(value)), quote!(value)),
                (Some(payload), false) => (payload, quote!(Self::#ident(_, value)), quote!(value)),
            };
            quote! {
                type Ok = #ok;

                fn into_ok(self) -> Result<#ok, Self> {
                    match self {
                        #pattern => Ok(#value),
                        other => Err(other),
                    }
                }
            }
        }
        [] => quote! {
            type Ok = Self;

            fn into_ok(self) -> Result<Self, Self> {
                Err(self)
            }
        },
        many => {
            let patterns = many.iter().map(|r| {
                let ident = format_ident!("{}", r.variant);
                let exact = r.status.bytes().all(|b| b.is_ascii_digit());
                match (payload_ty(context, &r.payload).is_some(), exact) {
                    (false, true) => quote!(Self::#ident),
                    _ => quote!(Self::#ident(..)),
                }
            });
            quote! {
                type Ok = Self;

                fn into_ok(self) -> Result<Self, Self> {
                    match self {
                        #(#patterns)|* => Ok(self),
                        other => Err(other),
                    }
                }
            }
        }
    }
}

fn response_doc(response: &Response) -> String {
    let mut doc = format!("`{}`", response.status);
    if let Some(description) = &response.doc {
        doc.push_str(": ");
        doc.push_str(&rustdoc(description));
    }
    if response.synthetic {
        doc.push_str(
            " (not in the document: the operation takes a precondition header, whose failure this is)",
        );
    }
    if !response.headers.is_empty() {
        let headers: Vec<String> = response.headers.iter().map(|h| format!("`{h}`")).collect();
        doc.push_str(&format!(
            "\n\nHeaders: {} (read them from the [`Answer`](super::Answer)).",
            headers.join(", ")
        ));
    }
    doc
}

/// The type a payload is held as, `None` for none.
fn payload_ty(context: &Context<'_>, payload: &Payload) -> Option<TokenStream> {
    let rt = &context.rt;
    Some(match payload {
        Payload::Unit => return None,
        Payload::Json(ty) => context.ty(ty, Scope::Operations),
        Payload::Text => quote!(String),
        Payload::Bytes => quote!(#rt::ByteStream),
        Payload::Events(Some(ty)) => {
            let ty = context.ty(ty, Scope::Operations);
            quote!(#rt::EventStream<#ty>)
        }
        Payload::Events(None) => quote!(#rt::EventStream<String>),
        Payload::Lines(ty) => {
            let ty = context.ty(ty, Scope::Operations);
            quote!(#rt::JsonLines<#ty>)
        }
        Payload::HttpError => quote!(#rt::HttpError),
        Payload::Problem => quote!(#rt::ProblemDetails),
    })
}

/// How a payload is read from `incoming`.
fn decode_expr(_rt: &TokenStream, payload: &Payload) -> Option<TokenStream> {
    Some(match payload {
        Payload::Unit => return None,
        Payload::Json(_) | Payload::Problem => quote!(incoming.json().await?),
        Payload::Text => quote!(incoming.text().await?),
        Payload::Bytes => quote!(incoming.byte_stream()),
        Payload::Events(Some(_)) => quote!(incoming.event_stream()),
        Payload::Events(None) => quote!(incoming.text_event_stream()),
        Payload::Lines(_) => quote!(incoming.json_lines()),
        Payload::HttpError => quote!(incoming.http_error().await?),
    })
}
