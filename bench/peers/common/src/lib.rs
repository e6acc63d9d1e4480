//! The scenario models every Rust peer answers, so the peers differ only in their framework.
//!
//! Rules: bodies are byte-identical to the Resource API's (the harness verifies it before any
//! load run); a peer serializes with serde directly (no `Value`), as a hand-written service would.

use serde::{Deserialize, Serialize};

#[cfg(feature = "tls")]
pub mod tls;

/// `GET /`.
#[derive(Serialize)]
pub struct Message {
    /// Always "Hello World".
    pub message: &'static str,
}

/// `GET /item/{id}`.
#[derive(Serialize)]
pub struct ItemId {
    /// The id.
    pub id: i64,
}

/// `GET /user/{user_id}/item/{item_id}`.
#[derive(Serialize)]
pub struct UserItem<'a> {
    /// The item id as given.
    pub item_id: &'a str,
    /// The user id.
    pub owner_id: i64,
    /// `q` when given and not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<&'a str>,
    /// The long description unless `short`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'static str>,
}

/// The body of `POST /item`.
#[derive(Deserialize)]
pub struct Item {
    /// Name.
    pub name: String,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
    /// Price.
    pub price: f64,
    /// Tax.
    #[serde(default)]
    pub tax: Option<f64>,
}

/// The answer of `POST /item`.
#[derive(Serialize)]
pub struct ItemWithTax {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Price.
    pub price: f64,
    /// Tax.
    pub tax: Option<f64>,
    /// Price plus tax, when a tax is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_with_tax: Option<f64>,
}

impl From<Item> for ItemWithTax {
    fn from(item: Item) -> Self {
        ItemWithTax {
            price_with_tax: item.tax.map(|tax| item.price + tax),
            name: item.name,
            description: item.description,
            price: item.price,
            tax: item.tax,
        }
    }
}

/// One person of `GET /person`.
#[derive(Serialize)]
pub struct Person {
    /// Name.
    pub name: &'static str,
}

/// The long description of a user's item.
pub const LONG_DESCRIPTION: &str = "This is an amazing item that has a long description";

/// The persons list.
pub const PERSONS: [&str; 10] = [
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Donald Knuth",
    "Margaret Hamilton",
    "Dennis Ritchie",
    "Frances Allen",
    "Ken Thompson",
];

/// Persons `skip..skip+limit`, clamped.
pub fn persons(skip: i64, limit: i64) -> Vec<Person> {
    let start = usize::try_from(skip).unwrap_or(usize::MAX).min(PERSONS.len());
    let end = start
        .saturating_add(usize::try_from(limit).unwrap_or(usize::MAX))
        .min(PERSONS.len());
    PERSONS[start..end].iter().map(|&name| Person { name }).collect()
}

/// pydantic's lenient bool.
pub fn parse_bool(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "1" | "true" | "t" | "yes" | "y" | "on" => Some(true),
        "0" | "false" | "f" | "no" | "n" | "off" => Some(false),
        _ => None,
    }
}

#[derive(Serialize)]
struct Detail<'a> {
    detail: [ErrorItem<'a>; 1],
}

#[derive(Serialize)]
struct ErrorItem<'a> {
    r#type: &'static str,
    loc: [&'a str; 2],
    msg: &'static str,
    input: &'a str,
}

/// The 422 body of a path parameter `name` that is not an integer.
pub fn int_parsing_422(name: &str, input: &str) -> Vec<u8> {
    let detail = Detail {
        detail: [ErrorItem {
            r#type: "int_parsing",
            loc: ["path", name],
            msg: "Input should be a valid integer, unable to parse string as an integer",
            input,
        }],
    };
    serde_json::to_vec(&detail).unwrap_or_default()
}

/// JSON bytes of `value`.
pub fn to_json<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// The OpenAPI document the peers serve: the file named by the second argument (the harness
/// captures the service's `/openapi.json` into it), read once at start-up.
pub fn openapi_bytes() -> Vec<u8> {
    std::env::args()
        .nth(2)
        .and_then(|path| std::fs::read(path).ok())
        .unwrap_or_else(|| b"{}".to_vec())
}

/// The port: the first argument, or 8000.
pub fn port() -> u16 {
    std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(8000)
}

/// The streaming scenario's chunk: 64 KiB of zeros, shared by every response (no copy per chunk).
pub static STREAM_CHUNK: [u8; STREAM_CHUNK_BYTES] = [0; STREAM_CHUNK_BYTES];

/// The size of one chunk of `GET /stream/{mib}`.
pub const STREAM_CHUNK_BYTES: usize = 64 * 1024;

/// How many chunks `GET /stream/{mib}` sends: `mib` MiB, at most 1 GiB.
pub fn stream_chunks(mib: u32) -> usize {
    mib.min(1024) as usize * (1 << 20) / STREAM_CHUNK_BYTES
}
