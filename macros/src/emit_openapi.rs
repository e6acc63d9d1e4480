//! Code generation: the function that builds the route's OpenAPI operation object.

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

/// Media type and schema of the success response, read from the return type's shape.
fn response(ty: &Type) -> Option<TokenStream> {
    if let Some(ok) = generic_inner(ty, "Result") {
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
