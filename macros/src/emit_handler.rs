//! Code generation: the route's unit type, its `Route` impl and the handler that extracts,
//! validates, calls the function and converts its result.
//!
//! The handler collects every validation error (path, then query, then body) before answering,
//! and every type requirement is asserted at the argument's own span so a mistake is reported
//! where it was made.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::emit_openapi;
use crate::infer::{Kind, RouteModel};
use crate::parse::ConstraintSpec;

/// `&[__rt::Constraint::Ge(..), ..]`.
pub fn constraints_tokens(constraints: &[ConstraintSpec]) -> TokenStream {
    let items = constraints.iter().map(|c| {
        let value = &c.value;
        let variant = match c.kind.as_str() {
            "ge" => quote!(Ge),
            "gt" => quote!(Gt),
            "le" => quote!(Le),
            "lt" => quote!(Lt),
            "min_length" => quote!(MinLength),
            _ => quote!(MaxLength),
        };
        quote!(__rt::Constraint::#variant(#value))
    });
    quote!(&[#(#items),*])
}

/// Assertions that a constrained type can take its constraints.
pub fn constraint_assertions(ty: &syn::Type, constraints: &[ConstraintSpec]) -> TokenStream {
    let numeric = constraints.iter().find(|c| !c.kind.ends_with("_length"));
    let text = constraints.iter().find(|c| c.kind.ends_with("_length"));
    let mut out = TokenStream::new();
    if let Some(c) = numeric {
        let span = c.span;
        out.extend(quote_spanned!(span=> const _: () = __rt::assert_numeric::<#ty>();));
    }
    if let Some(c) = text {
        let span = c.span;
        out.extend(quote_spanned!(span=> const _: () = __rt::assert_text::<#ty>();));
    }
    out
}

/// `Some((|| -> T { expr }) as fn() -> T)` or `None`.
pub fn default_tokens(ty: &syn::Type, default: Option<&syn::Expr>) -> TokenStream {
    match default {
        Some(expr) => quote!(::core::option::Option::Some((|| -> #ty { #expr }) as fn() -> #ty)),
        None => quote!(::core::option::Option::None),
    }
}

/// The whole expansion of a route attribute.
pub fn emit(model: &RouteModel) -> TokenStream {
    let func = &model.func;
    let fn_name = &func.sig.ident;
    let vis = &func.vis;
    let name_str = fn_name.to_string();
    let method = syn::Ident::new(model.method, proc_macro2::Span::call_site());
    let path = &model.attr.path;
    let include_in_schema = model.attr.include_in_schema;
    let docs = func.attrs.iter().filter(|a| a.path().is_ident("doc"));

    let mut assertions = TokenStream::new();
    let mut extract_path = TokenStream::new();
    let mut extract_other = TokenStream::new();
    let mut extract_body = TokenStream::new();
    let mut reads_body = Vec::new();
    let mut checks = Vec::new();
    let mut slots = Vec::new();
    let mut call_args = Vec::new();

    for (i, classified) in model.params.iter().enumerate() {
        let param = &classified.param;
        let ty = &param.ty;
        let name = crate::parse::api_name(&param.name);
        let slot = format_ident!("__arg{}", i);
        let constraints = constraints_tokens(&param.attrs.constraints);
        assertions.extend(constraint_assertions(ty, &param.attrs.constraints));
        match classified.kind {
            Kind::Path { index } => {
                assertions
                    .extend(quote_spanned!(ty.span()=> const _: () = __rt::assert_path_param::<#ty>();));
                extract_path.extend(quote! {
                    let #slot: ::core::option::Option<#ty> =
                        __rt::path_param::<#ty>(&cx, #index, #name, #constraints, &mut errors);
                });
            }
            Kind::Other => {
                assertions.extend(quote_spanned!(ty.span()=> const _: () = __rt::assert_arg::<#ty>();));
                let default = default_tokens(ty, param.attrs.default.as_ref());
                let extract = quote! {
                    <#ty as __rt::Arg>::extract(&cx, #name, #default, #constraints, &mut errors)
                };
                extract_other.extend(quote! {
                    let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;
                    if !<#ty as __rt::Arg>::SOURCE.is_body() {
                        #slot = #extract;
                    }
                });
                extract_body.extend(quote! {
                    if <#ty as __rt::Arg>::SOURCE.is_body() {
                        #slot = #extract;
                    }
                });
                reads_body.push(quote!(<#ty as __rt::Arg>::SOURCE.is_body()));
                checks.push(quote!(<#ty as __rt::Arg>::check(state)?;));
            }
        }
        slots.push(slot);
        call_args.push(param.name.clone());
    }

    let body_count = if reads_body.is_empty() {
        quote!(0usize)
    } else {
        quote!(#((#reads_body) as usize)+*)
    };
    let reads_body_expr = quote!((#body_count) > 0);
    let too_many_bodies = format!(
        "route `{name_str}` has more than one JSON body argument: a route takes at most one argument whose type derives `Model`"
    );
    let output_assertion = match &func.sig.output {
        syn::ReturnType::Default => TokenStream::new(),
        syn::ReturnType::Type(_, ty) => {
            quote_spanned!(ty.span()=> const _: () = __rt::assert_into_response::<#ty>();)
        }
    };
    let operation = emit_openapi::operation(model);

    quote! {
        #func

        #(#docs)*
        #[allow(non_camel_case_types, missing_docs)]
        #[derive(Debug, Clone, Copy)]
        #vis struct #fn_name {}

        const _: () = {
            use ::ferrapi::__private as __rt;

            #assertions
            #output_assertion
            const _: () = ::core::assert!((#body_count) <= 1, #too_many_bodies);

            fn __handler(cx: __rt::RequestCx) -> __rt::BoxFuture {
                __rt::boxed(async move {
                    #[allow(unused_mut)]
                    let mut errors = __rt::ValidationErrors::new();
                    #extract_path
                    #extract_other
                    #extract_body
                    if !errors.is_empty() {
                        return errors.into_response();
                    }
                    drop(cx);
                    #[allow(irrefutable_let_patterns)]
                    let (#(::core::option::Option::Some(#call_args),)*) = (#(#slots,)*) else {
                        return __rt::internal_error();
                    };
                    __rt::IntoResponse::into_response(#fn_name(#(#call_args),*).await)
                })
            }

            #[allow(unused_variables)]
            fn __check(state: &__rt::StateMap) -> ::core::result::Result<(), ::std::string::String> {
                #(#checks)*
                ::core::result::Result::Ok(())
            }

            #operation

            impl __rt::Route for #fn_name {
                fn def(&self) -> __rt::RouteDef {
                    __rt::RouteDef {
                        name: #name_str,
                        method: __rt::Method::#method,
                        path: #path,
                        handler: __handler,
                        reads_body: #reads_body_expr,
                        include_in_schema: #include_in_schema,
                        operation: __operation,
                        check: __check,
                    }
                }
            }
        };
    }
}
