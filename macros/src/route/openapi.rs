//! Code generation: the function that builds the route's OpenAPI operation object.
//!
//! Rules enforced here: parameters are documented path first, then query, in declaration order
//! (injected arguments are not); the response is read syntactically from the return type (a
//! proc macro sees no trait impls), and a `Json<T>` whose `T` has no schema is documented without
//! one rather than failing to compile; the response's schema is built in output mode (what the
//! route writes), every other one in input mode.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::Type;

use super::infer::{first_type_argument, generic_inner, Kind, RouteModel};
use super::parse::Description;
use crate::{paths, tokens};

fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(reference) => last_ident(&reference.elem),
        _ => None,
    }
}

/// Statements binding `schema` to `inner`'s schema, `Some` when it has one (probed by autoref
/// specialization, so a type without a schema is not an error), built in output mode: what the
/// route writes (`Name-Output` where that differs from what is read).
fn probed_schema(inner: &Type) -> TokenStream {
    let (probe_known, probe_unknown, schema_probe, schema_mode) = (
        paths::probe_known(),
        paths::probe_unknown(),
        paths::schema_probe(),
        paths::schema_mode(),
    );
    quote! {
        use #probe_known as _;
        use #probe_unknown as _;
        let probe = #schema_probe::<#inner>(::core::marker::PhantomData);
        let schema = registry.in_mode(#schema_mode::Output, |registry| (&probe).probe_schema(registry));
    }
}

/// `op.response(..)` for `Json<inner>`, with `inner`'s schema when it has one.
fn json_response(inner: &Type) -> TokenStream {
    let schema = probed_schema(inner);
    quote! {
        {
            #schema
            if let ::core::option::Option::Some(schema) = schema {
                op.response("application/json", schema);
            }
        }
    }
}

/// A streamed answer of `item`s, documented by `method` (`json_lines_response`,
/// `json_events_response`) with the item's schema when it has one.
fn items_response(method: &str, item: &Type) -> TokenStream {
    let schema = probed_schema(item);
    let method = syn::Ident::new(method, proc_macro2::Span::call_site());
    quote! {
        {
            #schema
            op.#method(schema);
        }
    }
}

/// Media type and schema of the success response, read from the return type's shape: `Json<T>`
/// (with T's schema when it has one), `Html<_>`, `String`/`&str` (text), `Sse` (events),
/// `JsonLines<T>` and `Sse<T>` (streams of `T`, its schema their items'), through `Result<_, E>`,
/// `Tagged<R>` (an answer with an entity tag), `Kept<R>` (an answer kept for an idempotency key)
/// and the last element of a tuple `(StatusCode, .., R)`.
fn response(ty: &Type) -> Option<TokenStream> {
    let through = ["Result", "Tagged", "Kept"];
    if let Some(ok) = through.iter().find_map(|name| first_type_argument(ty, name)) {
        return response(ok);
    }
    if let Type::Tuple(tuple) = ty {
        return tuple.elems.last().and_then(response);
    }
    if let Some(inner) = generic_inner(ty, "Json") {
        if last_ident(inner).as_deref() == Some("Value") {
            return None;
        }
        return Some(json_response(inner));
    }
    if let Some(item) = generic_inner(ty, "JsonLines") {
        return Some(items_response("json_lines_response", item));
    }
    if let Some(data) = generic_inner(ty, "Sse") {
        return Some(items_response("json_events_response", data));
    }
    let json = paths::json();
    match last_ident(ty).as_deref() {
        Some("Html") => Some(quote!(op.response("text/html", #json!({"type": "string"}));)),
        Some("String" | "str") => Some(quote!(op.response("text/plain", #json!({"type": "string"}));)),
        Some("Sse") => Some(quote!(op.response("text/event-stream", #json!({"type": "string"}));)),
        _ => None,
    }
}

/// `path_param_doc(..)` for each path parameter, then `<T as Arg<_>>::doc(__ARGN, ..)` for each other
/// argument (a query parameter, the body, a dependency's parameters and responses, or nothing).
fn parameters(model: &RouteModel) -> TokenStream {
    let mut params = TokenStream::new();
    let path = model.params.iter().enumerate();
    for (index, classified) in path.filter(|(_, c)| matches!(c.kind, Kind::Path { .. })) {
        // The parameter's declaration, a constant of the `def` body (see `emit`), whose type
        // says the parameter's; named at the parameter's type, as the assertion is, so an
        // unparsable type is one error there.
        let span = classified.param.ty.span();
        let param = paths::at(span, tokens::arg_const(index).into_token_stream());
        let doc_path = paths::at(span, paths::path_param_doc());
        let ty = &classified.param.ty;
        let doc = match classified.param.attrs.has_examples() {
            true => quote_spanned!(span=> #doc_path::<#ty>(#param, op, registry);),
            false => quote_spanned!(span=> #doc_path::<#ty>(#param, &mut op, registry);),
        };
        params.extend(classified.param.attrs.document_with_examples(&quote!(op), doc));
    }
    let others = model.params.iter().enumerate();
    for (index, classified) in others.filter(|(_, c)| matches!(c.kind, Kind::Other)) {
        // The argument's declaration, a constant of the `def` body (see `emit`), and the call, a
        // qualified path at the argument's type, as its extraction is: a type that is no
        // argument is then one error there (a generic function's bound would be another, at the
        // type's first token).
        let span = classified.param.ty.span();
        let arg_const = paths::at(span, tokens::arg_const(index).into_token_stream());
        let doc_fn = paths::arg_method(&classified.param.ty, "doc");
        let doc = match classified.param.attrs.has_examples() {
            true => quote_spanned!(span=> #doc_fn(#arg_const, op, registry);),
            false => quote_spanned!(span=> #doc_fn(#arg_const, &mut op, registry);),
        };
        params.extend(classified.param.attrs.document_with_examples(&quote!(op), doc));
    }
    params
}

/// A response's description as a `&'static str` expression. A constant is bound to a `let` of
/// that type written at the constant's path, so a constant of another type is a type error there.
pub(super) fn description(description: &Description) -> TokenStream {
    match description {
        Description::Literal(lit) => quote!(#lit),
        Description::Constant(path) => quote_spanned! {path.span()=>
            {
                let description: &'static str = #path;
                description
            }
        },
    }
}

/// The constant holding a route's `status_before(..)` entries, named by its conversion, its
/// operation and its definition.
pub(super) fn status_before_const() -> TokenStream {
    quote!(__STATUS_BEFORE)
}

/// The route's newest success status: its `status = N`, else 200.
pub(super) fn newest_status(model: &RouteModel) -> u16 {
    model
        .attr
        .status
        .as_ref()
        .and_then(|status| status.base10_parse().ok())
        .unwrap_or(200)
}

/// The route's `status = N`, `status_before(..)` and `responses(..)` options (with
/// `status_before`, the status of the version the document is made for).
fn statuses(model: &RouteModel) -> TokenStream {
    let status = match model.attr.status_before.is_empty() {
        true => model
            .attr
            .status
            .iter()
            .map(|s| quote!(op.success_status(#s);))
            .collect(),
        false => {
            let (status_at, newest) = (paths::status_at(), newest_status(model));
            let entries = status_before_const();
            vec![quote!(op.success_status(#status_at(#newest, #entries));)]
        }
    };
    let extra = model.attr.responses.iter().map(|response| {
        let (status, description) = (&response.status, description(&response.description));
        quote!(op.extra_response(#status, #description);)
    });
    quote!(#(#status)* #(#extra)*)
}

/// The options `deprecated`, `operation_id`, `summary`, `response_description` and `paged`; nothing for a
/// route without them, whose operation is built as before.
fn metadata(attr: &super::parse::RouteAttr) -> TokenStream {
    let mut out = TokenStream::new();
    if attr.deprecated {
        out.extend(quote!(op.deprecated();));
    }
    if let Some(id) = &attr.operation_id {
        out.extend(quote!(op.operation_id(#id);));
    }
    if let Some(summary) = &attr.summary {
        out.extend(quote!(op.summary(#summary);));
    }
    if let Some(description) = &attr.response_description {
        out.extend(quote!(op.response_description(#description);));
    }
    if let Some(paged) = &attr.paged {
        let (offset, limit) = (&paged.offset, &paged.limit);
        out.extend(quote!(op.paged(#offset, #limit);));
    }
    out
}

/// `|registry| -> Operation`: a closure building the operation, which the app finishes (adding
/// what the route's groups state).
pub fn operation(model: &RouteModel) -> TokenStream {
    let name = model.func.sig.ident.to_string();
    let summary = model.doc.summary.as_deref();
    // With `summary = ".."`, the whole doc comment is the description, as FastAPI takes the
    // whole docstring.
    let whole_doc = match &model.attr.summary {
        Some(_) => model.doc.whole.clone(),
        None => model.doc.description.clone(),
    };
    // The doc comment: `op.doc(summary, description)`, or the one it has.
    let doc = match (summary, whole_doc.as_deref()) {
        (Some(summary), Some(description)) => quote!(op.doc(#summary, #description);),
        (Some(summary), None) => quote!(op.summary(#summary);),
        (None, Some(description)) => quote!(op.description(#description);),
        (None, None) => TokenStream::new(),
    };
    let tags = &model.attr.tags;
    let params = parameters(model);
    let response = match &model.func.sig.output {
        syn::ReturnType::Type(_, ty) => response(ty).unwrap_or_default(),
        syn::ReturnType::Default => TokenStream::new(),
    };
    let statuses = statuses(model);
    let metadata = metadata(&model.attr);
    let (schema_registry, operation) = (paths::schema_registry(), paths::operation());
    quote! {
        |registry: &mut #schema_registry| -> #operation {
            let mut op = #operation::new(#name, &[#(#tags),*]);
            #doc
            #params
            #response
            #statuses
            #metadata
            op
        }
    }
}
