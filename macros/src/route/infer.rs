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
//! `HEAD`, which have no body; a route's `status = N` is applied by the runtime to an answer
//! whose type chooses no status of its own, and where the macro sees the two disagree (a body
//! for a `204`, a handler that only answers other 2xx `StatusCode`s) it is an error.
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
    /// The route's `status = N` when the runtime applies it to the answer: the return type does
    /// not choose a status of its own (see [`success_status`]).
    pub success_status: Option<syn::LitInt>,
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

/// The first type argument of `Name<A, ..>` (`Result<T, E>` → `T`).
pub fn first_type_argument<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|arg| match arg {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    })
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
    if let Some((wrapper, inner)) = crate::tokens::wrapped(&param.ty) {
        check_wrapped_argument(&wrapper, inner, &param, diag);
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

/// The argument kinds that read the request themselves (a form, a file, a credential, the
/// app's state or memory budget, the request's head): never inside `Form<..>`, `Header<..>` or `Cookie<..>`.
const SELF_READING: &[&str] = &[
    "OAuth2PasswordRequestForm",
    "UploadFile",
    "Multipart",
    "HttpBearer",
    "HttpBasic",
    "ApiKeyHeader",
    "ApiKeyQuery",
    "ApiKeyCookie",
    "OAuth2PasswordBearer",
    "State",
    "HeaderMap",
    "Method",
    "Uri",
    "BackgroundTasks",
    "Memory",
    "Validation",
    "LastEventId",
    "WebSocketUpgrade",
    "Json",
    "Form",
    "Header",
    "Cookie",
];

/// An argument kind that reads the request itself, wrapped in `wrapper<..>`
/// (`Form<OAuth2PasswordRequestForm>`, FastAPI's `Annotated[OAuth2PasswordRequestForm,
/// Depends()]` carried over): an error saying to drop the wrapper, at the wrapped type.
fn check_wrapped_argument(wrapper: &str, inner: &Type, param: &Param, diag: &mut Diagnostics) {
    let Type::Path(path) = inner else { return };
    let Some(kind) = path.path.segments.last().map(|s| s.ident.to_string()) else {
        return;
    };
    if SELF_READING.contains(&kind.as_str()) {
        diag.error_spanned(
            inner,
            format!(
                "`{kind}` reads the request itself: take it as it is, `{}: {}`, without the `{wrapper}<..>` around it",
                param.name,
                quote::ToTokens::to_token_stream(inner).to_string().replace(' ', "")
            ),
        );
    }
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
    check_paged(method, &attr, diag);
    let takes_files = params.iter().any(|param| is_file(&param.ty));
    let params = params
        .into_iter()
        .map(|param| classify(param, &template_params, diag))
        .collect();
    let doc = doc(&func.attrs);
    let success_status = success_status(&attr, &func, diag);
    check_status_before(&attr, &func, diag);
    RouteModel {
        method,
        attr,
        func,
        params,
        doc,
        takes_files,
        success_status,
    }
}

/// `paged` only on a `GET`: a page is read, and a client turning pages sends the request again
/// and again (whether its parameters are there, and its answer a list, the app checks when it is
/// built: they may come from a dependency, which the macro cannot see).
fn check_paged(method: &str, attr: &RouteAttr, diag: &mut Diagnostics) {
    if let Some(paged) = &attr.paged {
        if method != "GET" {
            diag.error(
                paged.span,
                format!("`paged` goes on a `#[get]` route: a client turns pages by sending the request again, which a `{method}` must not be"),
            );
        }
    }
}

/// The type a route answers with when it succeeds: through `Result<T, _>` (at `T`), and the
/// wrappers `Tagged<T>` and `Kept<T>`.
fn success_type(ty: &Type) -> &Type {
    ["Result", "Tagged", "Kept"]
        .iter()
        .find_map(|name| first_type_argument(ty, name))
        .map_or(ty, success_type)
}

/// The last segment's name of a path type (`Json` of `ferrapi::Json<T>`).
fn last_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(reference) => last_name(&reference.elem),
        _ => None,
    }
}

/// True when `ty` chooses the answer's status itself: `(StatusCode, ..)`, a `StatusCode`, a
/// `Response`.
fn chooses_status(ty: &Type) -> bool {
    match ty {
        Type::Tuple(tuple) => tuple.elems.first().and_then(last_name).as_deref() == Some("StatusCode"),
        _ => matches!(last_name(ty).as_deref(), Some("StatusCode" | "Response")),
    }
}

