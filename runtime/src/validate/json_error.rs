//! Where and why a JSON text is invalid, in the words of Python's `json` module, so `json_invalid`
//! errors match FastAPI's (`{"loc": ["body", <offset>], "ctx": {"error": "Expecting value"}}`).
//!
//! Rules enforced here:
//! - this runs only after the real parser (serde_json) refused the text, so it is never on the
//!   hot path; it re-scans the text the way CPython's scanner does and reports the first error
//!   with its offset in characters (code points), as Python does;
//! - it never recurses deeper than [`MAX_DEPTH`] and never panics: where Python would accept the
//!   text (NaN, Infinity, huge exponents) or the nesting is too deep, it returns `None` and the
//!   caller describes serde_json's error instead.

/// Nesting depth at which the locator gives up (serde_json refuses at 128).
pub(super) const MAX_DEPTH: usize = 160;

/// A syntax error as Python's `json.loads` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PyJsonError {
    /// Offset of the error, in characters from the start of the text.
    pub pos: usize,
    /// Python's message, e.g. `Expecting ',' delimiter`.
    pub msg: &'static str,
}

const EXPECTING_VALUE: &str = "Expecting value";
const EXPECTING_NAME: &str = "Expecting property name enclosed in double quotes";
const EXPECTING_COLON: &str = "Expecting ':' delimiter";
const EXPECTING_COMMA: &str = "Expecting ',' delimiter";

enum Scan {
    /// Parsed up to this index.
    Ok(usize),
    /// No value starts here (Python's `StopIteration(idx)`).
    NoValue(usize),
    /// A definite error.
    Err(PyJsonError),
    /// Too deep to follow.
    GiveUp,
}

struct Scanner {
    s: Vec<char>,
}

fn err(pos: usize, msg: &'static str) -> Scan {
    Scan::Err(PyJsonError { pos, msg })
}

impl Scanner {
    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }

    fn skip_ws(&self, mut i: usize) -> usize {
        while matches!(self.at(i), Some(' ' | '\t' | '\n' | '\r')) {
            i += 1;
        }
        i
    }

    fn starts_with(&self, i: usize, word: &str) -> bool {
        word.chars().enumerate().all(|(k, c)| self.at(i + k) == Some(c))
    }

    fn value(&self, i: usize, depth: usize) -> Scan {
        if depth > MAX_DEPTH {
            return Scan::GiveUp;
        }
        match self.at(i) {
            None => Scan::NoValue(i),
            Some('"') => self.string(i + 1),
            Some('{') => self.object(i + 1, depth + 1),
            Some('[') => self.array(i + 1, depth + 1),
            Some('n') if self.starts_with(i, "null") => Scan::Ok(i + 4),
            Some('t') if self.starts_with(i, "true") => Scan::Ok(i + 4),
            Some('f') if self.starts_with(i, "false") => Scan::Ok(i + 5),
            Some('N') if self.starts_with(i, "NaN") => Scan::Ok(i + 3),
            Some('I') if self.starts_with(i, "Infinity") => Scan::Ok(i + 8),
            Some('-') if self.starts_with(i, "-Infinity") => Scan::Ok(i + 9),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(i),
            Some(_) => Scan::NoValue(i),
        }
    }

    fn digits(&self, mut i: usize) -> usize {
        while self.at(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        i
    }

    fn number(&self, start: usize) -> Scan {
        let mut i = start;
        if self.at(i) == Some('-') {
            i += 1;
        }
        match self.at(i) {
            Some('0') => i += 1,
            Some('1'..='9') => i = self.digits(i),
            _ => return Scan::NoValue(start),
        }
        if self.at(i) == Some('.') && self.at(i + 1).is_some_and(|c| c.is_ascii_digit()) {
            i = self.digits(i + 1);
        }
        if matches!(self.at(i), Some('e' | 'E')) {
            let mut j = i + 1;
            if matches!(self.at(j), Some('+' | '-')) {
                j += 1;
            }
            if self.at(j).is_some_and(|c| c.is_ascii_digit()) {
                i = self.digits(j);
            }
        }
        Scan::Ok(i)
    }

    /// `i` is just past the opening quote.
    fn string(&self, i: usize) -> Scan {
        let begin = i - 1;
        let mut i = i;
        loop {
            match self.at(i) {
                None => return err(begin, "Unterminated string starting at"),
                Some('"') => return Scan::Ok(i + 1),
                Some('\\') => match self.at(i + 1) {
                    None => return err(begin, "Unterminated string starting at"),
                    Some('"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') => i += 2,
                    Some('u') => {
                        let hex_ok =
                            (i + 2..i + 6).all(|k| self.at(k).is_some_and(|c| c.is_ascii_hexdigit()));
                        if !hex_ok {
                            return err(i, "Invalid \\uXXXX escape");
                        }
                        i += 6;
                    }
                    Some(_) => return err(i, "Invalid \\escape"),
                },
                Some(c) if (c as u32) < 0x20 => return err(i, "Invalid control character at"),
                Some(_) => i += 1,
            }
        }
    }

    /// `i` is just past `{`.
    fn object(&self, i: usize, depth: usize) -> Scan {
        let mut i = self.skip_ws(i);
        match self.at(i) {
            Some('}') => return Scan::Ok(i + 1),
            Some('"') => {}
            _ => return err(i, EXPECTING_NAME),
        }
        loop {
            // At an opening quote of a key.
            i = match self.string(i + 1) {
                Scan::Ok(end) => end,
                other => return other,
            };
            i = self.skip_ws(i);
            if self.at(i) != Some(':') {
                return err(i, EXPECTING_COLON);
            }
            i = self.skip_ws(i + 1);
            i = match self.value(i, depth) {
                Scan::Ok(end) => end,
                Scan::NoValue(at) => return err(at, EXPECTING_VALUE),
                other => return other,
            };
            i = self.skip_ws(i);
            match self.at(i) {
                Some('}') => return Scan::Ok(i + 1),
                Some(',') => {}
                _ => return err(i, EXPECTING_COMMA),
            }
            i = self.skip_ws(i + 1);
            if self.at(i) != Some('"') {
                return err(i, EXPECTING_NAME);
            }
        }
    }

    /// `i` is just past `[`.
    fn array(&self, i: usize, depth: usize) -> Scan {
        let mut i = self.skip_ws(i);
        if self.at(i) == Some(']') {
            return Scan::Ok(i + 1);
        }
        loop {
            i = match self.value(i, depth) {
                Scan::Ok(end) => end,
                Scan::NoValue(at) => return err(at, EXPECTING_VALUE),
                other => return other,
            };
            i = self.skip_ws(i);
            match self.at(i) {
                Some(']') => return Scan::Ok(i + 1),
                Some(',') => {}
                _ => return err(i, EXPECTING_COMMA),
            }
            i = self.skip_ws(i + 1);
        }
    }
}

