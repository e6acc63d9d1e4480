//! The tokenizer of exact JSON: a JSON text as a stream of [`Token`]s, each borrowed from the
//! text, every number as its text.
//!
//! Rules enforced here:
//! - it accepts exactly the texts serde_json reads as a `serde_json::Value` (so exact JSON takes
//!   and refuses what the framework's JSON bodies do), but for one thing: a number's value is
//!   never computed, so a number beyond a double (`1e400`, which serde_json refuses) is a
//!   number like any other. Precisely: whitespace is space, tab, line feed and carriage return;
//!   numbers follow JSON's grammar (RFC 8259 §6: no `+`, no leading zero, digits after `.` and
//!   after the exponent mark); strings hold no control character (U+0000 to U+001F) unescaped,
//!   escapes are the nine of JSON, a `\u` escape is four hex digits of either case, and
//!   surrogates come in pairs (a lone one is refused, as serde_json refuses it for a `String`);
//!   nesting is at most [`MAX_DEPTH`] arrays and objects (serde_json's limit of 128, which
//!   refuses the 128th level); no trailing comma, and nothing but whitespace after the value.
//!   The unit tests compare it with serde_json on a corpus of edge cases and on generated texts;
//! - UTF-8 is the caller's: the text is a `&str`, so it is valid already;
//! - nothing is allocated: the state is a few words and a 128-bit stack of container kinds, and
//!   each token borrows from the text (a string's escapes are decoded only where a consumer asks,
//!   [`JsonStr`]), so reading a text costs a pass over it whatever its shape.

use std::fmt;

/// The deepest nesting of arrays and objects accepted (serde_json's recursion limit).
pub const MAX_DEPTH: usize = 127;

