//! The operations as Rust items: a method of `Client` each, and its request (a builder that is a
//! future); its enum of answers is `emit_answers`'.
//!
//! Rules enforced here: a required parameter (and a required body) is an argument of the method,
//! in the order the path, then the document, gives them; an optional one is a method of the
//! request; the request is sent by `.await` (or `.send()`) and builds its HTTP request afresh for
//! each attempt.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::docs::rustdoc;
use crate::types::emit::{doc_attrs, Context, Scope};
use crate::types::Ty;

use super::emit_answers::answer_items;
use super::paging::PageSizeFrom;
use super::{Body, BodyKind, Location, Operation, Paged, Param, Segment, Special};

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

/// What an operation's request holds, and how its method fills it.
#[derive(Default)]
struct Request {
    /// The request's fields.
    fields: Vec<TokenStream>,
    /// The method's arguments (the required parameters and body).
    arguments: Vec<TokenStream>,
    /// What the method stores in each field.
    initial: Vec<TokenStream>,
    /// The request's methods setting an optional parameter or body.
    setters: Vec<TokenStream>,
    /// The request borrows (text or a body): its method takes `&'a self`.
    borrowed: bool,
    /// The statement that sends the body.
    body: TokenStream,
}

/// The items of `operation`.
pub fn operation_items(context: &Context<'_>, operation: &Operation) -> OperationItems {
    let mut request = Request::default();
    for param in &operation.params {
        request.param(context, param);
    }
    if let Some(body) = &operation.body {
        request.body(context, body);
    }
    OperationItems {
        method: client_method(context, operation, &request),
        items: request_items(context, operation, request),
    }
}

