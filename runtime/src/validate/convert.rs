//! Converting one path or query string into a typed value.
//!
//! Rules enforced here (FastAPI's parameter conventions, with pydantic's messages; where they
//! differ from FastAPI's, the manual's "Differences from FastAPI" says why):
//! - an integer is an optional `+`/`-` and ASCII digits, nothing else (`4.2`, `1e3`, `" 1"`, `""`
//!   are `int_parsing`); a well-formed integer outside the Rust type's range is `int_out_of_range`
//!   with the bounds in `ctx`;
//! - a float is what Rust's float grammar accepts after pydantic's clean-up (surrounding
//!   whitespace trimmed, `_` separators between digits removed, as Python's `float()` allows),
//!   finite only (`nan`, `inf`, `1e400` are `finite_number`);
//! - a bool is true for `1`, `true`, `on`, `yes` in any letter case and false for anything else;
//! - a string is taken as it is;
//! - a value that does not convert, or breaks a constraint, is one error at the parameter's
//!   location with the raw string as `input` (`convert_param`, for every parameter kind).

use serde_json::{json, Value};

use super::constraint::{Constrainable, Constraint};
use super::error::{Failure, Loc, ValidationErrors};
use super::schema::{JsonSchema, SchemaRegistry};

/// A value that can be parsed from one path segment or query value.
///
/// An extension point: implement it for a type of your own, as the manual's
/// [custom types chapter](crate#custom-parameter-and-field-types) shows with a compiled example.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be parsed from a path segment or query value",
    label = "not a scalar parameter type",
    note = "path and query parameters are integers, floats, bool, String, or an enum deriving `StrEnum`"
)]
pub trait FromParam: Sized + JsonSchema + Constrainable + serde::Serialize {
    /// Parse the percent-decoded string.
    fn from_param(raw: &str) -> Result<Self, Failure>;
}

/// Convert `raw` (a path, query, header or cookie value) to `T` and check `constraints`, recording
/// any failure at `loc` with `raw` as its input.
pub(crate) fn convert_param<T: FromParam>(
    raw: &str,
    constraints: &[Constraint],
    loc: impl FnOnce() -> Loc,
    errors: &mut ValidationErrors,
) -> Option<T> {
    let result = T::from_param(raw).and_then(|v| match Constraint::check_all(constraints, &v) {
        Some(failure) => Err(failure),
        None => Ok(v),
    });
    // The location is built only on failure: valid requests allocate nothing for it.
    result
        .map_err(|f| errors.push(f.at(loc(), Value::String(raw.to_owned()))))
        .ok()
}

const INT_PARSING: &str = "Input should be a valid integer, unable to parse string as an integer";

/// True when `raw` is an optional sign followed by one or more ASCII digits.
pub(super) fn is_integer_literal(raw: &str) -> bool {
    let digits = raw.strip_prefix(['+', '-']).unwrap_or(raw);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The `int_out_of_range` failure for a type with bounds `min..=max`.
pub(super) fn int_out_of_range(min: impl Into<Value>, max: impl Into<Value>) -> Failure {
    let (min, max) = (min.into(), max.into());
    Failure::with_ctx(
        "int_out_of_range",
        format!("Input should be an integer between {min} and {max}"),
        json!({ "min": min, "max": max }),
    )
}

macro_rules! int_from_param {
    ($($ty:ty => $format:literal),* $(,)?) => {$(
        impl FromParam for $ty {
            // Inlined into the generated handlers (another crate): the success path is a few
            // instructions around `str::parse`, the call would cost as much.
            #[inline]
            fn from_param(raw: &str) -> Result<Self, Failure> {
                // Whatever Rust's parser accepts is an integer literal in range (an optional sign
                // and ASCII digits), so a success needs no second look at the text.
                if let Ok(value) = raw.parse::<$ty>() {
                    return Ok(value);
                }
                if !is_integer_literal(raw) {
                    return Err(Failure::new("int_parsing", INT_PARSING));
                }
                // The grammar is right, so the value is out of the type's range (or a `-` sign on
                // an unsigned type).
                Err(int_out_of_range(<$ty>::MIN, <$ty>::MAX))
            }
        }

        impl JsonSchema for $ty {
            fn schema(_registry: &mut SchemaRegistry) -> Value {
                if $format.is_empty() {
                    json!({ "type": "integer" })
                } else {
                    json!({ "type": "integer", "format": $format })
                }
            }

            fn python_name() -> String {
                "int".to_owned()
            }
        }
    )*};
}

int_from_param!(
    i8 => "int8", i16 => "int16", i32 => "int32", i64 => "int64", isize => "int64",
    u8 => "uint8", u16 => "uint16", u32 => "uint32", u64 => "uint64", usize => "uint64",
);

impl FromParam for i128 {
    fn from_param(raw: &str) -> Result<Self, Failure> {
        if !is_integer_literal(raw) {
            return Err(Failure::new("int_parsing", INT_PARSING));
        }
        // JSON numbers of this width would lose precision in most clients: keep the i64 range.
        raw.parse::<i128>()
            .map_err(|_| int_out_of_range(i128::MIN.to_string(), i128::MAX.to_string()))
    }
}

impl JsonSchema for i128 {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "integer" })
    }

    fn python_name() -> String {
        "int".to_owned()
    }
}

