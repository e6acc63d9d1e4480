//! `#[dependency]`: an `fn` (usually `async`) whose return type becomes a dependency, its
//! arguments read as a route's are (parse → check → emit, sharing the route's pieces).
//!
//! Rules enforced here: the function is not generic and returns its value, `T` or
//! `Result<T, E>` with `E: IntoResponse` (an `Err` answers the request), where `T` is a type of
//! the crate (the generated `impl Arg for T` needs it); it has no path parameters (a dependency
//! does not know the route's path) and reads no JSON body; its only option is `responses(..)`,
//! the answers it may give, documented on every route that uses it; every mistake is reported at
//! its own span, all of them, and the function is re-emitted beside the errors. The generated
//! `Arg` impl reads the arguments in declaration order (their errors join the route's 422), and
//! resolves them before calling the function, each dependency among them through the request's
//! cache.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, Token, Type};

use super::emit::{arguments, extract_call, Argument};
use super::infer::{classify, first_type_argument, Classified};
use super::openapi::description;
use super::parse::{params, responses, ExtraResponse};
use crate::diag::Diagnostics;
use crate::paths;

/// The expansion of `#[dependency(attr)] item`.
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut diag = Diagnostics::default();
    let mut func = match syn::parse2::<ItemFn>(item.clone()) {
        Ok(func) => func,
        Err(err) => {
            let mut out = item;
            out.extend(
                syn::Error::new(
                    err.span(),
                    "`#[dependency]` goes on an `async fn` returning the dependency's value",
                )
                .to_compile_error(),
            );
            return out;
        }
    };
    let responses = dependency_attr(attr, &mut diag);
    let params = params(&mut func, &mut diag);
    if !func.sig.generics.params.is_empty() {
        diag.error_spanned(
            &func.sig.generics,
            "a dependency cannot be generic: its arguments' types must be known to read and document them",
        );
    }
    let value = value_type(&func, &mut diag);
    let params: Vec<Classified> = params.into_iter().map(|p| classify(p, &[], &mut diag)).collect();
    let (Some(value), true) = (value, diag.is_empty()) else {
        let mut out = quote!(#func);
        out.extend(diag.to_tokens());
        return out;
    };
    let arg_impl = arg_impl(&func, &value, &params, &responses);
    quote! {
        #func

        #arg_impl
    }
}

/// The options: `responses(401 = "Not authenticated", ..)` or nothing.
fn dependency_attr(tokens: TokenStream, diag: &mut Diagnostics) -> Vec<ExtraResponse> {
    let parser = |input: ParseStream| -> syn::Result<Vec<ExtraResponse>> {
        let mut entries = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            if key != "responses" {
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown dependency option `{key}`; expected `responses(N = \"..\")`"),
                ));
            }
            entries.extend(responses(input, diag)?);
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(entries)
    };
    match parser.parse2(tokens) {
        Ok(entries) => entries,
        Err(err) => {
            diag.push(err);
            Vec::new()
        }
    }
}

/// What the dependency's value is: the return type, or `T` of `Result<T, E>`.
pub struct Value {
    /// `T`, the type `Arg` is implemented for.
    ty: Type,
    /// `E`, when the function returns a `Result`.
    error: Option<Type>,
}

fn value_type(func: &ItemFn, diag: &mut Diagnostics) -> Option<Value> {
    let syn::ReturnType::Type(_, ty) = &func.sig.output else {
        diag.error(
            func.sig.ident.span(),
            format!(
                "a dependency returns its value: write `fn {}(..) -> YourType` (or `-> Result<YourType, E>`, an `Err` answering the request)",
                func.sig.ident
            ),
        );
        return None;
    };
    if let Some(ok) = first_type_argument(ty, "Result") {
        let error = match &**ty {
            Type::Path(path) => path.path.segments.last().and_then(|last| match &last.arguments {
                syn::PathArguments::AngleBracketed(args) => args.args.iter().nth(1).and_then(|a| match a {
                    syn::GenericArgument::Type(e) => Some(e.clone()),
                    _ => None,
                }),
                _ => None,
            }),
            _ => None,
        };
        let Some(error) = error else {
            diag.error_spanned(
                ty,
                "write the error type of the dependency's `Result`: `Result<YourType, E>` with `E: IntoResponse`",
            );
            return None;
        };
        return Some(Value {
            ty: ok.clone(),
            error: Some(error),
        });
    }
    Some(Value {
        ty: (**ty).clone(),
        error: None,
    })
}

