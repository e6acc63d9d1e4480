//! pydantic-style constraints: `ge`, `gt`, `le`, `lt`, `multiple_of` on numbers; `min_length`,
//! `max_length` on strings and lists; `pattern` on strings; `max_digits`, `decimal_places` on
//! decimals.
//!
//! Rules enforced here: the error types, messages and `ctx` are pydantic's
//! (`greater_than_equal`, "Input should be greater than or equal to 0", `{"ge": 0}`), the bound
//! spelled as pydantic spells it for the value's type ([`NumberKind`]: an integer's as an
//! integer, a float's as a float in `ctx` and without a needless `.0` in `msg`, a decimal's as
//! written); the constraints of one value are checked in pydantic's fixed order, which the route
//! and model macros sort them into when they compile (`max_digits`, `decimal_places`,
//! `multiple_of`, `le`, `lt`, `ge`, `gt`, `min_length`, `max_length`, `pattern`); string lengths
//! count characters (Unicode scalar values), as Python does; a list's length is its number of
//! items (`too_short` / `too_long`); a pattern is searched anywhere in the string (add `^`/`$`
//! to anchor it), with the `regex` crate that pydantic-core uses, compiled once per attribute on
//! first use, never per request.

use std::cmp::Ordering;

use serde_json::{json, Map, Value};

use super::error::Failure;

/// A numeric bound as written in the attribute, kept as int or float so `ctx` shows it the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Bound {
    fn as_f64(self) -> f64 {
        match self {
            Bound::Int(i) => i as f64,
            Bound::Float(f) => f,
        }
    }

    /// The bound as written: an integer literal as an integer, a float one as a float.
    pub(crate) fn to_json(self) -> Value {
        match self {
            // i128 bounds written in source fit i64 in practice; fall back to a float otherwise.
            Bound::Int(i) => i64::try_from(i)
                .map(Value::from)
                .unwrap_or_else(|_| json!(i as f64)),
            Bound::Float(f) => json!(f),
        }
    }

    /// The bound as pydantic shows it for a value of `kind`: the text of `msg` and the value of
    /// `ctx`.
    fn shown(self, kind: NumberKind) -> (String, Value) {
        match (kind, self) {
            // pydantic-core keeps a float field's bounds as `f64`: `ctx` is a float (`0.0`), and
            // `msg` writes it as Rust does, without a needless `.0` (`0`, `2.5`).
            (NumberKind::Float, bound) => (bound.as_f64().to_string(), json!(bound.as_f64())),
            // An integer field's bounds are integers, a float literal without a fraction too.
            (NumberKind::Integer, Bound::Float(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                Bound::Int(f as i128).shown(NumberKind::AsWritten)
            }
            (_, bound) => {
                let value = bound.to_json();
                (value.to_string(), value)
            }
        }
    }
}

/// How pydantic spells a numeric bound of a type in an error's `msg` and `ctx`: by the type's
/// own kind of number, whatever the literal in the attribute (`#[gt(0)]` and `#[gt(0.0)]` on an
/// `f64` are both `msg` "greater than 0", `ctx` `{"gt": 0.0}`), or as written (a decimal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberKind {
    /// An integer type: the bound as an integer.
    Integer,
    /// A float type: `ctx` a float, `msg` the shortest text (`0`, `2.5`).
    Float,
    /// As written in the attribute (a decimal, a type of your own).
    AsWritten,
}

/// One constraint from a `#[ge(..)]`-style attribute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Constraint {
    /// `>=`
    Ge(Bound),
    /// `>`
    Gt(Bound),
    /// `<=`
    Le(Bound),
    /// `<`
    Lt(Bound),
    /// At least this many characters.
    MinLength(usize),
    /// At most this many characters.
    MaxLength(usize),
    /// A multiple of this number.
    MultipleOf(Bound),
    /// At most this many decimal digits in all (decimals).
    MaxDigits(u32),
    /// At most this many digits after the decimal point (decimals).
    DecimalPlaces(u32),
    /// The string matches this regular expression somewhere.
    #[cfg(feature = "pattern")]
    Pattern(super::pattern::Pattern),
}