/// The first error Python's `json.loads` would report for `text`, or `None` if Python would
/// accept it (or it is nested too deeply to follow).
pub(super) fn locate(text: &str) -> Option<PyJsonError> {
    let scanner = Scanner {
        s: text.chars().collect(),
    };
    let start = scanner.skip_ws(0);
    match scanner.value(start, 0) {
        Scan::Ok(end) => {
            let end = scanner.skip_ws(end);
            (end != scanner.s.len()).then_some(PyJsonError {
                pos: end,
                msg: "Extra data",
            })
        }
        Scan::NoValue(at) => Some(PyJsonError {
            pos: at,
            msg: EXPECTING_VALUE,
        }),
        Scan::Err(e) => Some(e),
        Scan::GiveUp => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, pos: usize, msg: &str) {
        assert_eq!(
            locate(text),
            Some(PyJsonError { pos, msg: leak(msg) }),
            "{text:?}"
        );
    }

    fn leak(s: &str) -> &'static str {
        Box::leak(s.to_owned().into_boxed_str())
    }

    /// Every case measured against FastAPI on CPython 3.11 (tests/fastapi/observed.json).
    #[test]
    fn matches_python_on_measured_cases() {
        check(r#"{"name":"#, 8, "Expecting value");
        check(
            "{name: 1}",
            1,
            "Expecting property name enclosed in double quotes",
        );
        check(r#"{"name":"a","price":1} x"#, 23, "Extra data");
        check(
            r#"{"name":"a","price":1,}"#,
            22,
            "Expecting property name enclosed in double quotes",
        );
        check("{\"name\":\"a\",\n\"price\":}", 21, "Expecting value");
        check(r#"{"name":"é","price":}"#, 20, "Expecting value");
        check(r#"{"name":"😀😀","price":x}"#, 21, "Expecting value");
        check(r#"{"name":"a","price":01}"#, 21, "Expecting ',' delimiter");
        check(
            "{\"name\":\"a\tb\",\"price\":1}",
            10,
            "Invalid control character at",
        );
        check("x", 0, "Expecting value");
        check("   ", 3, "Expecting value");
        check(r#"{"name":"a\x","price":1}"#, 10, "Invalid \\escape");
        check(r#"{"name":"abc"#, 8, "Unterminated string starting at");
        check(r#"{"name" "a"}"#, 8, "Expecting ':' delimiter");
        check(r#"{"name":"a" "price":1}"#, 12, "Expecting ',' delimiter");
        check(r#"{"name":"a","price":1"#, 21, "Expecting ',' delimiter");
        check("[1,2", 4, "Expecting ',' delimiter");
        check(r#"{"name":tru,"price":1}"#, 8, "Expecting value");
        check(r#"{"name":"a","price":-}"#, 20, "Expecting value");
        check(r#"{"name":"a","price":.5}"#, 20, "Expecting value");
        check(r#"{"name":"a","price":1.}"#, 21, "Expecting ',' delimiter");
        check(
            "{'name':'a'}",
            1,
            "Expecting property name enclosed in double quotes",
        );
        check("{\"a\":1}\n\n x", 10, "Extra data");
        check(r#"{"name":"abé","price":é}"#, 22, "Expecting value");
    }

    #[test]
    fn python_accepts_what_serde_refuses() {
        assert_eq!(locate(r#"{"price":NaN}"#), None);
        assert_eq!(locate(r#"[Infinity,-Infinity,1e400]"#), None);
        assert_eq!(locate(r#"{"a":[1,2,{"b":null}]}"#), None);
    }

    #[test]
    fn deep_nesting_gives_up_without_overflowing() {
        let deep = "[".repeat(100_000);
        assert_eq!(locate(&deep), None);
    }
}
