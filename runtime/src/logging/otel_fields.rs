//! The fields of a route's `tracing` spans and events in OpenTelemetry's terms, read as
//! `tracing-opentelemetry` reads them, for the spans the log exports (`route_span.rs`) and the
//! events logged in them.
//!
//! Rules enforced here:
//! - a field's value is an attribute's: an integer (a `u64` past `i64::MAX` written out as text:
//!   OTLP's integers are signed), a float, a boolean, a text; a `Debug` or `Display` value
//!   (`?x`, `%x`) formatted; a text keeps at most [`MAX_VALUE_BYTES`] (whole characters), formatted
//!   no further: it may be a client's;
//! - a span's `otel.name` is its name, `otel.kind` its kind (`server`, `client`, `producer`,
//!   `consumer`, `internal`, any case; another value: internal), `otel.status_code` its status
//!   (`ok`, `error`, any case; another value: unset) and `otel.status_message` (or
//!   `otel.status_description`) the description of an error: one alone is an error. None of
//!   them is an attribute; recorded later (`Span::record`) each replaces its value. Unlike
//!   `tracing-opentelemetry`, the order they are recorded in does not matter: an `ok` keeps its
//!   `ok` (OpenTelemetry keeps no description with it), an `error` its description;
//! - an event's `message` is its name (without one, `tracing`'s name for it: `event file:line`),
//!   its other fields are its attributes, then `level` (`INFO`) and `target`; an error-level
//!   event logged in a route's span makes that span an error without a description, unless its
//!   `otel.*` fields set its status (as `tracing-opentelemetry` does: a span in which an error
//!   was logged failed, unless the route says otherwise). The request's own span is not a
//!   route's: its status is its HTTP answer's.

use std::fmt::{self, Write as _};
use std::time::SystemTime;

use tracing::field::{Field, Visit};
use tracing::Event;

use super::format::{prefix_of, Prefix, MAX_VALUE_BYTES};
use crate::trace::{Attribute, AttributeValue, SpanEvent, SpanKind, SpanStatus};

/// What a span's `otel.*` fields say, over what the `tracing` span itself says.
#[derive(Debug, Default)]
pub(super) struct SpanOverrides {
    name: Option<String>,
    kind: Option<SpanKind>,
    code: Option<StatusCode>,
    description: Option<String>,
    /// An error-level event was logged in the span.
    error_logged: bool,
}

/// `otel.status_code`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatusCode {
    Unset,
    Ok,
    Error,
}

impl StatusCode {
    /// `ok` or `error` (any case); anything else leaves the status unset.
    fn from_name(name: &str) -> StatusCode {
        let name = name.trim();
        if name.eq_ignore_ascii_case("ok") {
            StatusCode::Ok
        } else if name.eq_ignore_ascii_case("error") {
            StatusCode::Error
        } else {
            StatusCode::Unset
        }
    }
}

impl SpanOverrides {
    /// The span's name (`otel.name`), when it has one.
    pub(super) fn name(&mut self) -> Option<String> {
        self.name.take()
    }

    /// The span's kind: `otel.kind`'s, internal by default.
    pub(super) fn kind(&self) -> SpanKind {
        self.kind.unwrap_or(SpanKind::Internal)
    }

    /// The span's status: `otel.status_code`'s, with `otel.status_message` an error's
    /// description; else an error without one when an error was logged in it (see the module
    /// rules).
    pub(super) fn status(&mut self) -> SpanStatus {
        let description = self.description.take();
        match (self.code, description) {
            (Some(StatusCode::Ok), _) => SpanStatus::Ok,
            (Some(StatusCode::Error), description) | (None, description @ Some(_)) => {
                SpanStatus::Error(description.unwrap_or_default())
            }
            (Some(StatusCode::Unset) | None, _) if self.error_logged => SpanStatus::Error(String::new()),
            (Some(StatusCode::Unset) | None, _) => SpanStatus::Unset,
        }
    }

    /// An error-level event was logged in the span.
    pub(super) fn error_logged(&mut self) {
        self.error_logged = true;
    }

