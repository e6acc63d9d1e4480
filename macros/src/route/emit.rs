//! Code generation: the route's unit type, its `Route` impl and its handler, which is one call of
//! the runtime's generic `start` (dropshot's "thin macro, generic runtime"): the expansion writes
//! only what depends on the argument types, one generic call per argument
//! (`<T as Arg<_>>::extract`, whose trait, extractor or dependency, the compiler picks by the
//! marker it infers), in declaration order, and a block that calls the function; collecting the
//! errors, their order, the groups' dependencies, the 422 and how the blocks run are the
//! runtime's (`routing::handler`).
//!
//! Rules enforced here: each argument's declaration (`Param`) is one constant, used by the
//! handler, the check and the OpenAPI builder alike; the one-body check grows linearly (a
//! constant per argument folds the body modes so far into `Bodies`); and every type requirement
//! is asserted at the argument's own span so a mistake is reported where it was made, once:
//! assertions, handler, check and OpenAPI builder are one function body (closures included), and
//! the compiler reports an unsatisfied bound once per span. Internal names in the handler start
//! with `__`, so a user's names never shadow them.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
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
    /// `Param::new(name, default, constraints)`: the argument's declaration.
    pub(super) fn param(&self) -> TokenStream {
        let (name, default, constraints, param) =
            (&self.name, &self.default, &self.constraints, paths::param());
        match (&self.attrs.default, self.attrs.constraints.is_empty()) {
            (None, true) => quote!(#param::named(#name)),
            (None, false) => quote!(#param::constrained(#name, #constraints)),
            (Some(_), _) => quote!(#param::new(#name, #default, #constraints)),
        }
    }

    /// `BodyProbe::<T>::MODE`, at the argument's type: its body mode (none when it is no body,
    /// or no argument at all, which its call reports).
    pub(super) fn body_mode(&self) -> TokenStream {
        let (ty, span) = (self.ty, self.ty.span());
        let probe = paths::at(span, paths::body_probe());
        quote_spanned!(span=> #probe::<#ty>::MODE)
    }

    /// `let __argN = ..;`: the argument read from the request, `None` inside when missing or
    /// invalid: a path parameter's value, or any other argument's generic call
    /// (`<T as Arg<_>>::extract`: its value, or a dependency's pending resolution; the compiler
    /// infers the marker). Every token is at the argument's type, and the call is a qualified
    /// path, not a generic function whose result would carry the bound into the runtime's
    /// `start`: a type that is no argument is then one error, there.
    pub(super) fn extract(&self, index: usize) -> TokenStream {
        let (slot, span) = (&self.slot, self.ty.span());
        let arg_const = paths::at(span, tokens::arg_const(index).into_token_stream());
        match self.path_index {
            Some(path_index) => {
                let path_param = paths::at(span, paths::path_param());
                let ty = self.ty;
                quote_spanned!(span=> let #slot = #path_param::<#ty>(__cx, #path_index, #arg_const, __errors);)
            }
            None => {
                let extract = paths::arg_method(self.ty, "extract");
                quote_spanned!(span=> let #slot = #extract(__cx, #arg_const, __errors);)
            }
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
            // At the argument's type, as every use of its value: a type that is no argument is
            // then one error there, not another where the list of arguments is made.
            slot: syn::Ident::new(&format!("__arg{i}"), param.ty.span()),
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
/// parsed from text, and at most one argument reads the JSON body (any other requirement is the
/// argument's call's). With each argument, the constant of its declaration (`__ARGN`). Also
/// returns the route's body mode (a form when it takes files), from the constants `__BODYN`,
/// which fold the arguments' body modes one at a time, so the one-body check grows linearly.
pub(super) fn argument_assertions(
    arguments: &[Argument<'_>],
    takes_files: bool,
) -> (TokenStream, TokenStream) {
    let mut out = TokenStream::new();
    if arguments.iter().any(|a| a.path_index.is_none()) {
        // `BodyProbe`'s fallback, for the constants below.
        let no_body = paths::no_body();
        out.extend(quote!(use #no_body as _;));
    }
    let bodies = paths::bodies();
    let mut earlier: Option<syn::Ident> = None;
    for (index, argument) in arguments.iter().enumerate() {
        let ty = argument.ty;
        let span = ty.span();
        out.extend(argument.constraint_assertions.clone());
        if argument.path_index.is_some() {
            let assert = paths::at(span, paths::assert_path_param());
            out.extend(quote_spanned!(span=> #assert::<#ty>();));
        }
        let (arg_const, param_type, param) = (tokens::arg_const(index), paths::param(), argument.param());
        out.extend(quote!(const #arg_const: #param_type<#ty> = #param;));
        if argument.path_index.is_some() {
            continue;
        }
        let mode = argument.body_mode();
        let body_const = format_ident!("__BODY{}", index);
        let so_far = match &earlier {
            None => quote!(#bodies::NONE),
            Some(earlier) => quote!(#earlier),
        };
        out.extend(quote!(const #body_const: #bodies = #so_far.with(#mode);));
        if takes_files {
            // One form: every body argument is a field or a file of it.
            let assert = paths::at(span, paths::assert_form_part());
            out.extend(quote_spanned!(span=> #assert::<#ty, { #mode.reads() }>();));
        } else if earlier.is_some() {
            // At most one JSON body: asserted at each argument after the first, so a second
            // `Model` argument is reported where it is written, even when another argument has a
            // mistake of its own.
            let assert = paths::at(span, paths::assert_one_body());
            out.extend(quote_spanned!(span=> #assert::<#ty, { #body_const.repeated }>();));
        }
        earlier = Some(body_const);
    }
    let body_mode = paths::body_mode();
    let body = match (takes_files, earlier) {
        (true, _) => quote!(#body_mode::Form),
        (false, None) => quote!(#body_mode::None),
        (false, Some(last)) => quote!(#last.mode),
    };
    (out, body)
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
        (syn::ReturnType::Default, None) => {
            (TokenStream::new(), quote!(<() as #into_response>::into_response))
        }
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

/// `(a, (b, (.., ())))`: the arguments' values, or what their extraction returned, as the
/// runtime's list.
pub(super) fn list(arguments: &[Argument<'_>]) -> TokenStream {
    arguments.iter().rev().fold(quote!(()), |tail, argument| {
        let slot = &argument.slot;
        quote!((#slot, #tail))
    })
}

/// The handler: the runtime's `start` given what only the route knows: its arguments read in
/// declaration order into their list (the runtime resolves the dependencies among them), and a
/// block that calls the function, in place when its body has no `.await` (a body without one
/// completes on its first poll: no box). The call is converted in a call spanned like the
/// assertion, so a route's mistakes read the same whichever way it runs.
fn handler(model: &RouteModel, arguments: &[Argument<'_>], into_response: &TokenStream) -> TokenStream {
    let extract = arguments.iter().enumerate().map(|(index, a)| a.extract(index));
    let list = list(arguments);
    let func = &model.func;
    let fn_name = &func.sig.ident;
    let slots = arguments.iter().map(|a| &a.slot);
    let (start, call) = (paths::start(), paths::call());
    let run = match suspend::may_suspend(&func.block) {
        true => quote!(#call::Boxed),
        false => {
            let name = fn_name.to_string();
            quote!(#call::InPlace(#name))
        }
    };
    quote! {
        |__cx, __group| #start(
            __cx,
            __group,
            |__cx, __errors| {
                #(#extract)*
                #list
            },
            |#list| async move { #fn_name(#(#slots),*).await },
            |__out| #into_response(__out),
            #run,
        )
    }
}

/// `<T as Arg<_>>::check(state)?;` for each argument but the path parameters: what it needs of
/// the app's state, checked when the app is built. A qualified path at the argument's type, as
/// its extraction is, so a type that is no argument is one error.
pub(super) fn checks(arguments: &[Argument<'_>], state: &TokenStream) -> TokenStream {
    let checks = arguments.iter().filter(|a| a.path_index.is_none());
    checks
        .map(|a| {
            let check = paths::arg_method(a.ty, "check");
            quote_spanned!(a.ty.span()=> #check(#state)?;)
        })
        .collect()
}

/// The `check` closure: each argument's check against the app's state at build time.
fn check(arguments: &[Argument<'_>]) -> TokenStream {
    let checks = checks(arguments, &quote!(state));
    quote! {
        |state| {
            #checks
            ::core::result::Result::Ok(())
        }
    }
}

/// The body of `Route::def`. Every type requirement is asserted, and every use of the argument
/// types is written, inside this one body: the compiler reports an unsatisfied bound once per
/// span and body, so each mistake is one error at the argument rather than one per generated
/// function.
fn def_body(model: &RouteModel) -> TokenStream {
    let arguments = arguments(&model.params);
    let (assertions, body) = argument_assertions(&arguments, model.takes_files);
    let (output_assertion, into_response) =
        output_conversion(&model.func.sig.output, model.success_status.as_ref());
    let route_def = paths::route_def(RouteDefFields {
        name: &model.func.sig.ident.to_string(),
        method: &syn::Ident::new(model.method, Span::call_site()),
        path: &model.attr.path,
        handler: handler(model, &arguments, &into_response),
        body,
        include_in_schema: model.attr.include_in_schema,
        operation: openapi::operation(model),
        check: check(&arguments),
    });
    quote! {
        #assertions
        #output_assertion
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
            #[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
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
