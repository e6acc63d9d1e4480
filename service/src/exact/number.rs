//! One JSON number as it was sent, and the BSON number of exactly its value.
//!
//! Rules enforced here:
//! - an [`ExactNumber`] is a text that matches JSON's number grammar (RFC 8259 §6) and nothing
//!   else, kept byte for byte: `1E5`, `-0` and `1.50` are three different texts;
//! - [`ExactNumber::bson`] is the BSON number of exactly the same value, chosen by one rule: an
//!   integer written without fraction or exponent that fits an i64 (not `-0`, whose sign an
//!   integer cannot keep) is an Int64; any other number whose value is the shortest decimal form
//!   of a double is that Double (`0.1`, `1E5`, `-0.0`); any other that a Decimal128 holds exactly
//!   (at most 34 significant digits, magnitude between 1E-6176 and 1E+6145) is that Decimal128
//!   (`18446744073709551616`, `-0`, `1e-400`, `1e400`); any other has none. The stores keep
//!   exactly the numbers that have one (see `store::exact`), so what MongoDB can keep is what
//!   the embedded store keeps, and a client cannot tell them apart;
//! - [`BsonNumber::text`] is the one text a BSON number reads back as when nothing else is known
//!   (serde_json's for a double, as numbers read back before exact JSON existed; the BSON
//!   specification's string for a Decimal128), so a store needs to keep a number's own text beside
//!   it only where the two differ;
//! - nothing here panics or grows with a number's exponent: exponents are read with checked
//!   arithmetic, and a 30,000-digit number costs a pass over its digits.

use mongodb::bson::Decimal128;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// Significant digits a Decimal128 holds.
pub const DECIMAL128_DIGITS: usize = 34;
/// The exponent of a Decimal128's last digit is at least this (1E-6176 is its smallest magnitude).
const DECIMAL128_MIN_EXPONENT: i64 = -6176;
/// A Decimal128's digits and exponent end below 10^this (its largest magnitude is just under
/// 1E+6145).
const DECIMAL128_MAX_MAGNITUDE: i64 = 6145;

/// A JSON number, as the text it was sent as.
#[derive(Debug, Clone)]
pub struct ExactNumber(Box<RawValue>);

impl PartialEq for ExactNumber {
    /// Equal texts (`1.0` and `1` are different numbers here: they were sent differently).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl ExactNumber {
    /// `text` as a number, if it is one by JSON's grammar.
    pub fn parse(text: &str) -> Option<Self> {
        if !is_json_number(text.as_bytes()) {
            return None;
        }
        RawValue::from_string(text.to_owned()).ok().map(ExactNumber)
    }

    /// The text, as sent.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// Written without fraction or exponent (`-12`, `0`, a 40-digit integer).
    pub fn is_integer_literal(&self) -> bool {
        is_integer_literal(self.as_str())
    }

    /// The BSON number of exactly this value (see the module documentation), or why there is
    /// none.
    pub fn bson(&self) -> Result<BsonNumber, Unkeepable> {
        bson_number(self.as_str())
    }
}