    /// Take `value` when `key` is one of the `otel.*` fields; false for an attribute.
    fn take(&mut self, key: &str, value: AttributeValue) -> bool {
        let Some(which) = key.strip_prefix("otel.") else {
            return false;
        };
        match which {
            "name" => self.name = Some(text_of(value)),
            "kind" => self.kind = Some(SpanKind::from_name(&text_of(value)).unwrap_or(SpanKind::Internal)),
            "status_code" => self.code = Some(StatusCode::from_name(&text_of(value))),
            "status_message" | "status_description" => self.description = Some(text_of(value)),
            _ => return false,
        }
        true
    }
}

/// A value as a text (what a name or an `otel.*` field is read from).
fn text_of(value: AttributeValue) -> String {
    match value {
        AttributeValue::Str(text) => text.into_owned(),
        other => other.to_string(),
    }
}

/// The values of the fields a visit meets, each with its field.
trait Take {
    fn take(&mut self, field: &Field, value: AttributeValue);
}

/// Visits fields as attribute values (see the module rules), handing each to its [`Take`].
struct Values<T>(T);

impl<T: Take> Visit for Values<T> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let kept = prefix_of(value, MAX_VALUE_BYTES);
        self.0.take(field, AttributeValue::from(kept.to_owned()));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.take(field, AttributeValue::Int(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        let value = match i64::try_from(value) {
            Ok(value) => AttributeValue::Int(value),
            Err(_) => AttributeValue::from(value.to_string()),
        };
        self.0.take(field, value);
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.take(field, AttributeValue::Double(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.take(field, AttributeValue::Bool(value));
    }

    /// `Debug` and `Display` values (`?x`, `%x`, a message), formatted up to the cap and no
    /// further.
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let mut text = String::new();
        let mut prefix = Prefix::new(&mut text);
        let _ = write!(prefix, "{value:?}");
        self.0.take(field, AttributeValue::from(text));
    }
}

/// A span's fields into its attributes (a field recorded again replaces its value) and its
/// `otel.*` fields into its overrides.
struct SpanFields<'a> {
    attributes: &'a mut Vec<Attribute>,
    overrides: &'a mut SpanOverrides,
}

impl Take for SpanFields<'_> {
    fn take(&mut self, field: &Field, value: AttributeValue) {
        let key = field.name();
        if self.overrides.take(key, value.clone()) {
            return;
        }
        match self.attributes.iter_mut().find(|attribute| attribute.key == key) {
            Some(attribute) => attribute.value = value,
            None => self.attributes.push(Attribute { key, value }),
        }
    }
}

/// A visitor recording a span's fields (those it is opened with, or recorded later) into
/// `attributes` and `overrides`.
pub(super) fn span_fields<'a>(
    attributes: &'a mut Vec<Attribute>,
    overrides: &'a mut SpanOverrides,
) -> impl Visit + 'a {
    Values(SpanFields {
        attributes,
        overrides,
    })
}

/// An event's fields: its message, and the others as attributes.
struct EventFields {
    message: Option<String>,
    attributes: Vec<Attribute>,
}

impl Take for EventFields {
    fn take(&mut self, field: &Field, value: AttributeValue) {
        match field.name() {
            "message" => self.message = Some(text_of(value)),
            key => self.attributes.push(Attribute { key, value }),
        }
    }
}