/// True when `ty` (or a tuple's last element) writes a body.
fn has_body(ty: &Type) -> bool {
    match ty {
        Type::Tuple(tuple) => tuple.elems.last().is_some_and(has_body),
        _ => matches!(
            last_name(ty).as_deref(),
            Some("Json" | "Html" | "String" | "str" | "Sse" | "StreamingResponse" | "FileResponse" | "Value")
        ),
    }
}

/// `http::StatusCode`'s constants of the 2xx statuses, by name.
const SUCCESS_CONSTANTS: &[(&str, u16)] = &[
    ("OK", 200),
    ("CREATED", 201),
    ("ACCEPTED", 202),
    ("NON_AUTHORITATIVE_INFORMATION", 203),
    ("NO_CONTENT", 204),
    ("RESET_CONTENT", 205),
    ("PARTIAL_CONTENT", 206),
    ("MULTI_STATUS", 207),
    ("ALREADY_REPORTED", 208),
    ("IM_USED", 226),
];

/// Every `StatusCode::NAME` of a 2xx constant in `tokens`, with its status.
fn success_constants(tokens: proc_macro2::TokenStream, found: &mut Vec<(proc_macro2::Ident, u16)>) {
    let trees: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
    for (at, tree) in trees.iter().enumerate() {
        match tree {
            proc_macro2::TokenTree::Group(group) => success_constants(group.stream(), found),
            proc_macro2::TokenTree::Ident(ident) if ident == "StatusCode" => {
                if let [proc_macro2::TokenTree::Punct(a), proc_macro2::TokenTree::Punct(b), proc_macro2::TokenTree::Ident(name), ..] =
                    &trees[at + 1..]
                {
                    let constant = SUCCESS_CONSTANTS.iter().find(|(n, _)| name == n);
                    if let (':', ':', Some((_, status))) = (a.as_char(), b.as_char(), constant) {
                        found.push((name.clone(), *status));
                    }
                }
            }
            _ => {}
        }
    }
}

/// `status_before(..)`'s older statuses against the answer: one without a body (`204`, `304`)
/// for a route that returns a body is an error at that status (an older version's answer would
/// be a status with a body), as `status = 204` is.
fn check_status_before(attr: &RouteAttr, func: &ItemFn, diag: &mut Diagnostics) {
    let syn::ReturnType::Type(_, output) = &func.sig.output else {
        return;
    };
    let answer = success_type(output);
    if chooses_status(answer) || !has_body(answer) {
        return;
    }
    for (date, status) in &attr.status_before {
        if let Ok(code @ (204 | 304)) = status.base10_parse::<u16>() {
            diag.error(
                status.span(),
                format!(
                    "before `{}` the route would answer `{code}`, which has no body, and this route returns one: choose a status with a body",
                    date.value()
                ),
            );
        }
    }
}

/// The status the runtime gives the answer of a route with `status = N`: `N`, unless the return
/// type chooses its own (`(StatusCode, body)`, a `Response`: the handler's wins, as FastAPI's
/// own `Response` does). Where the two visibly disagree, an error: a body for a status that has
/// none (`204`, `304`), or a handler whose every 2xx `StatusCode::NAME` is another status.
fn success_status(attr: &RouteAttr, func: &ItemFn, diag: &mut Diagnostics) -> Option<syn::LitInt> {
    let status = attr.status.clone()?;
    let code: u16 = status.base10_parse().ok()?;
    if code == 200 {
        // Every answer's default already: nothing to apply.
        return None;
    }
    let syn::ReturnType::Type(_, output) = &func.sig.output else {
        return Some(status);
    };
    let answer = success_type(output);
    if !chooses_status(answer) {
        if matches!(code, 204 | 304) && has_body(answer) {
            diag.error_spanned(
                answer,
                format!(
                    "`status = {code}` answers without a body, and this route returns one: return `()` (the route's status applies), or choose another status"
                ),
            );
            return None;
        }
        return Some(status);
    }
    let mut found = Vec::new();
    success_constants(quote::ToTokens::to_token_stream(&func.block), &mut found);
    if !found.is_empty() && found.iter().all(|(_, s)| *s != code) {
        let (name, _) = &found[0];
        diag.error(
            name.span(),
            format!(
                "the route's `status = {code}` is its success status, but the handler answers `StatusCode::{name}`: return the body alone and the route's status applies, or make the two the same"
            ),
        );
    }
    None
}
