//! Classification and checks: which argument is a path parameter, which is not, and every
//! mistake a route author can make that is visible in the tokens.
//!
//! Rules enforced here: a route is a non-generic `async fn` whose return type is written out (no
//! `impl Trait`: the generated code names it to convert it); its path template is well formed and
//! each of its parameters names an argument; a path parameter is not an `Option` and takes no
//! `#[default]`, nor does an `Option` argument; a `Form<T>`, `Header<T>` or `Cookie<T>`
//! argument's default is the value alone (`#[default(false)]`), never the wrapper built (`Form(false)`,
//! `Header::new(1)`); a route that takes files (an argument written
//! `UploadFile`, `Option<UploadFile>` or `Vec<UploadFile>`: the one kind recognised by its name,
//! because its route reads its body as a form before converting its arguments) is not a `GET` or
//! `HEAD`, which have no body.
//!
//! Classification is syntactic where it can be (a name in the path is a path parameter); for the
//! other arguments the *type* decides through the runtime's `Arg` trait (a `StrEnum` is a query
//! parameter, a `Model` the JSON body), because a proc macro cannot see trait impls.

use syn::spanned::Spanned;
use syn::{GenericArgument, ItemFn, PathArguments, Type};

use super::parse::{doc, Doc, Param, RouteAttr};
use crate::diag::Diagnostics;
use ferrapi_template::Template;

/// Where an argument comes from, as far as the macro can tell.
pub enum Kind {
    /// The `index`-th parameter of the path template.
    Path {
        /// Position in the template.
        index: usize,
    },
    /// Query, body or injected: decided by the type's `Arg` impl.
    Other,
}

/// An argument with its kind.
pub struct Classified {
    /// The argument.
    pub param: Param,
    /// Its kind.
    pub kind: Kind,
    /// Its name in the API (a path parameter's, the template's).
    pub name: String,
}

/// Everything the emitters need.
pub struct RouteModel {
    /// `GET`, `POST`, …
    pub method: &'static str,
    /// The attribute.
    pub attr: RouteAttr,
    /// The function with framework attributes stripped.
    pub func: ItemFn,
    /// Arguments in signature order.
    pub params: Vec<Classified>,
    /// The doc comment.
    pub doc: Doc,
    /// True when an argument is a file (see [`is_file`]): the route reads its body as a form.
    pub takes_files: bool,
}

/// True for `UploadFile`, `Option<UploadFile>` and `Vec<UploadFile>` (by the last segment's name).
pub fn is_file(ty: &Type) -> bool {
    let ty = option_inner(ty)
        .or_else(|| generic_inner(ty, "Vec"))
        .unwrap_or(ty);
    let Type::Path(path) = ty else { return false };
    path.path
        .segments
        .last()
        .is_some_and(|last| last.ident == "UploadFile" && last.arguments.is_none())
}

/// Files in a route whose method has no body.
fn check_files(method: &str, params: &[Param], diag: &mut Diagnostics) {
    if !matches!(method, "GET" | "HEAD") {
        return;
    }
    for param in params.iter().filter(|param| is_file(&param.ty)) {
        diag.error_spanned(
            &param.ty,
            format!(
                "a `{method}` route cannot take a file: `UploadFile` is read from a `multipart/form-data` request body, which a `{method}` request has none of; use `#[post(..)]` or `#[put(..)]`"
            ),
        );
    }
}

/// `T` when `ty` is `Option<T>`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    generic_inner(ty, "Option")
}

/// `T` when `ty` is `Name<T>` (last path segment).
pub fn generic_inner<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// Errors in the signature itself: not `async`, or generic.
fn check_signature(func: &ItemFn, diag: &mut Diagnostics) {
    if func.sig.asyncness.is_none() {
        diag.error(
            func.sig.fn_token.span(),
            format!(
                "route handlers must be `async fn`: write `async fn {}(..)`",
                func.sig.ident
            ),
        );
    }
    if !func.sig.generics.params.is_empty() {
        diag.error_spanned(
            &func.sig.generics,
            "route handlers cannot be generic: every argument's type must be known to build the API",
        );
    }
}

/// The first `impl Trait` in `ty`, however deep (`Result<impl IntoResponse, E>` too).
fn impl_trait(ty: &Type) -> Option<&syn::TypeImplTrait> {
    match ty {
        Type::ImplTrait(found) => Some(found),
        Type::Paren(inner) => impl_trait(&inner.elem),
        Type::Group(inner) => impl_trait(&inner.elem),
        Type::Reference(inner) => impl_trait(&inner.elem),
        Type::Array(inner) => impl_trait(&inner.elem),
        Type::Slice(inner) => impl_trait(&inner.elem),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(impl_trait),
        Type::Path(path) => path
            .path
            .segments
            .iter()
            .find_map(|segment| match &segment.arguments {
                PathArguments::AngleBracketed(args) => args.args.iter().find_map(|arg| match arg {
                    GenericArgument::Type(inner) => impl_trait(inner),
                    _ => None,
                }),
                _ => None,
            }),
        _ => None,
    }
}