/// `event`, logged now, as a span event (see the module rules).
#[cold]
#[inline(never)]
pub(super) fn span_event(event: &Event<'_>) -> SpanEvent {
    let time = SystemTime::now();
    let metadata = event.metadata();
    let mut fields = Values(EventFields {
        message: None,
        attributes: Vec::with_capacity(metadata.fields().len() + 1),
    });
    event.record(&mut fields);
    let EventFields {
        message,
        mut attributes,
    } = fields.0;
    attributes.push(Attribute::new("level", metadata.level().as_str()));
    attributes.push(Attribute::new("target", metadata.target()));
    SpanEvent {
        name: message.unwrap_or_else(|| metadata.name().to_owned()),
        time,
        attributes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    use tracing::span::{Attributes, Id, Record};

    /// A span's fields as read: its attributes and its overrides.
    type Read = (Vec<Attribute>, SpanOverrides);

    /// A subscriber that reads each span's fields as [`span_fields`] does, and each event as
    /// [`span_event`].
    #[derive(Default, Clone)]
    struct Probe {
        spans: Arc<Mutex<Vec<Read>>>,
        events: Arc<Mutex<Vec<SpanEvent>>>,
    }

    impl tracing::Subscriber for Probe {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, attrs: &Attributes<'_>) -> Id {
            let mut spans = self.spans.lock().unwrap();
            let (mut attributes, mut overrides) = (Vec::new(), SpanOverrides::default());
            attrs.record(&mut span_fields(&mut attributes, &mut overrides));
            spans.push((attributes, overrides));
            Id::from_u64(spans.len() as u64)
        }
        fn record(&self, span: &Id, values: &Record<'_>) {
            let mut spans = self.spans.lock().unwrap();
            let (attributes, overrides) = &mut spans[span.into_u64() as usize - 1];
            values.record(&mut span_fields(attributes, overrides));
        }
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, event: &Event<'_>) {
            self.events.lock().unwrap().push(span_event(event));
        }
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }

    /// The fields of the one span `open` opens (and records into).
    fn span_of(open: impl FnOnce()) -> Read {
        let probe = Probe::default();
        tracing::subscriber::with_default(probe.clone(), open);
        let mut spans = probe.spans.lock().unwrap();
        assert_eq!(spans.len(), 1);
        spans.pop().unwrap()
    }

    #[test]
    fn the_otel_fields_name_kind_and_status_a_span_and_are_no_attributes() {
        let (attributes, mut otel) = span_of(|| {
            let _span = tracing::info_span!(
                "load",
                otel.name = "load order",
                otel.kind = "Producer",
                otel.status_code = "ERROR",
                otel.status_message = "no stock",
                otel.other = 1_i64,
                item = 7_i64,
            );
        });
        assert_eq!(otel.name().as_deref(), Some("load order"));
        assert_eq!(otel.kind(), SpanKind::Producer);
        assert_eq!(otel.status(), SpanStatus::Error("no stock".into()));
        let keys: Vec<&str> = attributes.iter().map(|a| a.key).collect();
        assert_eq!(keys, ["otel.other", "item"], "only the four are read, not kept");
    }

    #[test]
    fn the_otel_fields_recorded_later_replace_and_their_order_does_not_matter() {
        let (attributes, mut otel) = span_of(|| {
            let span = tracing::info_span!(
                "check",
                otel.kind = %"consumer",
                otel.status_message = tracing::field::Empty,
                otel.status_code = tracing::field::Empty,
            );
            span.record("otel.status_message", "late");
            span.record("otel.status_code", "error");
            span.record("otel.kind", "client");
        });
        assert!(attributes.is_empty(), "{attributes:?}");
        assert_eq!(otel.name(), None, "the span keeps its own name");
        assert_eq!(otel.kind(), SpanKind::Client, "replaced");
        assert_eq!(
            otel.status(),
            SpanStatus::Error("late".into()),
            "the description kept though recorded before the code"
        );
        let cases: [(&[(&str, &str)], SpanStatus); 7] = [
            (&[], SpanStatus::Unset),
            (&[("otel.status_code", "ok")], SpanStatus::Ok),
            (
                &[("otel.status_code", "Ok"), ("otel.status_description", "kept?")],
                SpanStatus::Ok,
            ),
            (&[("otel.status_code", "error")], SpanStatus::Error(String::new())),
            (
                &[("otel.status_description", "alone")],
                SpanStatus::Error("alone".into()),
            ),
            (&[("otel.status_code", "fine")], SpanStatus::Unset),
            (
                &[("otel.status_code", "unset"), ("otel.status_message", "x")],
                SpanStatus::Unset,
            ),
        ];
        for (fields, expected) in cases {
            let mut otel = SpanOverrides::default();
            for (key, value) in fields {
                assert!(otel.take(key, AttributeValue::from((*value).to_owned())));
            }
            assert_eq!(otel.status(), expected, "{fields:?}");
        }
        for (name, kind) in [
            ("server", SpanKind::Server),
            (" CLIENT ", SpanKind::Client),
            ("consumer", SpanKind::Consumer),
            ("internal", SpanKind::Internal),
            ("sideways", SpanKind::Internal),
        ] {
            let mut otel = SpanOverrides::default();
            otel.take("otel.kind", AttributeValue::from(name));
            assert_eq!(otel.kind(), kind, "{name}");
        }
        assert_eq!(SpanOverrides::default().kind(), SpanKind::Internal);
        let mut otel = SpanOverrides::default();
        assert!(!otel.take("otel.kindly", AttributeValue::from("server")));
        assert!(!otel.take("name", AttributeValue::from("x")));
        let long = "é".repeat(MAX_VALUE_BYTES);
        let (_, mut otel) = span_of(|| {
            let _span = tracing::info_span!("s", otel.name = long.as_str());
        });
        assert_eq!(otel.name().map(|n| n.len()), Some(MAX_VALUE_BYTES), "capped");
    }

    #[test]
    fn an_error_logged_makes_an_error_unless_the_otel_fields_set_the_status() {
        let status = |fields: &[(&str, &str)]| {
            let mut overrides = SpanOverrides::default();
            for (key, value) in fields {
                overrides.take(key, AttributeValue::Str(value.to_string().into()));
            }
            overrides.error_logged();
            overrides.status()
        };
        assert_eq!(status(&[]), SpanStatus::Error(String::new()));
        assert_eq!(
            status(&[("otel.status_code", "unset")]),
            SpanStatus::Error(String::new())
        );
        assert_eq!(status(&[("otel.status_code", "ok")]), SpanStatus::Ok);
        assert_eq!(
            status(&[("otel.status_message", "own")]),
            SpanStatus::Error("own".into())
        );
        assert_eq!(
            SpanOverrides::default().status(),
            SpanStatus::Unset,
            "none logged"
        );
    }

    #[test]
    fn fields_become_attributes_with_their_types_and_caps() {
        let long = "é".repeat(MAX_VALUE_BYTES);
        let (attributes, _) = span_of(|| {
            let span = tracing::info_span!(
                "load",
                id = 7_i64,
                big = u64::MAX,
                small = 3_u64,
                ratio = 0.5,
                hit = true,
                who = "ann",
                shown = %"display",
                debugged = ?Some(1),
                long = long.as_str(),
                later = tracing::field::Empty,
            );
            span.record("later", 3_i64);
            span.record("id", 8_i64);
        });
        let value = |key: &str| attributes.iter().find(|a| a.key == key).map(|a| a.value.clone());
        assert_eq!(value("id"), Some(AttributeValue::Int(8)), "replaced");
        assert_eq!(value("later"), Some(AttributeValue::Int(3)));
        assert_eq!(
            value("big"),
            Some(AttributeValue::from("18446744073709551615".to_owned()))
        );
        assert_eq!(value("small"), Some(AttributeValue::Int(3)));
        assert_eq!(value("ratio"), Some(AttributeValue::Double(0.5)));
        assert_eq!(value("hit"), Some(AttributeValue::Bool(true)));
        assert_eq!(value("who"), Some(AttributeValue::from("ann")));
        assert_eq!(value("shown"), Some(AttributeValue::from("display")));
        assert_eq!(value("debugged"), Some(AttributeValue::from("Some(1)")));
        let long = value("long").unwrap();
        assert_eq!(long.as_str().map(str::len), Some(MAX_VALUE_BYTES), "capped whole");
        assert_eq!(attributes.len(), 10, "an empty field is no attribute");
    }

    #[test]
    fn an_event_is_named_by_its_message_with_its_fields_level_and_target() {
        let probe = Probe::default();
        let long = "x".repeat(MAX_VALUE_BYTES + 10);
        tracing::subscriber::with_default(probe.clone(), || {
            tracing::info!(order = 7_i64, "priced {}", 12);
            tracing::error!(target: "orders::stock", reason = %"gone", otel.status_code = "error");
            tracing::warn!("{long}");
        });
        let events = probe.events.lock().unwrap();
        let [priced, unnamed, long_one] = &events[..] else {
            panic!("three events: {events:?}");
        };
        assert_eq!(priced.name, "priced 12");
        assert_eq!(
            priced.attributes,
            [
                Attribute::new("order", 7_i64),
                Attribute::new("level", "INFO"),
                Attribute::new("target", module_path!()),
            ]
        );
        assert!(priced.time <= SystemTime::now());
        assert!(
            unnamed.name.starts_with("event ") && unnamed.name.contains("otel_fields.rs:"),
            "without a message, tracing's name: {}",
            unnamed.name
        );
        assert_eq!(
            unnamed.attributes,
            [
                Attribute::new("reason", "gone"),
                Attribute::new("otel.status_code", "error"),
                Attribute::new("level", "ERROR"),
                Attribute::new("target", "orders::stock"),
            ],
            "an event's otel.* fields are attributes like the others"
        );
        assert_eq!(long_one.name.len(), MAX_VALUE_BYTES, "the message capped");
    }
}
