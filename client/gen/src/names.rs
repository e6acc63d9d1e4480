//! Rust names for the document's names: schema keys, properties, parameters, operations,
//! enum values and statuses.
//!
//! Rules enforced here: a name is derived from its source alone, deterministically (the same
//! document gives the same names); a type name is its key's parts, each capitalised and joined
//! (`Page_Item_` → `PageItem`, `Event-Input` → `EventInput`; a name already in camel case, such as
//! `HTTPValidationError`, stays as it is); a member name is snake case (`If-Match` → `if_match`,
//! `readItem` → `read_item`); a Rust keyword gets a `_` after it (`type` → `type_`); two sources
//! that give one name are told apart by a number, in document order ([`Namer`]).

use std::collections::HashSet;

/// Rust's keywords (strict and reserved, all editions): not usable as plain identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop",
    "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "self", "Self",
    "static", "struct", "super", "trait", "true", "try", "type", "typeof", "union", "unsafe", "unsized",
    "use", "virtual", "where", "while", "yield",
];

/// Type names the generated code uses unqualified (the prelude's, serde's): a schema named so is
/// given the suffix `Schema`.
const RESERVED_TYPES: &[&str] = &[
    "Box", "Clone", "Copy", "Default", "Err", "From", "Into", "Iterator", "None", "Ok", "Option", "Result",
    "Self", "Send", "Sized", "Some", "String", "Sync", "ToString", "Vec",
];

/// The words of `text`: runs of ASCII letters and digits, split where case changes
/// (`readItem` → `read`, `Item`; `HTTPError` → `HTTP`, `Error`).
fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if let Some(&previous) = current.chars().last().as_ref() {
            let next = chars.get(i + 1).copied();
            let lower_to_upper =
                (previous.is_ascii_lowercase() || previous.is_ascii_digit()) && c.is_ascii_uppercase();
            let acronym_end = previous.is_ascii_uppercase()
                && c.is_ascii_uppercase()
                && next.is_some_and(|n| n.is_ascii_lowercase());
            if lower_to_upper || acronym_end {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `text` in snake case: `If-Match` → `if_match`, `readItem` → `read_item`,
/// `read_item_item__item_id__get` → `read_item_item_item_id_get`.
pub fn snake(text: &str) -> String {
    let joined = words(text)
        .iter()
        .map(|word| word.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if joined.is_empty() {
        return "value".to_owned();
    }
    if joined.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("n{joined}");
    }
    joined
}

/// A field, parameter or method name for `text`: snake case, a keyword escaped.
pub fn member(text: &str) -> String {
    let name = snake(text);
    if KEYWORDS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// A type name for a schema key or a context: each part capitalised, joined; what camel case a
/// part has is kept (`HTTPValidationError`, `Page_Item_` → `PageItem`).
pub fn type_name(text: &str) -> String {
    let mut name = String::new();
    for part in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    if name.is_empty() {
        return "Schema".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'N');
    }
    if RESERVED_TYPES.contains(&name.as_str()) {
        name.push_str("Schema");
    }
    name
}

/// A variant name for an enum's string value: camel case of its words (`general_practice` →
/// `GeneralPractice`, `a-b` → `AB`), `Empty` for `""`, a leading digit after a `V`.
pub fn variant(value: &str) -> String {
    let mut name: String = words(value)
        .iter()
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => {
                    let rest: String = chars.collect();
                    let rest = if word.chars().all(|c| !c.is_ascii_lowercase()) && word.len() > 1 {
                        rest.to_ascii_lowercase()
                    } else {
                        rest
                    };
                    format!("{}{rest}", first.to_ascii_uppercase())
                }
                None => String::new(),
            }
        })
        .collect();
    if name.is_empty() {
        name = if value.is_empty() {
            "Empty".to_owned()
        } else {
            "Value".to_owned()
        };
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'V');
    }
    if name == "Self" {
        name.push('_');
    }
    name
}

