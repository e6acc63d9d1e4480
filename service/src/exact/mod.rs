//! Exact JSON: JSON objects whose numbers are the texts they were sent as, kept as text. Birds are
//! read, stored and answered as exact JSON, because the specification stores "whatever the
//! client sent", and `serde_json::Value` turns every number into an i64, a u64 or an f64
//! (`18446744073709551616` came back as `1.8446744073709552e+19`, `1e-400` as `0.0`, `-0` as
//! `-0.0`).
//!
//! Rules enforced here:
//! - a number is its text, byte for byte as sent: nothing converts it to a binary number on the
//!   way in or out ([`ExactNumber`] names one where a number must stand alone, as in an error);
//! - a document is never a tree: a body is read in one pass by one tokenizer ([`Tokens`], which
//!   accepts exactly what serde_json accepts, numbers' ranges aside) into its *canonical text*
//!   ([`ExactBody`]: compact, strings escaped as serde_json escapes them, numbers as sent, a key
//!   sent twice in its first place with its last value, as Python's `dict` and serde_json's `Map`
//!   with `preserve_order` keep it), and whatever reads a document later (the stores, the check
//!   of its numbers) reads that text with the same tokenizer. A body costs a small constant
//!   factor of its size ([`PARSE_COST`]), not a heap node per value;
//! - this is local to the bird path: serde_json's `arbitrary_precision` would keep numbers'
//!   texts for every `Value` of the workspace, framework included (Cargo features unify),
//!   changing how every body is parsed and compared; exact JSON needs only serde_json's
//!   `raw_value` (to borrow the body's text) which changes nothing for code that does not use it.

mod body;
mod canonical;
mod number;
mod plain;
mod scan;

pub use body::ExactBody;
pub use canonical::PARSE_COST;
pub use number::{bson_number, keepable, BsonNumber, ExactNumber, Unkeepable, DECIMAL128_DIGITS};
pub use plain::to_value;
pub use scan::{write_str, JsonStr, ScanError, Token, Tokens, MAX_DEPTH};
