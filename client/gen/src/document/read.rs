//! Reading JSON into the typed document: a keyword of the wrong JSON type is a [`GenError`] at
//! the keyword's pointer, an absent one is `None`.
//!
//! Rules enforced here: only the keywords the generator uses are read (an unknown keyword, or
//! one it has no use for, is left alone, as a reader of a newer document must); ordered maps keep
//! the document's order (the generated code's order).

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::{child, GenError};

/// An object of the document and where it is: its keywords read one by one.
pub struct Object<'v> {
    /// The object.
    pub map: &'v Map<String, Value>,
    /// Its JSON pointer.
    pub pointer: &'v str,
}

impl<'v> Object<'v> {
    /// `value` (at `pointer`), which must be an object; `what` names it in the error.
    pub fn new(value: &'v Value, pointer: &'v str, what: &str) -> Result<Self, GenError> {
        match value {
            Value::Object(map) => Ok(Object { map, pointer }),
            _ => Err(GenError::at(pointer, format!("{what} must be an object"))),
        }
    }

    /// The pointer of keyword `key`.
    pub fn at(&self, key: &str) -> String {
        child(self.pointer, key)
    }

    /// The keyword's raw JSON (a default, an example, a constant: any JSON is right).
    pub fn value(&self, key: &str) -> Option<&'v Value> {
        self.map.get(key)
    }

    fn typed<T>(
        &self,
        key: &str,
        expected: &str,
        read: impl FnOnce(&'v Value) -> Option<T>,
    ) -> Result<Option<T>, GenError> {
        match self.map.get(key) {
            None => Ok(None),
            Some(value) => read(value)
                .map(Some)
                .ok_or_else(|| GenError::at(&self.at(key), format!("`{key}` must be {expected}"))),
        }
    }

    /// A string keyword.
    pub fn string(&self, key: &str) -> Result<Option<String>, GenError> {
        self.typed(key, "a string", |v| v.as_str().map(str::to_owned))
    }

    /// A boolean keyword.
    pub fn boolean(&self, key: &str) -> Result<Option<bool>, GenError> {
        self.typed(key, "a boolean", Value::as_bool)
    }

    /// A non-negative integer keyword.
    pub fn count(&self, key: &str) -> Result<Option<u64>, GenError> {
        self.typed(key, "a non-negative integer", Value::as_u64)
    }

    /// An array keyword's items.
    pub fn array(&self, key: &str) -> Result<Option<&'v Vec<Value>>, GenError> {
        self.typed(key, "an array", Value::as_array)
    }

    /// An array of strings.
    pub fn strings(&self, key: &str) -> Result<Option<Vec<String>>, GenError> {
        self.typed(key, "an array of strings", |v| {
            v.as_array()?
                .iter()
                .map(|item| item.as_str().map(str::to_owned))
                .collect()
        })
    }

    /// An object keyword.
    pub fn object(&self, key: &str) -> Result<Option<&'v Map<String, Value>>, GenError> {
        self.typed(key, "an object", Value::as_object)
    }

    /// An object keyword's entries, each read by `read` (given its value and pointer), in order.
    pub fn map<T>(
        &self,
        key: &str,
        mut read: impl FnMut(&Value, &str) -> Result<T, GenError>,
    ) -> Result<Option<IndexMap<String, T>>, GenError> {
        let Some(map) = self.object(key)? else {
            return Ok(None);
        };
        let pointer = self.at(key);
        let mut out = IndexMap::with_capacity(map.len());
        for (name, value) in map {
            out.insert(name.clone(), read(value, &child(&pointer, name))?);
        }
        Ok(Some(out))
    }

    /// An array keyword's items, each read by `read` (given its value and pointer).
    pub fn list<T>(
        &self,
        key: &str,
        mut read: impl FnMut(&Value, &str) -> Result<T, GenError>,
    ) -> Result<Option<Vec<T>>, GenError> {
        let Some(items) = self.array(key)? else {
            return Ok(None);
        };
        let pointer = self.at(key);
        let mut out = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            out.push(read(item, &child(&pointer, &index.to_string()))?);
        }
        Ok(Some(out))
    }

    /// A keyword read by `read` (given its value and pointer).
    pub fn with<T>(
        &self,
        key: &str,
        read: impl FnOnce(&Value, &str) -> Result<T, GenError>,
    ) -> Result<Option<T>, GenError> {
        self.map
            .get(key)
            .map(|value| read(value, &self.at(key)))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_keyword_of_the_wrong_type_names_its_pointer() {
        let value = json!({"name": 5, "tags": ["a", 1], "ok": "x", "items": {"b": 1, "a": 2}});
        let object = Object::new(&value, "#/x", "a thing").unwrap();
        assert_eq!(
            object.string("name").unwrap_err(),
            GenError::at("#/x/name", "`name` must be a string")
        );
        assert_eq!(object.strings("tags").unwrap_err().pointer, "#/x/tags");
        assert_eq!(object.string("ok").unwrap().as_deref(), Some("x"));
        assert_eq!(object.string("absent").unwrap(), None);
        let keys: Vec<String> = object
            .map("items", |_, pointer| Ok(pointer.to_owned()))
            .unwrap()
            .unwrap()
            .into_values()
            .collect();
        assert_eq!(keys, ["#/x/items/b", "#/x/items/a"], "the document's order");
        assert_eq!(
            Object::new(&json!([]), "#/y", "a thing").err().unwrap(),
            GenError::at("#/y", "a thing must be an object")
        );
    }
}
