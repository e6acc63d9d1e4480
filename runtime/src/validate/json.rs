//! Validating JSON body values into Rust types, as pydantic v2's lax mode does.
//!
//! Rules enforced here:
//! - strings accept only JSON strings (`12` for a str field is `string_type`);
//! - floats accept numbers and numeric strings (`"12.5"`), integers accept integers, floats without
//!   a fractional part and integer strings; booleans accept pydantic's string and 0/1 forms;
//! - every failure is recorded with its location and the offending input, and validation goes on
//!   so that one response lists all of them;
//! - an absent field is `missing` unless its type has a natural absence (`Option` → `None`).

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use serde_json::{Map, Number, Value};

use super::constraint::{Constrainable, Constraint};
use super::convert::{int_out_of_range, is_integer_literal, not_finite, FromParam};
use super::error::{Failure, Loc, LocItem, ValidationErrors};
use super::fast_json::FastJson;
use super::schema::JsonSchema;

/// A type a JSON body value can be validated into.
///
/// An extension point: implement it for a type of your own, as the manual's
/// [custom types chapter](crate#custom-parameter-and-field-types) shows with a compiled example.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a JSON body",
    label = "not a JSON field type",
    note = "model fields are scalars, String, Option<T>, Vec<T>, maps with String keys, serde_json::Value, or types deriving `Model` or `StrEnum`"
)]
pub trait FromJson: Sized + JsonSchema + Constrainable + FastJson {
    /// Validate `value` found at `loc`; on failure record errors and return `None`.
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self>;

    /// The value of an absent field, if the type has one (`Option` is `None`).
    fn when_absent() -> Option<Self> {
        None
    }

    /// False when the field may be omitted (its schema is not `required`).
    const REQUIRED: bool = true;
}

/// Record `failure` at `loc` with `input`.
pub(super) fn record(errors: &mut ValidationErrors, loc: &Loc, failure: Failure, input: &Value) {
    errors.push(failure.at(loc.clone(), input.clone()));
}

/// Validate field `key` of `object` (the model's input), with an optional default and constraints.
pub fn field<T: FromJson>(
    object: &Map<String, Value>,
    key: &'static str,
    default: Option<fn() -> T>,
    constraints: &[Constraint],
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<T> {
    loc.push(LocItem::Static(key));
    let result = match object.get(key) {
        Some(value) => {
            if let Some(failure) = Constraint::list_too_long::<T>(constraints, value) {
                record(errors, loc, failure, value);
                loc.pop();
                return None;
            }
            T::from_json(value, loc, errors).and_then(|v| match Constraint::check_all(constraints, &v) {
                Some(failure) => {
                    record(errors, loc, failure, value);
                    None
                }
                None => Some(v),
            })
        }
        None => match default.map(|f| f()).or_else(T::when_absent) {
            Some(v) => Some(v),
            None => {
                // pydantic reports the whole model input for a missing field.
                errors.push(
                    Failure::new("missing", "Field required").at(loc.clone(), Value::Object(object.clone())),
                );
                None
            }
        },
    };
    loc.pop();
    result
}

impl FromJson for String {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        match value {
            Value::String(s) => Some(s.clone()),
            _ => {
                record(
                    errors,
                    loc,
                    Failure::new("string_type", "Input should be a valid string"),
                    value,
                );
                None
            }
        }
    }
}

impl FromJson for bool {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let parsed = match value {
            Value::Bool(b) => Ok(*b),
            Value::Number(n) => match n.as_i64() {
                Some(0) => Ok(false),
                Some(1) => Ok(true),
                _ => Err(Failure::new(
                    "bool_parsing",
                    "Input should be a valid boolean, unable to interpret input",
                )),
            },
            Value::String(s) => {
                let lower = s.to_ascii_lowercase();
                match lower.as_str() {
                    "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
                    "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
                    _ => Err(Failure::new(
                        "bool_parsing",
                        "Input should be a valid boolean, unable to interpret input",
                    )),
                }
            }
            _ => Err(Failure::new("bool_type", "Input should be a valid boolean")),
        };
        parsed.map_err(|f| record(errors, loc, f, value)).ok()
    }
}

