//! Code generation: the function that builds the route's OpenAPI operation object.
//!
//! Rules enforced here: parameters are documented path first, then query, in declaration order
//! (injected arguments are not); the response is read syntactically from the return type (a
//! proc macro sees no trait impls), and a `Json<T>` whose `T` has no schema is documented without
//! one rather than failing to compile.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

use crate::emit_handler::{constraints_tokens, default_tokens};
use crate::infer::{generic_inner, Kind, RouteModel};

fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(reference) => last_ident(&reference.elem),
        _ => None,
    }
}

/// The first type argument of `Name<A, ..>` (`Result<T, E>` → `T`).
fn first_type_argument<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|arg| match arg {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    })
}

/// Media type and schema of the success response, read from the return type's shape: `Json<T>`
/// (with T's schema when it has one), `Html<_>`, `String`/`&str` (text), through `Result<_, E>`
/// and the last element of a tuple `(StatusCode, .., R)`.
fn response(ty: &Type) -> Option<TokenStream> {
    if let Some(ok) = first_type_argument(ty, "Result") {
        return response(ok);
    }
    if let Type::Tuple(tuple) = ty {
        return tuple.elems.last().and_then(response);
    }
    if let Some(inner) = generic_inner(ty, "Json") {
        if last_ident(inner).as_deref() == Some("Value") {
            return None;
        }
        return Some(quote! {
            {
                use __rt::{ProbeKnown as _, ProbeUnknown as _};
                let probe = __rt::SchemaProbe::<#inner>(::core::marker::PhantomData);
                if let ::core::option::Option::Some(schema) = (&probe).probe_schema(registry) {
                    op.response("application/json", schema);
                }
            }
        });
    }
    match last_ident(ty).as_deref() {
        Some("Html") => Some(quote!(op.response("text/html", __rt::json!({"type": "string"}));)),
        Some("String" | "str") => Some(quote!(op.response("text/plain", __rt::json!({"type": "string"}));)),
        _ => None,
    }
}

/// `|registry| -> Value`: a closure building the operation object.
pub fn operation(model: &RouteModel) -> TokenStream {
    let name = model.func.sig.ident.to_string();
    let summary = match &model.doc.summary {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    };
    let description = match &model.doc.description {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    };
    let tags = &model.attr.tags;
    let mut params = TokenStream::new();
    for classified in model
        .params
        .iter()
        .filter(|c| matches!(c.kind, Kind::Path { .. }))
    {
        let ty = &classified.param.ty;
        let pname = crate::parse::api_name(&classified.param.name);
        let constraints = constraints_tokens(&classified.param.attrs.constraints);
        params.extend(quote!(op.path_param::<#ty>(#pname, #constraints, registry);));
    }
    for classified in model.params.iter().filter(|c| matches!(c.kind, Kind::Other)) {
        let ty = &classified.param.ty;
        let pname = crate::parse::api_name(&classified.param.name);
        let constraints = constraints_tokens(&classified.param.attrs.constraints);
        let default = default_tokens(ty, classified.param.attrs.default.as_ref());
        params.extend(quote!(op.arg::<#ty>(#pname, #default, #constraints, registry);));
    }
    let response = match &model.func.sig.output {
        syn::ReturnType::Type(_, ty) => response(ty).unwrap_or_default(),
        syn::ReturnType::Default => TokenStream::new(),
    };
    let status = model.attr.status.iter().map(|s| quote!(op.success_status(#s);));
    let extra = model
        .attr
        .responses
        .iter()
        .map(|(status, description)| quote!(op.extra_response(#status, #description);));
    quote! {
        |registry: &mut __rt::SchemaRegistry| -> __rt::Value {
            let mut op = __rt::Operation::new(#name, #summary, #description, &[#(#tags),*]);
            #params
            #response
            #(#status)*
            #(#extra)*
            op.finish()
        }
    }
}
