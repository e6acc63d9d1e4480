//! Path parameters: where their values are in the request path, and their extraction.
//!
//! Rules enforced here:
//! - the router hands over byte ranges of the raw (still percent-encoded) values ([`PathParams`],
//!   at most [`MAX_PARAMS`], kept inline without allocating); nothing is decoded until an argument
//!   asks for it;
//! - a value is percent-decoded, then converted; invalid UTF-8 is `string_unicode` with the raw
//!   text as input (a value that was not sent is never made up), and `%2F` is a character of the
//!   value, not a separator;
//! - `input` in an error is the decoded string, as FastAPI reports it.

use percent_encoding::percent_decode_str;
use serde_json::Value;

use super::arg::convert;
use super::request::RequestCx;
use crate::validate::{path_loc, Constraint, Failure, FromParam, ValidationErrors};

/// Most parameters a template may have (their ranges are kept inline, without allocating).
pub(crate) const MAX_PARAMS: usize = 8;

/// Byte ranges of the path parameter values in the request path, in template order. Offsets
/// fit in `u16` because the `http` crate refuses URIs of 64 KiB or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathParams {
    len: u8,
    ranges: [(u16, u16); MAX_PARAMS],
}

impl PathParams {
    /// Add the range of the next parameter (ignored past [`MAX_PARAMS`], which the router refuses
    /// to compile).
    pub(crate) fn push(&mut self, (start, end): (usize, usize)) {
        let (Ok(start), Ok(end)) = (u16::try_from(start), u16::try_from(end)) else {
            return;
        };
        if let Some(slot) = self.ranges.get_mut(usize::from(self.len)) {
            *slot = (start, end);
            self.len += 1;
        }
    }

    /// The range of the `index`-th parameter.
    #[inline]
    pub fn get(&self, index: usize) -> Option<(usize, usize)> {
        self.ranges[..usize::from(self.len)]
            .get(index)
            .map(|&(start, end)| (usize::from(start), usize::from(end)))
    }

    /// All ranges.
    pub fn to_vec(&self) -> Vec<(usize, usize)> {
        (0..usize::from(self.len)).filter_map(|i| self.get(i)).collect()
    }
}

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

/// Extract the `index`-th path parameter, named `name`.
pub fn path_param<T: FromParam>(
    cx: &RequestCx,
    index: usize,
    name: &'static str,
    constraints: &'static [Constraint],
    errors: &mut ValidationErrors,
) -> Option<T> {
    let Some(raw) = cx.path_raw(index) else {
        errors.missing(path_loc(name));
        return None;
    };
    match decode(raw) {
        Ok(decoded) => convert(&decoded, constraints, || path_loc(name), errors),
        Err(failure) => {
            errors.push(failure.at(path_loc(name), Value::String(raw.to_owned())));
            None
        }
    }
}