/// A value constraints can be checked on. Numbers compare with bounds, strings have a length;
/// `Option` checks its content when present. Everything else has neither, and the route macro
/// refuses constraints on it at compile time.
///
/// An extension point: implement it for a type of your own, as the manual's
/// [custom types chapter](crate#custom-parameter-and-field-types) shows with a compiled example.
pub trait Constrainable {
    /// How a numeric bound is spelled in this type's errors (see [`NumberKind`]).
    const NUMBER_KIND: NumberKind = NumberKind::AsWritten;

    /// True for a list: pydantic checks its `max_length` as it reads the items, so a list that is
    /// too long has that one error, whatever its items.
    const LIST: bool = false;

    /// Compare with a numeric bound, if this is a number.
    fn compare(&self, _bound: Bound) -> Option<Ordering> {
        None
    }
    /// The length in characters, if this is a string.
    fn char_len(&self) -> Option<usize> {
        None
    }
    /// The number of items, if this is a list.
    fn item_len(&self) -> Option<usize> {
        None
    }
    /// The text a pattern is matched against, if this is a string.
    fn text(&self) -> Option<&str> {
        None
    }
    /// The remainder of the division by `divisor` is zero: `Some(true)`, if this is a number.
    fn is_multiple_of(&self, _divisor: Bound) -> Option<bool> {
        None
    }
    /// The digits in all and the digits after the point, as pydantic counts them, if this is a
    /// decimal.
    fn decimal_digits(&self) -> Option<(u32, u32)> {
        None
    }
    /// False for an absent optional value, which no constraint applies to.
    fn is_present(&self) -> bool {
        true
    }
}

macro_rules! int_constrainable {
    ($($ty:ty),*) => {$(
        impl Constrainable for $ty {
            const NUMBER_KIND: NumberKind = NumberKind::Integer;

            fn compare(&self, bound: Bound) -> Option<Ordering> {
                match bound {
                    Bound::Int(b) => Some((*self as i128).cmp(&b)),
                    Bound::Float(b) => (*self as f64).partial_cmp(&b),
                }
            }
            fn is_multiple_of(&self, divisor: Bound) -> Option<bool> {
                Some(match divisor {
                    Bound::Int(0) => false,
                    Bound::Int(d) => (*self as i128) % d == 0,
                    Bound::Float(d) => float_multiple(*self as f64, d),
                })
            }
        }
    )*};
}
int_constrainable!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);

impl Constrainable for u128 {
    const NUMBER_KIND: NumberKind = NumberKind::Integer;

    fn compare(&self, bound: Bound) -> Option<Ordering> {
        match bound {
            Bound::Int(b) if b < 0 => Some(Ordering::Greater),
            Bound::Int(b) => Some(self.cmp(&(b as u128))),
            Bound::Float(b) => (*self as f64).partial_cmp(&b),
        }
    }
}

/// pydantic's float test: the remainder of `value / divisor` is within 1e-9 of 0 or of 1.
fn float_multiple(value: f64, divisor: f64) -> bool {
    if divisor == 0.0 {
        return false;
    }
    let quotient = value / divisor;
    let remainder = quotient - quotient.floor();
    remainder.abs() < 1e-9 || (1.0 - remainder).abs() < 1e-9
}

macro_rules! float_constrainable {
    ($($ty:ty),*) => {$(
        impl Constrainable for $ty {
            const NUMBER_KIND: NumberKind = NumberKind::Float;

            fn compare(&self, bound: Bound) -> Option<Ordering> {
                let b = match bound {
                    Bound::Int(b) => b as f64,
                    Bound::Float(b) => b,
                };
                (*self as f64).partial_cmp(&b)
            }
            fn is_multiple_of(&self, divisor: Bound) -> Option<bool> {
                let d = match divisor {
                    Bound::Int(d) => d as f64,
                    Bound::Float(d) => d,
                };
                Some(float_multiple(*self as f64, d))
            }
        }
    )*};
}
float_constrainable!(f32, f64);