/// Assertions about the dependency's arguments, at each argument's type: constraints apply, the
/// type is an argument, and not the body.
fn assertions(arguments: &[Argument<'_>]) -> TokenStream {
    let mut out = TokenStream::new();
    for argument in arguments {
        let ty = argument.ty;
        let span = ty.span();
        out.extend(argument.constraint_assertions.clone());
        let (arg, assert) = (
            paths::at(span, paths::arg()),
            paths::at(span, paths::assert_not_body()),
        );
        out.extend(quote_spanned! {span=>
            #assert::<#ty, { <#ty as #arg>::SOURCE.is_body() }>();
        });
    }
    out
}

/// `impl Arg for T`.
fn arg_impl(func: &ItemFn, value: &Value, params: &[Classified], responses: &[ExtraResponse]) -> TokenStream {
    let arguments = arguments(params);
    let (arg, source, request_cx, param, validation_errors) = (
        paths::arg(),
        paths::source(),
        paths::request_cx(),
        paths::param(),
        paths::validation_errors(),
    );
    let (deps, response, operation, schema_registry, state_map, into_response) = (
        paths::deps(),
        paths::response(),
        paths::operation(),
        paths::schema_registry(),
        paths::state_map(),
        paths::into_response(),
    );
    let ty = &value.ty;
    let tys: Vec<&Type> = arguments.iter().map(|a| a.ty).collect();
    let slots: Vec<&Ident> = arguments.iter().map(|a| &a.slot).collect();
    let assertions = assertions(&arguments);
    let extract = arguments.iter().map(|argument| {
        let slot = &argument.slot;
        let call = extract_call(argument, &quote!(__cx), &quote!(__errors));
        quote!(let #slot = #call;)
    });
    let resolve = arguments.iter().map(|argument| {
        let slot = &argument.slot;
        let call = argument.resolve(&quote!(#slot), &quote!(__deps));
        quote!(let #slot = #call.await?;)
    });
    let fn_name = &func.sig.ident;
    let await_ = func.sig.asyncness.map(|_| quote!(.await));
    let output = match &value.error {
        None => quote!(::core::result::Result::Ok(#fn_name(#(#slots),*)#await_)),
        Some(error) => {
            let into_response = paths::at(error.span(), into_response.clone());
            quote_spanned! {error.span()=>
                ::core::result::Result::map_err(#fn_name(#(#slots),*)#await_, <#error as #into_response>::into_response)
            }
        }
    };
    let docs = arguments.iter().map(|argument| {
        let (ty, param) = (argument.ty, argument.param());
        let doc = quote!(<#ty as #arg>::doc(#param, __op, __registry););
        argument.attrs.document_with_examples(&quote!(__op), doc)
    });
    let responses = responses.iter().map(|r| {
        let (status, description) = (&r.status, description(&r.description));
        quote!(__op.dependency_response(#status, #description);)
    });
    paths::runtime_scope(quote! {
        impl #arg for #ty {
            const SOURCE: #source = #source::Dependency;
            type Input = (#(<#tys as #arg>::Input,)*);

            #[allow(unused_variables)]
            fn extract(
                __cx: &#request_cx<'_>,
                _param: #param<Self>,
                __errors: &mut #validation_errors,
            ) -> ::core::option::Option<Self::Input> {
                #assertions
                #(#extract)*
                ::core::option::Option::Some((#(#slots?,)*))
            }

            #[allow(unused_variables)]
            fn resolve(
                __input: Self::Input,
                __deps: &mut #deps,
            ) -> impl ::core::future::Future<
                Output = ::core::result::Result<Self, #response>,
            > + ::core::marker::Send {
                async move {
                    let (#(#slots,)*) = __input;
                    #(#resolve)*
                    #output
                }
            }

            #[allow(unused_variables)]
            fn doc(_param: #param<Self>, __op: &mut #operation, __registry: &mut #schema_registry) {
                #(#docs)*
                #(#responses)*
            }

            fn check(__state: &#state_map) -> ::core::result::Result<(), ::std::string::String> {
                #(<#tys as #arg>::check(__state)?;)*
                ::core::result::Result::Ok(())
            }
        }
    })
}