/// A return type with `impl Trait` in it: the generated handler converts the result with
/// `<T as IntoResponse>::into_response`, which cannot name an opaque type (E0562 otherwise, which
/// does not say what to write).
fn check_output(func: &ItemFn, diag: &mut Diagnostics) {
    let syn::ReturnType::Type(_, ty) = &func.sig.output else {
        return;
    };
    if let Some(found) = impl_trait(ty) {
        diag.error_spanned(
            found,
            "a route cannot return `impl Trait`: the route macros convert the result by its type, so write the type out, e.g. `-> Json<Value>` or `-> Result<Json<Item>, HttpError>`; for answers of different types, return `Response` and end each with `.into_response()`",
        );
    }
}

/// The path template's parameters, each of which must name an argument; every problem is
/// reported at the path string.
fn template_params(attr: &RouteAttr, params: &[Param], diag: &mut Diagnostics) -> Vec<String> {
    let path_span = attr.path.span();
    let template_params = match Template::parse(&attr.path.value()) {
        Ok(template) => template.param_names().map(str::to_owned).collect(),
        Err(err) => {
            for problem in err.problems() {
                diag.error(path_span, problem);
            }
            Vec::new()
        }
    };
    for tp in &template_params {
        if !params.iter().any(|p| p.is_path_param(tp)) {
            diag.error(
                path_span,
                format!(
                    "path parameter `{{{0}}}` has no argument named `{0}`; add an argument such as `{0}: i64` or `{0}: String`",
                    tp
                ),
            );
        }
    }
    template_params
}

/// An argument's kind (a path parameter when its name is in the template), and the mistakes of
/// `#[default]` or `Option` on it.
pub(super) fn classify(param: Param, template_params: &[String], diag: &mut Diagnostics) -> Classified {
    let index = template_params.iter().position(|tp| param.is_path_param(tp));
    // A path parameter's name is the template's; any other argument's, its name in the API.
    let name = index.map_or_else(|| param.wire_name(), |index| template_params[index].clone());
    let is_option = option_inner(&param.ty).is_some();
    if let (Some(_), Some(attr)) = (index, &param.attrs.default_attr) {
        diag.error_spanned(
            attr,
            format!(
                "`#[default]` cannot be used on path parameter `{name}`: a path parameter is always present"
            ),
        );
    } else if let (true, Some(attr)) = (is_option, &param.attrs.default_attr) {
        diag.error_spanned(
            attr,
            format!("`#[default]` on `Option` argument `{name}`: an absent `Option` is already `None`; remove one of them"),
        );
    }
    if let (Some((wrapper, _)), Some(attr)) = (crate::tokens::wrapped(&param.ty), &param.attrs.default_attr) {
        if param
            .attrs
            .default
            .as_ref()
            .is_some_and(|expr| wraps(expr, &wrapper))
        {
            diag.error_spanned(
                attr,
                format!(
                    "`#[default(..)]` takes the value alone, e.g. `#[default(false)]` or `#[default(\"en\".to_owned())]`: the `{wrapper}<..>` around it is implied by the argument's type"
                ),
            );
        }
    }
    if index.is_some() && is_option {
        diag.error_spanned(
            &param.ty,
            format!("path parameter `{name}` cannot be an `Option`: a path parameter is always present"),
        );
    }
    let kind = match index {
        Some(index) => Kind::Path { index },
        None => Kind::Other,
    };
    Classified { param, kind, name }
}

/// True when `expr` builds a `wrapper` itself (`Form(false)`, `Header::new(1)`): the old
/// spelling of a wrapped argument's default.
fn wraps(expr: &syn::Expr, wrapper: &str) -> bool {
    let syn::Expr::Call(call) = expr else { return false };
    let syn::Expr::Path(path) = &*call.func else {
        return false;
    };
    let names: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
    match names.as_slice() {
        [.., last] if last == wrapper => true,
        [.., type_name, last] => type_name == wrapper && last == "new",
        _ => false,
    }
}

/// Check and classify.
pub fn infer(
    method: &'static str,
    attr: RouteAttr,
    func: ItemFn,
    params: Vec<Param>,
    diag: &mut Diagnostics,
) -> RouteModel {
    check_signature(&func, diag);
    check_output(&func, diag);
    let template_params = template_params(&attr, &params, diag);
    check_files(method, &params, diag);
    let takes_files = params.iter().any(|param| is_file(&param.ty));
    let params = params
        .into_iter()
        .map(|param| classify(param, &template_params, diag))
        .collect();
    let doc = doc(&func.attrs);
    RouteModel {
        method,
        attr,
        func,
        params,
        doc,
        takes_files,
    }
}
