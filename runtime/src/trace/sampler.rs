//! Which requests are sampled (recorded as spans, once spans exist): OpenTelemetry's built-in
//! samplers, as `OTEL_TRACES_SAMPLER` names them, and who may decide for us.
//!
//! Rules enforced here:
//! - `traceidratio` samples a trace when its id's right-most 8 bytes, shifted right by one, fall
//!   below `ratio × 2^63`: the rule of the `opentelemetry` SDK for Rust, so a trace is sampled
//!   alike by this server and by any service using that SDK;
//! - `parentbased_*` follows the caller's sampled flag when there is a caller and it is trusted
//!   (`Tracing::trust_parent`); otherwise it decides as its root sampler;
//! - a caller that is not trusted decides nothing: not its sampled flag, and not its trace id
//!   either (a client can choose an id whose bits pass any ratio), so a ratio draws a number of
//!   this server's own for such a request. A client cannot force sampling, whatever it sends.

/// A sampler, as OpenTelemetry's `OTEL_TRACES_SAMPLER` names them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sampler {
    /// Every trace (`always_on`).
    AlwaysOn,
    /// No trace (`always_off`).
    AlwaysOff,
    /// This share of traces, 0 to 1, by trace id (`traceidratio`).
    TraceIdRatio(f64),
    /// A trusted caller's decision, else every trace (`parentbased_always_on`, OpenTelemetry's
    /// default).
    ParentBasedAlwaysOn,
    /// A trusted caller's decision, else no trace (`parentbased_always_off`).
    ParentBasedAlwaysOff,
    /// A trusted caller's decision, else this share by trace id (`parentbased_traceidratio`).
    ParentBasedTraceIdRatio(f64),
}

impl Default for Sampler {
    /// OpenTelemetry's default, `parentbased_always_on`.
    fn default() -> Self {
        Sampler::ParentBasedAlwaysOn
    }
}

impl Sampler {
    /// The sampler `OTEL_TRACES_SAMPLER` = `name` names, with `OTEL_TRACES_SAMPLER_ARG` = `arg`
    /// (the ratio, default 1); `Err` with the reason for a name or ratio it cannot use.
    pub fn from_env_values(name: &str, arg: Option<&str>) -> Result<Self, String> {
        let ratio = || -> Result<f64, String> {
            match arg.map(str::trim).filter(|a| !a.is_empty()) {
                None => Ok(1.0),
                Some(text) => match text.parse::<f64>() {
                    Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
                    _ => Err(format!(
                        "OTEL_TRACES_SAMPLER_ARG={text:?} is not a ratio from 0 to 1"
                    )),
                },
            }
        };
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "always_on" => Sampler::AlwaysOn,
            "always_off" => Sampler::AlwaysOff,
            "traceidratio" => Sampler::TraceIdRatio(ratio()?),
            "parentbased_always_on" => Sampler::ParentBasedAlwaysOn,
            "parentbased_always_off" => Sampler::ParentBasedAlwaysOff,
            "parentbased_traceidratio" => Sampler::ParentBasedTraceIdRatio(ratio()?),
            other => {
                return Err(format!(
                    "OTEL_TRACES_SAMPLER={other:?} is not a sampler ferrapi has"
                ))
            }
        })
    }

    /// The sampler as decided per request.
    pub(crate) fn compile(self) -> Decider {
        let (parent_based, ratio) = match self {
            Sampler::AlwaysOn => (false, 1.0),
            Sampler::AlwaysOff => (false, 0.0),
            Sampler::TraceIdRatio(r) => (false, r),
            Sampler::ParentBasedAlwaysOn => (true, 1.0),
            Sampler::ParentBasedAlwaysOff => (true, 0.0),
            Sampler::ParentBasedTraceIdRatio(r) => (true, r),
        };
        let bound = if ratio >= 1.0 {
            u64::MAX
        } else {
            // NaN and negative ratios are 0 (`max` returns the other for NaN).
            (ratio.max(0.0) * (1u64 << 63) as f64) as u64
        };
        Decider { parent_based, bound }
    }
}

