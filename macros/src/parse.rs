//! Parsing: the route attribute's arguments and the function's signature into a [`RouteModel`].
//! Nothing is checked against the path here beyond syntax; see `infer.rs`.

use proc_macro2::{Span, TokenStream};
use syn::parse::{ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, Ident, ItemFn, Lit, LitInt, LitStr, Pat, Token, Type};

use crate::diag::Diagnostics;

/// The arguments of `#[get("/path", ...)]`.
pub struct RouteAttr {
    /// The path template literal.
    pub path: LitStr,
    /// `tags("a", "b")`.
    pub tags: Vec<LitStr>,
    /// `include_in_schema = false`.
    pub include_in_schema: bool,
    /// `status = 201`: the documented success status.
    pub status: Option<LitInt>,
    /// `responses(404 = "Not found", ...)`.
    pub responses: Vec<(LitInt, LitStr)>,
}

/// A numeric or length constraint written on an argument or field.
pub struct ConstraintSpec {
    /// `ge`, `gt`, `le`, `lt`, `min_length`, `max_length`.
    pub kind: String,
    /// The bound as an expression of the runtime's `Constraint` type.
    pub value: TokenStream,
    /// Where it was written.
    pub span: Span,
}

/// Attributes this framework reads on arguments and fields.
pub struct ParamAttrs {
    /// `#[default(expr)]`.
    pub default: Option<Expr>,
    /// Constraints in declaration order.
    pub constraints: Vec<ConstraintSpec>,
    /// The `#[default(..)]` attribute as written, for errors.
    pub default_attr: Option<Attribute>,
}

/// One function argument.
pub struct Param {
    /// The argument's name.
    pub name: Ident,
    /// Its type.
    pub ty: Type,
    /// Framework attributes.
    pub attrs: ParamAttrs,
}

/// The doc comment split as FastAPI/OpenAPI want it.
pub struct Doc {
    /// First paragraph line.
    pub summary: Option<String>,
    /// The rest.
    pub description: Option<String>,
}

const LINT_ATTRS: &[&str] = &[
    "allow", "warn", "deny", "forbid", "expect", "cfg", "cfg_attr", "doc",
];
const CONSTRAINTS: &[&str] = &["ge", "gt", "le", "lt", "min_length", "max_length"];

/// The name an argument has in the API: its identifier without a raw `r#` prefix.
pub fn api_name(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// Parse the attribute's tokens.
pub fn route_attr(tokens: TokenStream, diag: &mut Diagnostics) -> Option<RouteAttr> {
    let parser = |input: ParseStream| -> syn::Result<RouteAttr> {
        let path: LitStr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the path template as a string, e.g. `#[get(\"/item/{id}\")]`",
            )
        })?;
        let mut attr = RouteAttr {
            path,
            tags: Vec::new(),
            include_in_schema: true,
            status: None,
            responses: Vec::new(),
        };
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "tags" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let tags = content.parse_terminated(|p| p.parse::<LitStr>(), Token![,])?;
                    attr.tags.extend(tags);
                }
                "include_in_schema" => {
                    input.parse::<Token![=]>()?;
                    let value: syn::LitBool = input.parse()?;
                    attr.include_in_schema = value.value;
                }
                "status" => {
                    input.parse::<Token![=]>()?;
                    attr.status = Some(input.parse()?);
                }
                "responses" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let pairs = content.parse_terminated(
                        |p| {
                            let status: LitInt = p.parse()?;
                            p.parse::<Token![=]>()?;
                            let description: LitStr = p.parse()?;
                            Ok((status, description))
                        },
                        Token![,],
                    )?;
                    attr.responses.extend(pairs);
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown route option `{other}`; expected `tags(..)`, `status = N`, `responses(N = \"..\")` or `include_in_schema = bool`"
                        ),
                    ))
                }
            }
        }
        Ok(attr)
    };
    match parser.parse2(tokens) {
        Ok(attr) => Some(attr),
        Err(err) => {
            diag.push(err);
            None
        }
    }
}

