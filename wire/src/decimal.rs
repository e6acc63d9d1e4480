//! Decimals as Python's `Decimal()` reads text (pydantic's `Decimal`), into `rust_decimal`.
//!
//! Rules enforced here: text is trimmed and may have `_` between digits and an exponent (`1e3`);
//! `NaN` and the infinities are `finite_number`; other text, and a value beyond the 96-bit range,
//! is `decimal_parsing`. A decimal is written as `rust_decimal` writes it, with its scale
//! (`1.50`), which is pydantic's `str(Decimal)` for every value `rust_decimal` holds.

use rust_decimal::Decimal;

use crate::WireError;

fn parsing() -> WireError {
    WireError::new("decimal_parsing", "Input should be a valid decimal")
}

/// `text` without the `_` separators Python allows between digits; `None` for a misplaced one.
fn without_separators(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '_' {
            let between =
                i > 0 && bytes[i - 1].is_ascii_digit() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !between {
                return None;
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Decimal text (or a JSON number's text), as `Decimal()` reads it.
#[inline]
pub fn decimal_text(raw: &str) -> Result<Decimal, WireError> {
    let text = without_separators(raw.trim()).ok_or_else(parsing)?;
    let unsigned = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
    if matches!(unsigned.as_str(), "nan" | "snan" | "inf" | "infinity") {
        return Err(WireError::new("finite_number", "Input should be a finite number"));
    }
    let plain = text.strip_prefix('+').unwrap_or(&text);
    let parsed = if plain.contains(['e', 'E']) {
        Decimal::from_scientific(plain)
    } else {
        Decimal::from_str_exact(plain)
    };
    parsed.map_err(|_| parsing())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_decimal_text() {
        let text = |raw| decimal_text(raw).map(|d| d.to_string());
        assert_eq!(text("1.50").as_deref(), Ok("1.50"));
        assert_eq!(text(" 1.5 ").as_deref(), Ok("1.5"));
        assert_eq!(text("1_000").as_deref(), Ok("1000"));
        assert_eq!(decimal_text("1e3"), Ok(Decimal::from(1000)));
        assert_eq!(decimal_text("-inf").unwrap_err().kind, "finite_number");
        assert_eq!(decimal_text("NaN").unwrap_err().kind, "finite_number");
        assert_eq!(decimal_text("abc").unwrap_err().kind, "decimal_parsing");
        assert_eq!(decimal_text("1__0").unwrap_err().kind, "decimal_parsing");
        assert_eq!(decimal_text("_1").unwrap_err().kind, "decimal_parsing");
    }
}
