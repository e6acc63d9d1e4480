//! A parameter's value as the text a path segment, a query string, a header or a cookie carries.
//!
//! Rules enforced here: each value is written as FastAPI reads it back (`true`/`false`,
//! integers in decimal, floats in Rust's shortest round-trip form, dates and times in ISO 8601,
//! UUIDs hyphenated, decimals with their scale, an enum as its string); `None` sends nothing and
//! a list sends one value per item (`?tag=a&tag=b`, one header line per item), as FastAPI reads
//! repeated parameters. Encoding (percent-encoding, header validity) is the request builder's.

use std::fmt::Write as _;

/// A value written as one parameter's text.
pub trait ToParam {
    /// Append the value's text to `out`.
    fn write_param(&self, out: &mut String);
}

/// A parameter's values: none (an absent optional), one, or several (a list).
pub trait ParamValues {
    /// Call `each` with every value, in order.
    fn each_value(&self, each: &mut dyn FnMut(&dyn ToParam));
}

impl<T: ToParam + ?Sized> ToParam for &T {
    fn write_param(&self, out: &mut String) {
        (**self).write_param(out);
    }
}

impl ToParam for str {
    fn write_param(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl ToParam for String {
    fn write_param(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl ToParam for bool {
    fn write_param(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

/// Types written with their `Display` form.
macro_rules! display_param {
    ($($ty:ty),* $(,)?) => {
        $(
            impl ToParam for $ty {
                fn write_param(&self, out: &mut String) {
                    let _ = write!(out, "{self}");
                }
            }
        )*
    };
}

display_param!(
    i8,
    i16,
    i32,
    i64,
    i128,
    u8,
    u16,
    u32,
    u64,
    u128,
    isize,
    usize,
    f32,
    f64,
    char,
    std::net::IpAddr,
    std::net::Ipv4Addr,
    std::net::Ipv6Addr,
);

#[cfg(feature = "chrono")]
display_param!(chrono::NaiveDate, chrono::NaiveTime);

#[cfg(feature = "uuid")]
display_param!(uuid::Uuid);

#[cfg(feature = "decimal")]
display_param!(rust_decimal::Decimal);

#[cfg(feature = "url")]
display_param!(url::Url);

impl ToParam for serde_json::Value {
    /// A string as its text, anything else as its JSON.
    fn write_param(&self, out: &mut String) {
        match self {
            serde_json::Value::String(text) => out.push_str(text),
            other => {
                let _ = write!(out, "{other}");
            }
        }
    }
}

impl<T: ToParam> ParamValues for T {
    fn each_value(&self, each: &mut dyn FnMut(&dyn ToParam)) {
        each(self);
    }
}

impl<T: ToParam> ParamValues for Option<T> {
    fn each_value(&self, each: &mut dyn FnMut(&dyn ToParam)) {
        if let Some(value) = self {
            each(value);
        }
    }
}

impl<T: ToParam> ParamValues for Vec<T> {
    fn each_value(&self, each: &mut dyn FnMut(&dyn ToParam)) {
        for value in self {
            each(value);
        }
    }
}

impl<T: ToParam> ParamValues for Option<Vec<T>> {
    fn each_value(&self, each: &mut dyn FnMut(&dyn ToParam)) {
        for value in self.iter().flatten() {
            each(value);
        }
    }
}

impl<T: ToParam> ParamValues for [T] {
    fn each_value(&self, each: &mut dyn FnMut(&dyn ToParam)) {
        for value in self {
            each(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &dyn ParamValues) -> Vec<String> {
        let mut all = Vec::new();
        value.each_value(&mut |one| {
            let mut out = String::new();
            one.write_param(&mut out);
            all.push(out);
        });
        all
    }

    #[test]
    fn scalars_are_written_as_fastapi_reads_them() {
        assert_eq!(text(&true), ["true"]);
        assert_eq!(text(&-42i64), ["-42"]);
        assert_eq!(text(&1.5f64), ["1.5"]);
        assert_eq!(text(&"a b"), ["a b"]);
        assert_eq!(text(&serde_json::json!(3)), ["3"]);
        assert_eq!(text(&serde_json::json!("x")), ["x"]);
    }

    #[test]
    fn none_sends_nothing_and_a_list_one_value_per_item() {
        assert!(text(&None::<i64>).is_empty());
        assert_eq!(text(&Some(7u8)), ["7"]);
        assert_eq!(text(&vec!["a", "b"]), ["a", "b"]);
        assert_eq!(text(&Some(vec![1, 2])), ["1", "2"]);
    }
}
