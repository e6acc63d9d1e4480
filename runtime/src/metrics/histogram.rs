//! The request histograms' own atomic histogram: fixed bounds, one relaxed atomic add to its
//! bucket and one to the sum per observation, no lock; encoded through prometheus-client's
//! encoder, so `/metrics` writes it exactly as `prometheus_client`'s `Histogram` did.
//!
//! Rules enforced here:
//! - a bucket holds the observations `v` with `previous bound < v <= bound` (`le` is inclusive);
//!   the last one, `+Inf`, those above every bound, and NaN (as prometheus-client files it);
//! - the bucket is found without a data-dependent branch: the count of bounds `v` is above, by
//!   a binary search whose steps are conditional moves (unrolled over the fixed array);
//! - the count is not kept apart: it is the sum of the buckets when read, so `_count` always
//!   equals the `+Inf` bucket (Prometheus' rule), and an observation costs one add less;
//! - the sum is an `f64` kept as its bits, added with a compare-and-swap loop (one swap when
//!   uncontended): the same float additions in the same order as prometheus-client's, so `_sum`
//!   is bit for bit what it was, and the caller's seconds are taken as they are (integer
//!   nanoseconds would need a conversion each way and round differently);
//! - a sampled request's exemplar (its trace and span ids, value and time) is kept per bucket
//!   behind a lock, off the common path: most requests are not sampled, and those pay nothing
//!   for it.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet};
use prometheus_client::metrics::exemplar::Exemplar as PromExemplar;
use prometheus_client::metrics::{MetricType, TypedMetric};

use crate::trace::TraceIds;

/// The bucket of `value` among `bounds` (ascending): the number of bounds it is above, so
/// `bounds.len()` (`+Inf`) for a value above them all or NaN. A binary search without a
/// branch (the standard library's `partition_point` shape, each step a conditional move; for
/// 14 bounds, 5 comparisons and about 20 instructions), where a linear scan would cost a
/// comparison per bucket passed or, vectorised, some 55 instructions.
#[inline(always)]
pub(crate) fn bucket_of<const N: usize>(bounds: &[f64; N], value: f64) -> usize {
    // `!(v <= b)`, not `v > b`: NaN compares false, so it is above every bound; the predicate
    // stays monotone over the sorted bounds, as the search needs.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    let above = |index: usize| bounds.get(index).is_some_and(|bound| !(value <= *bound));
    let (mut base, mut size) = (0, N);
    while size > 1 {
        let half = size / 2;
        base = if above(base + half) { base + half } else { base };
        size -= half;
    }
    base + usize::from(above(base))
}

/// The exemplar of a bucket: the last sampled request that fell in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Exemplar {
    /// Its trace and span.
    pub(crate) ids: TraceIds,
    /// Its value (seconds).
    pub(crate) value: f64,
    /// When it was observed.
    pub(crate) at: SystemTime,
}

/// A histogram over the `N` fixed `bounds` (seconds), and `+Inf`.
#[derive(Debug)]
pub(crate) struct AtomicHistogram<const N: usize> {
    bounds: &'static [f64; N],
    /// The observations of each bound's bucket (not cumulative).
    counts: [AtomicU64; N],
    /// The observations above the last bound (`+Inf`'s own).
    above: AtomicU64,
    /// The sum of the observations, an `f64`'s bits.
    sum: AtomicU64,
    /// Per bucket (`N + 1`), its exemplar; empty until a sampled request is observed.
    exemplars: Mutex<Vec<Option<Exemplar>>>,
}

/// What a histogram held when read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Snapshot {
    /// The sum of the observations.
    pub(crate) sum: f64,
    /// Their number.
    pub(crate) count: u64,
    /// Each bucket's upper bound (the last `+Inf`) and its own count (not cumulative).
    pub(crate) buckets: Vec<(f64, u64)>,
}

impl<const N: usize> AtomicHistogram<N> {
    /// An empty histogram over `bounds` (ascending, finite).
    pub(crate) fn new(bounds: &'static [f64; N]) -> Self {
        AtomicHistogram {
            bounds,
            counts: std::array::from_fn(|_| AtomicU64::new(0)),
            above: AtomicU64::new(0),
            sum: AtomicU64::new(0f64.to_bits()),
            exemplars: Mutex::new(Vec::new()),
        }
    }

    /// Count `value` in its bucket and the sum.
    #[inline]
    pub(crate) fn observe(&self, value: f64) {
        self.observe_in_bucket(value);
    }

