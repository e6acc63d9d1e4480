//! `rust_decimal::Decimal` as pydantic's `Decimal`: read from numbers and numeric text, written
//! as a string with its scale (`"1.50"`), and its `max_digits` / `decimal_places` constraints.
//!
//! Rules enforced here:
//! - text is trimmed and may have `_` between digits and an exponent (`1e3`), as Python's
//!   `Decimal()` takes it; `NaN` and the infinities are `finite_number`; other text, and a value
//!   beyond the 96-bit range, is `decimal_parsing`; `null`, booleans, arrays and objects are
//!   `decimal_type`;
//! - digits and decimal places are counted on the normalized value (`12.300` has two places), as
//!   pydantic counts them: `decimal_max_digits`, then `decimal_max_places`, then
//!   `decimal_whole_digits` when both are set;
//! - `multiple_of` is exact, on the divisor as written (`0.1`);
//! - the schema of what is read is `anyOf: [number, string]`, of what is written `type: string`
//!   (pydantic's validation and serialization modes, `Name-Input` / `Name-Output` in the
//!   document).

use std::cmp::Ordering;

use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::{text_value, TextValue};
use crate::validate::constraint::{Bound, Constrainable};
use crate::validate::error::Failure;

fn decimal_text(raw: &str) -> Result<Decimal, Failure> {
    Ok(ferrapi_wire::decimal::decimal_text(raw)?)
}

impl TextValue for Decimal {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        decimal_text(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => decimal_text(text),
            // A JSON number's text as Python's `str(float)` or `str(int)` writes it.
            Value::Number(n) => decimal_text(&n.to_string()),
            _ => Err(Failure::new(
                "decimal_type",
                "Decimal input should be an integer, float, string or Decimal object",
            )),
        }
    }
    fn schema() -> Value {
        json!({ "anyOf": [{ "type": "number" }, { "type": "string" }] })
    }
    // Written as a string (`"1.50"`), which is all a client reading a response needs to know.
    fn output_schema() -> Value {
        json!({ "type": "string" })
    }
}

text_value!(Decimal);

/// The digits and decimal places pydantic counts for `value` (normalized first).
pub(crate) fn digits(value: &Decimal) -> (u32, u32) {
    let normalized = value.normalize();
    let scale = normalized.scale();
    let mantissa = normalized.mantissa().unsigned_abs();
    let len = mantissa.checked_ilog10().map_or(1, |l| l + 1);
    (len.max(scale), scale)
}

impl Constrainable for Decimal {
    fn compare(&self, bound: Bound) -> Option<Ordering> {
        let bound = match bound {
            Bound::Int(i) => Decimal::from_i128_with_scale(i, 0),
            Bound::Float(f) => Decimal::from_f64_retain(f)?,
        };
        Some(self.cmp(&bound))
    }
    fn decimal_digits(&self) -> Option<(u32, u32)> {
        Some(digits(self))
    }
    fn is_multiple_of(&self, divisor: Bound) -> Option<bool> {
        // pydantic divides by the bound as written (`Decimal("0.05")`), not by the binary float
        // nearest it, which no price in cents is a multiple of; Rust prints a float as its
        // shortest round-trip text, which is what was written.
        let divisor = match divisor {
            Bound::Int(i) => Decimal::try_from_i128_with_scale(i, 0).ok(),
            Bound::Float(f) => f.to_string().parse::<Decimal>().ok(),
        };
        // A divisor beyond the 96-bit range divides only zero.
        let Some(divisor) = divisor else {
            return Some(self.is_zero());
        };
        Some(!divisor.is_zero() && self.checked_rem(divisor).is_some_and(|r| r.is_zero()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_decimal_text() {
        assert_eq!(Decimal::from_text("1.50").unwrap().to_string(), "1.50");
        assert_eq!(Decimal::from_text(" 1.5 ").unwrap().to_string(), "1.5");
        assert_eq!(Decimal::from_text("1_000").unwrap().to_string(), "1000");
        assert_eq!(Decimal::from_text("1e3").unwrap(), Decimal::from(1000));
        assert_eq!(Decimal::from_text("-inf").unwrap_err().kind, "finite_number");
        assert_eq!(Decimal::from_text("NaN").unwrap_err().kind, "finite_number");
        assert_eq!(Decimal::from_text("abc").unwrap_err().kind, "decimal_parsing");
        assert_eq!(Decimal::from_value(&json!(1.5)).unwrap().to_string(), "1.5");
        assert_eq!(
            Decimal::from_value(&json!(true)).unwrap_err().kind,
            "decimal_type"
        );
    }

    #[test]
    fn multiples_divide_by_the_bound_as_written() {
        let multiple = |s: &str, bound| Decimal::from_text(s).unwrap().is_multiple_of(bound);
        assert_eq!(multiple("1.05", Bound::Float(0.05)), Some(true));
        assert_eq!(multiple("25.00", Bound::Float(0.05)), Some(true));
        assert_eq!(multiple("1.03", Bound::Float(0.05)), Some(false));
        assert_eq!(multiple("10.0", Bound::Int(5)), Some(true));
        assert_eq!(multiple("7.5", Bound::Int(5)), Some(false));
        assert_eq!(multiple("7", Bound::Int(0)), Some(false));
        assert_eq!(multiple("0", Bound::Float(1e40)), Some(true));
        assert_eq!(multiple("1", Bound::Float(1e40)), Some(false));
    }

    #[test]
    fn read_as_a_number_or_a_string_written_as_a_string() {
        use crate::validate::{JsonSchema, SchemaMode, SchemaRegistry};
        let mut registry = SchemaRegistry::new();
        let input = json!({ "anyOf": [{ "type": "number" }, { "type": "string" }] });
        assert_eq!(<Decimal as JsonSchema>::schema(&mut registry), input);
        assert_eq!(
            registry.in_mode(SchemaMode::Output, <Decimal as JsonSchema>::schema),
            json!({ "type": "string" })
        );
        assert_eq!(
            <Option<Decimal> as JsonSchema>::schema(&mut registry),
            json!({ "anyOf": [{ "type": "number" }, { "type": "string" }, { "type": "null" }] })
        );
        assert_eq!(
            registry.in_mode(SchemaMode::Output, <Option<Decimal> as JsonSchema>::schema),
            json!({ "anyOf": [{ "type": "string" }, { "type": "null" }] })
        );
        registry.separate_input_output(false);
        assert_eq!(
            registry.in_mode(SchemaMode::Output, <Decimal as JsonSchema>::schema),
            input
        );
    }

    #[test]
    fn digits_are_counted_normalized() {
        let d = |s: &str| digits(&Decimal::from_text(s).unwrap());
        assert_eq!(d("123.45"), (5, 2));
        assert_eq!(d("12.300"), (3, 1));
        assert_eq!(d("0.001"), (3, 3));
        assert_eq!(d("1000"), (4, 0));
        assert_eq!(d("0"), (1, 0));
    }
}
