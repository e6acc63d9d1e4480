//! Code generation: the route's unit type, its `Route` impl and its handler, which is one call of
//! the runtime's generic `start` (dropshot's "thin macro, generic runtime"): the expansion writes
//! only what depends on the argument types, each argument's extraction once, in declaration
//! order, into a slot that resolves itself, and a block that calls the function; collecting the
//! errors, their order, the groups' dependencies, the 422 and how the blocks run are the
//! runtime's (`routing::handler`).
//!
//! Rules enforced here: each argument's declaration (`Param`) is one constant, used by the
//! handler and the OpenAPI builder alike; the one-body check grows linearly (a constant per
//! argument folds the sources so far into a `Shape`); nothing generic in the runtime is bounded
//! by an argument type, so every use of one is written here; and every type requirement is asserted at
//! the argument's own span so a mistake is reported where it was made, once: assertions,
//! handler, check and OpenAPI builder are one function body (closures included), and the
//! compiler reports an unsatisfied bound once per span and message. Internal names in the
//! handler start with `__`, so a user's names never shadow them.

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

    /// `<T as Arg>::SOURCE`, every token at the argument's type: a type that is no argument is
    /// then one error there, not a second one at the attribute (the compiler reports an
    /// unsatisfied bound once per span).
    pub(super) fn source(&self) -> TokenStream {
        let (ty, span) = (self.ty, self.ty.span());
        let arg = paths::at(span, paths::arg());
        quote_spanned!(span=> <#ty as #arg>::SOURCE)
    }

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
/// With each argument, the constant of its declaration (its `Param`). Also returns what the
/// arguments make of the route, as expressions: its body mode (a form when it takes files) and
/// whether it has a dependency. Both come from the constants `__SHAPEN`, which fold the
/// arguments' sources one at a time; the one-body check reads them too, so it grows linearly.
fn argument_assertions(
    arguments: &[Argument<'_>],
    takes_files: bool,
) -> (TokenStream, TokenStream, TokenStream) {
    let mut out = TokenStream::new();
    if arguments.iter().any(|a| a.path_index.is_none()) {
        // `SourceProbe`'s fallback, for the shape's constants below.
        let no_source = paths::no_source();
        out.extend(quote!(use #no_source as _;));
    }
    let shape = paths::shape();
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
        // The argument's first use in the def body names `Arg` directly: a type that is none is
        // reported in `Arg`'s words, which then stand for the uses after it (the extraction's
        // `Input` would say why no blanket impl applies, a second error at the same type).
        let is_body = argument.is_body();
        let source = argument.source();
        out.extend(quote_spanned!(span=> let _ = #source;));
        if takes_files {
            // One form: every body argument is a field or a file of it.
            let assert = paths::at(span, paths::assert_form_part());
            out.extend(quote_spanned!(span=> #assert::<#ty, { #is_body }>();));
        } else if let Some(earlier) = &earlier {
            // At most one JSON body: asserted at each argument after the first, against the
            // earlier ones' shape, so a second `Model` argument is reported where it is written,
            // even when another argument has a mistake of its own. The qualified paths carry no
            // "required by" note: a type that is no argument is the same error wherever it is
            // named, which the compiler shows once.
            let assert = paths::at(span, paths::assert_one_body());
            out.extend(quote_spanned!(span=> #assert::<#ty, { #earlier.body.reads() }, { #is_body }>();));
        }
        let shape_const = format_ident!("__SHAPE{}", index);
        let so_far = match &earlier {
            None => quote!(#shape::NONE),
            Some(earlier) => quote!(#earlier),
        };
        let probe = paths::source_probe();
        out.extend(quote!(const #shape_const: #shape = #so_far.with(#probe::<#ty>::SOURCE);));
        earlier = Some(shape_const);
    }
    let body_mode = paths::body_mode();
    let (body, dependency) = match earlier {
        None => (quote!(#body_mode::None), quote!(false)),
        Some(last) => (quote!(#last.body), quote!(#last.dependency)),
    };
    let body = match takes_files {
        true => quote!(#body_mode::Form),
        false => body,
    };
    (out, body, dependency)
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

/// `<T as Arg>::extract(..)` for an argument that is not a path parameter.
pub(super) fn extract_call(argument: &Argument<'_>, cx: &TokenStream, errors: &TokenStream) -> TokenStream {
    let (ty, param, span) = (argument.ty, argument.param(), argument.ty.span());
    let arg = paths::at(span, paths::arg());
    quote_spanned! {span=>
        <#ty as #arg>::extract(#cx, #param, #errors)
    }
}

/// The handler's statement reading one argument, with its declaration: a path parameter's
/// value, or another argument's input in its slot, which knows whether it is a dependency (the
/// `Share` constant, written at the argument's type, where a dependency that cannot be cached is
/// reported); both `None` inside when missing or invalid. Every token is at the argument's type:
/// a type that is no argument is then the one error of the assertions.
fn extract(argument: &Argument<'_>, index: usize) -> TokenStream {
    let (ty, slot, arg_const, span) = (
        argument.ty,
        &argument.slot,
        tokens::arg_const(index),
        argument.ty.span(),
    );
    if let Some(path_index) = argument.path_index {
        let path_param = paths::at(span, paths::path_param());
        return quote_spanned!(span=> let #slot = #path_param::<#ty>(__cx, #path_index, #arg_const, __errors););
    }
    let (arg, share) = (paths::at(span, paths::arg()), paths::at(span, paths::share()));
    quote_spanned! {span=>
        let #slot = <#ty as #share<{ <#ty as #arg>::SOURCE.is_dependency() }>>::slot(__cx, #arg_const, __errors);
    }
}

/// `(a, (b, (.., ())))`: the arguments' slots or values as the runtime's list.
fn list(arguments: &[Argument<'_>]) -> TokenStream {
    arguments.iter().rev().fold(quote!(()), |tail, argument| {
        let slot = &argument.slot;
        quote!((#slot, #tail))
    })
}

/// The handler: the runtime's `start` given what only the route knows: whether it has a
/// dependency, its arguments read into their slots in declaration order (the runtime resolves
/// them), and a block that calls the function, in place when its body has no `.await` (a body
/// without one completes on its first poll: no box). The call is converted in a call spanned like the assertion, so a route's mistakes read
/// the same whichever way it runs.
fn handler(
    model: &RouteModel,
    arguments: &[Argument<'_>],
    into_response: &TokenStream,
    dependency: &TokenStream,
) -> TokenStream {
    let extract = arguments.iter().enumerate().map(|(index, a)| extract(a, index));
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
            #dependency,
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

/// The `check` closure: each injected argument's check against the app's state at build time.
fn check(arguments: &[Argument<'_>]) -> TokenStream {
    let arg = paths::arg();
    let checks = arguments
        .iter()
        .filter(|a| a.path_index.is_none())
        .map(|a| a.ty)
        .map(|ty| {
            let arg = paths::at(ty.span(), arg.clone());
            quote_spanned!(ty.span()=> <#ty as #arg>::check(state)?;)
        });
    quote! {
        |state| {
            #(#checks)*
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
    let (assertions, body, dependency) = argument_assertions(&arguments, model.takes_files);
    let (output_assertion, into_response) =
        output_conversion(&model.func.sig.output, model.success_status.as_ref());
    let route_def = paths::route_def(RouteDefFields {
        name: &model.func.sig.ident.to_string(),
        method: &syn::Ident::new(model.method, Span::call_site()),
        path: &model.attr.path,
        handler: handler(model, &arguments, &into_response, &dependency),
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
