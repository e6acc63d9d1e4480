//! [`Nullable<T>`]: a value that must be sent and may be null, pydantic's `str | None` without a
//! default (`Option<T>` is the one that may also be absent).
//!
//! Rules enforced here (recorded from pydantic 2.14, tests/fastapi/constraints_observed.json):
//! - as a model field: absent is `missing` (the whole object as `input`), `null` is `None`, any
//!   other value is read as `T` with `T`'s errors and constraints; the field is in `required`;
//! - as a query parameter (see `extract`): absent is `missing`, a value is read as `T`;
//! - its schema is `anyOf: [T, {"type": "null"}]`, without a `default`; it is written as an
//!   `Option<T>` is (`null` or the value).

use std::cmp::Ordering;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::constraint::{Bound, Constrainable, NumberKind};
use super::error::{Loc, ValidationErrors};
use super::fast_json::FastJson;
use super::json::FromJson;
use super::schema::{nullable, JsonSchema, SchemaRegistry};

/// A value the client must send, and may send as `null` (pydantic's `str | None` with no
/// default): `next: Nullable<String>` is required, and `None` when it is `null`. Its value is the
/// `Option` inside (`.0`, or through `Deref`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Nullable<T>(pub Option<T>);

impl<T> Nullable<T> {
    /// The value, `None` when it was `null`.
    pub fn into_inner(self) -> Option<T> {
        self.0
    }
}

impl<T> std::ops::Deref for Nullable<T> {
    type Target = Option<T>;
    fn deref(&self) -> &Option<T> {
        &self.0
    }
}

impl<T> From<Option<T>> for Nullable<T> {
    fn from(value: Option<T>) -> Self {
        Nullable(value)
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Nullable)
    }
}

impl<T: FromJson> FromJson for Nullable<T> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        match value {
            Value::Null => Some(Nullable(None)),
            _ => T::from_json(value, loc, errors).map(|v| Nullable(Some(v))),
        }
    }
    // Required: an absent value is `missing` (the defaults of `when_absent` and `REQUIRED`).
}

impl<T: FastJson> FastJson for Nullable<T> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::fast(deserializer).map(Nullable)
    }
}

impl<T: JsonSchema> JsonSchema for Nullable<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        nullable(T::schema(registry))
    }

    fn python_name() -> String {
        format!("Union[{}, NoneType]", T::python_name())
    }
}

impl<T: Constrainable> Constrainable for Nullable<T> {
    const NUMBER_KIND: NumberKind = T::NUMBER_KIND;
    const LIST: bool = T::LIST;

    fn compare(&self, bound: Bound) -> Option<Ordering> {
        self.0.compare(bound)
    }
    fn char_len(&self) -> Option<usize> {
        self.0.char_len()
    }
    fn item_len(&self) -> Option<usize> {
        self.0.item_len()
    }
    fn text(&self) -> Option<&str> {
        self.0.text()
    }
    fn is_multiple_of(&self, divisor: Bound) -> Option<bool> {
        self.0.is_multiple_of(divisor)
    }
    fn decimal_digits(&self) -> Option<(u32, u32)> {
        self.0.decimal_digits()
    }
    fn is_present(&self) -> bool {
        self.0.is_present()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn null_is_none_and_absence_is_missing() {
        let read = |value: Value| {
            let mut errors = ValidationErrors::new();
            Nullable::<i64>::from_json(&value, &mut Loc::new(), &mut errors).map(Nullable::into_inner)
        };
        assert_eq!(read(json!(null)), Some(None));
        assert_eq!(read(json!(5)), Some(Some(5)));
        assert_eq!(read(json!("x")), None);
        const { assert!(<Nullable<i64> as FromJson>::REQUIRED) };
        assert!(<Nullable<i64> as FromJson>::when_absent().is_none());
        assert_eq!(
            Nullable::<String>::schema(&mut SchemaRegistry::new()),
            json!({ "anyOf": [{ "type": "string" }, { "type": "null" }] })
        );
    }
}