/// One token of a JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'t> {
    /// `{`.
    BeginObject,
    /// `}`.
    EndObject,
    /// `[`.
    BeginArray,
    /// `]`.
    EndArray,
    /// An object's key (its `:` is consumed with it); its value is the next token.
    Key(JsonStr<'t>),
    /// A string value.
    String(JsonStr<'t>),
    /// A number, as its text (JSON's grammar, checked).
    Number(&'t str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// A JSON string as written between its quotes, escapes not decoded (they are valid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonStr<'t> {
    raw: &'t str,
    escaped: bool,
}

/// Why a text is not JSON, and where (a byte offset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    /// The byte offset of the problem.
    pub at: usize,
    /// What is wrong.
    pub what: &'static str,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

impl std::error::Error for ScanError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value must come.
    Value,
    /// Just after `[`: a value or `]`.
    FirstItem,
    /// Just after `{`: a key or `}`.
    FirstKey,
    /// After a value: `,` or the container's end (the text's end at the top).
    AfterValue,
    /// The text is read.
    Done,
}

/// The tokens of one JSON text, in order; [`Tokens::next_token`] is `Ok(None)` once the whole
/// text has been read and found valid.
#[derive(Debug, Clone)]
pub struct Tokens<'t> {
    text: &'t str,
    at: usize,
    depth: usize,
    /// Bit `d` is set when level `d + 1` is an object.
    objects: u128,
    state: State,
}

impl<'t> Tokens<'t> {
    /// The tokens of `text`.
    pub fn new(text: &'t str) -> Self {
        Tokens {
            text,
            at: 0,
            depth: 0,
            objects: 0,
            state: State::Value,
        }
    }

    /// The byte offset just past the last token read.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// How many arrays and objects are open.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The next token; `Ok(None)` at the end of a valid text.
    pub fn next_token(&mut self) -> Result<Option<Token<'t>>, ScanError> {
        match self.state {
            State::Value => {
                self.skip_whitespace();
                self.value().map(Some)
            }
            State::FirstItem => {
                self.skip_whitespace();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    self.close();
                    return Ok(Some(Token::EndArray));
                }
                self.value().map(Some)
            }
            State::FirstKey => {
                self.skip_whitespace();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    self.close();
                    return Ok(Some(Token::EndObject));
                }
                self.key().map(Some)
            }
            State::AfterValue => {
                self.skip_whitespace();
                if self.depth == 0 {
                    return match self.peek() {
                        None => {
                            self.state = State::Done;
                            Ok(None)
                        }
                        Some(_) => Err(self.error("trailing characters")),
                    };
                }
                let in_object = self.in_object();
                match self.peek() {
                    Some(b',') => {
                        self.at += 1;
                        self.skip_whitespace();
                        if in_object {
                            self.key().map(Some)
                        } else {
                            self.value().map(Some)
                        }
                    }
                    Some(b']') if !in_object => {
                        self.at += 1;
                        self.close();
                        Ok(Some(Token::EndArray))
                    }
                    Some(b'}') if in_object => {
                        self.at += 1;
                        self.close();
                        Ok(Some(Token::EndObject))
                    }
                    None => Err(self.error("end of text inside a container")),
                    Some(_) => Err(self.error("expected `,` or the container's end")),
                }
            }
            State::Done => Ok(None),
        }
    }

    fn in_object(&self) -> bool {
        self.depth > 0 && self.objects & (1u128 << (self.depth - 1)) != 0
    }

    fn open(&mut self, object: bool) -> Result<(), ScanError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        let bit = 1u128 << self.depth;
        if object {
            self.objects |= bit;
        } else {
            self.objects &= !bit;
        }
        self.depth += 1;
        self.at += 1;
        self.state = if object { State::FirstKey } else { State::FirstItem };
        Ok(())
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.state = State::AfterValue;
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn error(&self, what: &'static str) -> ScanError {
        ScanError { at: self.at, what }
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    fn key(&mut self) -> Result<Token<'t>, ScanError> {
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a key"));
        }
        let key = self.string()?;
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.error("expected `:`"));
        }
        self.at += 1;
        self.state = State::Value;
        Ok(Token::Key(key))
    }

    fn value(&mut self) -> Result<Token<'t>, ScanError> {
        let token = match self.peek() {
            Some(b'{') => {
                self.open(true)?;
                return Ok(Token::BeginObject);
            }
            Some(b'[') => {
                self.open(false)?;
                return Ok(Token::BeginArray);
            }
            Some(b'"') => Token::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Token::Number(self.number()?),
            Some(b't') => self.literal("true", Token::Bool(true))?,
            Some(b'f') => self.literal("false", Token::Bool(false))?,
            Some(b'n') => self.literal("null", Token::Null)?,
            None => return Err(self.error("end of text where a value should be")),
            Some(_) => return Err(self.error("expected a value")),
        };
        self.state = State::AfterValue;
        Ok(token)
    }

    fn literal(&mut self, word: &'static str, token: Token<'t>) -> Result<Token<'t>, ScanError> {
        let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
        if rest.starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(token)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<&'t str, ScanError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        self.slice(start, self.at)
    }

    /// A string; `self.at` is on its opening quote, and is left past its closing one.
    fn string(&mut self) -> Result<JsonStr<'t>, ScanError> {
        self.at += 1;
        let start = self.at;
        let bytes = self.text.as_bytes();
        let mut escaped = false;
        loop {
            match bytes.get(self.at) {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    self.at += 1;
                    self.escape()?;
                }
                Some(0..=0x1f) => return Err(self.error("control character in a string")),
                Some(_) => self.at += 1,
                None => return Err(self.error("end of text inside a string")),
            }
        }
        let raw = self.slice(start, self.at)?;
        self.at += 1;
        Ok(JsonStr { raw, escaped })
    }

    /// One escape; `self.at` is just past its backslash.
    fn escape(&mut self) -> Result<(), ScanError> {
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.at += 1;
                Ok(())
            }
            Some(b'u') => {
                self.at += 1;
                let unit = self.hex4()?;
                match unit {
                    0xDC00..=0xDFFF => Err(self.error("lone trailing surrogate")),
                    0xD800..=0xDBFF => {
                        let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
                        if !rest.starts_with(b"\\u") {
                            return Err(self.error("lone leading surrogate"));
                        }
                        self.at += 2;
                        match self.hex4()? {
                            0xDC00..=0xDFFF => Ok(()),
                            _ => Err(self.error("lone leading surrogate")),
                        }
                    }
                    _ => Ok(()),
                }
            }
            _ => Err(self.error("invalid escape")),
        }
    }

    fn hex4(&mut self) -> Result<u16, ScanError> {
        let mut unit = 0u16;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => return Err(self.error("invalid `\\u` escape")),
            };
            unit = unit << 4 | u16::from(digit);
            self.at += 1;
        }
        Ok(unit)
    }

    fn slice(&self, start: usize, end: usize) -> Result<&'t str, ScanError> {
        // The ends are next to ASCII bytes, so they are character boundaries.
        self.text
            .get(start..end)
            .ok_or_else(|| self.error("not at a character boundary"))
    }
}

