//! The process a span was recorded in, as OpenTelemetry's resource attributes: `service.name`
//! and the rest, read once from `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
//!
//! Rules enforced here (OpenTelemetry's SDK environment specification):
//! - `OTEL_RESOURCE_ATTRIBUTES` is `key=value` pairs separated by commas, values
//!   percent-decoded; one malformed pair discards the whole variable, with a warning;
//! - `OTEL_SERVICE_NAME` wins over a `service.name` in `OTEL_RESOURCE_ATTRIBUTES`; without
//!   either, `service.name` is `unknown_service:` and the executable's name;
//! - `telemetry.sdk.name` (`ferrapi`), `.language` (`rust`) and `.version` are always there.

/// The attributes of the process spans are recorded in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    attributes: Vec<(String, String)>,
}

impl Default for Resource {
    /// `service.name` `unknown_service:{executable}` and the SDK's attributes.
    fn default() -> Self {
        Resource::from_lookup(|_| None).0
    }
}

impl Resource {
    /// The resource of `service_name`, with the SDK's attributes.
    pub fn new(service_name: impl Into<String>) -> Self {
        let mut resource = Resource::default();
        resource.set("service.name", service_name.into());
        resource
    }

    /// The resource `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` describe; a value it
    /// cannot use is logged as a warning and left out.
    pub fn from_env() -> Self {
        let (resource, warnings) = Resource::from_lookup(|name| std::env::var(name).ok());
        for warning in warnings {
            tracing::warn!("{warning}");
        }
        resource
    }

    /// [`Resource::from_env`] with the variables from `lookup`; the warnings returned.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let executable = std::env::current_exe()
            .ok()
            .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()));
        let mut resource = Resource {
            attributes: vec![(
                "service.name".to_owned(),
                match executable {
                    Some(name) => format!("unknown_service:{name}"),
                    None => "unknown_service".to_owned(),
                },
            )],
        };
        if let Some(list) = lookup("OTEL_RESOURCE_ATTRIBUTES").filter(|l| !l.trim().is_empty()) {
            match parse_attributes(&list) {
                Ok(pairs) => {
                    for (key, value) in pairs {
                        resource.set(&key, value);
                    }
                }
                Err(why) => warnings.push(format!("OTEL_RESOURCE_ATTRIBUTES left out: {why}")),
            }
        }
        if let Some(name) = lookup("OTEL_SERVICE_NAME").filter(|n| !n.trim().is_empty()) {
            resource.set("service.name", name.trim().to_owned());
        }
        resource.set("telemetry.sdk.name", "ferrapi".to_owned());
        resource.set("telemetry.sdk.language", "rust".to_owned());
        resource.set("telemetry.sdk.version", env!("CARGO_PKG_VERSION").to_owned());
        (resource, warnings)
    }

    /// Set attribute `key` to `value` (replacing it when present).
    pub fn set(&mut self, key: &str, value: String) {
        match self.attributes.iter_mut().find(|(k, _)| k == key) {
            Some((_, old)) => *old = value,
            None => self.attributes.push((key.to_owned(), value)),
        }
    }

    /// The value of attribute `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// `service.name`.
    pub fn service_name(&self) -> &str {
        self.get("service.name").unwrap_or("unknown_service")
    }

    /// All attributes, in the order they were set.
    pub fn attributes(&self) -> &[(String, String)] {
        &self.attributes
    }
}

/// The pairs of an `OTEL_RESOURCE_ATTRIBUTES` value, or why it is malformed.
pub(super) fn parse_attributes(list: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let Some((key, value)) = entry.split_once('=') else {
            return Err(format!("{entry:?} is not key=value"));
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("{entry:?} has no key"));
        }
        let value = percent_decode(value.trim()).ok_or_else(|| format!("{entry:?}: bad percent-encoding"))?;
        pairs.push((key.to_owned(), value));
    }
    Ok(pairs)
}

/// `text` percent-decoded, `None` for a bad escape or bytes that are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::trace::test_vars as vars;

    #[test]
    fn service_name_and_attributes_are_read() {
        let (r, warnings) = Resource::from_lookup(vars(&[
            ("OTEL_SERVICE_NAME", "orders"),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "service.name=ignored, deployment.environment=prod,team=a%20b",
            ),
        ]));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(r.service_name(), "orders");
        assert_eq!(r.get("deployment.environment"), Some("prod"));
        assert_eq!(r.get("team"), Some("a b"));
        assert_eq!(r.get("telemetry.sdk.language"), Some("rust"));
        let (r, _) = Resource::from_lookup(vars(&[("OTEL_RESOURCE_ATTRIBUTES", "service.name=cart")]));
        assert_eq!(r.service_name(), "cart");
    }

    #[test]
    fn a_malformed_list_is_left_out_whole_and_the_default_name_kept() {
        let (r, warnings) = Resource::from_lookup(vars(&[("OTEL_RESOURCE_ATTRIBUTES", "a=1,broken,b=2")]));
        assert_eq!(warnings.len(), 1);
        assert_eq!(r.get("a"), None);
        assert!(r.service_name().starts_with("unknown_service"));
        let (r, warnings) = Resource::from_lookup(vars(&[("OTEL_RESOURCE_ATTRIBUTES", "a=%zz")]));
        assert_eq!(warnings.len(), 1);
        assert_eq!(r.get("a"), None);
    }
}
