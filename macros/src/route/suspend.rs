//! Whether a route function's body can suspend, decided from its tokens.
//!
//! Rules enforced here: a body *cannot* suspend only when none of its tokens is `await` (nested
//! blocks, closures and macro arguments included) and every macro it invokes is one of a few
//! well-known ones that never expand to an `.await` of their own (`json!`, `format!`, `vec!`,
//! the logging macros, …). Anything else — another macro, `macro_rules!`, an `async` closure with
//! an `.await` — counts as "may suspend". The answer only picks the cheaper way to run the route
//! (see `emit.rs`); a wrong "may suspend" costs an allocation, never correctness.

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;

/// Macros whose expansion adds no `.await` to what their arguments contain.
const NO_AWAIT_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "concat",
    "dbg",
    "debug",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "env",
    "eprint",
    "eprintln",
    "error",
    "format",
    "format_args",
    "info",
    "json",
    "matches",
    "panic",
    "print",
    "println",
    "stringify",
    "todo",
    "trace",
    "unimplemented",
    "unreachable",
    "vec",
    "warn",
    "write",
    "writeln",
];

/// Keywords that a prefix `!` can follow (`if !done`, `return !ok`): not macro names.
const KEYWORDS: &[&str] = &[
    "as", "break", "else", "if", "in", "let", "match", "return", "while",
];

/// True unless `body` certainly runs to completion without suspending.
pub fn may_suspend(body: &syn::Block) -> bool {
    tokens_may_suspend(body.to_token_stream())
}

fn tokens_may_suspend(tokens: TokenStream) -> bool {
    let mut tokens = tokens.into_iter().peekable();
    while let Some(tree) = tokens.next() {
        match tree {
            TokenTree::Ident(ident) => {
                if ident == "await" {
                    return true;
                }
                let name = ident.to_string();
                let bang = matches!(
                    tokens.peek(),
                    Some(TokenTree::Punct(p)) if p.as_char() == '!' && p.spacing() == Spacing::Alone
                );
                if bang && !KEYWORDS.contains(&name.as_str()) && !NO_AWAIT_MACROS.contains(&name.as_str()) {
                    return true;
                }
            }
            TokenTree::Group(group) => {
                if tokens_may_suspend(group.stream()) {
                    return true;
                }
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suspends(body: &str) -> bool {
        may_suspend(&syn::parse_str::<syn::Block>(body).unwrap())
    }

    #[test]
    fn bodies_without_await_run_to_completion() {
        assert!(!suspends("{ Json(json!({ \"id\": id })) }"));
        assert!(!suspends(
            "{ if !ok { return Err(HttpError::new(400, format!(\"{x}\"))); } Ok(x != y) }"
        ));
        assert!(!suspends(
            "{ let v = vec![1, 2]; tracing::info!(len = v.len()); serde_json::json!(v) }"
        ));
        assert!(!suspends("{ let f = |x: i64| x + 1; f(1) }"));
    }

    #[test]
    fn await_anywhere_or_an_unknown_macro_may_suspend() {
        assert!(suspends("{ store.get(id).await }"));
        assert!(suspends("{ json!({ \"v\": store.get(id).await }) }"));
        assert!(suspends("{ let f = async { x.await }; 1 }"));
        assert!(suspends("{ tokio::select! { _ = a => 1, _ = b => 2 } }"));
        assert!(suspends("{ futures::join!(a, b) }"));
        assert!(suspends("{ macro_rules! m { () => {} } m!() }"));
    }
}