fn int_from_json<T: FromParam + TryFrom<i64> + TryFrom<u64>>(
    value: &Value,
    range: fn() -> Failure,
) -> Result<T, Failure> {
    let from_number = |n: &Number| -> Result<T, Failure> {
        if let Some(i) = n.as_i64() {
            T::try_from(i).map_err(|_| range())
        } else if let Some(u) = n.as_u64() {
            T::try_from(u).map_err(|_| range())
        } else {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() != 0.0 {
                Err(Failure::new(
                    "int_from_float",
                    "Input should be a valid integer, got a number with a fractional part",
                ))
            } else if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
                T::try_from(f as i64).map_err(|_| range())
            } else {
                Err(range())
            }
        }
    };
    match value {
        Value::Number(n) => from_number(n),
        Value::String(s) => {
            let trimmed = s.trim();
            if is_integer_literal(trimmed) {
                T::from_param(trimmed)
            } else {
                Err(Failure::new(
                    "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer",
                ))
            }
        }
        Value::Bool(b) => T::try_from(i64::from(*b)).map_err(|_| range()),
        _ => Err(Failure::new("int_type", "Input should be a valid integer")),
    }
}

macro_rules! int_from_json {
    ($($ty:ty),*) => {$(
        impl FromJson for $ty {
            fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
                int_from_json::<$ty>(value, || int_out_of_range(<$ty>::MIN, <$ty>::MAX))
                    .map_err(|f| record(errors, loc, f, value))
                    .ok()
            }
        }
    )*};
}
int_from_json!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! float_from_json {
    ($($ty:ty),*) => {$(
        impl FromJson for $ty {
            fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
                let parsed = match value {
                    Value::Number(n) => match n.as_f64() {
                        Some(f) if (f as $ty).is_finite() => Ok(f as $ty),
                        _ => Err(not_finite()),
                    },
                    Value::String(s) => <$ty>::from_param(s.trim()),
                    Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
                    _ => Err(Failure::new("float_type", "Input should be a valid number")),
                };
                parsed.map_err(|f| record(errors, loc, f, value)).ok()
            }
        }
    )*};
}
float_from_json!(f32, f64);

impl FromJson for Value {
    fn from_json(value: &Value, _loc: &mut Loc, _errors: &mut ValidationErrors) -> Option<Self> {
        Some(value.clone())
    }
}

impl FromJson for Map<String, Value> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        match value {
            Value::Object(map) => Some(map.clone()),
            _ => {
                record(
                    errors,
                    loc,
                    Failure::new("dict_type", "Input should be a valid dictionary"),
                    value,
                );
                None
            }
        }
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            _ => T::from_json(value, loc, errors).map(Some),
        }
    }

    fn when_absent() -> Option<Self> {
        Some(None)
    }

    const REQUIRED: bool = false;
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let Value::Array(items) = value else {
            record(
                errors,
                loc,
                Failure::new("list_type", "Input should be a valid list"),
                value,
            );
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (index, item) in items.iter().enumerate() {
            loc.push(LocItem::Index(index));
            match T::from_json(item, loc, errors) {
                Some(v) => out.push(v),
                None => ok = false,
            }
            loc.pop();
        }
        ok.then_some(out)
    }
}

fn map_from_json<T: FromJson>(
    value: &Value,
    loc: &mut Loc,
    errors: &mut ValidationErrors,
    mut insert: impl FnMut(String, T),
) -> bool {
    let Value::Object(entries) = value else {
        record(
            errors,
            loc,
            Failure::new("dict_type", "Input should be a valid dictionary"),
            value,
        );
        return false;
    };
    let mut ok = true;
    for (key, item) in entries {
        loc.push(LocItem::Owned(key.clone()));
        match T::from_json(item, loc, errors) {
            Some(v) => insert(key.clone(), v),
            None => ok = false,
        }
        loc.pop();
    }
    ok
}

