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
//! constant per argument folds the bodies so far into `Bodies`); and every type requirement is
//! asserted at the argument's own span so a mistake is reported where it was made, once. The
//! constants and the handler (`__HANDLER`, a constant too, so its calls sit at a shallow depth)
//! are items beside the `Route` impl, whose `def` body holds the assertions, the check and the
//! OpenAPI builder: the compiler reports an unsatisfied bound once per span in a body, and the
//! same error of two bodies once, so each use of an argument's type is written the same way in
//! both (`<T as Arg<_>>::method`, `path_param::<T>`) and is one error. Internal names in the
//! handler start with `__`, so a user's names never shadow them.

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
    /// `|| -> T { .. }`, the `#[default(..)]` of an argument that is not a path parameter.
    default: Option<TokenStream>,
    /// The constraints' own assertions.
    pub(super) constraint_assertions: TokenStream,
    /// `#[examples(..)]` and `#[openapi_examples(..)]`, documented with the argument.
    pub(super) attrs: &'a crate::attrs::ParamAttrs,
}

impl Argument<'_> {
    /// `Param::named(name)`, then `.default(|| -> T { .. })` and `.constrained(&[..])` when it
    /// has them: the argument's declaration.
    pub(super) fn param(&self) -> TokenStream {
        let (name, param) = (&self.name, paths::param());
        let mut out = quote!(#param::named(#name));
        if let Some(default) = &self.default {
            out.extend(quote!(.default(#default)));
        }
        if !self.attrs.constraints.is_empty() {
            let constraints = &self.constraints;
            out.extend(quote!(.constrained(#constraints)));
        }
        out
    }

    /// `BodyProbe::<T>::BODY`, at the argument's type: its bodies alone (none when it is no
    /// body, or no argument at all, which its call reports).
    pub(super) fn body(&self) -> TokenStream {
        let (ty, span) = (self.ty, self.ty.span());
        let probe = paths::at(span, paths::body_probe());
        quote_spanned!(span=> #probe::<#ty>::BODY)
    }

    /// `let __argN = ..;`: the argument read from the request, `None` inside when missing or
    /// invalid: a path parameter's value, or any other argument's generic call
    /// (`<T as Arg<_>>::extract`: its value, or a dependency's pending resolution; the compiler
    /// infers the marker). Every token is at the argument's type, and the call is a qualified
    /// path, not a generic function whose result would carry the bound into the runtime's
    /// `start`, nor `Arg::extract` with `T` inferred from `__ARGN` (a call whose bound is
    /// another error than the check's): a type that is no argument is then one error, there.
    pub(super) fn extract(&self, index: usize) -> TokenStream {
        let (slot, span) = (&self.slot, self.ty.span());
        let arg_const = paths::at(span, tokens::arg_const(index).into_token_stream());
        match self.path_index {
            Some(path_index) => {
                let path_param = paths::at(span, paths::path_param());
                let ty = self.ty;
                quote_spanned!(span=> let #slot = #path_param::<#ty>(__cx, #path_index, #arg_const, __err);)
            }
            None => {
                let extract = paths::arg_method(self.ty, "extract");
                quote_spanned!(span=> let #slot = #extract(__cx, #arg_const, __err);)
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
            default: param
                .attrs
                .default
                .as_ref()
                .map(|expr| tokens::default_closure(&param.ty, expr)),
            constraint_assertions: tokens::constraint_assertions(&param.ty, constraints),
            attrs: &param.attrs,
        }
    });
    arguments.collect()
}

/// What [`argument_assertions`] writes.
#[derive(Default)]
pub(super) struct Assertions {
    /// The statements of the route's body.
    pub(super) statements: TokenStream,
    /// The constants, items beside the route's impl (`__ARGN`, `__BODYN`).
    pub(super) consts: TokenStream,
    /// The route's body mode.
    pub(super) body: TokenStream,
    /// True when a constant probes a body: `NoBody` must be in scope.
    pub(super) probing: bool,
}

/// The type requirements of the arguments, each at the argument's type: path parameters are
/// parsed from text, and at most one argument reads the JSON body (any other requirement is the
/// argument's call's). With each argument, the constant of its declaration (`__ARGN`). Also
/// returns the route's body mode (a form when it takes files), from the constants `__BODYN`,
/// which fold the arguments' bodies one at a time, so the one-body check grows linearly.
pub(super) fn argument_assertions(arguments: &[Argument<'_>], takes_files: bool) -> Assertions {
    let mut out = Assertions::default();
    let bodies = paths::bodies();
    let mut earlier: Option<syn::Ident> = None;
    for (index, argument) in arguments.iter().enumerate() {
        let ty = argument.ty;
        let span = ty.span();
        out.statements.extend(argument.constraint_assertions.clone());
        if argument.path_index.is_some() {
            // Parsed from the path: `path_param::<T>`, the function the handler calls, named
            // here too, so a type that cannot be parsed is the same error in both bodies (this
            // one and the handler's), which the compiler reports once.
            let path_param = paths::at(span, paths::path_param());
            out.statements
                .extend(quote_spanned!(span=> let _ = #path_param::<#ty>;));
        }
        let (arg_const, param_type, param) = (tokens::arg_const(index), paths::param(), argument.param());
        out.consts
            .extend(quote!(const #arg_const: #param_type<#ty> = #param;));
        if argument.path_index.is_some() {
            continue;
        }
        let body = argument.body();
        let body_const = format_ident!("__BODY{}", index);
        let so_far = match &earlier {
            None => body.clone(),
            Some(earlier) => quote!(#earlier.with(#body)),
        };
        out.consts.extend(quote!(const #body_const: #bodies = #so_far;));
        if takes_files {
            // One form: every body argument is a field or a file of it.
            let assert = paths::at(span, paths::assert_form_part());
            out.statements
                .extend(quote_spanned!(span=> #assert::<#ty, { #body.mode.reads() }>();));
        } else if earlier.is_some() {
            // At most one JSON body: asserted at each argument after the first, so a second
            // `Model` argument is reported where it is written, even when another argument has a
            // mistake of its own.
            let assert = paths::at(span, paths::assert_one_body());
            out.statements
                .extend(quote_spanned!(span=> #assert::<#ty, { #body_const.repeated }>();));
        }
        earlier = Some(body_const);
    }
    out.probing = earlier.is_some();
    let body_mode = paths::body_mode();
    out.body = match (takes_files, earlier) {
        (true, _) => quote!(#body_mode::Form),
        (false, None) => quote!(#body_mode::None),
        (false, Some(last)) => quote!(#last.mode),
    };
    out
}

/// The conversion of the function's result to a response, named with the return type's span:
/// it asks `IntoResponse` of the type, so a type that is no response is an error there, once
/// (the conversion is the return type's only requirement; no assertion repeats it).
///
/// With `status` (the route's `status = N`, which the runtime applies), the conversion is the
/// runtime's `success::<T, N>`: the same call, the status given as data.
fn output_conversion(output: &syn::ReturnType, status: Option<&syn::LitInt>) -> TokenStream {
    let into_response = paths::into_response();
    match (output, status) {
        (syn::ReturnType::Default, None) => quote!(<() as #into_response>::into_response),
        (syn::ReturnType::Default, Some(status)) => {
            let success = paths::success();
            quote!(#success::<(), #status>)
        }
        (syn::ReturnType::Type(_, ty), status) => {
            let span = ty.span();
            let (into_response, success) =
                (paths::at(span, into_response), paths::at(span, paths::success()));
            match status {
                Some(status) => quote_spanned!(span=> #success::<#ty, #status>),
                None => quote_spanned!(span=> <#ty as #into_response>::into_response),
            }
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
            |__cx, __err| {
                #(#extract)*
                #list
            },
            |#list| async move { #fn_name(#(#slots),*).await },
            |__out| #into_response(__out),
            #run,
        )
    }
}

/// `<T as Arg<_>>::check(state)?; ..`, then `Ok(())`, for each argument but the path
/// parameters: what it needs of the app's state, checked when the app is built (the last check's
/// result is the result). A qualified path at the argument's type, as its extraction is, so a
/// type that is no argument is one error.
pub(super) fn checks(arguments: &[Argument<'_>], state: &TokenStream) -> TokenStream {
    let checks: Vec<TokenStream> = arguments
        .iter()
        .filter(|a| a.path_index.is_none())
        .map(|a| {
            let check = paths::arg_method(a.ty, "check");
            quote_spanned!(a.ty.span()=> #check(#state))
        })
        .collect();
    match checks.split_last() {
        None => quote!(::core::result::Result::Ok(())),
        Some((last, earlier)) => quote!(#(#earlier?;)* #last),
    }
}

/// The `check` closure: each argument's check against the app's state at build time.
fn check(arguments: &[Argument<'_>]) -> TokenStream {
    let checks = checks(arguments, &quote!(state));
    quote!(|state| { #checks })
}

/// The body of `Route::def`. Every type requirement is asserted, and every use of the argument
/// types is written, inside this one body: the compiler reports an unsatisfied bound once per
/// span and body, so each mistake is one error at the argument rather than one per generated
/// function.
fn def_body(model: &RouteModel) -> (TokenStream, Assertions) {
    let arguments = arguments(&model.params);
    let mut assertions = argument_assertions(&arguments, model.takes_files);
    let into_response = output_conversion(&model.func.sig.output, model.success_status.as_ref());
    let into_response = status_before(model, into_response, &mut assertions.consts);
    let handler_type = paths::handler_type();
    let handler = handler(model, &arguments, &into_response);
    assertions
        .consts
        .extend(quote!(const __HANDLER: #handler_type = #handler;));
    let route_def = paths::route_def(RouteDefFields {
        name: &model.func.sig.ident.to_string(),
        method: &syn::Ident::new(model.method, Span::call_site()),
        path: &model.attr.path,
        handler: quote!(__HANDLER),
        body: std::mem::take(&mut assertions.body),
        include_in_schema: model.attr.include_in_schema,
        operation: openapi::operation(model),
        check: check(&arguments),
    });
    let statements = std::mem::take(&mut assertions.statements);
    // Only a route that names its versions says so: the others' expansion is unchanged.
    let route_def = match &model.attr.versions {
        None => route_def,
        Some(range) => {
            let (from, until) = (tokens::option_lit(&range.from), tokens::option_lit(&range.until));
            quote!((#route_def).in_versions(#from, #until))
        }
    };
    // Likewise only a route deprecated with dates: its answers' `Deprecation` and `Sunset`.
    let route_def = match &model.attr.deprecation {
        None => route_def,
        Some(deprecation) => {
            let (since, sunset) = (&deprecation.since, tokens::option_lit(&deprecation.sunset));
            quote!((#route_def).deprecated_at(#since, #sunset))
        }
    };
    // Likewise only a route whose status changed between versions: the app checks the dates.
    let route_def = match model.attr.status_before.is_empty() {
        true => route_def,
        false => {
            let entries = openapi::status_before_const();
            quote!((#route_def).status_before(#entries))
        }
    };
    let body = quote! {
        #statements
        #route_def
    };
    (body, assertions)
}

/// For a route with `status_before(..)`: its entries as the constant `__STATUS_BEFORE` (in
/// `consts`), and the conversion `into_response` followed by the runtime's `older_status`, which
/// gives an answer at an older version the status it had then. Any other route's conversion is
/// returned as it is.
fn status_before(model: &RouteModel, into_response: TokenStream, consts: &mut TokenStream) -> TokenStream {
    if model.attr.status_before.is_empty() {
        return into_response;
    }
    let entries = model
        .attr
        .status_before
        .iter()
        .map(|(date, status)| quote!((#date, #status)));
    let name = openapi::status_before_const();
    consts.extend(quote!(const #name: &[(&str, u16)] = &[#(#entries),*];));
    let (older_status, newest) = (paths::older_status(), openapi::newest_status(model));
    quote!((|__out| #older_status(#into_response(__out), #newest, #name)))
}

/// The whole expansion of a route attribute: the function, a unit type of the same name (with
/// its docs) and the type's `Route` impl, after the constants of its arguments and its handler.
pub fn emit(model: &RouteModel) -> TokenStream {
    let func = &model.func;
    let fn_name = &func.sig.ident;
    let vis = &func.vis;
    let docs = func.attrs.iter().filter(|a| a.path().is_ident("doc"));
    let (body, assertions) = def_body(model);
    let (route, route_def) = (paths::route(), paths::route_def_type());
    let consts = assertions.consts;
    let items = quote! {
        #consts

        impl #route for #fn_name {
            fn def(&self) -> #route_def {
                #body
            }
        }
    };
    let route_impl = match assertions.probing {
        true => paths::runtime_scope_probing(items),
        false => paths::runtime_scope(items),
    };
    quote! {
        #func

        #(#docs)*
        #[allow(non_camel_case_types, missing_docs)]
        #[derive(Debug, Clone, Copy)]
        #vis struct #fn_name {}

        #[allow(unused_variables, clippy::redundant_closure, clippy::unused_unit)]
        #route_impl
    }
}