impl<'t> JsonStr<'t> {
    /// The string as written between its quotes.
    pub fn raw(&self) -> &'t str {
        self.raw
    }

    /// Whether it holds an escape (else [`raw`](Self::raw) is the string itself).
    pub fn is_escaped(&self) -> bool {
        self.escaped
    }

    /// Append the string itself (escapes decoded) to `out`.
    pub fn decode_into(&self, out: &mut Vec<u8>) {
        if !self.escaped {
            out.extend_from_slice(self.raw.as_bytes());
            return;
        }
        self.decode(|piece| match piece {
            Piece::Text(text) => out.extend_from_slice(text.as_bytes()),
            Piece::Char(c) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        });
    }

    /// Append the string as serde_json writes it, quotes included: `"` and `\` escaped, the
    /// control characters as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx`, everything else as itself.
    pub fn write_canonical(&self, out: &mut String) {
        out.push('"');
        if self.escaped {
            self.decode(|piece| match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Char(c) => write_char(out, c),
            });
        } else {
            // Valid and unescaped: no quote, backslash or control character to escape.
            out.push_str(self.raw);
        }
        out.push('"');
    }

    /// The string as runs of unescaped text and decoded escapes, in order.
    fn decode(&self, mut emit: impl FnMut(Piece<'_>)) {
        let mut rest = self.raw;
        while let Some(at) = rest.find('\\') {
            let (text, escape) = rest.split_at(at);
            if !text.is_empty() {
                emit(Piece::Text(text));
            }
            let (c, len) = decode_escape(escape.as_bytes());
            emit(Piece::Char(c));
            rest = escape.get(len..).unwrap_or_default();
        }
        if !rest.is_empty() {
            emit(Piece::Text(rest));
        }
    }
}

enum Piece<'a> {
    Text(&'a str),
    Char(char),
}