impl<T: FromJson, S: BuildHasher + Default> FromJson for HashMap<String, T, S> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let mut out = HashMap::default();
        map_from_json(value, loc, errors, |k, v| {
            out.insert(k, v);
        })
        .then_some(out)
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let mut out = BTreeMap::new();
        map_from_json(value, loc, errors, |k, v| {
            out.insert(k, v);
        })
        .then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check<T: FromJson>(value: Value) -> Result<T, Vec<(String, String)>> {
        let mut errors = ValidationErrors::new();
        let mut loc = vec![LocItem::Static("body"), LocItem::Static("f")];
        T::from_json(&value, &mut loc, &mut errors).ok_or_else(|| {
            errors
                .items()
                .iter()
                .map(|e| (e.kind.to_string(), e.msg.to_string()))
                .collect()
        })
    }

    fn kind<T: FromJson + std::fmt::Debug>(value: Value) -> String {
        check::<T>(value).unwrap_err()[0].0.clone()
    }

    #[test]
    fn strings_are_strict() {
        assert_eq!(check::<String>(json!("a")), Ok("a".to_owned()));
        assert_eq!(kind::<String>(json!(12)), "string_type");
        assert_eq!(kind::<String>(json!(null)), "string_type");
    }

    #[test]
    fn floats_are_lax() {
        assert_eq!(check::<f64>(json!(3)), Ok(3.0));
        assert_eq!(check::<f64>(json!("12.5")), Ok(12.5));
        assert_eq!(kind::<f64>(json!("abc")), "float_parsing");
        assert_eq!(kind::<f64>(json!(null)), "float_type");
        assert_eq!(kind::<f64>(json!([])), "float_type");
        assert_eq!(kind::<f32>(json!(1e300)), "finite_number");
    }

    #[test]
    fn integers_are_lax() {
        assert_eq!(check::<i64>(json!(12)), Ok(12));
        assert_eq!(check::<i64>(json!(12.0)), Ok(12));
        assert_eq!(check::<i64>(json!("12")), Ok(12));
        assert_eq!(kind::<i64>(json!(12.5)), "int_from_float");
        assert_eq!(kind::<i64>(json!("12.5")), "int_parsing");
        assert_eq!(kind::<i64>(json!(null)), "int_type");
        assert_eq!(kind::<u8>(json!(300)), "int_out_of_range");
        assert_eq!(kind::<i64>(json!(1e20)), "int_out_of_range");
        assert_eq!(check::<u64>(json!(u64::MAX)), Ok(u64::MAX));
    }

    #[test]
    fn bools_accept_pydantic_forms() {
        assert_eq!(check::<bool>(json!(true)), Ok(true));
        assert_eq!(check::<bool>(json!("yes")), Ok(true));
        assert_eq!(check::<bool>(json!(0)), Ok(false));
        assert_eq!(kind::<bool>(json!("maybe")), "bool_parsing");
        assert_eq!(kind::<bool>(json!(null)), "bool_type");
    }

    #[test]
    fn containers_report_each_bad_element() {
        let errors = check::<Vec<i64>>(json!([1, "x", 3, "y"])).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(kind::<Vec<i64>>(json!({})), "list_type");
        assert_eq!(
            check::<HashMap<String, i64>>(json!({"a": 1})).unwrap().get("a"),
            Some(&1)
        );
        assert_eq!(kind::<BTreeMap<String, i64>>(json!([])), "dict_type");
        assert_eq!(check::<Option<i64>>(json!(null)), Ok(None));
    }

    #[test]
    fn locations_include_indices_and_keys() {
        let mut errors = ValidationErrors::new();
        let mut loc = vec![LocItem::Static("body")];
        let _ = BTreeMap::<String, Vec<i64>>::from_json(&json!({"k": [1, "x"]}), &mut loc, &mut errors);
        assert_eq!(
            errors.items()[0].loc,
            vec![
                LocItem::Static("body"),
                LocItem::Owned("k".into()),
                LocItem::Index(1)
            ]
        );
        assert!(loc.len() == 1, "the location stack is restored");
    }
}
