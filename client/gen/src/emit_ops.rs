//! The operations as Rust items: a method of `Client` each, its request (a builder that is a
//! future), and its enum of answers with how each is decoded.
//!
//! Rules enforced here: a required parameter (and a required body) is an argument of the method,
//! in the order the path, then the document, gives them; an optional one is a method of the
//! request; the request is sent by `.await` (or `.send()`) and builds its HTTP request afresh for
//! each attempt; the answer enum has a variant per documented status (ranges and `default` carry
//! the status too), `Unexpected` for the rest, and knows its success for `into_ok`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::docs::rustdoc;
use crate::emit_types::{doc_attrs, Context, Scope};
use crate::operations::{BodyKind, Location, Operation, Payload, Response, Segment, Special};
use crate::schema::Ty;

/// An operation's method of `Client`, and its items in the `operations` module.
pub struct OperationItems {
    /// The method.
    pub method: TokenStream,
    /// The request and answer types.
    pub items: TokenStream,
}

/// How a value is held by the request: borrowed text, or owned.
fn held(context: &Context<'_>, ty: &Ty) -> TokenStream {
    match ty {
        Ty::String => quote!(&'a str),
        other => context.ty(other, Scope::Operations),
    }
}

/// The items of `operation`.
pub fn operation_items(context: &Context<'_>, operation: &Operation) -> OperationItems {
    let rt = &context.rt;
    let function = format_ident!("{}", operation.function);
    let request = format_ident!("{}", operation.type_name);
    let answer = format_ident!("{}Response", operation.type_name);
    let method = format_ident!("{}", operation.method);

    // Fields of the request, the method's arguments, and what the method stores.
    let mut fields = Vec::new();
    let mut arguments = Vec::new();
    let mut initial = Vec::new();
    let mut setters = Vec::new();
    let mut borrowed = false;
    for param in &operation.params {
        let ident = format_ident!("{}", param.rust);
        if param.required {
            let ty = held(context, &param.ty);
            borrowed |= param.ty == Ty::String;
            fields.push(quote!(pub(super) #ident: #ty,));
            arguments.push(quote!(#ident: #ty));
            initial.push(quote!(#ident,));
            continue;
        }
        let (field_ty, setter) = match (param.special, &param.ty) {
            (Special::Precondition, _) => (
                quote!(Option<#rt::ETag>),
                quote! {
                    pub fn #ident(mut self, #ident: &#rt::ETag) -> Self {
                        self.#ident = Some(#ident.clone());
                        self
                    }
                },
            ),
            (Special::IdempotencyKey, _) | (_, Ty::String) => (
                quote!(Option<String>),
                quote! {
                    pub fn #ident(mut self, #ident: impl Into<String>) -> Self {
                        self.#ident = Some(#ident.into());
                        self
                    }
                },
            ),
            (_, ty) => {
                let ty = context.ty(ty, Scope::Operations);
                (
                    quote!(Option<#ty>),
                    quote! {
                        pub fn #ident(mut self, #ident: #ty) -> Self {
                            self.#ident = Some(#ident);
                            self
                        }
                    },
                )
            }
        };
        let doc = doc_attrs(&param_doc(param));
        fields.push(quote!(pub(super) #ident: #field_ty,));
        initial.push(quote!(#ident: None,));
        setters.push(quote!(#doc #setter));
    }
    let mut body_statement = TokenStream::new();
    if let Some(body) = &operation.body {
        let ty = context.ty(&body.ty, Scope::Operations);
        let held_ty = match body.kind {
            BodyKind::Json | BodyKind::Form => {
                borrowed = true;
                quote!(&'a #ty)
            }
            BodyKind::Text => {
                borrowed = true;
                quote!(&'a str)
            }
            BodyKind::Bytes => quote!(#rt::bytes::Bytes),
            BodyKind::Multipart => ty.clone(),
        };
        let media = body.media_type.as_str();
        let send = match body.kind {
            BodyKind::Json if media == "application/json" => quote!(request.json(body);),
            BodyKind::Json => quote!(request.json_as(body, #media);),
            BodyKind::Form => quote!(request.form(body);),
            BodyKind::Text => {
                quote!(request.content(#rt::bytes::Bytes::copy_from_slice(body.as_bytes()), #media);)
            }
            BodyKind::Bytes => quote!(request.content(body.clone(), #media);),
            BodyKind::Multipart => quote! {
                request.multipart({
                    let mut form = #rt::Multipart::new();
                    #rt::ToParts::write_parts(body, &mut form);
                    form
                });
            },
        };
        if body.required {
            fields.push(quote!(pub(super) body: #held_ty,));
            arguments.push(quote!(body: #held_ty));
            initial.push(quote!(body,));
            body_statement = if body.kind == BodyKind::Multipart {
                quote!(let body = &body; #send)
            } else {
                send
            };
        } else {
            let doc = doc_attrs(
                &body
                    .doc
                    .as_deref()
                    .map_or_else(|| "The body.".to_owned(), rustdoc),
            );
            fields.push(quote!(pub(super) body: Option<#held_ty>,));
            initial.push(quote!(body: None,));
            setters.push(quote! {
                #doc
                pub fn body(mut self, body: #held_ty) -> Self {
                    self.body = Some(body);
                    self
                }
            });
            body_statement = quote! {
                if let Some(body) = &body {
                    #send
                }
            };
        }
    }

    // The request, statement by statement.
    let mut statements = Vec::new();
    for segment in operation.template() {
        match segment {
            Segment::Literal(text) => statements.push(quote!(request.path(#text);)),
            Segment::Param(name) => {
                if let Some(param) = operation
                    .params
                    .iter()
                    .find(|p| p.location == Location::Path && p.name == name)
                {
                    let ident = format_ident!("{}", param.rust);
                    statements.push(quote!(request.path_param(&#ident);));
                }
            }
        }
    }
    let mut prelude = Vec::new();
    for param in operation.params.iter().filter(|p| p.location != Location::Path) {
        let ident = format_ident!("{}", param.rust);
        let name = &param.name;
        if param.special == Special::IdempotencyKey {
            prelude.push(quote!(let #ident = #ident.unwrap_or_else(#rt::idempotency_key);));
        }
        statements.push(match param.location {
            Location::Query => quote!(request.query(#name, &#ident);),
            Location::Header => quote!(request.header(#name, &#ident);),
            Location::Cookie => quote!(request.cookie(#name, &#ident);),
            Location::Path => TokenStream::new(),
        });
    }
    statements.push(body_statement);
    if operation.resumable() {
        prelude.push(quote!(options.resumable();));
    }
    let mut field_names: Vec<TokenStream> = operation
        .params
        .iter()
        .map(|p| {
            let ident = format_ident!("{}", p.rust);
            quote!(#ident)
        })
        .collect();
    if operation.body.is_some() {
        field_names.push(quote!(body));
    }
    let options_binding = if operation.resumable() {
        quote!(mut options)
    } else {
        quote!(options)
    };

    // The method of `Client`.
    let lifetime = borrowed.then(|| quote!(<'a>));
    let self_ref = if borrowed { quote!(&'a self) } else { quote!(&self) };
    let returned = if borrowed {
        quote!(operations::#request<'a>)
    } else {
        quote!(operations::#request<'_>)
    };
    let method_doc = doc_attrs(&method_doc(operation));
    let deprecated = operation
        .deprecated
        .then(|| quote!(#[deprecated = "the document marks this operation deprecated"]));
    let many = (arguments.len() >= 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let client_method = quote! {
        #method_doc
        #deprecated
        #many
        pub fn #function #lifetime (#self_ref, #(#arguments),*) -> #returned {
            operations::#request {
                client: &self.client,
                #(#initial)*
                options: #rt::CallOptions::default(),
            }
        }
    };

    let request_doc = format!(
        "The request of [`Client::{}`](super::Client::{}): `{} {}`.\n\nSend it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.",
        operation.function, operation.function, operation.method, operation.path
    );
    let request_doc = doc_attrs(&request_doc);
    let (answer_items, answer_doc) = answer_items(context, operation, &answer);
    let items = quote! {
        #request_doc
        #[derive(Debug)]
        #[must_use = "a request is sent when it is awaited"]
        pub struct #request<'a> {
            pub(super) client: &'a #rt::Client,
            #(#fields)*
            pub(super) options: #rt::CallOptions,
        }

        impl<'a> #request<'a> {
            #(#setters)*

            /// Send the request: the server's answer, whatever its status, or why there is none.
            pub async fn send(self) -> Result<#rt::Answer<#answer>, #rt::Error> {
                let Self { client, #(#field_names,)* #options_binding } = self;
                #(#prelude)*
                client
                    .call(#rt::Method::#method, options, |request| {
                        #(#statements)*
                    })
                    .await
            }
        }

        impl<'a> ::std::future::IntoFuture for #request<'a> {
            type Output = Result<#rt::Answer<#answer>, #rt::Error>;
            type IntoFuture = #rt::BoxFuture<'a, Self::Output>;

            fn into_future(self) -> Self::IntoFuture {
                Box::pin(self.send())
            }
        }

        impl #rt::Call for #request<'_> {
            fn options(&mut self) -> &mut #rt::CallOptions {
                &mut self.options
            }
        }

        #answer_doc
        #answer_items
    };
    OperationItems {
        method: client_method,
        items,
    }
}

fn param_doc(param: &crate::operations::Param) -> String {
    let mut doc = match (&param.doc, param.special) {
        (Some(doc), _) => rustdoc(doc),
        (None, Special::IdempotencyKey) => {
            "The `Idempotency-Key` (default: a fresh one for this call, kept across its retries).".to_owned()
        }
        (None, Special::Precondition) => format!(
            "`{}`: the entity tag (`ETag`) of the version you have.",
            param.name
        ),
        (None, _) => {
            let place = match param.location {
                Location::Path => "path",
                Location::Query => "query",
                Location::Header => "header",
                Location::Cookie => "cookie",
            };
            format!("The {place} parameter `{}`.", param.name)
        }
    };
    if let Some(default) = param.default.as_ref().filter(|d| !d.is_null()) {
        doc.push_str(&format!("\n\nDefault: `{default}`."));
    }
    doc
}

fn method_doc(operation: &Operation) -> String {
    let mut parts = Vec::new();
    if let Some(summary) = &operation.summary {
        parts.push(rustdoc(summary));
    }
    if let Some(description) = &operation.description {
        parts.push(rustdoc(description));
    }
    let mut line = format!("`{} {}`", operation.method, operation.path);
    if operation
        .params
        .iter()
        .any(|p| p.special == Special::IdempotencyKey)
    {
        line.push_str(
            ": sent with an `Idempotency-Key` (a fresh one per call), so the retries after a lost answer are safe",
        );
    }
    line.push_str(&format!(
        "; answers [`operations::{}Response`].",
        operation.type_name
    ));
    parts.push(line);
    parts.join("\n\n")
}

/// The answer enum, its decoding and its success.
fn answer_items(
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