    /// Count `value`, and keep `ids` as its bucket's exemplar (out of line: most requests are
    /// not sampled).
    #[cold]
    #[inline(never)]
    pub(crate) fn observe_with_exemplar(&self, value: f64, ids: &TraceIds) {
        self.observe_with_exemplar_at(value, ids, SystemTime::now());
    }

    /// [`observe_with_exemplar`](Self::observe_with_exemplar) at the time `at`.
    pub(crate) fn observe_with_exemplar_at(&self, value: f64, ids: &TraceIds, at: SystemTime) {
        let bucket = self.observe_in_bucket(value);
        let exemplar = Exemplar { ids: *ids, value, at };
        let mut exemplars = self.exemplars.lock().unwrap_or_else(PoisonError::into_inner);
        if exemplars.is_empty() {
            exemplars.resize(N + 1, None);
        }
        if let Some(slot) = exemplars.get_mut(bucket) {
            *slot = Some(exemplar);
        }
    }

    /// Count `value`; its bucket's index.
    #[inline(always)]
    fn observe_in_bucket(&self, value: f64) -> usize {
        let bucket = bucket_of(self.bounds, value);
        self.counts
            .get(bucket)
            .unwrap_or(&self.above)
            .fetch_add(1, Relaxed);
        // Uncontended, the first swap succeeds; under contention on this series, a retry.
        let mut old = self.sum.load(Relaxed);
        loop {
            let new = (f64::from_bits(old) + value).to_bits();
            match self.sum.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                Ok(_) => return bucket,
                Err(now) => old = now,
            }
        }
    }

    /// The counts and sum now (each read atomically; an observation under way may be in one
    /// and not yet in the other).
    pub(crate) fn snapshot(&self) -> Snapshot {
        let buckets: Vec<(f64, u64)> = self
            .bounds
            .iter()
            .zip(&self.counts)
            .map(|(bound, count)| (*bound, count.load(Relaxed)))
            .chain(std::iter::once((f64::INFINITY, self.above.load(Relaxed))))
            .collect();
        Snapshot {
            sum: f64::from_bits(self.sum.load(Relaxed)),
            count: buckets.iter().map(|(_, count)| count).sum(),
            buckets,
        }
    }

    /// The exemplars by bucket index (`N`: `+Inf`); empty when no sampled request was observed.
    pub(crate) fn exemplars(&self) -> Vec<Option<Exemplar>> {
        self.exemplars
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// An [`AtomicHistogram`] shared by the request path and the registry: the metric a
/// prometheus-client `Family` holds (its exemplars, if any, are written by the caller: see
/// `exemplar_suffix`).
#[derive(Debug)]
pub(crate) struct SharedHistogram<const N: usize>(pub(crate) Arc<AtomicHistogram<N>>);

impl<const N: usize> Clone for SharedHistogram<N> {
    fn clone(&self) -> Self {
        SharedHistogram(self.0.clone())
    }
}

impl<const N: usize> TypedMetric for SharedHistogram<N> {
    const TYPE: MetricType = MetricType::Histogram;
}

impl<const N: usize> EncodeMetric for SharedHistogram<N> {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let Snapshot { sum, count, buckets } = self.0.snapshot();
        encoder.encode_histogram::<NoLabelSet>(
            sum,
            count,
            &buckets,
            None::<&std::collections::HashMap<usize, PromExemplar<NoLabelSet, f64>>>,
        )
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// The text OpenMetrics appends to a bucket's line for its exemplar, as prometheus-client's
/// text encoder writes it: ` # {trace_id="…",span_id="…"} value timestamp`.
pub(crate) fn exemplar_suffix(exemplar: &Exemplar, out: &mut String) {
    let trace = exemplar.ids.trace_id.to_hex();
    let span = exemplar.ids.span_id.to_hex();
    out.push_str(" # {trace_id=\"");
    // Lowercase hex digits: always UTF-8, nothing to escape.
    out.push_str(std::str::from_utf8(&trace).unwrap_or_default());
    out.push_str("\",span_id=\"");
    out.push_str(std::str::from_utf8(&span).unwrap_or_default());
    out.push_str("\"} ");
    let mut float = dtoa::Buffer::new();
    out.push_str(float.format(exemplar.value));
    out.push(' ');
    let seconds = exemplar
        .at
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default();
    out.push_str(float.format(seconds));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{LATENCY_BUCKETS, SERVER_DURATION_BUCKETS};
    use crate::trace::{SpanId, TraceId, SAMPLED};

    #[test]
    fn le_is_inclusive_at_every_bound() {
        let bounds = &SERVER_DURATION_BUCKETS;
        for (index, bound) in bounds.iter().enumerate() {
            assert_eq!(bucket_of(bounds, *bound), index, "at {bound}");
            assert_eq!(
                bucket_of(bounds, bound.next_up()),
                index + 1,
                "just above {bound}"
            );
            assert_eq!(bucket_of(bounds, bound.next_down()), index, "just below {bound}");
        }
        assert_eq!(bucket_of(bounds, 0.0), 0);
        assert_eq!(bucket_of(bounds, -1.0), 0);
        assert_eq!(bucket_of(bounds, 1e9), bounds.len(), "+Inf");
        assert_eq!(bucket_of(bounds, f64::INFINITY), bounds.len());
        assert_eq!(
            bucket_of(bounds, f64::NAN),
            bounds.len(),
            "NaN in +Inf, as prometheus-client"
        );
        for (index, bound) in LATENCY_BUCKETS.iter().enumerate() {
            assert_eq!(bucket_of(&LATENCY_BUCKETS, *bound), index, "at {bound}");
            assert_eq!(bucket_of(&LATENCY_BUCKETS, bound.next_up()), index + 1);
        }
        assert_eq!(bucket_of(&LATENCY_BUCKETS, f64::NAN), LATENCY_BUCKETS.len());
    }

    #[test]
    fn the_bucket_is_the_first_bound_at_or_above_the_value() {
        // The linear definition prometheus-client uses, checked over a sweep of values, for
        // both sets of bounds (16, a power of two, and 14).
        fn sweep<const N: usize>(bounds: &[f64; N]) {
            let mut value = 1e-6;
            while value < 20.0 {
                let expected = bounds
                    .iter()
                    .position(|bound| *bound >= value)
                    .unwrap_or(bounds.len());
                assert_eq!(bucket_of(bounds, value), expected, "{value}");
                value *= 1.07;
            }
        }
        sweep(&LATENCY_BUCKETS);
        sweep(&SERVER_DURATION_BUCKETS);
        sweep(&[1.0]);
        sweep(&[1.0, 2.0, 3.0]);
        assert_eq!(bucket_of(&[], 5.0), 0);
    }

    #[test]
    fn concurrent_observations_are_all_counted() {
        let histogram = Arc::new(AtomicHistogram::new(&SERVER_DURATION_BUCKETS));
        let threads: Vec<_> = (0..8)
            .map(|thread| {
                let histogram = histogram.clone();
                std::thread::spawn(move || {
                    for i in 0..10_000u32 {
                        // Half at 0.25 s (bucket 6), half at 20 s (+Inf): sums exact in f64.
                        let value = if (i + thread) % 2 == 0 { 0.25 } else { 20.0 };
                        histogram.observe(value);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let snapshot = histogram.snapshot();
        assert_eq!(snapshot.count, 80_000);
        assert_eq!(snapshot.buckets[6], (0.25, 40_000));
        assert_eq!(snapshot.buckets[14], (f64::INFINITY, 40_000));
        assert_eq!(
            snapshot.sum,
            40_000.0 * 0.25 + 40_000.0 * 20.0,
            "no addition lost"
        );
        assert_eq!(snapshot.buckets.iter().filter(|(_, n)| *n > 0).count(), 2);
    }

    #[test]
    fn an_exemplar_is_kept_in_its_bucket_and_replaced_by_the_next() {
        let histogram = AtomicHistogram::new(&SERVER_DURATION_BUCKETS);
        histogram.observe(0.003);
        assert!(
            histogram.exemplars().is_empty(),
            "nothing kept for an unsampled request"
        );
        let ids = |span: u64| TraceIds {
            trace_id: TraceId::from_u128(0x4bf92f3577b34da6a3ce929d0e0e4736).unwrap(),
            span_id: SpanId::from_u64(span).unwrap(),
            parent_span_id: None,
            flags: SAMPLED,
        };
        histogram.observe_with_exemplar(0.004, &ids(1));
        histogram.observe_with_exemplar(0.3, &ids(2));
        histogram.observe_with_exemplar(0.0049, &ids(3));
        let exemplars = histogram.exemplars();
        assert_eq!(exemplars.len(), 15);
        assert_eq!(
            exemplars[0].map(|e| (e.ids.span_id, e.value)),
            Some((ids(3).span_id, 0.0049))
        );
        assert_eq!(exemplars[7].map(|e| e.value), Some(0.3));
        assert_eq!(exemplars.iter().flatten().count(), 2);
        assert_eq!(histogram.snapshot().count, 4);
    }
}
