//! [`Nullable`]: a property that is absent, `null` or a value — three states JSON tells apart and
//! `Option` cannot.
//!
//! Rules enforced here: `null` reads as [`Nullable::Null`] and an absent property (with serde's
//! `default`) as [`Nullable::Absent`]; a struct field skips an absent value
//! (`skip_serializing_if = "Nullable::is_absent"`) and writes `null` for `Null`, so a request says
//! exactly what its author chose. Why an own type and not `Option<Option<T>>`: the nested option
//! needs a `with` module on every field to read `null` as `Some(None)` (serde reads it as `None`,
//! the same as absent, without one), and `Some(None)` reads as nothing; three named states say
//! what they mean, and the field's attributes are the same two as an `Option`'s.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A property that is not required and may be `null`: absent, `null`, or a value. Generated
/// clients use it for every such property (an `Option` could not tell `null` from absent: an
/// error's `input` that was `null`, a field a request sets to `null` to clear it, or leaves out
/// to keep its default).
///
/// ```
/// use ferrapi_client::Nullable;
///
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Patch {
///     #[serde(default, skip_serializing_if = "Nullable::is_absent")]
///     note: Nullable<String>,
/// }
///
/// let read = |json: &str| serde_json::from_str::<Patch>(json).unwrap().note;
/// assert_eq!(read("{}"), Nullable::Absent);
/// assert_eq!(read(r#"{"note": null}"#), Nullable::Null);
/// assert_eq!(read(r#"{"note": "hi"}"#), Nullable::Value("hi".to_owned()));
///
/// let write = |note| serde_json::to_string(&Patch { note }).unwrap();
/// assert_eq!(write(Nullable::Absent), "{}");
/// assert_eq!(write(Nullable::Null), r#"{"note":null}"#);
/// assert_eq!(write("hi".to_owned().into()), r#"{"note":"hi"}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nullable<T> {
    /// The property is not there (left out when sending).
    Absent,
    /// The property is `null`.
    Null,
    /// The property has a value.
    Value(T),
}

impl<T> Nullable<T> {
    /// The property is not there.
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }

    /// The property is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Nullable::Null)
    }

    /// The property has a value.
    pub fn is_value(&self) -> bool {
        matches!(self, Nullable::Value(_))
    }

    /// The value, if there is one (`Absent` and `Null` both `None`).
    pub fn as_option(&self) -> Option<&T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Absent | Nullable::Null => None,
        }
    }

    /// The value, if there is one (`Absent` and `Null` both `None`).
    pub fn into_option(self) -> Option<T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Absent | Nullable::Null => None,
        }
    }

    /// A reference to the value, in the same state.
    pub fn as_ref(&self) -> Nullable<&T> {
        match self {
            Nullable::Absent => Nullable::Absent,
            Nullable::Null => Nullable::Null,
            Nullable::Value(value) => Nullable::Value(value),
        }
    }

    /// The value changed by `f`, in the same state.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Nullable<U> {
        match self {
            Nullable::Absent => Nullable::Absent,
            Nullable::Null => Nullable::Null,
            Nullable::Value(value) => Nullable::Value(f(value)),
        }
    }
}

/// `Absent`: a property left out unless set.
impl<T> Default for Nullable<T> {
    fn default() -> Self {
        Nullable::Absent
    }
}

/// A value.
impl<T> From<T> for Nullable<T> {
    fn from(value: T) -> Self {
        Nullable::Value(value)
    }
}

/// `None` is `null` (an `Option` is "a value or `null`"); to leave a property out, use
/// [`Nullable::Absent`].
impl<T> From<Option<T>> for Nullable<T> {
    fn from(value: Option<T>) -> Self {
        match value {
            Some(value) => Nullable::Value(value),
            None => Nullable::Null,
        }
    }
}

/// The value, if there is one.
impl<T> From<Nullable<T>> for Option<T> {
    fn from(value: Nullable<T>) -> Self {
        value.into_option()
    }
}

/// `Null` and `Absent` write `null` (a struct field skips `Absent` before it gets here).
impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Value(value) => serializer.serialize_some(value),
            Nullable::Absent | Nullable::Null => serializer.serialize_none(),
        }
    }
}

/// `null` is `Null`, anything else the value; `Absent` is serde's `default` for a missing field.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Nullable::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Nullable;

    #[test]
    fn any_json_keeps_null_apart_from_absent() {
        // `input` of a validation error is any JSON: `null` must not read as "not sent".
        #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq)]
        struct Error {
            #[serde(default, skip_serializing_if = "Nullable::is_absent")]
            input: Nullable<serde_json::Value>,
        }
        let read = |json: &str| serde_json::from_str::<Error>(json).map(|error| error.input).ok();
        assert_eq!(read("{}"), Some(Nullable::Absent));
        assert_eq!(read(r#"{"input":null}"#), Some(Nullable::Null));
        assert_eq!(
            read(r#"{"input":[1]}"#),
            Some(Nullable::Value(serde_json::json!([1])))
        );
        for json in ["{}", r#"{"input":null}"#, r#"{"input":{"a":1}}"#] {
            let error: Error = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(serde_json::to_string(&error).ok().as_deref(), Some(json));
        }
    }

    #[test]
    fn options_and_values_convert() {
        assert_eq!(Nullable::from(Some(1)), Nullable::Value(1));
        assert_eq!(Nullable::<i32>::from(None), Nullable::Null);
        assert_eq!(Nullable::<i32>::default(), Nullable::Absent);
        assert_eq!(Option::from(Nullable::Value(2)), Some(2));
        assert_eq!(Nullable::<i32>::Null.into_option(), None);
        assert_eq!(Nullable::Value(2).map(|n| n * 2), Nullable::Value(4));
    }
}
