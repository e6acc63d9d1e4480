//! Code generation: the route's unit type, its `Route` impl and its one handler, which extracts,
//! validates, calls the function and converts its result.
//!
//! Rules enforced here: the handler collects every validation error (path, then the inputs of
//! the groups' dependencies, then query and the rest, then body) before answering; a route with a
//! dependency among its arguments (a constant of the argument types, folded by the optimiser) or
//! in its groups (the slice the runtime hands over is not empty: one length test) resolves its
//! dependencies in a boxed future first, its groups' before its own, and a route without either
//! runs exactly as if dependencies did not exist; and every type requirement is asserted at the
//! argument's own span so a mistake is reported where it was made, once: assertions, handler,
//! check and OpenAPI builder are one function body (closures included), and the compiler reports
//! an unsatisfied bound once per span and body. Internal names in the handler start with `__`,
//! so a user's names never shadow them.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::infer::{Classified, Kind, RouteModel};
use super::{openapi, suspend};
use crate::paths::{self, RouteDefFields};
use crate::tokens;

/// What the generated code needs of one argument, computed once.
pub(super) struct Argument<'a> {
    pub(super) ty: &'a syn::Type,
    /// The parameter's name in the API.
    name: String,
    /// The handler's local holding the extracted value (`__argN`).
    pub(super) slot: syn::Ident,
    /// `&[Constraint, ..]`.
    constraints: TokenStream,
    /// Position in the path template, for a path parameter.
    pub(super) path_index: Option<usize>,
    /// `Some(fn() -> T)` / `None`, for an argument that is not a path parameter.
    default: TokenStream,
    /// The constraints' own assertions.
    pub(super) constraint_assertions: TokenStream,
    /// `#[examples(..)]` and `#[openapi_examples(..)]`, documented with the argument.
    pub(super) attrs: &'a crate::attrs::ParamAttrs,
}

