//! A form body (`application/x-www-form-urlencoded`) from any serializable model.
//!
//! Rules enforced here: the model's fields are written in their order, as FastAPI reads form
//! fields: a string as it is, a number or a boolean as its JSON text, a list once per item, a
//! null or absent field not at all, an object (which FastAPI reads from a form only as JSON
//! text) as its JSON; anything but an object at the top is refused.

use serde::Serialize;
use serde_json::Value;

/// `value`'s fields, form-encoded.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    let Value::Object(fields) = serde_json::to_value(value).map_err(|error| error.to_string())? else {
        return Err("a form body must be an object of fields".to_owned());
    };
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (name, value) in &fields {
        match value {
            Value::Array(items) => {
                for item in items {
                    form.append_pair(name, &text(item));
                }
            }
            Value::Null => {}
            other => {
                form.append_pair(name, &text(other));
            }
        }
    }
    Ok(form.finish())
}

/// One field's text.
pub(crate) fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_as_fastapi_reads_them() {
        let body = json!({"username": "ada l", "remember": true, "age": null, "tag": ["a", "b"], "n": 3});
        // The order of the fields is the map's (serde_json's `preserve_order` keeps the model's).
        let mut pairs: Vec<String> = encode(&body).unwrap().split('&').map(str::to_owned).collect();
        pairs.sort();
        assert_eq!(
            pairs,
            ["n=3", "remember=true", "tag=a", "tag=b", "username=ada+l"]
        );
    }

    #[test]
    fn only_an_object_is_a_form() {
        assert!(encode(&json!([1])).is_err());
    }
}