/// A sampler compiled: whether it follows a trusted caller, and the bound a trace id's random
/// bits must fall below (`u64::MAX`: all, 0: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decider {
    parent_based: bool,
    bound: u64,
}

impl Decider {
    /// Whether a request is sampled: `parent` the caller's sampled flag, when it sent a valid
    /// context and is trusted (`Some(_)` only then); `random` the right-most 8 bytes of the trace
    /// id, or a draw of this server's own for an untrusted caller's trace (see the module rules).
    #[inline]
    pub(crate) fn sampled(self, parent: Option<bool>, random: u64) -> bool {
        match parent {
            Some(sampled) if self.parent_based => sampled,
            _ => (random >> 1) < self.bound,
        }
    }

    /// The decision needs no random bits (it is all or nothing).
    pub(crate) fn fixed(self) -> bool {
        self.bound == 0 || self.bound == u64::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ratios_are_read() {
        assert_eq!(Sampler::from_env_values("always_on", None), Ok(Sampler::AlwaysOn));
        assert_eq!(
            Sampler::from_env_values(" ALWAYS_OFF ", None),
            Ok(Sampler::AlwaysOff)
        );
        assert_eq!(
            Sampler::from_env_values("traceidratio", Some("0.25")),
            Ok(Sampler::TraceIdRatio(0.25))
        );
        assert_eq!(
            Sampler::from_env_values("traceidratio", None),
            Ok(Sampler::TraceIdRatio(1.0))
        );
        assert_eq!(
            Sampler::from_env_values("parentbased_traceidratio", Some("0")),
            Ok(Sampler::ParentBasedTraceIdRatio(0.0))
        );
        assert!(Sampler::from_env_values("traceidratio", Some("1.5")).is_err());
        assert!(Sampler::from_env_values("traceidratio", Some("half")).is_err());
        assert!(Sampler::from_env_values("jaeger_remote", None).is_err());
        assert_eq!(Sampler::default(), Sampler::ParentBasedAlwaysOn);
    }

    #[test]
    fn ratios_decide_by_the_sdks_rule() {
        let half = Sampler::TraceIdRatio(0.5).compile();
        // (low >> 1) < 2^62
        assert!(half.sampled(None, (1u64 << 63) - 2));
        assert!(!half.sampled(None, 1u64 << 63));
        assert!(
            !half.sampled(Some(true), u64::MAX),
            "not parent-based: the caller decides nothing"
        );
        let none = Sampler::TraceIdRatio(0.0).compile();
        assert!(!none.sampled(None, 0));
        let all = Sampler::AlwaysOn.compile();
        assert!(all.sampled(None, u64::MAX));
        assert!(all.fixed() && none.fixed() && !half.fixed());
        assert!(!Sampler::TraceIdRatio(f64::NAN).compile().sampled(None, 0));
        // About a quarter of uniform draws.
        let quarter = Sampler::TraceIdRatio(0.25).compile();
        let hits = (0..10_000u64)
            .filter(|i| quarter.sampled(None, i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .count();
        assert!((2_200..2_800).contains(&hits), "{hits}");
    }

    #[test]
    fn parent_based_samplers_follow_the_trusted_caller() {
        for sampler in [
            Sampler::ParentBasedAlwaysOn,
            Sampler::ParentBasedAlwaysOff,
            Sampler::ParentBasedTraceIdRatio(0.5),
        ] {
            let d = sampler.compile();
            assert!(d.sampled(Some(true), u64::MAX), "{sampler:?}");
            assert!(!d.sampled(Some(false), 0), "{sampler:?}");
        }
        assert!(Sampler::ParentBasedAlwaysOn.compile().sampled(None, u64::MAX));
        assert!(!Sampler::ParentBasedAlwaysOff.compile().sampled(None, 0));
    }
}