/// The character of the escape at the start of `escape` (valid, checked by the tokenizer) and
/// the escape's length.
fn decode_escape(escape: &[u8]) -> (char, usize) {
    let hex = |at: usize| -> u32 {
        escape
            .get(at..at + 4)
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .and_then(|digits| u32::from_str_radix(digits, 16).ok())
            .unwrap_or(0)
    };
    match escape.get(1) {
        Some(b'b') => ('\u{8}', 2),
        Some(b'f') => ('\u{c}', 2),
        Some(b'n') => ('\n', 2),
        Some(b'r') => ('\r', 2),
        Some(b't') => ('\t', 2),
        Some(b'u') => {
            let unit = hex(2);
            if (0xD800..0xDC00).contains(&unit) {
                let low = hex(8);
                let c = 0x10000 + ((unit - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                (char::from_u32(c).unwrap_or('\u{FFFD}'), 12)
            } else {
                (char::from_u32(unit).unwrap_or('\u{FFFD}'), 6)
            }
        }
        // `"`, `\` and `/` stand for themselves.
        Some(&b) => (char::from(b), 2),
        None => ('\u{FFFD}', 1),
    }
}

/// `c` as serde_json writes it inside a string.
pub(crate) fn write_char(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        '\0'..='\u{1f}' => {
            let byte = c as usize;
            out.push_str("\\u00");
            out.push(char::from(HEX[byte >> 4]));
            out.push(char::from(HEX[byte & 0xF]));
        }
        _ => out.push(c),
    }
}

/// `s` as a JSON string, as serde_json writes it (quotes included).
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut plain = 0;
    for (at, c) in s.char_indices() {
        if matches!(c, '"' | '\\' | '\0'..='\u{1f}') {
            out.push_str(s.get(plain..at).unwrap_or_default());
            write_char(out, c);
            plain = at + c.len_utf8();
        }
    }
    out.push_str(s.get(plain..).unwrap_or_default());
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// Whether the tokenizer reads `text` whole.
    fn accepts(text: &str) -> bool {
        let mut tokens = Tokens::new(text);
        loop {
            match tokens.next_token() {
                Ok(Some(_)) => {}
                Ok(None) => return true,
                Err(_) => return false,
            }
        }
    }

    /// Whether serde_json reads `text` as a `Value` (every number of the texts compared is
    /// within a double's range: beyond it, serde_json refuses what exact JSON keeps).
    fn serde_json_accepts(text: &str) -> bool {
        serde_json::from_str::<Value>(text).is_ok()
    }

    /// What serde_json makes of `text`: `Some(accepted)`, or `None` when it stops at a number
    /// beyond a double (`1e400`): there the readers differ by design (exact JSON keeps such a
    /// number; the corpus checks that apart), and serde_json reads no further, so its answer says
    /// nothing about the rest of the text.
    fn serde_json_verdict(text: &str) -> Option<bool> {
        match serde_json::from_str::<Value>(text) {
            Ok(_) => Some(true),
            Err(err) if err.to_string().starts_with("number out of range") => None,
            Err(_) => Some(false),
        }
    }

    fn same_as_serde_json(text: &str) {
        assert_eq!(
            accepts(text),
            serde_json_accepts(text),
            "{:?}",
            text.chars().take(200).collect::<String>()
        );
    }

    #[test]
    fn accepts_and_refuses_what_serde_json_does() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let deep_objects = |n: usize| format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
        let corpus = [
            "",
            " ",
            "{}",
            "[]",
            " {} ",
            "\t\n\r {\"a\" : 1 } \n",
            "{",
            "}",
            "[",
            "]",
            "{]",
            "[}",
            "null",
            "true",
            "false",
            "nul",
            "tru",
            "fals",
            "nulll",
            "truex",
            "NULL",
            "True",
            "0",
            "-0",
            "01",
            "-01",
            "00",
            "1.",
            "1.e5",
            ".5",
            "-",
            "--1",
            "+1",
            "1e",
            "1e+",
            "1e-",
            "1E5",
            "1e+5",
            "1e-5",
            "1.5e3",
            "1.5e3.2",
            "0x10",
            "1_000",
            "1 2",
            "[1 2]",
            "1e-400",
            "123456789012345678901234567890",
            "[1-2]",
            "[1+2]",
            "[0.]",
            "[-]",
            "[-a]",
            "[1,]",
            "[,1]",
            "[,]",
            "[1,,2]",
            "{\"a\":1,}",
            "{,}",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\" 1}",
            "{a:1}",
            "{'a':1}",
            "{\"a\":1 \"b\":2}",
            "{1:1}",
            "{null:1}",
            "[\"a\"]",
            "\"",
            "\"abc",
            "\"a\\\"",
            "\"\\\"\"",
            "\"\\\\\"",
            "\"\\/\"",
            "\"\\b\\f\\n\\r\\t\"",
            "\"\\x\"",
            "\"\\u\"",
            "\"\\u12\"",
            "\"\\u123g\"",
            "\"\\u00e9\"",
            "\"\\u00E9\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\udc00\"",
            "\"\\ud83d\\ude00\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud800\\ud800\"",
            "\"\\ud800x\"",
            "\"\\ud800\\n\"",
            "\"\\uDBFF\\uDFFF\"",
            "\"\u{0}\"",
            "\"\u{1f}\"",
            "\"\u{7f}\"",
            "\"\t\"",
            "\"\n\"",
            "\"é🐦\u{2028}\"",
            "\u{feff}{}",
            "{}\u{0}",
            "{} x",
            "[]]",
            "{\"a\":1}}",
            "[[]",
            "\u{a0}[]",
            "[1,\"a\",null,true,false,{},[],{\"\":0}]",
            "[1e5,-0.0,0e0,0E-0,1E+0]",
            "{\"a\":[{\"b\":[{}]}]}",
            "[\"\\u0000\"]",
            "{\"\\u0000\":1}",
            "[1]\n",
            "\n[1]",
            "[1]\u{b}",
            "\u{c}[1]",
        ];
        for text in corpus {
            same_as_serde_json(text);
        }
        // Beyond a double: refused by serde_json, kept here.
        for text in ["1e400", "[-1e400]", "{\"a\":1e99999999999999999999}", "1e-99999"] {
            assert!(accepts(text), "{text}");
        }
        // The text a run of the property failed on (pieces `0.1e3` and `10` glued), and texts
        // that are refused after such a number: the property leaves them out, they are here.
        for text in ["0.1e310", "[0.1e310]"] {
            assert!(accepts(text), "{text}");
            assert_eq!(serde_json_verdict(text), None, "{text}");
        }
        for text in ["[0.1e310,]", "{\"a\":1e400 \"b\":1}", "[1e400]]"] {
            assert!(!accepts(text), "{text}");
            assert_eq!(serde_json_verdict(text), None, "{text}");
        }
        for n in [1, 2, 126, 127, 128, 129, 1000] {
            same_as_serde_json(&deep(n));
            same_as_serde_json(&deep_objects(n));
            same_as_serde_json(&format!("{{\"a\":{}}}", deep(n.saturating_sub(1))));
        }
        assert!(accepts(&deep(127)) && !accepts(&deep(128)));
    }

    /// Texts that look like JSON, built from its pieces and some that are not.
    fn jsonish() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("{".to_owned()),
            Just("}".to_owned()),
            Just("[".to_owned()),
            Just("]".to_owned()),
            Just(",".to_owned()),
            Just(":".to_owned()),
            Just(" ".to_owned()),
            Just("\"k\":".to_owned()),
            Just("null".to_owned()),
            Just("true".to_owned()),
            "[-+]?[0-9]{0,3}(\\.[0-9]{0,2})?([eE][-+]?[0-9]{0,2})?",
            "\"([a-z\"]|\\\\[\"\\\\/bfnrtux]|\\\\u[0-9a-fA-F]{4}|\\\\u[dD][89abAB][0-9a-f]{2}(\\\\u[dD][c-fC-F][0-9a-f]{2})?|[\\x00-\\x1f\\x7f é🐦])*\"?",
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// Pieces glued together can make a number beyond a double (`0.1e3` then `10` made
        /// `0.1e310`, which failed a run): the property compares only the texts serde_json reads
        /// to the end or refuses for another reason.
        #[test]
        fn generated_texts_are_read_as_serde_json_reads_them(text in jsonish()) {
            if let Some(accepted) = serde_json_verdict(&text) {
                prop_assert_eq!(accepts(&text), accepted, "{:?}", text);
            }
        }

        #[test]
        fn strings_are_written_as_serde_json_writes_them(s in "([\\x00-\\x7f]|[é🐦\u{2028}\u{fffd}])*") {
            let mut out = String::new();
            write_str(&mut out, &s);
            prop_assert_eq!(&out, &serde_json::to_string(&s).unwrap());
            // And an escaped text of it decodes and rewrites to the same.
            let ascii = serde_json::to_string(&s).unwrap();
            let escaped: String = s
                .encode_utf16()
                .map(|unit| format!("\\u{unit:04x}"))
                .collect();
            for text in [ascii, format!("\"{escaped}\"")] {
                if let Ok(Some(Token::String(json))) = Tokens::new(&text).next_token() {
                    let mut canonical = String::new();
                    json.write_canonical(&mut canonical);
                    prop_assert_eq!(&canonical, &out);
                    let mut decoded = Vec::new();
                    json.decode_into(&mut decoded);
                    prop_assert_eq!(decoded, s.as_bytes());
                } else {
                    prop_assert!(false, "{:?} not read", text);
                }
            }
        }
    }

    #[test]
    fn tokens_borrow_the_text() {
        let text = r#" {"a\"b" : [1E5, "x\u00e9", -0, true, null, {}] } "#;
        let mut tokens = Tokens::new(text);
        let mut seen = Vec::new();
        while let Some(token) = tokens.next_token().unwrap() {
            seen.push(token);
        }
        assert_eq!(seen.len(), 12);
        assert!(matches!(seen[1], Token::Key(key) if key.raw() == "a\\\"b" && key.is_escaped()));
        assert_eq!(seen[3], Token::Number("1E5"));
        assert_eq!(seen[5], Token::Number("-0"));
        let Token::String(s) = seen[4] else {
            panic!("a string")
        };
        let mut out = String::new();
        s.write_canonical(&mut out);
        assert_eq!(out, "\"xé\"");
    }

    #[test]
    fn surrogate_pairs_decode_to_their_character() {
        let Ok(Some(Token::String(s))) = Tokens::new(r#""\ud83d\ude00\u0001\/""#).next_token() else {
            panic!("a string")
        };
        let mut out = String::new();
        s.write_canonical(&mut out);
        assert_eq!(out, "\"😀\\u0001/\"");
    }
}
