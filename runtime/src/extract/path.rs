//! Path parameters: extracting one from the raw value the router found ([`RequestCx::path_raw`]).
//!
//! Rules enforced here:
//! - nothing is decoded until an argument asks for it;
//! - a value is percent-decoded, then converted; invalid UTF-8 is `string_unicode` with the raw
//!   text as input (a value that was not sent is never made up), and `%2F` is a character of the
//!   value, not a separator;
//! - `input` in an error is the decoded string, as FastAPI reports it.

use percent_encoding::percent_decode_str;
use serde_json::Value;

use super::param::Param;
use super::request::RequestCx;
use crate::validate::{convert_param, path_loc, Failure, FromParam, ValidationErrors};

/// Percent-decode a path or query value; invalid UTF-8 is an error with the raw text as input.
// Inlined into `path_param`, which is instantiated in the route author's crate.
#[inline]
fn decode(raw: &str) -> Result<std::borrow::Cow<'_, str>, Failure> {
    // A plain loop: `str::contains(char)` and `memchr` set up for long texts, which costs more
    // than scanning the few bytes of a typical value.
    if !raw.bytes().any(|b| b == b'%') {
        return Ok(std::borrow::Cow::Borrowed(raw));
    }
    percent_decode_str(raw).decode_utf8().map_err(|_| {
        Failure::new(
            "string_unicode",
            "Input should be a valid string, unable to parse raw data as a unicode string",
        )
    })
}

/// Extract the `index`-th path parameter of the route's template, declared as `param`.
#[inline]
pub fn path_param<T: FromParam>(
    cx: &RequestCx,
    index: usize,
    param: Param<T>,
    errors: &mut ValidationErrors,
) -> Option<T> {
    let (name, constraints) = (param.name(), param.constraints());
    let Some(raw) = cx.path_raw(index) else {
        errors.missing(path_loc(name));
        return None;
    };
    match decode(raw) {
        Ok(decoded) => convert_param(&decoded, constraints, || path_loc(name), errors),
        Err(failure) => {
            errors.push(failure.at(path_loc(name), Value::String(raw.to_owned())));
            None
        }
    }
}
