//! The fast path for JSON bodies: deserialize straight from the bytes into the target type,
//! strictly, without building a `serde_json::Value` first.
//!
//! Rules enforced here:
//! - the fast path only ever *accepts*: any input it is not sure about (a lax conversion such as
//!   `"12.5"` for a float, a missing required field, a constraint violation, a non-finite
//!   number, invalid UTF-8, too deep nesting) makes it fail, and the caller re-validates through
//!   the lax `FromJson` path, which produces the exact pydantic errors;
//! - so for every input it accepts, the result equals what the lax path would produce.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::BuildHasher;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::json_tree::TreeSeed;

/// Strict deserialization straight from JSON text. The default refuses, sending every body of
/// the type through the lax path.
///
/// An extension point: implement it for a type of your own, as the manual's
/// [custom types chapter](crate#custom-parameter-and-field-types) shows with a compiled example.
// The same words as `FromJson`'s, so a field type lacking both is reported once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a JSON body",
    label = "not a JSON field type",
    note = "model fields are scalars, String, Option<T>, Vec<T>, maps with String keys, serde_json::Value, or types deriving `Model` or `StrEnum`"
)]
pub trait FastJson: Sized {
    /// Deserialize strictly, or fail.
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let _ = deserializer;
        Err(D::Error::custom("no fast path"))
    }

    /// The most bytes reading the body `text` on the fast path can hold at once: what the
    /// server's memory budget is charged before it runs
    /// ([`Config::memory_budget`](crate::Config::memory_budget)). The default is what a
    /// `serde_json::Value` tree of the text can hold (about 40 bytes per byte at most, a few for
    /// ordinary documents): a bound for the framework's field types and the models made of them.
    /// A type that reads the text without a value per element (a raw text, a count) returns its
    /// own bound.
    fn fast_cost(text: &[u8]) -> usize {
        super::json_tree::tree_peak(text)
    }
}

/// A `DeserializeSeed` for any [`FastJson`] type.
pub struct FastSeed<T>(PhantomData<T>);

impl<T> FastSeed<T> {
    /// The seed.
    pub fn new() -> Self {
        FastSeed(PhantomData)
    }
}

impl<T> Default for FastSeed<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: FastJson> DeserializeSeed<'de> for FastSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::fast(deserializer)
    }
}

/// Deserialize `bytes` (a whole JSON text) as `T` on the fast path; `None` when it declines.
pub(crate) fn from_slice<T: FastJson>(bytes: &[u8]) -> Option<T> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = T::fast(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(value)
}

/// Skips a value the model does not have, through `deserialize_any` so that nesting counts
/// against serde_json's depth limit exactly as when parsing into a `Value` (serde's `IgnoredAny`
/// would accept nesting the lax path refuses).
pub struct Skip;

impl<'de> DeserializeSeed<'de> for Skip {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Skip)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(Skip)?.is_some() {
            map.next_value_seed(Skip)?;
        }
        Ok(())
    }
}

macro_rules! via_deserialize {
    ($($ty:ty),*) => {$(
        impl FastJson for $ty {
            fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <$ty>::deserialize(deserializer)
            }
        }
    )*};
}
via_deserialize!(String, bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f64);

// Trees are read compactly (`json_tree.rs`), as the lax path reads them.
impl FastJson for Value {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        TreeSeed.deserialize(deserializer)
    }
}

impl FastJson for Map<String, Value> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_map(TreeSeed)? {
            Value::Object(map) => Ok(map),
            _ => Err(D::Error::custom("not an object")),
        }
    }
}

impl FastJson for f32 {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(deserializer)? as f32;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(D::Error::custom("not a finite f32"))
        }
    }
}

impl<T: FastJson> FastJson for Option<T> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OptionVisitor<T>(PhantomData<T>);
        impl<'de, T: FastJson> Visitor<'de> for OptionVisitor<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value or null")
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
                T::fast(deserializer).map(Some)
            }
        }
        deserializer.deserialize_option(OptionVisitor(PhantomData))
    }
}

impl<T: FastJson> FastJson for Vec<T> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SeqVisitor<T>(PhantomData<T>);
        impl<'de, T: FastJson> Visitor<'de> for SeqVisitor<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
                while let Some(item) = seq.next_element_seed(FastSeed::<T>::new())? {
                    out.push(item);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_seq(SeqVisitor(PhantomData))
    }
}

fn fast_map<'de, D, T, M>(
    deserializer: D,
    mut insert: impl FnMut(&mut M, String, T),
    init: M,
) -> Result<M, D::Error>
where
    D: Deserializer<'de>,
    T: FastJson,
{
    struct MapVisitor<'f, T, M, F: FnMut(&mut M, String, T)> {
        init: M,
        insert: &'f mut F,
        item: PhantomData<T>,
    }
    impl<'de, T: FastJson, M, F: FnMut(&mut M, String, T)> Visitor<'de> for MapVisitor<'_, T, M, F> {
        type Value = M;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a dictionary")
        }
        fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<M, A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                let value = map.next_value_seed(FastSeed::<T>::new())?;
                (self.insert)(&mut self.init, key, value);
            }
            Ok(self.init)
        }
    }
    deserializer.deserialize_map(MapVisitor {
        init,
        insert: &mut insert,
        item: PhantomData,
    })
}

impl<T: FastJson, S: BuildHasher + Default> FastJson for HashMap<String, T, S> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        fast_map(
            deserializer,
            |m: &mut Self, k, v| drop(m.insert(k, v)),
            HashMap::default(),
        )
    }
}

impl<T: FastJson> FastJson for BTreeMap<String, T> {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        fast_map(
            deserializer,
            |m: &mut Self, k, v| drop(m.insert(k, v)),
            BTreeMap::new(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_scalars() {
        assert_eq!(from_slice::<f64>(b"3"), Some(3.0));
        assert_eq!(from_slice::<f64>(b"\"3\""), None, "lax conversions decline");
        assert_eq!(from_slice::<i64>(b"12.0"), None);
        assert_eq!(from_slice::<u8>(b"300"), None);
        assert_eq!(from_slice::<f32>(b"1e300"), None);
        assert_eq!(from_slice::<String>(br#""a\nb""#), Some("a\nb".to_owned()));
        assert_eq!(from_slice::<bool>(b"true"), Some(true));
        assert_eq!(from_slice::<i64>(b"1 x"), None, "trailing data declines");
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        let mut deserializer = serde_json::Deserializer::from_str(&deep);
        assert!(
            Skip.deserialize(&mut deserializer).is_err(),
            "skipping obeys the same depth limit"
        );
    }

    #[test]
    fn containers() {
        assert_eq!(from_slice::<Option<i64>>(b"null"), Some(None));
        assert_eq!(from_slice::<Vec<i64>>(b"[1,2]"), Some(vec![1, 2]));
        assert_eq!(from_slice::<Vec<i64>>(b"[1,\"2\"]"), None);
        let map = from_slice::<BTreeMap<String, i64>>(br#"{"a":1,"b":2}"#).unwrap();
        assert_eq!(map.get("b"), Some(&2));
        assert_eq!(from_slice::<HashMap<String, i64>>(b"[]"), None);
    }
}
