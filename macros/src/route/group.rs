//! `group!("/prefix", tags(..), responses(..), dependencies(..))`: a route group, its prefix
//! checked and its options parsed as a route attribute's are (parse → check → emit, here in one
//! small file).
//!
//! Rules enforced here: the first argument is the prefix as a string literal, empty or starting
//! with `/`, not ending with `/`, well formed as a path template and without parameters (a route's
//! handler reads only the parameters of its own path: a prefix parameter would be one no handler
//! takes), each problem reported inside the string; the options are `tags(..)`,
//! `responses(..)`, `versions = "from".."until"`, `deprecated = bool` and
//! `deprecated(since = "..", sunset = "..")`, parsed (and checked) as a route's, and `dependencies(Type, ..)`, each type
//! asserted at its own span to be a dependency (`Arg` with `Source::Dependency`, cacheable);
//! every mistake is reported, and the macro still expands to a `Group` beside the errors, so the
//! rest of the app type-checks.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{Ident, LitStr, Token, Type};

use super::openapi::description;
use super::parse::{
    deprecation, responses, tags, tokens_until, versions, Deprecation, ExtraResponse, VersionRange,
};
use crate::diag::Diagnostics;
use crate::{paths, tokens};

/// The arguments of `group!(..)`.
struct GroupArgs {
    prefix: LitStr,
    tags: Vec<LitStr>,
    responses: Vec<ExtraResponse>,
    dependencies: Vec<Type>,
    /// `versions = "from".."until"`: the API versions the group's routes exist in.
    versions: Option<VersionRange>,
    /// `deprecated = true` or `deprecated(..)`: every route of the group is.
    deprecated: bool,
    /// `deprecated(since = "..", sunset = "..")`: the dates its routes' answers carry.
    deprecation: Option<Deprecation>,
}

/// The expansion of `group!(tokens)`.
pub fn expand(tokens: TokenStream) -> TokenStream {
    let mut diag = Diagnostics::default();
    let args = match (|input: ParseStream| parse(input, &mut diag)).parse2(tokens) {
        Ok(args) => Some(args),
        Err(err) => {
            diag.push(err);
            None
        }
    };
    if let Some(args) = &args {
        check_prefix(&args.prefix, &mut diag);
    }
    match args {
        Some(args) if diag.is_empty() => emit(&args),
        _ => {
            // A group all the same, so the rest of the app reports its own mistakes only.
            let errors = diag.to_tokens();
            let empty = emit(&GroupArgs {
                prefix: LitStr::new("", proc_macro2::Span::call_site()),
                tags: Vec::new(),
                responses: Vec::new(),
                dependencies: Vec::new(),
                versions: None,
                deprecated: false,
                deprecation: None,
            });
            quote!({ #errors #empty })
        }
    }
}

/// The prefix, then the options.
fn parse(input: ParseStream, diag: &mut Diagnostics) -> syn::Result<GroupArgs> {
    let prefix: LitStr = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected the group's path prefix as a string, e.g. `group!(\"/items\")` (`\"\"` for none)",
        )
    })?;
    let mut args = GroupArgs {
        prefix,
        tags: Vec::new(),
        responses: Vec::new(),
        dependencies: Vec::new(),
        versions: None,
        deprecated: false,
        deprecation: None,
    };
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key: Ident = input.parse()?;
        match key.to_string().as_str() {
            "tags" => args.tags.extend(tags(input)?),
            "responses" => args.responses.extend(responses(input, diag)?),
            "versions" => {
                let eq: Token![=] = input.parse()?;
                args.versions = versions(tokens_until(input, ',')?, eq.span, diag);
            }
            "deprecated" if input.peek(syn::token::Paren) => {
                args.deprecated = true;
                args.deprecation = deprecation(&key, input, "group", diag)?;
            }
            "deprecated" => {
                input.parse::<Token![=]>()?;
                args.deprecated = input.parse::<syn::LitBool>()?.value;
            }
            "dependencies" => {
                let content;
                syn::parenthesized!(content in input);
                let types = content.parse_terminated(Type::parse, Token![,])?;
                args.dependencies.extend(types);
            }
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown group option `{other}`; expected `tags(..)`, `responses(N = \"..\")`, `dependencies(Type, ..)`, `versions = \"YYYY-MM-DD\"..` or `deprecated = true` / `deprecated(since = \"YYYY-MM-DD\")`"
                    ),
                ))
            }
        }
    }
    Ok(args)
}

/// Every problem of the prefix, at the string.
fn check_prefix(prefix: &LitStr, diag: &mut Diagnostics) {
    if let Err(err) = ferrapi_template::check_prefix(&prefix.value()) {
        for problem in err.problems() {
            diag.error(prefix.span(), problem);
        }
    }
}

/// `Group::from(GroupParts { .. })`, each dependency asserted at its type.
fn emit(args: &GroupArgs) -> TokenStream {
    let (group, parts) = (paths::group_type(), paths::group_parts());
    let prefix = &args.prefix;
    let tags = &args.tags;
    let responses = args.responses.iter().map(|response| {
        let (status, description) = (&response.status, description(&response.description));
        quote!((#status, #description))
    });
    let dependencies = args.dependencies.iter().map(|ty| {
        let span = ty.span();
        let group_dependency = paths::at(span, paths::group_dependency());
        quote_spanned!(span=> <#ty as #group_dependency>::dependency_fn())
    });
    // Only a group that names its versions says so: the others' expansion is unchanged.
    let ranged = args.versions.as_ref().map(|range| {
        let (from, until) = (tokens::option_lit(&range.from), tokens::option_lit(&range.until));
        quote!(.in_versions(#from, #until))
    });
    // Likewise only a deprecated group: with dates, its routes' answers carry them.
    let deprecated = match (&args.deprecation, args.deprecated) {
        (Some(Deprecation { since, sunset }), _) => {
            let sunset = tokens::option_lit(sunset);
            Some(quote!(.deprecated_at(#since, #sunset)))
        }
        (None, true) => Some(quote!(.deprecated())),
        (None, false) => None,
    };
    quote! {
        {
            use ::ferrapi::__private as __rt;
            #group::from(#parts {
                prefix: #prefix,
                tags: &[#(#tags),*],
                responses: ::std::vec![#(#responses),*],
                dependencies: ::std::vec![#(#dependencies),*],
            })
            #ranged
            #deprecated
        }
    }
}