impl Request {
    /// A parameter: a field, and an argument (required) or a setter (optional).
    fn param(&mut self, context: &Context<'_>, param: &Param) {
        let ident = format_ident!("{}", param.rust);
        if param.required {
            let ty = held(context, &param.ty);
            self.borrowed |= param.ty == Ty::String;
            self.fields.push(quote!(pub(super) #ident: #ty,));
            self.arguments.push(quote!(#ident: #ty));
            self.initial.push(quote!(#ident,));
            return;
        }
        let (field_ty, setter) = optional_param(context, param, &ident);
        let doc = doc_attrs(&param_doc(param));
        self.fields.push(quote!(pub(super) #ident: #field_ty,));
        self.initial.push(quote!(#ident: None,));
        self.setters.push(quote!(#doc #setter));
    }

    /// The body: a field, and an argument (required) or a setter (optional); how it is sent.
    fn body(&mut self, context: &Context<'_>, body: &Body) {
        let rt = &context.rt;
        let ty = context.ty(&body.ty, Scope::Operations);
        let held_ty = match body.kind {
            BodyKind::Json | BodyKind::Form => quote!(&'a #ty),
            BodyKind::Text => quote!(&'a str),
            BodyKind::Bytes => quote!(#rt::bytes::Bytes),
            BodyKind::Multipart => ty,
        };
        self.borrowed |= matches!(body.kind, BodyKind::Json | BodyKind::Form | BodyKind::Text);
        let send = send_body(rt, body);
        if body.required {
            self.fields.push(quote!(pub(super) body: #held_ty,));
            self.arguments.push(quote!(body: #held_ty));
            self.initial.push(quote!(body,));
            self.body = if body.kind == BodyKind::Multipart {
                quote!(let body = &body; #send)
            } else {
                send
            };
            return;
        }
        let doc = doc_attrs(
            &body
                .doc
                .as_deref()
                .map_or_else(|| "The body.".to_owned(), rustdoc),
        );
        self.fields.push(quote!(pub(super) body: Option<#held_ty>,));
        self.initial.push(quote!(body: None,));
        self.setters.push(quote! {
            #doc
            pub fn body(mut self, body: #held_ty) -> Self {
                self.body = Some(body);
                self
            }
        });
        self.body = quote! {
            if let Some(body) = &body {
                #send
            }
        };
    }
}

/// An optional parameter's field type and setter.
fn optional_param(
    context: &Context<'_>,
    param: &Param,
    ident: &proc_macro2::Ident,
) -> (TokenStream, TokenStream) {
    let rt = &context.rt;
    match (param.special, &param.ty) {
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
    }
}

/// The statement that puts `body` (bound as `body`) in the request.
fn send_body(rt: &TokenStream, body: &Body) -> TokenStream {
    let media = body.media_type.as_str();
    match body.kind {
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
    }
}

/// What `send` does before the call (`prelude`), and the statements that build each attempt's
/// request: the path, the other parameters, the body.
fn statements(
    context: &Context<'_>,
    operation: &Operation,
    body: TokenStream,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let rt = &context.rt;
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
    statements.push(body);
    if operation.resumable() {
        prelude.push(quote!(options.resumable();));
    }
    (prelude, statements)
}

/// The method of `Client` that makes the request.
fn client_method(context: &Context<'_>, operation: &Operation, request: &Request) -> TokenStream {
    let rt = &context.rt;
    let function = format_ident!("{}", operation.function);
    let name = format_ident!("{}Request", operation.type_name);
    let (lifetime, self_ref, returned) = if request.borrowed {
        (
            Some(quote!(<'a>)),
            quote!(&'a self),
            quote!(operations::#name<'a>),
        )
    } else {
        (None, quote!(&self), quote!(operations::#name<'_>))
    };
    let method_doc = doc_attrs(&method_doc(operation));
    let deprecated = operation
        .deprecated
        .then(|| quote!(#[deprecated = "the document marks this operation deprecated"]));
    let many = (request.arguments.len() >= 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let (arguments, initial) = (&request.arguments, &request.initial);
    quote! {
        #method_doc
        #deprecated
        #many
        pub fn #function #lifetime (#self_ref, #(#arguments),*) -> #returned {
            operations::#name {
                client: &self.client,
                #(#initial)*
                options: #rt::CallOptions::default(),
            }
        }
    }
}

/// The request type (a builder that is a future) and the answer enum.
fn request_items(context: &Context<'_>, operation: &Operation, request: Request) -> TokenStream {
    let rt = &context.rt;
    let name = format_ident!("{}Request", operation.type_name);
    let answer = format_ident!("{}Response", operation.type_name);
    let method = format_ident!("{}", operation.method);
    // The route template names the call's span (`otel`): `GET /item/{id}`.
    let path = operation.path.as_str();
    let (prelude, statements) = statements(context, operation, request.body);
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
    let options = if operation.resumable() {
        quote!(mut options)
    } else {
        quote!(options)
    };
    let doc = doc_attrs(&format!(
        "The request of [`Client::{}`](super::Client::{}): `{} {}`.\n\nSend it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.",
        operation.function, operation.function, operation.method, operation.path
    ));
    let (answer_items, answer_doc) = answer_items(context, operation, &answer);
    let (fields, setters) = (request.fields, request.setters);
    let paging = operation
        .paging
        .as_ref()
        .map(|paged| paging_methods(context, operation, paged, &field_names));
    quote! {
        #doc
        #[derive(Debug)]
        #[must_use = "a request is sent when it is awaited"]
        pub struct #name<'a> {
            pub(super) client: &'a #rt::Client,
            #(#fields)*
            pub(super) options: #rt::CallOptions,
        }

        impl<'a> #name<'a> {
            #(#setters)*

            /// Send the request: the server's answer, whatever its status, or why there is none.
            pub async fn send(self) -> Result<#rt::Answer<#answer>, #rt::Error> {
                let Self { client, #(#field_names,)* #options } = self;
                #(#prelude)*
                client
                    .call_route(#rt::Method::#method, #path, options, |request| {
                        #(#statements)*
                    })
                    .await
            }

            #paging
        }

        impl<'a> ::std::future::IntoFuture for #name<'a> {
            type Output = Result<#rt::Answer<#answer>, #rt::Error>;
            type IntoFuture = #rt::BoxFuture<'a, Self::Output>;

            fn into_future(self) -> Self::IntoFuture {
                Box::pin(self.send())
            }
        }

        impl #rt::Call for #name<'_> {
            fn options(&mut self) -> &mut #rt::CallOptions {
                &mut self.options
            }
        }

        #answer_doc
        #answer_items
    }
}

fn param_doc(param: &Param) -> String {
    let mut doc = match (&param.doc, param.special) {
        (Some(doc), _) => rustdoc(doc),
        (None, Special::IdempotencyKey) => {
            "The `Idempotency-Key` (default: a fresh one for this call, kept across its retries).".to_owned()
        }
        (None, Special::Precondition) => format!(
            "`{}`: the entity tag (`ETag`) of the version you have.",
            param.name
        ),
        (None, _) => format!("The {} parameter `{}`.", param.location.word(), param.name),
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

/// `.pages()` and `.items()` of a request that pages: each page is this request again, its other
/// parameters and call options kept (cloned), its offset and limit set by the stream.
fn paging_methods(
    context: &Context<'_>,
    operation: &Operation,
    paged: &Paged,
    fields: &[TokenStream],
) -> TokenStream {
    let rt = &context.rt;
    let item = context.ty(&paged.item, Scope::Operations);
    let rules = &paged.rules;
    let page_size = proc_macro2::Literal::u64_unsuffixed(rules.page_size);
    let max_offset = match rules.max_offset {
        Some(max) => {
            let max = proc_macro2::Literal::u64_unsuffixed(max);
            quote!(Some(#max))
        }
        None => quote!(None),
    };
    let param = |name: &str| {
        operation
            .params
            .iter()
            .find(|p| p.name == name && p.location == Location::Query)
    };
    let (Some(offset), Some(limit)) = (param(&rules.offset), param(&rules.limit)) else {
        return TokenStream::new();
    };
    let (offset_given, limit_given) = (given(offset), given(limit));
    let (offset_set, limit_set) = (set(offset, quote!(page_offset)), set(limit, quote!(page_limit)));
    let kept = kept_fields(operation, offset, limit);
    let pages_doc = doc_attrs(&pages_doc(operation, paged, offset, limit));
    let items_doc = doc_attrs(&format!(
        "Every item of `{} {}`, read page after page as [`pages`](Self::pages) reads them (the same stop rules, the same ending at the maximum offset).",
        operation.method, operation.path
    ));
    quote! {
        #pages_doc
        pub fn pages(self) -> #rt::Pages<'a, #item> {
            let Self { client, #(#fields,)* options } = self;
            #rt::Pages::new(
                #rt::Paging { page_size: #page_size, max_offset: #max_offset },
                #offset_given,
                #limit_given,
                move |page_offset, page_limit| {
                    let page = Self {
                        client,
                        #(#kept)*
                        #offset_set
                        #limit_set
                        options: Clone::clone(&options),
                    };
                    Box::pin(async move { page.send().await?.into_ok().map_err(#rt::Error::from) })
                },
            )
        }

        #items_doc
        pub fn items(self) -> #rt::Items<'a, #item> {
            self.pages().items()
        }
    }
}

/// What the caller set of a paging parameter (an optional one is an `Option` already).
fn given(param: &Param) -> TokenStream {
    let ident = format_ident!("{}", param.rust);
    if param.required {
        quote!(Some(#ident))
    } else {
        quote!(#ident)
    }
}

/// A page's field of a paging parameter, set to `value`.
fn set(param: &Param, value: TokenStream) -> TokenStream {
    let ident = format_ident!("{}", param.rust);
    if param.required {
        quote!(#ident: #value,)
    } else {
        quote!(#ident: Some(#value),)
    }
}

/// The fields every page keeps as the caller set them: all but the offset and the limit.
/// `Clone::clone(&x)` rather than `x.clone()`: clippy's `clone_on_copy` would flag the latter on
/// a `Copy` field, and the generated code must not care which fields are.
fn kept_fields(operation: &Operation, offset: &Param, limit: &Param) -> Vec<TokenStream> {
    operation
        .params
        .iter()
        .filter(|p| p.rust != offset.rust && p.rust != limit.rust)
        .map(|p| {
            let ident = format_ident!("{}", p.rust);
            quote!(#ident: Clone::clone(&#ident),)
        })
        .chain(
            operation
                .body
                .is_some()
                .then(|| quote!(body: Clone::clone(&body),)),
        )
        .collect()
}

fn pages_doc(operation: &Operation, paged: &Paged, offset: &Param, limit: &Param) -> String {
    let rules = &paged.rules;
    // A link to the setter, when the parameter is optional (a required one is the method's argument).
    let name = |param: &Param| {
        if param.required {
            format!("`{}`", param.rust)
        } else {
            format!("[`{0}`](Self::{0})", param.rust)
        }
    };
    let (offset, limit) = (name(offset), name(limit));
    let size = match rules.page_size_from {
        PageSizeFrom::Maximum => "the limit's maximum",
        PageSizeFrom::Default => "the limit's default",
        PageSizeFrom::Fallback => "the document gives the limit no maximum or default",
    };
    let maximum = match rules.max_offset {
        Some(max) => format!(
            "The server serves no page past offset {max}: when a full page leaves the next offset past it, the stream ends with an [`Error`](super::Error) of kind `PageLimit` (more may exist: narrow the query)."
        ),
        None => "The document gives the offset no maximum.".to_owned(),
    };
    format!(
        "Every page of `{} {}`, asked one after the other: from the offset {offset} (default 0), {limit} items a page (default {}: {size}); the other parameters and call options are sent with every page.\n\nThe stream ends after a page shorter than the limit asked (an empty one included); a page that fails ends it with its error (another status: an [`Error`](super::Error) of kind `Status`). {maximum}",
        operation.method, operation.path, rules.page_size
    )
}