impl FromParam for u128 {
    fn from_param(raw: &str) -> Result<Self, Failure> {
        if !is_integer_literal(raw) {
            return Err(Failure::new("int_parsing", INT_PARSING));
        }
        raw.parse::<u128>()
            .map_err(|_| int_out_of_range(0, u128::MAX.to_string()))
    }
}

impl JsonSchema for u128 {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "integer", "minimum": 0 })
    }

    fn python_name() -> String {
        "int".to_owned()
    }
}

const FLOAT_PARSING: &str = "Input should be a valid number, unable to parse string as a number";

/// The `finite_number` failure.
pub(super) fn not_finite() -> Failure {
    Failure::new("finite_number", "Input should be a finite number")
}

/// `raw` without surrounding whitespace and without the `_` digit separators Python's `float()`
/// (and so pydantic) accepts: each `_` between two ASCII digits. `None` for a misplaced `_`.
fn python_float_text(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    let raw = raw.trim();
    if !raw.contains('_') {
        return Some(std::borrow::Cow::Borrowed(raw));
    }
    let bytes = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    for (i, c) in raw.char_indices() {
        if c == '_' {
            let digit_before = i > 0 && bytes[i - 1].is_ascii_digit();
            let digit_after = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !(digit_before && digit_after) {
                return None;
            }
        } else {
            out.push(c);
        }
    }
    Some(std::borrow::Cow::Owned(out))
}

macro_rules! float_from_param {
    ($($ty:ty),*) => {$(
        impl FromParam for $ty {
            fn from_param(raw: &str) -> Result<Self, Failure> {
                let Some(text) = python_float_text(raw) else {
                    return Err(Failure::new("float_parsing", FLOAT_PARSING));
                };
                match text.parse::<$ty>() {
                    Ok(value) if value.is_finite() => Ok(value),
                    Ok(_) => Err(not_finite()),
                    Err(_) => Err(Failure::new("float_parsing", FLOAT_PARSING)),
                }
            }
        }

        impl JsonSchema for $ty {
            // No `format`: pydantic writes none for a float (an integer's is ferrapi's own, see
            // the manual's "Differences from FastAPI").
            fn schema(_registry: &mut SchemaRegistry) -> Value {
                json!({ "type": "number" })
            }

            fn python_name() -> String {
                "float".to_owned()
            }
        }
    )*};
}

float_from_param!(f32, f64);

/// A query or path bool: `1`, `true`, `on`, `yes` in any letter case are true; anything else is
/// false (never an error: a link like `?short` or `?short=maybe` still answers).
pub(super) fn is_truthy(raw: &str) -> bool {
    ["1", "true", "on", "yes"]
        .iter()
        .any(|t| raw.eq_ignore_ascii_case(t))
}

impl FromParam for bool {
    fn from_param(raw: &str) -> Result<Self, Failure> {
        Ok(is_truthy(raw))
    }
}