/// Written without fraction or exponent.
fn is_integer_literal(text: &str) -> bool {
    !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

/// The BSON number of exactly the value of `text` (a JSON number), or why there is none: what
/// [`ExactNumber::bson`] answers, for a text not wrapped in one.
pub fn bson_number(text: &str) -> Result<BsonNumber, Unkeepable> {
    if is_integer_literal(text) && text != "-0" {
        if let Ok(int) = text.parse::<i64>() {
            return Ok(BsonNumber::Int64(int));
        }
    }
    let significand = Significand::of(text).ok_or(Unkeepable::OutOfRange)?;
    if !is_integer_literal(text) {
        if let Some(double) = shortest_double(text, &significand) {
            return Ok(BsonNumber::Double(double));
        }
    }
    let digits = significand.digits.len();
    if digits > DECIMAL128_DIGITS {
        return Err(Unkeepable::TooManyDigits);
    }
    if !significand.digits.is_empty()
        && (significand.exponent < DECIMAL128_MIN_EXPONENT
            || significand.exponent.saturating_add(digits as i64) > DECIMAL128_MAX_MAGNITUDE)
    {
        return Err(Unkeepable::OutOfRange);
    }
    // The text as sent keeps its trailing zeros (`19.90`) in the Decimal128; a text the BSON
    // parser cannot take whole (a fraction longer than its exponent field) goes in reduced.
    text.parse::<Decimal128>()
        .or_else(|_| significand.to_string().parse::<Decimal128>())
        .map(BsonNumber::Decimal128)
        .map_err(|_| Unkeepable::OutOfRange)
}

/// Whether `text` (a JSON number) has a BSON number of exactly its value: what
/// [`bson_number`] answers, without finding the number. Every Int64 and every double it would
/// choose has at most 34 significant digits within a Decimal128's range, so the answer is that
/// range alone: at most [`DECIMAL128_DIGITS`] significant digits and a magnitude between 1E-6176
/// and 1E+6145 (or zero, whatever its exponent); an exponent past an i64 is out of range, checked
/// first as [`bson_number`] checks it. Nothing is allocated (this runs for every number of every
/// bird).
pub fn keepable(text: &str) -> Result<(), Unkeepable> {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            unsigned.get(..at).unwrap_or_default(),
            unsigned.get(at + 1..).unwrap_or_default(),
        ),
        None => (unsigned, "0"),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = || whole.bytes().chain(fraction.bytes());
    let leading = digits().take_while(|&b| b == b'0').count();
    let total = whole.len() + fraction.len();
    if leading == total {
        return Ok(());
    }
    let trailing = fraction
        .bytes()
        .rev()
        .chain(whole.bytes().rev())
        .take_while(|&b| b == b'0')
        .count();
    let significant = total - leading - trailing;
    let exponent = exponent
        .parse::<i64>()
        .ok()
        .and_then(|e| e.checked_sub(i64::try_from(fraction.len()).ok()?))
        .and_then(|e| e.checked_add(i64::try_from(trailing).ok()?))
        .ok_or(Unkeepable::OutOfRange)?;
    if significant > DECIMAL128_DIGITS {
        return Err(Unkeepable::TooManyDigits);
    }
    let magnitude = exponent.saturating_add(significant as i64);
    if exponent < DECIMAL128_MIN_EXPONENT || magnitude > DECIMAL128_MAX_MAGNITUDE {
        return Err(Unkeepable::OutOfRange);
    }
    Ok(())
}

impl Serialize for ExactNumber {
    /// The text as sent, unchanged.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Why a number has no BSON number of exactly its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unkeepable {
    /// More than [`DECIMAL128_DIGITS`] significant digits (a 40-digit decimal, 2^128).
    TooManyDigits,
    /// A magnitude no Decimal128 reaches (`1e-7000`, `1e7000`).
    OutOfRange,
}

/// A BSON number: what [`ExactNumber::bson`] chooses for a number.
#[derive(Debug, Clone, Copy)]
pub enum BsonNumber {
    /// A 64-bit integer.
    Int64(i64),
    /// A double (finite).
    Double(f64),
    /// A 128-bit decimal (finite).
    Decimal128(Decimal128),
}

impl PartialEq for BsonNumber {
    /// The same BSON value, bit for bit: `-0.0` is not `0.0`, and a Decimal128 keeps its trailing
    /// zeros (`1.50` is not `1.5`).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (BsonNumber::Int64(a), BsonNumber::Int64(b)) => a == b,
            (BsonNumber::Double(a), BsonNumber::Double(b)) => a.to_bits() == b.to_bits(),
            (BsonNumber::Decimal128(a), BsonNumber::Decimal128(b)) => a.bytes() == b.bytes(),
            _ => false,
        }
    }
}

