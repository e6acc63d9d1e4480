//! The `text/event-stream` format, read as the HTML standard's EventSource reads it.
//!
//! Rules enforced here (WHATWG HTML, "Parsing an event stream"): lines end with CRLF, LF or CR,
//! also when a chunk boundary falls between CR and LF; a leading byte-order mark is skipped;
//! `data` lines are joined with `\n`; a blank line dispatches the event, unless it has no data;
//! `id` sets the last event id (never to a value holding NUL), which outlives the event and is
//! what a reconnection sends as `Last-Event-ID`; `retry` (digits only) sets the reconnection
//! delay; comments (`:`) and unknown fields are ignored; an event cut off by the end of the
//! stream is dropped.

use std::collections::VecDeque;
use std::time::Duration;

/// One dispatched event, its data not decoded yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawEvent {
    pub(crate) data: String,
    pub(crate) event: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) retry: Option<Duration>,
}

/// The parser's state between chunks.
#[derive(Debug, Default)]
pub(crate) struct Parser {
    /// Bytes of a line not ended yet.
    line: Vec<u8>,
    /// The last chunk ended with CR: a LF starting the next one ends nothing.
    after_cr: bool,
    /// The first bytes were looked at for a byte-order mark.
    started: bool,
    data: String,
    event: String,
    last_id: String,
    retry: Option<Duration>,
    ready: VecDeque<RawEvent>,
}

impl Parser {
    /// Read `chunk`.
    pub(crate) fn feed(&mut self, mut chunk: &[u8]) {
        if !self.started && !chunk.is_empty() {
            self.line.extend_from_slice(chunk);
            if self.line.len() < 3 && b"\xEF\xBB\xBF".starts_with(&self.line) {
                return; // maybe a BOM, not whole yet
            }
            self.started = true;
            let pending = std::mem::take(&mut self.line);
            let body = pending.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&pending);
            return self.feed_lines(body);
        }
        if self.after_cr {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        self.feed_lines(chunk);
    }

    fn feed_lines(&mut self, mut chunk: &[u8]) {
        while let Some(end) = chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.line.extend_from_slice(&chunk[..end]);
            let line = std::mem::take(&mut self.line);
            self.line_ended(&line);
            self.line = line;
            self.line.clear();
            let crlf = chunk[end] == b'\r';
            chunk = &chunk[end + 1..];
            if crlf {
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
        }
        self.line.extend_from_slice(chunk);
    }

    fn line_ended(&mut self, line: &[u8]) {
        if line.is_empty() {
            return self.dispatch();
        }
        if line[0] == b':' {
            return;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        let value = String::from_utf8_lossy(value);
        match field {
            b"data" => {
                self.data.push_str(&value);
                self.data.push('\n');
            }
            b"event" => self.event = value.into_owned(),
            b"id" if !value.contains('\0') => self.last_id = value.into_owned(),
            b"retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(millis) = value.parse::<u64>() {
                    self.retry = Some(Duration::from_millis(millis));
                }
            }
            _ => {}
        }
    }

    fn dispatch(&mut self) {
        let event = std::mem::take(&mut self.event);
        if self.data.is_empty() {
            return;
        }
        let mut data = std::mem::take(&mut self.data);
        data.pop(); // the last line's `\n`
        self.ready.push_back(RawEvent {
            data,
            event: (!event.is_empty()).then_some(event),
            id: (!self.last_id.is_empty()).then(|| self.last_id.clone()),
            retry: self.retry,
        });
    }

    /// The next dispatched event.
    pub(crate) fn next(&mut self) -> Option<RawEvent> {
        self.ready.pop_front()
    }

    /// The last event id (what `Last-Event-ID` sends), empty when none was set.
    pub(crate) fn last_id(&self) -> &str {
        &self.last_id
    }

    /// The reconnection delay the stream set.
    pub(crate) fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// Forget a half-read line and event (the connection broke: a reconnection starts afresh,
    /// keeping the last event id and the delay).
    pub(crate) fn reset(&mut self) {
        self.line.clear();
        self.after_cr = false;
        self.started = false;
        self.data.clear();
        self.event.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<RawEvent> {
        let mut parser = Parser::default();
        for chunk in chunks {
            parser.feed(chunk);
        }
        std::iter::from_fn(|| parser.next()).collect()
    }

    fn event(data: &str, event: Option<&str>, id: Option<&str>) -> RawEvent {
        RawEvent {
            data: data.to_owned(),
            event: event.map(str::to_owned),
            id: id.map(str::to_owned),
            retry: None,
        }
    }

    #[test]
    fn fields_lines_and_dispatch() {
        let got = events(&[b"id: 1\nevent: tick\ndata: {\"tick\":1}\n\n: comment\ndata:a\ndata: b\n\n"]);
        assert_eq!(
            got,
            [
                event("{\"tick\":1}", Some("tick"), Some("1")),
                event("a\nb", None, Some("1"))
            ]
        );
    }

    #[test]
    fn line_ends_of_every_kind_and_split_chunks() {
        let got = events(&[
            b"\xEF\xBB",
            b"\xBFdata: x\r",
            b"\n\r",
            b"\ndata: y\r\rdata",
            b": z\n\n",
        ]);
        assert_eq!(
            got,
            [
                event("x", None, None),
                event("y", None, None),
                event("z", None, None)
            ]
        );
    }

    #[test]
    fn no_data_no_event_and_an_unfinished_event_is_dropped() {
        let mut parser = Parser::default();
        parser.feed(b"id: 7\n\nevent: x\n\ndata: cut");
        assert_eq!(parser.next(), None);
        assert_eq!(parser.last_id(), "7");
    }

    #[test]
    fn retry_and_ids_with_nul() {
        let mut parser = Parser::default();
        parser.feed(b"retry: 1500\nid: a\0b\ndata: x\n\nretry: soon\n");
        let first = parser.next().unwrap();
        assert_eq!(first.retry, Some(Duration::from_millis(1500)));
        assert_eq!(first.id, None, "an id with NUL is ignored");
        assert_eq!(parser.retry(), Some(Duration::from_millis(1500)));
    }
}
