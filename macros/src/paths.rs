//! Every path of the runtime crate that generated code names, in one place.
//!
//! Rules enforced here: expansions reach the runtime only through the functions of this module
//! (each returns the path of one runtime item, at the call site; [`at`] moves it to a span of the
//! input when an error should point there), so moving an item in the runtime is a change to its
//! one line here. Every item is reached as `__rt::Item`, the hidden `::ferrapi::__private` opened
//! by [`runtime_scope`], items of the public API too (`__private` re-exports them by the crate's
//! own paths): where an item sits in the public API is no concern of the expansions, so the
//! public API can be reshaped without any expansion changing. The struct literal of a route's
//! definition is written by [`route_def`] alone.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

/// `items` inside `const _: () = { .. }` (a scope of their own, so nothing leaks into the
/// user's module), opened by the `use` of the alias the paths below go through.
pub fn runtime_scope(items: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            use ::ferrapi::__private as __rt;

            #items
        };
    }
}

/// [`runtime_scope`] that also imports `NoBody` (unnamed), the fallback of `BodyProbe`, for the
/// items of a route or dependency that probe their arguments' bodies.
pub fn runtime_scope_probing(items: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            use ::ferrapi::__private::{self as __rt, NoBody as _};

            #items
        };
    }
}

/// `tokens` with every token (and every group's delimiters) spanned at `span`, as if written in
/// `quote_spanned!(span=> ..)`: the compiler then reports a problem with the path there.
pub fn at(span: Span, tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let TokenTree::Group(group) = &tree {
                let mut respanned = proc_macro2::Group::new(group.delimiter(), at(span, group.stream()));
                respanned.set_span(span);
                tree = TokenTree::Group(respanned);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

macro_rules! runtime_paths {
    ($($(#[$meta:meta])* $name:ident => $($segment:ident)::+;)*) => {$(
        #[doc = concat!("`__rt::", stringify!($($segment)::+), "`: `::ferrapi::__private::", stringify!($($segment)::+), "`.")]
        $(#[$meta])*
        pub fn $name() -> TokenStream {
            quote!(__rt $(::$segment)+)
        }
    )*};
}

// Route definition and dispatch.
runtime_paths! {
    route => Route;
    route_def_type => RouteDef;
    handler_type => Handler;
    group_type => Group;
    method => Method;
    into_response => IntoResponse;
    request_cx => RequestCx;
    state_map => StateMap;
}
runtime_paths! {
    route_parts => RouteParts;
    body_mode => BodyMode;
    start => start;
    call => Call;
    bodies => Bodies;
    body_probe => BodyProbe;
    path_param => path_param;
    path_param_doc => path_param_doc;
    group_parts => GroupParts;
}

// Arguments and their validation.
runtime_paths! {
    validation_errors => ValidationErrors;
    loc => Loc;
    failure => Failure;
    bound => Bound;
    constrainable => Constrainable;
}
runtime_paths! {
    arg => Arg;
    depend => depend;
    extract => Extract;
    body => Body;
    dependency => Dependency;
    resolve => Resolve;
    param => Param;
}
// Version changes of models (issue 44, item 3).
runtime_paths! {
    versioned => Versioned;
    shape_at => shape_at;
    forward_field => forward_field;
    forward_model => forward_model;
    field_change => FieldChange;
    change_kind => ChangeKind;
    model_derive => DeriveModel;
}
runtime_paths! {
    body_model => body_model;
    constraint => Constraint;
    validate_field => validate_field;
    validate_whole => validate_whole;
    generic_schema => generic_schema;
    with_examples => with_examples;
    generic_title => generic_title;
    param_field => param_field;
    pattern => Pattern;
    pattern_cell => PatternCell;
    group_dependency => GroupDependency;
}

// Compile-time assertions: each bound's error is written for a route author.
runtime_paths! {
    assert_numeric => assert_numeric;
    assert_text => assert_text;
    assert_matchable => assert_matchable;
    assert_digits => assert_digits;
    assert_one_body => assert_one_body;
    assert_form_part => assert_form_part;
    assert_acyclic => assert_acyclic;
}

// A string enumeration as a form field.
runtime_paths! {
    form_field_marker => FormField;
    enum_form_field => enum_form_field;
    enum_form_doc => enum_form_doc;
    assert_from_json => assert_from_json;
    success => success;
}
// A success status that changed between versions (issue 44, item 3).
runtime_paths! {
    older_status => older_status;
    status_at => status_at;
}

// Models and string enumerations.
runtime_paths! {
    model => Model;
    from_json => FromJson;
    fast_json => FastJson;
    str_enum => StrEnum;
    form => Form;
    form_value => FormValue;
    from_param => FromParam;
}
runtime_paths! {
    validate_model => validate_model;
    validate_tagged => validate_tagged;
    tagged_schema => tagged_schema;
    tagged_variant => TaggedVariant;
    validate_untagged => validate_untagged;
    untagged_schema => untagged_schema;
    untagged_variant => UntaggedVariant;
    field => field;
    field_probe => FieldProbe;
    field_decline => FieldDecline;
    field_fast => FieldFast;
    skip => Skip;
    enum_from_param => enum_from_param;
    enum_from_json => enum_from_json;
    fast_enum => fast_enum;
}

// JSON values, serde, and the OpenAPI document.
runtime_paths! {
    json_schema => JsonSchema;
    schema_registry => SchemaRegistry;
    schema_mode => SchemaMode;
    operation => Operation;
}
runtime_paths! {
    value => Value;
    map => Map;
    json => json;
    serde => serde;
    serde_json => serde_json;
    field_schema => field_schema;
    enum_schema => enum_schema;
    schema_probe => SchemaProbe;
    probe_known => ProbeKnown;
    probe_unknown => ProbeUnknown;
}

/// The values of a route's [`route_def`] that the expansion computes.
pub struct RouteDefFields<'a> {
    /// The function's name.
    pub name: &'a str,
    /// The `Method` constant (`GET`, …).
    pub method: &'a Ident,
    /// The path template as written.
    pub path: &'a syn::LitStr,
    /// The handler: a closure that coerces to `Handler`.
    pub handler: TokenStream,
    /// An expression: the route's `BodyMode`.
    pub body: TokenStream,
    /// Whether the route is in the OpenAPI document.
    pub include_in_schema: bool,
    /// The OpenAPI builder: a closure that coerces to `fn(&mut SchemaRegistry) -> Operation`.
    pub operation: TokenStream,
    /// The build-time check: a closure that coerces to `fn(&StateMap) -> Result<(), String>`.
    pub check: TokenStream,
}

/// The struct literal of a route's definition.
pub fn route_def(fields: RouteDefFields<'_>) -> TokenStream {
    let RouteDefFields {
        name,
        method,
        path,
        handler,
        body,
        include_in_schema,
        operation,
        check,
    } = fields;
    let (route_def, parts, method_type) = (route_def_type(), route_parts(), self::method());
    quote! {
        #route_def::from(#parts {
            name: #name,
            method: #method_type::#method,
            path: #path,
            handler: #handler,
            body: #body,
            include_in_schema: #include_in_schema,
            operation: #operation,
            check: #check,
        })
    }
}

/// The spans of the type's first and last tokens: a path whose first token is at the one and
/// whose last is at the other spans the whole type (a span cannot be joined on stable).
fn first_last(ty: &syn::Type) -> (Span, Span) {
    let first = ty.span();
    let last = ty
        .to_token_stream()
        .into_iter()
        .last()
        .map_or(first, |token| token.span());
    (first, last)
}

/// `<T as Arg<_>>::method`, its first tokens at the type's first token and the method's name at
/// the type's last: the path then spans the whole type, as the type's own obligations do, so a
/// type that is no argument is one error for all its uses.
pub fn arg_method(ty: &syn::Type, method: &str) -> TokenStream {
    let (first, last) = first_last(ty);
    let arg = at(first, arg());
    let method = syn::Ident::new(method, last);
    let head = quote_spanned!(first=> <#ty as #arg<_>>::);
    quote!(#head #method)
}