impl BsonNumber {
    /// The text this number reads back as when its own text is not known; `None` for a
    /// Decimal128 or double that is not finite (no JSON number).
    pub fn text(&self) -> Option<String> {
        match self {
            BsonNumber::Int64(int) => Some(int.to_string()),
            BsonNumber::Double(double) => serde_json::Number::from_f64(*double).map(|n| n.to_string()),
            BsonNumber::Decimal128(decimal) => {
                let text = decimal.to_string();
                is_json_number(text.as_bytes()).then_some(text)
            }
        }
    }
}

/// The double `text` (not an integer literal) names, when its shortest decimal form has exactly
/// the value of `text` (`0.1`, `1E5`, `-0.0`: yes; `1e-400`, which rounds to 0, and
/// `0.10000000000000001`, whose double reads back as `0.1`: no).
fn shortest_double(text: &str, significand: &Significand) -> Option<f64> {
    // At most 17 significant digits survive a double: longer texts need no float parsing.
    if significand.digits.len() > 17 {
        return None;
    }
    let double: f64 = text.parse().ok()?;
    if !double.is_finite() {
        return None;
    }
    // `{:e}` writes the shortest form that reads back as the same double.
    let shortest = Significand::of(&format!("{double:e}"))?;
    (shortest == *significand).then_some(double)
}

