//! Code generation: the route's unit type, its `Route` impl and the handler that extracts,
//! validates, calls the function and converts its result.
//!
//! The handler collects every validation error (path, then query, then body) before answering,
//! and every type requirement is asserted at the argument's own span so a mistake is reported
//! where it was made, once: assertions, handler, check and OpenAPI builder are one function body
//! (closures included), and the compiler reports an unsatisfied bound once per span and body.
//! Internal names in the handler start with `__`, so a user's names never shadow them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::emit_openapi;
use crate::infer::{Kind, RouteModel};
use crate::parse::ConstraintSpec;
use crate::suspend;

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

/// Assertions (statements) that a constrained type can take its constraints.
pub fn constraint_assertions(ty: &syn::Type, constraints: &[ConstraintSpec]) -> TokenStream {
    let numeric = constraints.iter().find(|c| !c.kind.ends_with("_length"));
    let text = constraints.iter().find(|c| c.kind.ends_with("_length"));
    let mut out = TokenStream::new();
    if let Some(c) = numeric {
        let span = c.span;
        out.extend(quote_spanned!(span=> __rt::assert_numeric::<#ty>();));
    }
    if let Some(c) = text {
        let span = c.span;
        out.extend(quote_spanned!(span=> __rt::assert_text::<#ty>();));
    }
    out
}

/// `Some(fn() -> T)` returning `expr`, or `None`. The expression initializes a `let` of the
/// argument's type, so a mismatch reads "expected due to this" at that type.
pub fn default_tokens(ty: &syn::Type, default: Option<&syn::Expr>) -> TokenStream {
    match default {
        Some(expr) => quote! {
            ::core::option::Option::Some((|| {
                let value: #ty = #expr;
                value
            }) as fn() -> #ty)
        },
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

    for (i, classified) in model.params.iter().enumerate() {
        let param = &classified.param;
        let ty = &param.ty;
        let name = crate::parse::api_name(&param.name);
        let slot = format_ident!("__arg{}", i);
        let constraints = constraints_tokens(&param.attrs.constraints);
        assertions.extend(constraint_assertions(ty, &param.attrs.constraints));
        match classified.kind {
            Kind::Path { index } => {
                assertions.extend(quote_spanned!(ty.span()=> __rt::assert_path_param::<#ty>();));
                extract_path.extend(quote! {
                    let #slot: ::core::option::Option<#ty> =
                        __rt::path_param::<#ty>(__cx, #index, #name, #constraints, &mut __errors);
                });
            }
            Kind::Other => {
                // A qualified path, not `assert_arg::<T>()`: its error carries no "required by"
                // note, so it is word for word the one the `assert_one_body` constants below would
                // give for the same type, and the compiler shows it once.
                assertions.extend(quote_spanned!(ty.span()=> let _ = <#ty as __rt::Arg>::SOURCE;));
                // At most one JSON body: asserted for each pair of arguments at the later one, so
                // a second `Model` argument is reported where it is written (once: the pairs give
                // the same error), even when another argument has a mistake of its own.
                for earlier in &reads_body {
                    assertions.extend(quote_spanned! {ty.span()=>
                        __rt::assert_one_body::<
                            #ty,
                            { #earlier },
                            { <#ty as __rt::Arg>::SOURCE.is_body() },
                        >();
                    });
                }
                let default = default_tokens(ty, param.attrs.default.as_ref());
                let extract = quote! {
                    <#ty as __rt::Arg>::extract(__cx, #name, #default, #constraints, &mut __errors)
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
    }

    let reads_body_expr = if reads_body.is_empty() {
        quote!(false)
    } else {
        quote!(#(#reads_body)||*)
    };
    // The conversion of the function's result, named with the return type's span so an
    // unsatisfied bound here is the same error as the assertion's, which the compiler reports once.
    let (output_assertion, into_response) = match &func.sig.output {
        syn::ReturnType::Default => (TokenStream::new(), quote!(__rt::IntoResponse::into_response)),
        syn::ReturnType::Type(_, ty) => (
            quote_spanned!(ty.span()=> __rt::assert_into_response::<#ty>();),
            quote_spanned!(ty.span()=> <#ty as __rt::IntoResponse>::into_response),
        ),
    };
    let operation = emit_openapi::operation(model);
    // A body that cannot suspend completes on its first poll: run it inside the handler and answer
    // at once, which spares boxing the future and polling it through the dispatcher later. Both
    // ways await the call inside an `async` block of this body and convert its result in a call
    // spanned like the assertion, so a route's mistakes read the same whichever way it runs.
    let call = if suspend::may_suspend(&func.block) {
        quote!(::core::result::Result::Ok(__rt::boxed(async move {
            #into_response(#fn_name(#(#slots),*).await)
        })))
    } else {
        let output = quote!(__output);
        let convert = match &func.sig.output {
            syn::ReturnType::Default => quote!(|#output| #into_response(#output)),
            syn::ReturnType::Type(_, ty) => quote_spanned!(ty.span()=> |#output| #into_response(#output)),
        };
        quote!(::core::result::Result::Err(__rt::answer_now(
            #name_str,
            async move { #fn_name(#(#slots),*).await },
            #convert,
        )))
    };

    // Every type requirement is asserted, and every use of the argument types is written, inside
    // the one body of `def`: the compiler reports an unsatisfied bound once per span and body, so
    // each mistake is one error at the argument rather than one per generated function.
    quote! {
        #func

        #(#docs)*
        #[allow(non_camel_case_types, missing_docs)]
        #[derive(Debug, Clone, Copy)]
        #vis struct #fn_name {}

        const _: () = {
            use ::ferrapi::__private as __rt;

            impl __rt::Route for #fn_name {
                #[allow(unused_variables, clippy::result_large_err, clippy::redundant_closure)]
                fn def(&self) -> __rt::RouteDef {
                    #assertions
                    #output_assertion

                    let handler: __rt::Handler = |__cx: &__rt::RequestCx<'_>| {
                        #[allow(unused_mut)]
                        let mut __errors = __rt::ValidationErrors::new();
                        #extract_path
                        #extract_other
                        #extract_body
                        if let ::core::result::Result::Err(__response) = __errors.finish() {
                            return ::core::result::Result::Err(__response);
                        }
                        #[allow(irrefutable_let_patterns)]
                        let (#(::core::option::Option::Some(#slots),)*) = (#(#slots,)*) else {
                            return ::core::result::Result::Err(__rt::internal_error());
                        };
                        #call
                    };
                    let check: fn(&__rt::StateMap) -> ::core::result::Result<(), ::std::string::String> =
                        |state: &__rt::StateMap| {
                            #(#checks)*
                            ::core::result::Result::Ok(())
                        };
                    let operation: fn(&mut __rt::SchemaRegistry) -> __rt::Value = #operation;

                    __rt::RouteDef::from(__rt::RouteParts {
                        name: #name_str,
                        method: __rt::Method::#method,
                        path: #path,
                        handler,
                        reads_body: #reads_body_expr,
                        include_in_schema: #include_in_schema,
                        operation,
                        check,
                    })
                }
            }
        };
    }
}