impl Argument<'_> {
    /// `<T as Arg>::SOURCE.is_body()`, at the argument's type (see [`Argument::source`]).
    pub(super) fn is_body(&self) -> TokenStream {
        let source = self.source();
        quote_spanned!(self.ty.span()=> #source.is_body())
    }

    /// `<T as Arg>::SOURCE.is_stream()`, at the argument's type (see [`Argument::source`]).
    pub(super) fn is_stream(&self) -> TokenStream {
        let source = self.source();
        quote_spanned!(self.ty.span()=> #source.is_stream())
    }

    /// `<T as Arg>::SOURCE.is_dependency()`, at the argument's type (see [`Argument::source`]).
    pub(super) fn is_dependency(&self) -> TokenStream {
        let source = self.source();
        quote_spanned!(self.ty.span()=> #source.is_dependency())
    }

    /// `<T as Arg>::SOURCE`, every token at the argument's type: a type that is no argument is
    /// then one error there, not a second one at the attribute (the compiler reports an
    /// unsatisfied bound once per span).
    fn source(&self) -> TokenStream {
        let (ty, span) = (self.ty, self.ty.span());
        let arg = paths::at(span, paths::arg());
        quote_spanned!(span=> <#ty as #arg>::SOURCE)
    }

    /// `Param::new(name, default, constraints)`: the argument's declaration.
    pub(super) fn param(&self) -> TokenStream {
        let (name, default, constraints, param) =
            (&self.name, &self.default, &self.constraints, paths::param());
        quote!(#param::new(#name, #default, #constraints))
    }

    /// `<T as Arg>::__resolve(input, deps, SHARE)`: the argument's second step, through the
    /// request's cache when it is a dependency. The `Share` constant is written at the argument's
    /// type, where a dependency that cannot be cached is reported, and the call is a qualified
    /// path at that span too, so a type that is no argument is the one error of the assertions.
    pub(super) fn resolve(&self, input: &TokenStream, deps: &TokenStream) -> TokenStream {
        let ty = self.ty;
        let span = ty.span();
        let (share, arg, sealed) = (
            paths::at(span, paths::share()),
            paths::at(span, paths::arg()),
            paths::at(span, paths::sealed()),
        );
        quote_spanned! {span=>
            <#ty as #arg>::__resolve(
                #input,
                #deps,
                <#ty as #share<{ <#ty as #arg>::SOURCE.is_dependency() }>>::SHARE,
                #sealed,
            )
        }
    }
}

/// The arguments of a route or a dependency, `__argN` for the `N`-th.
pub(super) fn arguments(params: &[Classified]) -> Vec<Argument<'_>> {
    let arguments = params.iter().enumerate().map(|(i, classified)| {
        let param = &classified.param;
        let constraints = &param.attrs.constraints;
        Argument {
            ty: &param.ty,
            name: classified.name.clone(),
            slot: format_ident!("__arg{}", i),
            constraints: tokens::constraints(constraints),
            path_index: match classified.kind {
                Kind::Path { index } => Some(index),
                Kind::Other => None,
            },
            default: tokens::default_fn(&param.ty, param.attrs.default.as_ref()),
            constraint_assertions: tokens::constraint_assertions(&param.ty, constraints),
            attrs: &param.attrs,
        }
    });
    arguments.collect()
}

/// The type requirements of the arguments, each at the argument's type: path parameters are
/// parsed from text; any other type has an `Arg` impl, and at most one reads the JSON body.
fn argument_assertions(arguments: &[Argument<'_>], takes_files: bool) -> TokenStream {
    let mut out = TokenStream::new();
    let mut earlier_others: Vec<&Argument<'_>> = Vec::new();
    for argument in arguments {
        let ty = argument.ty;
        let span = ty.span();
        out.extend(argument.constraint_assertions.clone());
        if argument.path_index.is_some() {
            let assert = paths::at(span, paths::assert_path_param());
            out.extend(quote_spanned!(span=> #assert::<#ty>();));
            continue;
        }
        // A qualified path, not `assert_arg::<T>()`: its error carries no "required by" note, so
        // it is word for word the one the `assert_one_body` constants below would give for the
        // same type, and the compiler shows it once.
        let arg = paths::at(span, paths::arg());
        out.extend(quote_spanned!(span=> let _ = <#ty as #arg>::SOURCE;));
        if takes_files {
            // One form: every body argument is a field or a file of it.
            let assert = paths::at(span, paths::assert_form_part());
            out.extend(quote_spanned! {span=>
                #assert::<#ty, { <#ty as #arg>::SOURCE.is_body() }>();
            });
            continue;
        }
        // At most one JSON body: asserted for each pair of arguments at the later one, so a
        // second `Model` argument is reported where it is written (once: the pairs give the same
        // error), even when another argument has a mistake of its own.
        let assert = paths::at(span, paths::assert_one_body());
        for earlier in &earlier_others {
            let earlier = earlier.is_body();
            out.extend(quote_spanned! {span=>
                #assert::<
                    #ty,
                    { #earlier },
                    { <#ty as #arg>::SOURCE.is_body() },
                >();
            });
        }
        earlier_others.push(argument);
    }
    out
}

/// The conversion of the function's result to a response, and its assertion. Named with the
/// return type's span, so an unsatisfied bound in the conversion is the same error as the
/// assertion's, which the compiler reports once.
///
/// With `status` (the route's `status = N`, which the runtime applies), the conversion is the
/// runtime's `success::<T, N>`: the same call, the status given as data.
fn output_conversion(output: &syn::ReturnType, status: Option<&syn::LitInt>) -> (TokenStream, TokenStream) {
    let into_response = paths::into_response();
    match (output, status) {
        (syn::ReturnType::Default, None) => (TokenStream::new(), quote!(#into_response::into_response)),
        (syn::ReturnType::Default, Some(status)) => {
            let success = paths::success();
            (TokenStream::new(), quote!(#success::<(), #status>))
        }
        (syn::ReturnType::Type(_, ty), status) => {
            let span = ty.span();
            let (assert, into_response, success) = (
                paths::at(span, paths::assert_into_response()),
                paths::at(span, into_response),
                paths::at(span, paths::success()),
            );
            let convert = match status {
                Some(status) => quote_spanned!(span=> #success::<#ty, #status>),
                None => quote_spanned!(span=> <#ty as #into_response>::into_response),
            };
            (quote_spanned!(span=> #assert::<#ty>();), convert)
        }
    }
}

/// The handler's statements reading a path parameter.
fn extract_path(argument: &Argument<'_>, index: usize) -> TokenStream {
    let Argument {
        ty,
        name,
        slot,
        constraints,
        ..
    } = argument;
    let path_param = paths::path_param();
    quote! {
        let #slot: ::core::option::Option<#ty> =
            #path_param::<#ty>(__cx, #index, #name, #constraints, &mut __errors);
    }
}

/// `<T as Arg>::extract(..)` for an argument that is not a path parameter.
pub(super) fn extract_call(argument: &Argument<'_>, cx: &TokenStream, errors: &TokenStream) -> TokenStream {
    let (ty, param, span) = (argument.ty, argument.param(), argument.ty.span());
    let arg = paths::at(span, paths::arg());
    quote_spanned! {span=>
        <#ty as #arg>::extract(#cx, #param, #errors)
    }
}

/// The handler's statements reading an argument that is not the body (query, injected, the
/// inputs of a dependency).
fn extract_other(argument: &Argument<'_>) -> TokenStream {
    let (ty, slot, arg, is_body) = (argument.ty, &argument.slot, paths::arg(), argument.is_body());
    let extract = extract_call(argument, &quote!(__cx), &quote!(&mut __errors));
    // The input's type is written at the argument's type: a type that is no argument is then
    // the one error of the assertions, not another at the attribute.
    let span = ty.span();
    let input = {
        let arg = paths::at(span, arg.clone());
        quote_spanned!(span=> <#ty as #arg>::Input)
    };
    quote! {
        let mut #slot: ::core::option::Option<#input> = ::core::option::Option::None;
        if !#is_body {
            #slot = #extract;
        }
    }
}

/// The handler's statements reading an argument that is the body: after every other argument,
/// so their errors are collected before the body is read.
fn extract_body(argument: &Argument<'_>) -> TokenStream {
    let (slot, is_body) = (&argument.slot, argument.is_body());
    let extract = extract_call(argument, &quote!(__cx), &quote!(&mut __errors));
    quote! {
        if #is_body {
            #slot = #extract;
        }
    }
}

/// The call of the route function with the extracted arguments, converted to a response.
///
/// A body that cannot suspend completes on its first poll: run it inside the handler and answer
/// at once, which spares boxing the future and polling it through the dispatcher later. Both
/// ways await the call inside an `async` block of this body and convert its result in a call
/// spanned like the assertion, so a route's mistakes read the same whichever way it runs.
fn call(model: &RouteModel, arguments: &[Argument<'_>], into_response: &TokenStream) -> TokenStream {
    let func = &model.func;
    let fn_name = &func.sig.ident;
    let name_str = fn_name.to_string();
    let slots = arguments.iter().map(|a| &a.slot);
    if suspend::may_suspend(&func.block) {
        let (boxed, started) = (paths::boxed(), paths::started());
        return quote!(#started::Later(#boxed(async move {
            #into_response(#fn_name(#(#slots),*).await)
        })));
    }
    let output = quote!(__output);
    let convert = match &func.sig.output {
        syn::ReturnType::Default => quote!(|#output| #into_response(#output)),
        syn::ReturnType::Type(_, ty) => quote_spanned!(ty.span()=> |#output| #into_response(#output)),
    };
    let (complete_now, started) = (paths::complete_now(), paths::started());
    quote!(#started::Now(#complete_now(
        #name_str,
        async move { #fn_name(#(#slots),*).await },
        #convert,
    )))
}

/// True when the route's groups have dependencies (a test of the slice the runtime hands over)
/// or any argument is a dependency (a constant expression, which the optimiser folds): a route
/// with neither runs exactly the code it would without the dependency path beside it.
fn has_dependency(arguments: &[Argument<'_>]) -> TokenStream {
    let dependencies = arguments
        .iter()
        .filter(|a| a.path_index.is_none())
        .map(Argument::is_dependency);
    quote!(__group.is_some() #(|| #dependencies)*)
}

/// The handler's way for a route with a dependency: a boxed future that resolves every argument
/// in declaration order (the first dependency that fails answers the request, even when another
/// argument is invalid, as in FastAPI; one whose own inputs were invalid is skipped), then answers
/// every validation error at once (the app's answer: 422 unless overridden), or calls the function.
/// The groups' dependencies (`__group`, their inputs, when the route's groups have any) are
/// resolved first, in the same cache.
fn dependency_path(
    model: &RouteModel,
    arguments: &[Argument<'_>],
    into_response: &TokenStream,
) -> TokenStream {
    let (boxed, deps, internal_error, started) = (
        paths::boxed(),
        paths::deps(),
        paths::internal_error(),
        paths::started(),
    );
    let (invalid, defer_invalid, bad_body) = (paths::invalid(), paths::defer_invalid(), paths::bad_body());
    let resolve = arguments
        .iter()
        .filter(|a| a.path_index.is_none())
        .map(|argument| {
            let slot = &argument.slot;
            let resolve = argument.resolve(&quote!(__input), &quote!(&mut __deps));
            // At the argument's type, the `.await` too: a type that is no argument is then one
            // error there, not another at the attribute.
            quote_spanned! {argument.ty.span()=>
                let #slot = match #slot {
                    ::core::option::Option::Some(__input) => match #resolve.await {
                        ::core::result::Result::Ok(__value) => ::core::option::Option::Some(__value),
                        ::core::result::Result::Err(__response) => return __response,
                    },
                    ::core::option::Option::None => ::core::option::Option::None,
                };
            }
        });
    let fn_name = &model.func.sig.ident;
    let slots: Vec<_> = arguments.iter().map(|a| &a.slot).collect();
    quote! {
        // FastAPI reads the body before any dependency runs: a body that cannot be validated
        // at all is answered first.
        if #bad_body(&__errors) {
            return #started::Now(#invalid(__cx, __errors));
        }
        // The future does not see the request: what a 422 needs is taken now, answered after
        // the dependencies ran.
        let __invalid = #defer_invalid(__cx, __errors);
        return #started::Later(#boxed(async move {
            let mut __deps = #deps::new();
            if let ::core::option::Option::Some(__group) = __group {
                if let ::core::result::Result::Err(__response) = __group.resolve(&mut __deps).await {
                    return __response;
                }
            }
            #(#resolve)*
            if let ::core::option::Option::Some(__invalid) = __invalid {
                return __invalid.answer();
            }
            #[allow(irrefutable_let_patterns)]
            let (#(::core::option::Option::Some(#slots),)*) = (#(#slots,)*) else {
                return #internal_error();
            };
            #into_response(#fn_name(#(#slots),*).await)
        }));
    }
}

/// The statements extracting every argument: path parameters, then `between` (the groups'
/// dependencies), then the others in declaration order, then the body.
fn extraction(arguments: &[Argument<'_>], between: TokenStream) -> TokenStream {
    let mut extract = TokenStream::new();
    for argument in arguments {
        if let Some(index) = argument.path_index {
            extract.extend(extract_path(argument, index));
        }
    }
    extract.extend(between);
    let others = arguments.iter().filter(|a| a.path_index.is_none());
    extract.extend(others.clone().map(extract_other));
    extract.extend(others.map(extract_body));
    extract
}

/// The `handler` closure: extract every argument (errors collected), and the inputs of the
/// groups' dependencies when there are any; with a dependency, go on in a boxed future (see
/// [`dependency_path`]); without, answer every error at once (the app's answer: 422 unless
/// overridden), or call the function.
fn handler(model: &RouteModel, arguments: &[Argument<'_>], into_response: &TokenStream) -> TokenStream {
    let (group_inputs, dependency_fn) = (paths::group_inputs(), paths::dependency_fn());
    let extract = extraction(
        arguments,
        quote! {
            let __group = if __group.is_empty() {
                ::core::option::Option::None
            } else {
                ::core::option::Option::Some(#group_inputs::extract(__group, __cx, &mut __errors))
            };
        },
    );
    let has_dependency = has_dependency(arguments);
    let dependency_path = dependency_path(model, arguments, into_response);
    let slots = arguments.iter().map(|a| &a.slot);
    let values = arguments.iter().map(|a| {
        let (ty, slot) = (a.ty, &a.slot);
        match a.path_index {
            Some(_) => quote!(#slot),
            None => {
                let (arg, sealed) = (
                    paths::at(ty.span(), paths::arg()),
                    paths::at(ty.span(), paths::sealed()),
                );
                quote_spanned!(ty.span()=> <#ty as #arg>::__now(#slot, #sealed))
            }
        }
    });
    let call = call(model, arguments, into_response);
    let (handler, request_cx, validation_errors, internal_error, reject_invalid, started) = (
        paths::handler(),
        paths::request_cx(),
        paths::validation_errors(),
        paths::internal_error(),
        paths::reject_invalid(),
        paths::started(),
    );
    quote! {
        let handler: #handler = |__cx: &#request_cx<'_>, __group: &[#dependency_fn]| {
            #[allow(unused_mut)]
            let mut __errors = #validation_errors::new();
            #extract
            if #has_dependency {
                #dependency_path
            }
            if let ::core::result::Result::Err(__response) = #reject_invalid(__cx, __errors) {
                return #started::Now(__response);
            }
            #[allow(irrefutable_let_patterns)]
            let (#(::core::option::Option::Some(#slots),)*) = (#(#values,)*) else {
                return #started::Now(#internal_error());
            };
            #call
        };
    }
}

/// The `check` closure: each injected argument's check against the app's state at build time.
fn check(arguments: &[Argument<'_>]) -> TokenStream {
    let (arg, state_map) = (paths::arg(), paths::state_map());
    let checks = arguments
        .iter()
        .filter(|a| a.path_index.is_none())
        .map(|a| a.ty)
        .map(|ty| {
            let arg = paths::at(ty.span(), arg.clone());
            quote_spanned!(ty.span()=> <#ty as #arg>::check(state)?;)
        });
    quote! {
        let check: fn(&#state_map) -> ::core::result::Result<(), ::std::string::String> =
            |state: &#state_map| {
                #(#checks)*
                ::core::result::Result::Ok(())
            };
    }
}

/// `a || b || ..` of `test` over the arguments that are not path parameters (`false` if none).
fn any_argument<'a>(arguments: &[Argument<'a>], test: fn(&Argument<'a>) -> TokenStream) -> TokenStream {
    let tests: Vec<TokenStream> = arguments
        .iter()
        .filter(|a| a.path_index.is_none())
        .map(test)
        .collect();
    if tests.is_empty() {
        quote!(false)
    } else {
        quote!(#(#tests)||*)
    }
}

/// The route's definition: `true` in `reads_body` when any argument is the body, and in
/// `streams_body` when that body is read as it arrives; read as a form first when the route
/// takes files.
fn route_def(model: &RouteModel, arguments: &[Argument<'_>]) -> TokenStream {
    let reads_body = any_argument(arguments, Argument::is_body);
    let streams_body = any_argument(arguments, Argument::is_stream);
    let def = paths::route_def(RouteDefFields {
        name: &model.func.sig.ident.to_string(),
        method: &syn::Ident::new(model.method, Span::call_site()),
        path: &model.attr.path,
        reads_body,
        streams_body,
        include_in_schema: model.attr.include_in_schema,
    });
    if model.takes_files {
        // Only here: every other route's expansion stays what it was.
        return quote!(#def.__reads_form());
    }
    def
}

/// The body of `Route::def`. Every type requirement is asserted, and every use of the argument
/// types is written, inside this one body: the compiler reports an unsatisfied bound once per
/// span and body, so each mistake is one error at the argument rather than one per generated
/// function.
fn def_body(model: &RouteModel) -> TokenStream {
    let arguments = arguments(&model.params);
    let assertions = argument_assertions(&arguments, model.takes_files);
    let (output_assertion, into_response) =
        output_conversion(&model.func.sig.output, model.success_status.as_ref());
    let handler = handler(model, &arguments, &into_response);
    let check = check(&arguments);
    let operation = openapi::operation(model);
    let route_def = route_def(model, &arguments);
    let (schema_registry, operation_type) = (paths::schema_registry(), paths::operation());
    quote! {
        #assertions
        #output_assertion

        #handler
        #check
        let operation: fn(&mut #schema_registry) -> #operation_type = #operation;

        #route_def
    }
}

/// The whole expansion of a route attribute: the function, a unit type of the same name (with
/// its docs) and the type's `Route` impl.
pub fn emit(model: &RouteModel) -> TokenStream {
    let func = &model.func;
    let fn_name = &func.sig.ident;
    let vis = &func.vis;
    let docs = func.attrs.iter().filter(|a| a.path().is_ident("doc"));
    let body = def_body(model);
    let (route, route_def) = (paths::route(), paths::route_def_type());
    let route_impl = paths::runtime_scope(quote! {
        impl #route for #fn_name {
            #[allow(unused_variables, clippy::redundant_closure)]
            fn def(&self) -> #route_def {
                #body
            }
        }
    });
    quote! {
        #func

        #(#docs)*
        #[allow(non_camel_case_types, missing_docs)]
        #[derive(Debug, Clone, Copy)]
        #vis struct #fn_name {}

        #route_impl
    }
}
