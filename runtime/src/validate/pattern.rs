//! `#[pattern("..")]`: a regular expression a string must match, as pydantic's `pattern`.
//!
//! Rules enforced here:
//! - the expression is compiled once, on first use, into a cell of its own attribute (a `static`
//!   the macro writes), never per request; the macro has already parsed it, so a bad expression
//!   is a compile error at the attribute, and compiling here cannot fail (were it to, the value is
//!   refused rather than let through);
//! - it is searched anywhere in the string (`Regex::is_match`), as pydantic-core's default
//!   engine (this same crate) does: write `^...$` to match the whole string;
//! - a mismatch is `string_pattern_mismatch` "String should match pattern '<source>'" with the
//!   source in `ctx`.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::json;

use super::error::Failure;

/// The compiled expression of one `#[pattern]` attribute, kept in a `static` for the life of
/// the program.
#[doc(hidden)]
pub struct PatternCell(OnceLock<Option<Regex>>);

impl PatternCell {
    /// An empty cell, filled on first use.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        PatternCell(OnceLock::new())
    }
}

/// A `#[pattern("..")]` constraint: the expression's source and where its compiled form lives.
#[derive(Clone, Copy)]
pub struct Pattern {
    source: &'static str,
    cell: fn() -> &'static PatternCell,
}

impl Pattern {
    /// The constraint the macros write for `#[pattern(source)]`; `cell` returns the attribute's
    /// own `static`.
    #[doc(hidden)]
    pub const fn new(source: &'static str, cell: fn() -> &'static PatternCell) -> Self {
        Pattern { source, cell }
    }

    /// The expression as written.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// `None` when `text` matches, else pydantic's failure.
    pub(crate) fn check(&self, text: &str) -> Option<Failure> {
        let regex = (self.cell)().0.get_or_init(|| Regex::new(self.source).ok());
        if regex.as_ref().is_some_and(|r| r.is_match(text)) {
            return None;
        }
        Some(Failure::with_ctx(
            "string_pattern_mismatch",
            format!("String should match pattern '{}'", self.source),
            json!({ "pattern": self.source }),
        ))
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell() -> &'static PatternCell {
        static CELL: PatternCell = PatternCell::new();
        &CELL
    }

    #[test]
    fn searched_and_compiled_once() {
        let pattern = Pattern::new(r"^[a-z]+-\d{2}$", cell);
        assert!(pattern.check("abc-12").is_none());
        let failure = pattern.check("abc-12\n").unwrap();
        assert_eq!(failure.kind, "string_pattern_mismatch");
        assert_eq!(failure.msg, r"String should match pattern '^[a-z]+-\d{2}$'");
        assert_eq!(failure.ctx, Some(json!({"pattern": r"^[a-z]+-\d{2}$"})));
        let first: *const Regex = cell().0.get().and_then(Option::as_ref).unwrap();
        assert!(pattern.check("xyz-99").is_none());
        let second: *const Regex = cell().0.get().and_then(Option::as_ref).unwrap();
        assert_eq!(first, second, "the expression is compiled once");
    }
}