impl Constrainable for String {
    fn char_len(&self) -> Option<usize> {
        Some(self.chars().count())
    }
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Constrainable for bool {}
impl Constrainable for Value {}
impl<T> Constrainable for Vec<T> {
    const LIST: bool = true;

    fn item_len(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<K, V, S> Constrainable for std::collections::HashMap<K, V, S> {}
impl<K, V> Constrainable for std::collections::BTreeMap<K, V> {}
impl Constrainable for Map<String, Value> {}

impl<T: Constrainable> Constrainable for Option<T> {
    const NUMBER_KIND: NumberKind = T::NUMBER_KIND;
    const LIST: bool = T::LIST;

    fn compare(&self, bound: Bound) -> Option<Ordering> {
        self.as_ref().and_then(|v| v.compare(bound))
    }
    fn char_len(&self) -> Option<usize> {
        self.as_ref().and_then(|v| v.char_len())
    }
    fn item_len(&self) -> Option<usize> {
        self.as_ref().and_then(|v| v.item_len())
    }
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(|v| v.text())
    }
    fn is_multiple_of(&self, divisor: Bound) -> Option<bool> {
        self.as_ref().and_then(|v| v.is_multiple_of(divisor))
    }
    fn decimal_digits(&self) -> Option<(u32, u32)> {
        self.as_ref().and_then(|v| v.decimal_digits())
    }
    fn is_present(&self) -> bool {
        self.as_ref().is_some_and(|v| v.is_present())
    }
}

/// True for an array schema (a list's length is `minItems`/`maxItems`).
fn is_array(schema: &Map<String, Value>) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("array")
}

/// pydantic's `too_short` / `too_long` for a list of `len` items against the bound `n`.
fn list_length(len: usize, n: usize, at_least: bool) -> Option<Failure> {
    let (kind, words, key, fails) = if at_least {
        ("too_short", "at least", "min_length", len < n)
    } else {
        ("too_long", "at most", "max_length", len > n)
    };
    fails.then(|| {
        Failure::with_ctx(
            kind,
            format!(
                "List should have {words} {n} item{} after validation, not {len}",
                plural(n)
            ),
            json!({ "field_type": "List", key: n, "actual_length": len }),
        )
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Constraint {
    /// Check `value`; the first failed constraint's error, if any.
    pub fn check<T: Constrainable + ?Sized>(&self, value: &T) -> Option<Failure> {
        if !value.is_present() {
            return None;
        }
        let failed = |want: &[Ordering], kind, words: &str, key: &str, bound: Bound| {
            let ordering = value.compare(bound)?;
            if want.contains(&ordering) {
                return None;
            }
            let (text, shown) = bound.shown(T::NUMBER_KIND);
            Some(Failure::with_ctx(
                kind,
                format!("Input should be {words} {text}"),
                json!({ key: shown }),
            ))
        };
        match *self {
            Constraint::Ge(b) => failed(
                &[Ordering::Greater, Ordering::Equal],
                "greater_than_equal",
                "greater than or equal to",
                "ge",
                b,
            ),
            Constraint::Gt(b) => failed(&[Ordering::Greater], "greater_than", "greater than", "gt", b),
            Constraint::Le(b) => failed(
                &[Ordering::Less, Ordering::Equal],
                "less_than_equal",
                "less than or equal to",
                "le",
                b,
            ),
            Constraint::Lt(b) => failed(&[Ordering::Less], "less_than", "less than", "lt", b),
            Constraint::MinLength(n) if value.char_len().is_none() => list_length(value.item_len()?, n, true),
            Constraint::MaxLength(n) if value.char_len().is_none() => {
                list_length(value.item_len()?, n, false)
            }
            Constraint::MinLength(n) => {
                let len = value.char_len()?;
                (len < n).then(|| {
                    Failure::with_ctx(
                        "string_too_short",
                        format!("String should have at least {n} character{}", plural(n)),
                        json!({ "min_length": n }),
                    )
                })
            }
            Constraint::MaxLength(n) => {
                let len = value.char_len()?;
                (len > n).then(|| {
                    Failure::with_ctx(
                        "string_too_long",
                        format!("String should have at most {n} character{}", plural(n)),
                        json!({ "max_length": n }),
                    )
                })
            }
            Constraint::MultipleOf(d) => (!value.is_multiple_of(d)?).then(|| {
                let (text, shown) = d.shown(T::NUMBER_KIND);
                Failure::with_ctx(
                    "multiple_of",
                    format!("Input should be a multiple of {text}"),
                    json!({ "multiple_of": shown }),
                )
            }),
            Constraint::MaxDigits(_) | Constraint::DecimalPlaces(_) => None,
            #[cfg(feature = "pattern")]
            Constraint::Pattern(pattern) => pattern.check(value.text()?),
        }
    }

    /// The failure of `max_digits` and `decimal_places` among `constraints`, checked together in
    /// pydantic's order.
    fn decimal_failure<T: Constrainable + ?Sized>(constraints: &[Constraint], value: &T) -> Option<Failure> {
        let max_digits = constraints.iter().find_map(|c| match c {
            Constraint::MaxDigits(n) => Some(*n),
            _ => None,
        });
        let places = constraints.iter().find_map(|c| match c {
            Constraint::DecimalPlaces(n) => Some(*n),
            _ => None,
        });
        if (max_digits, places) == (None, None) || !value.is_present() {
            return None;
        }
        let (digits, decimals) = value.decimal_digits()?;
        let plural = |n: u32| plural(n as usize);
        if let Some(max) = max_digits.filter(|&max| digits > max) {
            return Some(Failure::with_ctx(
                "decimal_max_digits",
                format!(
                    "Decimal input should have no more than {max} digit{} in total",
                    plural(max)
                ),
                json!({ "max_digits": max }),
            ));
        }
        if let Some(max) = places.filter(|&max| decimals > max) {
            return Some(Failure::with_ctx(
                "decimal_max_places",
                format!(
                    "Decimal input should have no more than {max} decimal place{}",
                    plural(max)
                ),
                json!({ "decimal_places": max }),
            ));
        }
        let whole = max_digits?.checked_sub(places?)?;
        (digits - decimals > whole).then(|| {
            Failure::with_ctx(
                "decimal_whole_digits",
                format!(
                    "Decimal input should have no more than {whole} digit{} before the decimal point",
                    plural(whole)
                ),
                json!({ "whole_digits": whole }),
            )
        })
    }

    /// The first failure among `constraints`, in their order (the macros sort them into
    /// pydantic's; `max_digits` and `decimal_places` together, where the first of them is).
    pub fn check_all<T: Constrainable + ?Sized>(constraints: &[Constraint], value: &T) -> Option<Failure> {
        // The digit constraints are read together, where the first of them stands, so a list
        // without them is checked as before, in one pass.
        constraints.iter().find_map(|c| match c {
            Constraint::MaxDigits(_) | Constraint::DecimalPlaces(_) => {
                Self::decimal_failure(constraints, value)
            }
            _ => c.check(value),
        })
    }

    /// The `too_long` of a JSON array read as list type `T`, before its items are: pydantic
    /// stops reading a list once it is longer than its `max_length`.
    pub(crate) fn list_too_long<T: Constrainable>(
        constraints: &[Constraint],
        value: &Value,
    ) -> Option<Failure> {
        let Value::Array(items) = value else {
            return None;
        };
        if !T::LIST {
            return None;
        }
        constraints
            .iter()
            .filter(|c| matches!(c, Constraint::MaxLength(_)))
            .find_map(|c| c.check(items))
    }

    /// Add the JSON Schema keyword of this constraint to `schema`.
    pub fn annotate(&self, schema: &mut Map<String, Value>) {
        let (key, value) = match *self {
            Constraint::Ge(b) => ("minimum", b.to_json()),
            Constraint::Gt(b) => ("exclusiveMinimum", b.to_json()),
            Constraint::Le(b) => ("maximum", b.to_json()),
            Constraint::Lt(b) => ("exclusiveMaximum", b.to_json()),
            Constraint::MinLength(n) if is_array(schema) => ("minItems", json!(n)),
            Constraint::MaxLength(n) if is_array(schema) => ("maxItems", json!(n)),
            Constraint::MinLength(n) => ("minLength", json!(n)),
            Constraint::MaxLength(n) => ("maxLength", json!(n)),
            // As written, as FastAPI writes a parameter's; a model field's bounds are floats,
            // which the document's writer makes them (`openapi::order`).
            Constraint::MultipleOf(b) => ("multipleOf", b.to_json()),
            // pydantic's JSON Schema of a decimal shows neither.
            Constraint::MaxDigits(_) | Constraint::DecimalPlaces(_) => return,
            #[cfg(feature = "pattern")]
            Constraint::Pattern(pattern) => ("pattern", json!(pattern.source())),
        };
        schema.insert(key.to_owned(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_bounds_use_pydantic_words_and_ctx() {
        let err = Constraint::Ge(Bound::Int(0)).check(&-1i64).unwrap();
        assert_eq!(err.kind, "greater_than_equal");
        assert_eq!(err.msg, "Input should be greater than or equal to 0");
        assert_eq!(err.ctx, Some(json!({"ge": 0})));
        assert!(Constraint::Ge(Bound::Int(0)).check(&0i64).is_none());

        let err = Constraint::Gt(Bound::Int(0)).check(&0u8).unwrap();
        assert_eq!(
            (err.kind, err.msg.as_ref()),
            ("greater_than", "Input should be greater than 0")
        );
        let err = Constraint::Le(Bound::Int(10)).check(&11i32).unwrap();
        assert_eq!(err.msg, "Input should be less than or equal to 10");
        assert_eq!(err.ctx, Some(json!({"le": 10})));
        let err = Constraint::Lt(Bound::Float(2.5)).check(&2.5f64).unwrap();
        assert_eq!(
            (err.kind, err.msg.as_ref()),
            ("less_than", "Input should be less than 2.5")
        );
        assert_eq!(err.ctx, Some(json!({"lt": 2.5})));
        assert!(Constraint::Lt(Bound::Float(2.5)).check(&2.4f64).is_none());
        assert!(Constraint::Ge(Bound::Float(0.5)).check(&1i64).is_none());
    }

    #[test]
    fn bounds_are_spelled_by_the_values_kind_of_number() {
        // Recorded from pydantic 2.14 (tests/fastapi/constraints_observed.json).
        let err = Constraint::Gt(Bound::Int(0)).check(&0.0f64).unwrap();
        assert_eq!(err.msg, "Input should be greater than 0");
        assert_eq!(serde_json::to_string(&err.ctx).unwrap(), r#"{"gt":0.0}"#);
        let err = Constraint::Ge(Bound::Float(0.0)).check(&-1.0f64).unwrap();
        assert_eq!(err.msg, "Input should be greater than or equal to 0");
        assert_eq!(serde_json::to_string(&err.ctx).unwrap(), r#"{"ge":0.0}"#);
        let err = Constraint::Le(Bound::Float(1e20)).check(&1e21f64).unwrap();
        assert_eq!(
            err.msg,
            "Input should be less than or equal to 100000000000000000000"
        );
        let err = Constraint::Ge(Bound::Float(1.0)).check(&0i64).unwrap();
        assert_eq!(serde_json::to_string(&err.ctx).unwrap(), r#"{"ge":1}"#);
        let err = Constraint::MultipleOf(Bound::Int(2))
            .check(&Some(3.0f32))
            .unwrap();
        assert_eq!(err.msg, "Input should be a multiple of 2");
        assert_eq!(serde_json::to_string(&err.ctx).unwrap(), r#"{"multiple_of":2.0}"#);
    }

    #[test]
    fn string_lengths_count_characters() {
        let err = Constraint::MinLength(2).check(&"a".to_owned()).unwrap();
        assert_eq!(err.kind, "string_too_short");
        assert_eq!(err.msg, "String should have at least 2 characters");
        assert_eq!(err.ctx, Some(json!({"min_length": 2})));
        let err = Constraint::MinLength(1).check(&String::new()).unwrap();
        assert_eq!(err.msg, "String should have at least 1 character");
        let err = Constraint::MaxLength(3).check(&"abcd".to_owned()).unwrap();
        assert_eq!(err.kind, "string_too_long");
        assert_eq!(err.msg, "String should have at most 3 characters");
        assert!(Constraint::MaxLength(3).check(&"ééé".to_owned()).is_none());
    }

    #[test]
    fn absent_options_are_not_checked() {
        assert!(Constraint::Ge(Bound::Int(0)).check(&None::<i64>).is_none());
        assert!(Constraint::Ge(Bound::Int(0)).check(&Some(-1i64)).is_some());
    }

    #[test]
    fn schema_keywords() {
        let mut schema = Map::new();
        Constraint::Ge(Bound::Int(0)).annotate(&mut schema);
        Constraint::Lt(Bound::Float(2.5)).annotate(&mut schema);
        Constraint::MaxLength(3).annotate(&mut schema);
        assert_eq!(
            Value::Object(schema),
            json!({"minimum": 0, "exclusiveMaximum": 2.5, "maxLength": 3})
        );
    }

    #[test]
    fn multiples_lists_and_their_schema() {
        let err = Constraint::MultipleOf(Bound::Int(5)).check(&7i64).unwrap();
        assert_eq!(
            (err.kind, err.msg.as_ref()),
            ("multiple_of", "Input should be a multiple of 5")
        );
        assert_eq!(err.ctx, Some(json!({"multiple_of": 5})));
        assert!(Constraint::MultipleOf(Bound::Int(5)).check(&-15i64).is_none());
        assert!(Constraint::MultipleOf(Bound::Float(0.5)).check(&2.0f64).is_none());
        assert!(Constraint::MultipleOf(Bound::Float(0.5))
            .check(&1.25f64)
            .is_some());
        assert!(
            Constraint::MultipleOf(Bound::Float(0.1)).check(&0.3f64).is_none(),
            "within 1e-9"
        );

        let err = Constraint::MaxLength(3).check(&vec![1, 2, 3, 4]).unwrap();
        assert_eq!(err.kind, "too_long");
        assert_eq!(
            err.msg,
            "List should have at most 3 items after validation, not 4"
        );
        assert_eq!(
            err.ctx,
            Some(json!({"field_type": "List", "max_length": 3, "actual_length": 4}))
        );
        let err = Constraint::MinLength(1).check(&Vec::<String>::new()).unwrap();
        assert_eq!(
            err.msg,
            "List should have at least 1 item after validation, not 0"
        );

        let mut schema = Map::new();
        schema.insert("type".into(), json!("array"));
        Constraint::MinLength(1).annotate(&mut schema);
        Constraint::MultipleOf(Bound::Int(5)).annotate(&mut schema);
        assert_eq!(schema["minItems"], json!(1));
        assert_eq!(schema["multipleOf"], json!(5));
    }

    #[cfg(feature = "decimal")]
    #[test]
    fn digits_in_pydantics_order() {
        use rust_decimal::Decimal;
        let money = [Constraint::MaxDigits(5), Constraint::DecimalPlaces(2)];
        let check = |text: &str| {
            let value: Decimal = text.parse().unwrap();
            Constraint::check_all(&money, &value).map(|f| (f.kind, f.msg.into_owned()))
        };
        assert_eq!(check("123.45"), None);
        assert_eq!(check("12.300"), None, "counted normalized");
        assert_eq!(
            check("123.456"),
            Some((
                "decimal_max_digits",
                "Decimal input should have no more than 5 digits in total".into()
            ))
        );
        assert_eq!(
            check("0.001"),
            Some((
                "decimal_max_places",
                "Decimal input should have no more than 2 decimal places".into()
            ))
        );
        assert_eq!(
            check("1000"),
            Some((
                "decimal_whole_digits",
                "Decimal input should have no more than 3 digits before the decimal point".into()
            ))
        );
    }
}