impl JsonSchema for bool {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "boolean" })
    }

    fn python_name() -> String {
        "bool".to_owned()
    }
}

impl FromParam for String {
    fn from_param(raw: &str) -> Result<Self, Failure> {
        Ok(raw.to_owned())
    }
}

impl JsonSchema for String {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "string" })
    }

    fn python_name() -> String {
        "str".to_owned()
    }
}

impl JsonSchema for &str {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "string" })
    }

    fn python_name() -> String {
        "str".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_accept_sign_and_digits_only() {
        assert_eq!(i64::from_param("42"), Ok(42));
        assert_eq!(i64::from_param("-5"), Ok(-5));
        assert_eq!(i64::from_param("+5"), Ok(5));
        assert_eq!(i64::from_param("007"), Ok(7));
        for bad in [
            "foo", "4.2", "1e3", "", "-", "+", " 1", "1 ", "1_000", "٣", "0x10", "--1",
        ] {
            let err = i64::from_param(bad).unwrap_err();
            assert_eq!(err.kind, "int_parsing", "{bad:?}");
            assert_eq!(err.msg, INT_PARSING);
        }
    }

    #[test]
    fn integers_out_of_range_have_their_own_error() {
        let err = u8::from_param("256").unwrap_err();
        assert_eq!(err.kind, "int_out_of_range");
        assert_eq!(err.msg, "Input should be an integer between 0 and 255");
        assert_eq!(err.ctx, Some(json!({"min": 0, "max": 255})));
        assert_eq!(u8::from_param("-1").unwrap_err().kind, "int_out_of_range");
        assert_eq!(
            i64::from_param("99999999999999999999999").unwrap_err().msg,
            "Input should be an integer between -9223372036854775808 and 9223372036854775807"
        );
        assert_eq!(i8::from_param("-128"), Ok(-128));
        assert_eq!(u64::from_param("+18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            i128::from_param("-170141183460469231731687303715884105728"),
            Ok(i128::MIN)
        );
        assert_eq!(u128::from_param("-1").unwrap_err().kind, "int_out_of_range");
    }

    #[test]
    fn floats_are_finite_numbers() {
        assert_eq!(f64::from_param("4.2"), Ok(4.2));
        assert_eq!(f64::from_param("-1e3"), Ok(-1000.0));
        assert_eq!(f64::from_param("3"), Ok(3.0));
        assert_eq!(f64::from_param("abc").unwrap_err().kind, "float_parsing");
        assert_eq!(f64::from_param("").unwrap_err().msg, FLOAT_PARSING);
        for non_finite in ["nan", "NaN", "inf", "-infinity", "1e400"] {
            assert_eq!(f64::from_param(non_finite).unwrap_err().kind, "finite_number");
        }
        assert_eq!(f32::from_param("1e39").unwrap_err().kind, "finite_number");
    }

    #[test]
    fn floats_take_pythons_underscores_and_spaces() {
        assert_eq!(f64::from_param("1_000"), Ok(1000.0));
        assert_eq!(f64::from_param("1_000.000_5"), Ok(1000.0005));
        assert_eq!(f64::from_param("1e1_0"), Ok(1e10));
        assert_eq!(f64::from_param(" 12.5 "), Ok(12.5));
        for bad in ["_1", "1_", "1__0", "1_.5", "1._5", "1_e3", "_", "1 000"] {
            assert_eq!(f64::from_param(bad).unwrap_err().kind, "float_parsing", "{bad:?}");
        }
    }

    #[test]
    fn bool_truthy_set_in_any_case() {
        for t in ["1", "true", "TRUE", "True", "on", "ON", "yes", "YeS"] {
            assert_eq!(bool::from_param(t), Ok(true), "{t}");
        }
        for f in ["0", "false", "off", "no", "maybe", "", "2", "y", "t", " yes"] {
            assert_eq!(bool::from_param(f), Ok(false), "{f}");
        }
    }

    #[test]
    fn strings_are_taken_as_is() {
        assert_eq!(String::from_param(" a b "), Ok(" a b ".to_owned()));
        assert_eq!(String::from_param(""), Ok(String::new()));
    }
}