/// A number's value as sign, significant digits (no leading or trailing zero; none for zero) and
/// the exponent of the last digit: `-1.50e2` is `(true, "15", 1)`.
#[derive(Debug, PartialEq, Eq)]
struct Significand {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Significand {
    /// `text` (a JSON number, or a float as Rust's `{:e}` writes it) taken apart; `None` when its
    /// exponent does not fit an i64.
    fn of(text: &str) -> Option<Self> {
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
            Some(at) => (unsigned.get(..at)?, unsigned.get(at + 1..)?),
            None => (unsigned, "0"),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all = format!("{whole}{fraction}");
        let leading = all.trim_start_matches('0');
        let digits = leading.trim_end_matches('0');
        if digits.is_empty() {
            // Zero, whatever its exponent.
            return Some(Significand {
                negative,
                digits: String::new(),
                exponent: 0,
            });
        }
        let trailing = leading.len() - digits.len();
        let exponent = exponent
            .parse::<i64>()
            .ok()?
            .checked_sub(i64::try_from(fraction.len()).ok()?)?
            .checked_add(i64::try_from(trailing).ok()?)?;
        Some(Significand {
            negative,
            digits: digits.to_owned(),
            exponent,
        })
    }
}

impl std::fmt::Display for Significand {
    /// `-15E1`: the digits and the exponent, as a Decimal128 parser reads them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.negative { "-" } else { "" };
        let digits = if self.digits.is_empty() { "0" } else { &self.digits };
        write!(f, "{sign}{digits}E{}", self.exponent)
    }
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
pub(crate) fn is_json_number(text: &[u8]) -> bool {
    let mut rest = text.strip_prefix(b"-").unwrap_or(text);
    rest = match rest.split_first() {
        Some((b'0', after)) => after,
        Some((b'1'..=b'9', _)) => skip_digits(rest),
        _ => return false,
    };
    if let Some(after) = rest.strip_prefix(b".") {
        rest = skip_digits(after);
        if rest.len() == after.len() {
            return false;
        }
    }
    if let Some((b'e' | b'E', after)) = rest.split_first() {
        let after = after
            .strip_prefix(b"+")
            .or_else(|| after.strip_prefix(b"-"))
            .unwrap_or(after);
        rest = skip_digits(after);
        if rest.len() == after.len() {
            return false;
        }
    }
    rest.is_empty()
}

fn skip_digits(text: &[u8]) -> &[u8] {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    text.get(digits..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> ExactNumber {
        ExactNumber::parse(text).unwrap_or_else(|| panic!("{text} is a JSON number"))
    }

    fn bson(text: &str) -> Result<BsonNumber, Unkeepable> {
        number(text).bson()
    }

    fn decimal(text: &str) -> BsonNumber {
        BsonNumber::Decimal128(text.parse().unwrap())
    }

    #[test]
    fn the_grammar_is_json_s() {
        for good in [
            "0",
            "-0",
            "12",
            "-0.0",
            "0.5",
            "1e5",
            "1E+5",
            "1e-05",
            "123.456e789",
        ] {
            assert!(is_json_number(good.as_bytes()), "{good}");
        }
        for bad in [
            "", "-", "01", "+1", ".5", "1.", "1e", "1e+", "0x10", "1.2.3", "--1", "NaN", "1 ",
        ] {
            assert!(!is_json_number(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn integers_that_fit_are_int64() {
        assert_eq!(bson("0"), Ok(BsonNumber::Int64(0)));
        assert_eq!(bson("-9223372036854775808"), Ok(BsonNumber::Int64(i64::MIN)));
        assert_eq!(bson("9223372036854775807"), Ok(BsonNumber::Int64(i64::MAX)));
    }

    #[test]
    fn integers_past_i64_and_minus_zero_are_decimal128() {
        assert_eq!(bson("18446744073709551616"), Ok(decimal("18446744073709551616")));
        assert_eq!(bson("-9223372036854775809"), Ok(decimal("-9223372036854775809")));
        assert_eq!(bson("9223372036854775808"), Ok(decimal("9223372036854775808")));
        assert_eq!(bson("-0"), Ok(decimal("-0")));
        let biggest = "9".repeat(34);
        assert_eq!(bson(&biggest), Ok(decimal(&biggest)));
    }

    #[test]
    fn shortest_doubles_are_doubles() {
        for (text, value) in [
            ("0.1", 0.1),
            ("1.0", 1.0),
            ("1E5", 1e5),
            ("1e+5", 1e5),
            ("-2.5e-3", -2.5e-3),
            ("1.50", 1.5),
            ("1e308", 1e308),
            ("0e-99999", 0.0),
            ("0e-99999999999999999999", 0.0),
            ("5e-324", 5e-324),
        ] {
            assert_eq!(bson(text), Ok(BsonNumber::Double(value)), "{text}");
        }
        assert_eq!(bson("-0.0"), Ok(BsonNumber::Double(-0.0)));
        assert_ne!(
            bson("-0.0"),
            Ok(BsonNumber::Double(0.0)),
            "the sign of zero counts"
        );
    }

    #[test]
    fn other_decimals_are_decimal128_with_their_digits() {
        // Rounds to 0 as a double, and to 0.1 as a double: not doubles.
        assert_eq!(bson("1e-400"), Ok(decimal("1E-400")));
        assert_eq!(bson("0.10000000000000001"), Ok(decimal("0.10000000000000001")));
        // The smallest double reads back as `5e-324`, so `4.9e-324` is not its value.
        assert_eq!(bson("4.9e-324"), Ok(decimal("4.9E-324")));
        assert_eq!(bson("1e400"), Ok(decimal("1E+400")));
        assert_eq!(bson("-1E400"), Ok(decimal("-1E+400")));
        let forty = format!("0.{}", "1".repeat(34));
        assert_eq!(bson(&forty), Ok(decimal(&forty)));
        // Trailing zeros are kept where the text allows it...
        let BsonNumber::Decimal128(kept) = bson("12345678901234567890.50").unwrap() else {
            panic!("not a Decimal128")
        };
        assert_eq!(kept.to_string(), "12345678901234567890.50");
        // ...and dropped where they alone would not fit.
        let long = format!("12345678901234567890.5{}", "0".repeat(40_000));
        assert_eq!(bson(&long), Ok(decimal("12345678901234567890.5")));
        // The ends of the range.
        assert_eq!(bson("1e-6176"), Ok(decimal("1E-6176")));
        assert_eq!(bson("1e6144"), Ok(decimal("1E+6144")));
        let top = format!("{}e6111", "9".repeat(34));
        assert!(bson(&top).is_ok());
    }

    #[test]
    fn what_no_bson_number_holds_is_unkeepable() {
        assert_eq!(bson(&"7".repeat(35)), Err(Unkeepable::TooManyDigits));
        assert_eq!(bson(&"1".repeat(30_000)), Err(Unkeepable::TooManyDigits));
        assert_eq!(
            bson(&format!("0.{}", "1".repeat(40))),
            Err(Unkeepable::TooManyDigits)
        );
        assert_eq!(
            bson("340282366920938463463374607431768211456"),
            Err(Unkeepable::TooManyDigits)
        );
        assert_eq!(bson("1e-6177"), Err(Unkeepable::OutOfRange));
        assert_eq!(bson("1e6145"), Err(Unkeepable::OutOfRange));
        assert_eq!(
            bson(&format!("{}e6112", "9".repeat(34))),
            Err(Unkeepable::OutOfRange)
        );
        assert_eq!(bson("1e99999999999999999999"), Err(Unkeepable::OutOfRange));
        // A 1 and 29,999 zeros: one significant digit, far out of range.
        assert_eq!(
            bson(&format!("1{}", "0".repeat(29_999))),
            Err(Unkeepable::OutOfRange)
        );
    }

    #[test]
    fn a_bson_number_reads_back_as_its_canonical_text() {
        let text = |n: &str| bson(n).unwrap().text().unwrap();
        assert_eq!(text("42"), "42");
        assert_eq!(text("0.1"), "0.1");
        assert_eq!(text("1.0"), "1.0");
        assert_eq!(text("-0.0"), "-0.0");
        assert_eq!(text("1E5"), "100000.0");
        assert_eq!(text("1e-7"), "1e-7");
        assert_eq!(text("-0"), "-0");
        assert_eq!(text("18446744073709551616"), "18446744073709551616");
        assert_eq!(text("1e400"), "1E+400");
        let nan = BsonNumber::Decimal128("NaN".parse().unwrap());
        assert_eq!(nan.text(), None);
        assert_eq!(BsonNumber::Double(f64::INFINITY).text(), None);
    }

    #[test]
    fn texts_are_kept_as_sent() {
        for text in ["1E5", "-0", "1.50", "1e-07", "0.1"] {
            assert_eq!(number(text).as_str(), text);
            assert_eq!(serde_json::to_string(&number(text)).unwrap(), text);
        }
        assert_ne!(number("1.0"), number("1"));
    }

    /// The texts of the bird tests' grid: mantissas of every form by exponents of every size.
    fn grid() -> Vec<String> {
        let mantissas = [
            "0".to_owned(),
            "-0".to_owned(),
            "7".to_owned(),
            "-12".to_owned(),
            "0.5".to_owned(),
            "-0.000".to_owned(),
            "1.50".to_owned(),
            "123.456".to_owned(),
            "9007199254740993".to_owned(),
            "12345678901234567890".to_owned(),
            "9".repeat(34),
            "9".repeat(35),
            format!("0.{}1", "0".repeat(40)),
            "100".to_owned(),
            format!("1{}", "0".repeat(40)),
            format!("0.{}", "0".repeat(40)),
        ];
        let exponents = [
            "",
            "e0",
            "E5",
            "e-5",
            "e+17",
            "E400",
            "e-400",
            "e6111",
            "e-6176",
            "e-6177",
            "e6144",
            "e6145",
            "e6200",
            "e-6200",
            "e99999999999",
            "e-9223372036854775808",
            "e9223372036854775807",
            "e99999999999999999999",
            "e-99999999999999999999",
        ];
        mantissas
            .iter()
            .flat_map(|m| exponents.iter().map(move |e| format!("{m}{e}")))
            .collect()
    }

    #[test]
    fn keepable_answers_what_bson_answers() {
        for text in grid() {
            assert_eq!(keepable(&text), bson_number(&text).map(|_| ()), "{text}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        #[test]
        fn keepable_answers_what_bson_answers_for_any_number(
            text in "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,40})?([eE][-+]?[0-9]{1,21})?"
        ) {
            proptest::prop_assert_eq!(keepable(&text), bson_number(&text).map(|_| ()), "{}", text);
        }
    }
}