/// The variant name of a status: its reason phrase in camel case (`404` → `NotFound`), as
/// `http::StatusCode` names it; `Status499` for a code with no registered phrase; `Informational`,
/// `Success`, `Redirection`, `ClientError`, `ServerError` for the ranges `1XX`…`5XX`; `Default`
/// for `default`.
pub fn status_variant(status: &str) -> Option<String> {
    if status == "default" {
        return Some("Default".to_owned());
    }
    let range = match status.to_ascii_uppercase().as_str() {
        "1XX" => Some("Informational"),
        "2XX" => Some("Success"),
        "3XX" => Some("Redirection"),
        "4XX" => Some("ClientError"),
        "5XX" => Some("ServerError"),
        _ => None,
    };
    if let Some(range) = range {
        return Some(range.to_owned());
    }
    let code: u16 = status.parse().ok()?;
    let reason = http_reason(code);
    Some(match reason {
        Some(reason) => variant(reason),
        None => format!("Status{code}"),
    })
}

/// The reason phrase `http::StatusCode` gives `code` (the registered ones).
fn http_reason(code: u16) -> Option<&'static str> {
    Some(match code {
        100 => "Continue",
        101 => "Switching Protocols",
        102 => "Processing",
        103 => "Early Hints",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        207 => "Multi-Status",
        208 => "Already Reported",
        226 => "IM Used",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        305 => "Use Proxy",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        407 => "Proxy Authentication Required",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Payload Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        417 => "Expectation Failed",
        418 => "I'm a teapot",
        421 => "Misdirected Request",
        422 => "Unprocessable Entity",
        423 => "Locked",
        424 => "Failed Dependency",
        425 => "Too Early",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        506 => "Variant Also Negotiates",
        507 => "Insufficient Storage",
        508 => "Loop Detected",
        510 => "Not Extended",
        511 => "Network Authentication Required",
        _ => return None,
    })
}

/// Names given in one scope, each once: a second claim of a name gets `2`, a third `3`, …
#[derive(Debug, Default, Clone)]
pub struct Namer {
    used: HashSet<String>,
}

impl Namer {
    /// A namer in which `taken` are already used.
    pub fn with(taken: &[&str]) -> Self {
        Namer {
            used: taken.iter().map(|name| (*name).to_owned()).collect(),
        }
    }

    /// `base`, or `base` with the first number that makes it unused; now used.
    pub fn claim(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        let mut n = 2;
        while self.used.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.used.insert(name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_of_fastapi_schema_keys() {
        for (key, name) in [
            ("Page_Item_", "PageItem"),
            ("Event-Input", "EventInput"),
            ("HTTPValidationError", "HTTPValidationError"),
            ("Body_create_item_item_post", "BodyCreateItemItemPost"),
            (
                "Page_Annotated_date__Strict_strict_True___",
                "PageAnnotatedDateStrictStrictTrue",
            ),
            ("2fa", "N2fa"),
            ("Option", "OptionSchema"),
            ("é", "Schema"),
        ] {
            assert_eq!(type_name(key), name, "{key}");
        }
    }

    #[test]
    fn member_names() {
        for (text, name) in [
            ("If-Match", "if_match"),
            ("readItem", "read_item"),
            ("read_item_item__item_id__get", "read_item_item_item_id_get"),
            ("HTTPError", "http_error"),
            ("type", "type_"),
            ("x-count", "x_count"),
            ("1st", "n1st"),
            ("", "value"),
            ("self", "self_"),
        ] {
            assert_eq!(member(text), name, "{text}");
        }
    }

    #[test]
    fn variants_of_values_and_statuses() {
        assert_eq!(variant("general_practice"), "GeneralPractice");
        assert_eq!(variant("buy"), "Buy");
        assert_eq!(variant("ASC"), "Asc");
        assert_eq!(variant(""), "Empty");
        assert_eq!(variant("1"), "V1");
        assert_eq!(status_variant("404").as_deref(), Some("NotFound"));
        assert_eq!(status_variant("200").as_deref(), Some("Ok"));
        assert_eq!(status_variant("422").as_deref(), Some("UnprocessableEntity"));
        assert_eq!(status_variant("499").as_deref(), Some("Status499"));
        assert_eq!(status_variant("4XX").as_deref(), Some("ClientError"));
        assert_eq!(status_variant("default").as_deref(), Some("Default"));
        assert_eq!(status_variant("abc"), None);
    }

    #[test]
    fn a_namer_numbers_repeats() {
        let mut namer = Namer::with(&["Client"]);
        assert_eq!(namer.claim("Client"), "Client2");
        assert_eq!(namer.claim("Item"), "Item");
        assert_eq!(namer.claim("Item"), "Item2");
    }
}
