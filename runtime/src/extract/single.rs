//! Header fields the framework reads for a decision of its own, which a request must send once.
//!
//! Rules enforced here:
//! - these fields are single-valued (RFC 9110 §5.3: only a list may be sent as several field
//!   lines, and a recipient may combine them into one `a, b`): `Idempotency-Key`,
//!   `Authorization` (HTTP basic, HTTP bearer, OAuth2 password bearer), and the header of an API
//!   key; sent twice, the request is a validation error at `["header", name]` saying so (422),
//!   before anything runs — never the first or the last of the values, which a gateway or a
//!   cache reading the other one would decide differently by (booking twice, another user);
//! - the input of that error is the list of the values, as text (Latin-1, as Starlette decodes
//!   headers);
//! - the fields a route author declares (`Header<T>`) keep FastAPI's rules, and `If-Match` /
//!   `If-None-Match` are lists (RFC 9110 §13.1.1–2: their lines are combined, `conditional`);
//!   `X-Request-Id` is replaced by a new id when repeated rather than refused (an id decides
//!   nothing), the file responses' `Range`, `If-Range` and `If-Modified-Since` are ignored when
//!   repeated, as RFC 9110 §13.1.3–5 and §14.2 say.

use hyper::header::{AsHeaderName, HeaderValue};
use hyper::HeaderMap;
use serde_json::Value;

use super::header::latin1;
use crate::validate::{ErrorItem, Failure, LocItem};

/// Field `key`'s value when the request sent it exactly once, `None` otherwise (a field that is
/// ignored when repeated).
pub(crate) fn sole_field(headers: &HeaderMap, key: impl AsHeaderName) -> Option<&HeaderValue> {
    let mut values = headers.get_all(key).into_iter();
    let first = values.next()?;
    values.next().is_none().then_some(first)
}

/// Field `name`'s one value; `Ok(None)` without one; `Err` with the error item (at
/// `["header", name]`, the field called `shown` in its message) when it was sent more than once.
pub(crate) fn single_field<'a>(
    headers: &'a HeaderMap,
    name: &'static str,
    shown: &str,
) -> Result<Option<&'a HeaderValue>, ErrorItem> {
    let all = headers.get_all(name);
    let mut values = all.iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    if values.next().is_none() {
        return Ok(Some(first));
    }
    Err(repeated(name, shown, all.iter().map(HeaderValue::as_bytes)))
}

/// The error of field `name` (called `shown`) sent as all of `values`: two or more field lines,
/// or one line that holds a list where the field's syntax has none.
pub(crate) fn repeated<'a>(
    name: &'static str,
    shown: &str,
    values: impl Iterator<Item = &'a [u8]>,
) -> ErrorItem {
    let values: Vec<Value> = values
        .map(|value| Value::from(latin1(value).into_owned()))
        .collect();
    let input = match <[Value; 1]>::try_from(values) {
        Ok([one]) => one,
        Err(values) => Value::from(values),
    };
    Failure::new(
        "value_error",
        format!("Value error, {shown} must be sent once: the request has more than one value"),
    )
    .at(vec![LocItem::Static("header"), LocItem::Static(name)], input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sole_field_is_none_when_repeated() {
        let mut headers = HeaderMap::new();
        assert_eq!(sole_field(&headers, "range"), None);
        headers.append("range", HeaderValue::from_static("bytes=0-1"));
        assert_eq!(
            sole_field(&headers, "range").map(HeaderValue::as_bytes),
            Some(&b"bytes=0-1"[..])
        );
        headers.append("range", HeaderValue::from_static("bytes=2-3"));
        assert_eq!(sole_field(&headers, "range"), None);
    }

    #[test]
    fn once_absent_and_repeated() {
        let mut headers = HeaderMap::new();
        fn field(headers: &HeaderMap) -> Result<Option<&HeaderValue>, ErrorItem> {
            single_field(headers, "idempotency-key", "Idempotency-Key")
        }
        assert_eq!(field(&headers), Ok(None));
        headers.append("idempotency-key", HeaderValue::from_static("a"));
        assert_eq!(
            field(&headers).ok().flatten().map(HeaderValue::as_bytes),
            Some(&b"a"[..])
        );
        headers.append("idempotency-key", HeaderValue::from_static("b"));
        let item = field(&headers).err().map(|item| serde_json::to_value(&item).ok());
        assert_eq!(
            item.flatten(),
            Some(serde_json::json!({
                "type": "value_error",
                "loc": ["header", "idempotency-key"],
                "msg": "Value error, Idempotency-Key must be sent once: the request has more than one value",
                "input": ["a", "b"],
            }))
        );
    }
}