fn bound(expr: &Expr, kind: &str, diag: &mut Diagnostics) -> Option<TokenStream> {
    let (negative, lit) = match expr {
        Expr::Lit(lit) => (false, &lit.lit),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(lit) => (true, &lit.lit),
            _ => (false, &Lit::Verbatim(proc_macro2::Literal::u8_unsuffixed(0))),
        },
        _ => (false, &Lit::Verbatim(proc_macro2::Literal::u8_unsuffixed(0))),
    };
    let sign = if negative {
        quote::quote!(-)
    } else {
        TokenStream::new()
    };
    let is_length = kind.ends_with("_length");
    match lit {
        Lit::Int(int) if is_length && !negative => {
            let value = int.base10_parse::<usize>().ok()?;
            Some(quote::quote!(#value))
        }
        Lit::Int(int) if !is_length => match int.base10_parse::<i128>() {
            Ok(value) => Some(quote::quote!(__rt::Bound::Int(#sign #value))),
            Err(e) => {
                diag.push(e);
                None
            }
        },
        Lit::Float(float) if !is_length => match float.base10_parse::<f64>() {
            Ok(value) => Some(quote::quote!(__rt::Bound::Float(#sign #value))),
            Err(e) => {
                diag.push(e);
                None
            }
        },
        _ => {
            let expected = if is_length {
                "a non-negative integer literal"
            } else {
                "a number literal"
            };
            diag.error_spanned(
                expr,
                format!("`#[{kind}(..)]` takes {expected}, e.g. `#[{kind}(0)]`"),
            );
            None
        }
    }
}

/// Read and strip this framework's attributes from `attrs`; report unknown ones.
pub fn param_attrs(attrs: &mut Vec<Attribute>, diag: &mut Diagnostics, extra_allowed: &[&str]) -> ParamAttrs {
    let mut out = ParamAttrs {
        default: None,
        constraints: Vec::new(),
        default_attr: None,
    };
    let mut kept = Vec::new();
    for attr in attrs.drain(..) {
        let Some(ident) = attr.path().get_ident().map(|i| i.to_string()) else {
            kept.push(attr);
            continue;
        };
        if ident == "default" {
            match attr.parse_args::<Expr>() {
                Ok(expr) => {
                    out.default = Some(expr);
                    out.default_attr = Some(attr.clone());
                }
                Err(_) => diag.error_spanned(
                    &attr,
                    "`#[default(..)]` takes an expression, e.g. `#[default(0)]`",
                ),
            }
        } else if CONSTRAINTS.contains(&ident.as_str()) {
            match attr.parse_args::<Expr>() {
                Ok(expr) => {
                    if let Some(value) = bound(&expr, &ident, diag) {
                        out.constraints.push(ConstraintSpec {
                            kind: ident,
                            value,
                            span: attr.span(),
                        });
                    }
                }
                Err(_) => diag.error_spanned(
                    &attr,
                    format!("`#[{ident}(..)]` takes a literal, e.g. `#[{ident}(0)]`"),
                ),
            }
        } else if LINT_ATTRS.contains(&ident.as_str()) || extra_allowed.contains(&ident.as_str()) {
            kept.push(attr);
        } else {
            diag.error(
                attr.path().span(),
                format!(
                    "unknown attribute `#[{ident}]`; arguments take `#[default(..)]` and the constraints `ge`, `gt`, `le`, `lt`, `min_length`, `max_length`"
                ),
            );
        }
    }
    *attrs = kept;
    out
}

/// Read the function's arguments, stripping framework attributes so the function stays valid.
pub fn params(func: &mut ItemFn, diag: &mut Diagnostics) -> Vec<Param> {
    let mut params = Vec::new();
    for input in func.sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(receiver) => {
                diag.error_spanned(
                    &*receiver,
                    "route handlers are free functions; `self` is not allowed",
                );
            }
            FnArg::Typed(typed) => {
                let attrs = param_attrs(&mut typed.attrs, diag, &[]);
                match &*typed.pat {
                    Pat::Ident(ident) if ident.subpat.is_none() => params.push(Param {
                        name: ident.ident.clone(),
                        ty: (*typed.ty).clone(),
                        attrs,
                    }),
                    other => diag.error_spanned(
                        other,
                        "route arguments need a plain name: the name is the parameter's name in the API",
                    ),
                }
            }
        }
    }
    params
}

/// The whole doc comment of `attrs`: its lines (one leading space removed) joined, trimmed;
/// `None` when there is none.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) = &nv.value {
                let text = s.value();
                lines.push(text.strip_prefix(' ').unwrap_or(&text).to_owned());
            }
        }
    }
    let text = lines.join("\n");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// The doc comment of `attrs`, split into summary (first line) and description (the rest).
pub fn doc(attrs: &[Attribute]) -> Doc {
    let Some(text) = doc_text(attrs) else {
        return Doc {
            summary: None,
            description: None,
        };
    };
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let rest = rest.trim();
    Doc {
        summary: Some(first.trim().to_owned()),
        description: (!rest.is_empty()).then(|| rest.to_owned()),
    }
}
