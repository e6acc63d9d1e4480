//! `#[dependency]`: an `fn` (usually `async`) whose return type becomes a dependency, its
//! arguments read as a route's are (parse → check → emit, sharing the route's pieces).
//!
//! Rules enforced here: the function is not generic and returns its value, `T` or
//! `Result<T, E>` with `E: IntoResponse` (an `Err` answers the request), where `T` is a type of
//! the crate (the generated `impl Dependency for T` needs it); it has no path parameters (a dependency
//! does not know the route's path) and reads no JSON body; its only option is `responses(..)`,
//! the answers it may give, documented on every route that uses it; every mistake is reported at
//! its own span, all of them, and the function is re-emitted beside the errors. The generated
//! `Dependency` impl has a route's shape: one generic call per argument in declaration order
//! (their errors join the route's 422), then the runtime's `depend` resolves the dependencies
//! among them through the request's cache and calls the function.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, Token, Type};

use super::emit::{arguments, checks, list, Argument};
use super::infer::{classify, first_type_argument, Classified, Kind};
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

/// Assertions about the dependency's arguments, at each argument's type: constraints apply, and
/// none is the body (`BodyProbe::<T>::not_body()`, the route's body probe: nothing for an input
/// that is no body, an error there for one that is).
fn assertions(arguments: &[Argument<'_>]) -> TokenStream {
    let mut out = TokenStream::new();
    for argument in arguments {
        let (ty, span) = (argument.ty, argument.ty.span());
        out.extend(argument.constraint_assertions.clone());
        let probe = paths::at(span, paths::body_probe());
        out.extend(quote_spanned!(span=> #probe::<#ty>::not_body();));
    }
    out
}

/// `impl Dependency for T`, in a route's shape: the arguments read by one generic call each, then
/// the runtime's `depend` with the call of the function.
fn arg_impl(func: &ItemFn, value: &Value, params: &[Classified], responses: &[ExtraResponse]) -> TokenStream {
    debug_assert!(params.iter().all(|p| matches!(p.kind, Kind::Other)));
    let arguments = arguments(params);
    let (dependency, resolve, request_cx, validation_errors, depend) = (
        paths::dependency(),
        paths::resolve(),
        paths::request_cx(),
        paths::validation_errors(),
        paths::depend(),
    );
    let (operation, schema_registry, state_map, into_response) = (
        paths::operation(),
        paths::schema_registry(),
        paths::state_map(),
        paths::into_response(),
    );
    let ty = &value.ty;
    let slots: Vec<&Ident> = arguments.iter().map(|a| &a.slot).collect();
    let assertions = assertions(&arguments);
    let extract = arguments.iter().enumerate().map(|(index, a)| a.extract(index));
    let list = list(&arguments);
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
    // The declarations, beside the impl: its three functions use them.
    let consts = arguments.iter().enumerate().map(|(index, a)| {
        let (arg_const, param_type, ty, param) =
            (crate::tokens::arg_const(index), paths::param(), a.ty, a.param());
        quote!(const #arg_const: #param_type<#ty> = #param;)
    });
    let docs = arguments.iter().enumerate().map(|(index, argument)| {
        let (arg_const, ty) = (crate::tokens::arg_const(index), argument.ty);
        let doc_fn = paths::arg_method(ty, "doc");
        let doc = quote_spanned!(ty.span()=> #doc_fn(#arg_const, __op, __registry););
        argument.attrs.document_with_examples(&quote!(__op), doc)
    });
    let checks = checks(&arguments, &quote!(__state));
    // What the function returns, asked `Unpin` here, which looks into the resolutions of the
    // dependencies it takes (the types their `extract` returns): dependencies that take each
    // other are then a cycle the compiler reports at the attribute, not an overflow it reports
    // nowhere when it lays the types out.
    let assert_acyclic = paths::assert_acyclic();
    let responses = responses.iter().map(|r| {
        let (status, description) = (&r.status, description(&r.description));
        quote!(__op.dependency_response(#status, #description);)
    });
    // `NoBody`, the body probe's fallback, in scope for the assertions.
    let scope = match arguments.is_empty() {
        true => paths::runtime_scope,
        false => paths::runtime_scope_probing,
    };
    scope(quote! {
        #(#consts)*

        impl #dependency for #ty {
            #[allow(unused_variables, clippy::unused_unit)]
            fn extract(
                __cx: &#request_cx<'_>,
                __err: &mut #validation_errors,
            ) -> ::core::option::Option<impl #resolve<Self> + use<>> {
                #assertions
                #(#extract)*
                let __resolve = #depend(#list, |#list| async move { #output });
                #assert_acyclic(&__resolve);
                __resolve
            }

            #[allow(unused_variables)]
            fn doc(__op: &mut #operation, __registry: &mut #schema_registry) {
                #(#docs)*
                #(#responses)*
            }

            fn check(__state: &#state_map) -> ::core::result::Result<(), ::std::string::String> {
                #checks
            }
        }
    })
}
