//! Parsing: the route attribute's options and the function's arguments. Nothing is checked
//! against the path here beyond syntax; see `infer.rs`.
//!
//! Rules enforced here: the attribute starts with the path template as a string literal and
//! takes only the options `tags(..)`, `status = N`, `responses(N = "..")` and
//! `include_in_schema = bool`; a route function takes no `self` and names each argument with a
//! plain identifier (the parameter's name in the API).

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, FnArg, Ident, ItemFn, LitInt, LitStr, Pat, Token, Type};

use crate::attrs::{doc_text, param_attrs, ParamAttrs};
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

/// The name an argument has in the API: its identifier without a raw `r#` prefix.
pub fn api_name(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// `responses(404 = "Not found", ..)`: the pairs inside the parentheses.
fn responses(input: ParseStream) -> syn::Result<Vec<(LitInt, LitStr)>> {
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
    Ok(pairs.into_iter().collect())
}

/// One option after the path, `key` already read, into `attr`.
fn route_option(key: &Ident, input: ParseStream, attr: &mut RouteAttr) -> syn::Result<()> {
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
        "responses" => attr.responses.extend(responses(input)?),
        other => {
            return Err(syn::Error::new(
                key.span(),
                format!(
                    "unknown route option `{other}`; expected `tags(..)`, `status = N`, `responses(N = \"..\")` or `include_in_schema = bool`"
                ),
            ))
        }
    }
    Ok(())
}

/// The path template and the options after it.
fn parse_route_attr(input: ParseStream) -> syn::Result<RouteAttr> {
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
        route_option(&key, input, &mut attr)?;
    }
    Ok(attr)
}

/// Parse the attribute's tokens.
pub fn route_attr(tokens: TokenStream, diag: &mut Diagnostics) -> Option<RouteAttr> {
    match parse_route_attr.parse2(tokens) {
        Ok(attr) => Some(attr),
        Err(err) => {
            diag.push(err);
            None
        }
    }
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
