//! An exact text read as a `serde_json::Value`, for the code that reads documents without
//! exactness (the stores' plain reads of a bird).
//!
//! Rules enforced here: a number reads as serde_json reads its text (rounded to a double where
//! it must be), and one beyond a double's range, which serde_json refuses, as MongoDB's extended
//! JSON for a decimal, `{"$numberDecimal": "1e400"}` (what a plain read of a Decimal128 from
//! MongoDB shows), so both stores' plain reads show such a number alike.

use serde_json::Value;

use super::scan::{ScanError, Token, Tokens};

/// `text` (one JSON value) as a `Value`, each number as the module documentation says.
pub fn to_value(text: &str) -> Result<Value, ScanError> {
    if let Ok(value) = serde_json::from_str(text) {
        return Ok(value);
    }
    // Some number is beyond a double (or the text is not JSON, which the tokenizer says): the
    // text again, each such number as an object holding it, read by serde_json.
    let mut tokens = Tokens::new(text);
    let mut rewritten = String::with_capacity(text.len());
    let mut copied = 0;
    while let Some(token) = tokens.next_token()? {
        if let Token::Number(number) = token {
            if serde_json::from_str::<serde_json::Number>(number).is_err() {
                let end = tokens.offset();
                let start = end - number.len();
                rewritten.push_str(text.get(copied..start).unwrap_or_default());
                rewritten.push_str("{\"$numberDecimal\":\"");
                rewritten.push_str(number);
                rewritten.push_str("\"}");
                copied = end;
            }
        }
    }
    rewritten.push_str(text.get(copied..).unwrap_or_default());
    serde_json::from_str(&rewritten).map_err(|_| ScanError {
        at: 0,
        what: "not readable as a JSON value",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_read_as_serde_json_reads_them_and_beyond_a_double_as_decimals() {
        assert_eq!(
            to_value(r#"{"a": 1, "b": [0.5, "x", null], "e": 18446744073709551615}"#).unwrap(),
            json!({"a": 1, "b": [0.5, "x", null], "e": u64::MAX})
        );
        assert_eq!(
            to_value(r#"{"big":1e400,"small":1e-400,"long":18446744073709551616,"s":"1e400","n":[-1E+400]}"#)
                .unwrap(),
            json!({
                "big": {"$numberDecimal": "1e400"}, "small": 0.0,
                "long": 18446744073709551616_f64, "s": "1e400",
                "n": [{"$numberDecimal": "-1E+400"}]
            })
        );
        assert!(to_value("{").is_err());
    }
}
