//! [`Strict`]: a value read as pydantic reads it in strict mode (`Annotated[date, Strict()]`),
//! chosen by the type of a field or parameter, never by a flag checked per request.
//!
//! Rules enforced here:
//! - a JSON value of the wrong JSON type is the type error (`date_type`, `datetime_type`, ...):
//!   no number is a timestamp, no boolean a number;
//! - a JSON string, and a parameter's text, are read by the strict reader of `T`
//!   ([`StrictValue`]), whose errors are pydantic's strict-mode errors for JSON input;
//! - a `Strict<T>` is `T` everywhere else: the same JSON Schema, written back the same way, with
//!   the same constraints, and it dereferences to `T`;
//! - the fast path of a body reads the string and runs the same reader, so it accepts exactly
//!   what the checked path accepts.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::validate::constraint::{Bound, Constrainable};
use crate::validate::error::{Failure, Loc, ValidationErrors};
use crate::validate::{FastJson, FromJson, FromParam, JsonSchema, SchemaRegistry};

/// `T` read as pydantic reads it in strict mode: only a JSON string (or a parameter's text), in
/// the form pydantic's strict mode takes for JSON input. Write `Strict<NaiveDate>` where pydantic
/// writes `Annotated[date, Strict()]`; the value is `.0` (or through `Deref`). See the manual's
/// [Types](crate#types) for what each type accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Strict<T>(pub T);

/// A type with a strict reading, for [`Strict`]: the date and time types of `chrono`.
/// Sealed: the readings are pydantic's, replayed from its recorded answers.
pub trait StrictValue: Sized + sealed::Sealed {
    /// Read text (a JSON string, or a parameter's value) strictly.
    fn from_strict_text(raw: &str) -> Result<Self, Failure>;
    /// The error of a JSON value that is not a string.
    fn type_error() -> Failure;
}

pub(super) mod sealed {
    /// Keeps [`super::StrictValue`] to the types whose strict reading is pydantic's.
    pub trait Sealed {}
}

impl<T> Strict<T> {
    /// The value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Strict<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<T> for Strict<T> {
    fn from(value: T) -> Self {
        Strict(value)
    }
}

impl<T: fmt::Display> fmt::Display for Strict<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Serialize> Serialize for Strict<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<T: JsonSchema> JsonSchema for Strict<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        T::schema(registry)
    }

    /// pydantic's name of `Annotated[T, Strict()]`, so `Page<Strict<NaiveDate>>` is keyed
    /// `Page_Annotated_date__Strict_strict_True___` as pydantic 2.14 keys it.
    fn python_name() -> String {
        format!("Annotated[{}, Strict(strict=True)]", T::python_name())
    }
}

impl<T: Constrainable> Constrainable for Strict<T> {
    const NUMBER_KIND: crate::validate::NumberKind = T::NUMBER_KIND;
    const LIST: bool = T::LIST;

    fn compare(&self, bound: Bound) -> Option<std::cmp::Ordering> {
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
}

impl<T: StrictValue + JsonSchema + Constrainable + Serialize> FromParam for Strict<T> {
    fn from_param(raw: &str) -> Result<Self, Failure> {
        T::from_strict_text(raw).map(Strict)
    }
}

impl<T: StrictValue + JsonSchema + Constrainable> FromJson for Strict<T> {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let read = match value {
            Value::String(text) => T::from_strict_text(text),
            _ => Err(T::type_error()),
        };
        read.map(Strict)
            .map_err(|failure| errors.push(failure.at(loc.clone(), value.clone())))
            .ok()
    }
}

impl<T: StrictValue> FastJson for Strict<T> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Anything but a string fails here and is reported by `from_json`.
        let text = Cow::<'de, str>::deserialize(deserializer)?;
        T::from_strict_text(&text)
            .map(Strict)
            .map_err(|failure| serde::de::Error::custom(failure.msg))
    }
}
