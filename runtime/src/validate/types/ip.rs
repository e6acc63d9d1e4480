//! std's `IpAddr`, `Ipv4Addr` and `Ipv6Addr` as pydantic's `IPvAnyAddress`, `IPv4Address` and
//! `IPv6Address`.
//!
//! Rules enforced here: text is read by std's parser (dotted quads without leading zeros, as
//! Python's `ipaddress`); a JSON integer is the address's number, as Python takes it; anything
//! else is pydantic's `ip_v4_address` / `ip_v6_address` / `ip_any_address`, whose messages carry
//! no detail.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde_json::Value;

use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

fn v4_error() -> Failure {
    Failure::new("ip_v4_address", "Input is not a valid IPv4 address")
}

fn v6_error() -> Failure {
    Failure::new("ip_v6_address", "Input is not a valid IPv6 address")
}

fn any_error() -> Failure {
    Failure::new("ip_any_address", "value is not a valid IPv4 or IPv6 address")
}

/// Read `value` as text with `parse`, or as an integer with `from_int`.
fn read<T>(
    value: &Value,
    parse: fn(&str) -> Result<T, Failure>,
    from_int: fn(u128) -> Option<T>,
    error: fn() -> Failure,
) -> Result<T, Failure> {
    match value {
        Value::String(text) => parse(text),
        Value::Number(n) => n.as_u64().and_then(|n| from_int(u128::from(n))).ok_or_else(error),
        _ => Err(error()),
    }
}

impl TextValue for Ipv4Addr {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        raw.parse().map_err(|_| v4_error())
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        read(
            value,
            Self::from_text,
            |n| u32::try_from(n).ok().map(Ipv4Addr::from),
            v4_error,
        )
    }
    fn schema() -> Value {
        string_format("ipv4")
    }
}

impl TextValue for Ipv6Addr {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        raw.parse().map_err(|_| v6_error())
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        read(value, Self::from_text, |n| Some(Ipv6Addr::from(n)), v6_error)
    }
    fn schema() -> Value {
        string_format("ipv6")
    }
}

impl TextValue for IpAddr {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        raw.parse().map_err(|_| any_error())
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        let from_int = |n: u128| {
            Some(match u32::try_from(n) {
                Ok(v4) => IpAddr::V4(Ipv4Addr::from(v4)),
                Err(_) => IpAddr::V6(Ipv6Addr::from(n)),
            })
        };
        read(value, Self::from_text, from_int, any_error)
    }
    fn schema() -> Value {
        string_format("ipvanyaddress")
    }
}

text_value!(IpAddr => "IPvAnyAddress", Ipv4Addr => "IPv4Address", Ipv6Addr => "IPv6Address");

impl Constrainable for IpAddr {}
impl Constrainable for Ipv4Addr {}
impl Constrainable for Ipv6Addr {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_and_integers() {
        assert_eq!(
            Ipv4Addr::from_value(&json!(2_130_706_433)),
            Ok(Ipv4Addr::LOCALHOST)
        );
        assert_eq!(Ipv4Addr::from_text("01.2.3.4").unwrap_err().kind, "ip_v4_address");
        assert_eq!(Ipv6Addr::from_value(&json!(1)), Ok(Ipv6Addr::LOCALHOST));
        assert_eq!(
            IpAddr::from_value(&json!(5)),
            Ok(IpAddr::V4(Ipv4Addr::new(0, 0, 0, 5)))
        );
        assert_eq!(
            IpAddr::from_value(&json!(null)).unwrap_err().kind,
            "ip_any_address"
        );
    }
}
