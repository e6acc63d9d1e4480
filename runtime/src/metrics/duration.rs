//! `http.server.request.duration`'s series: one [`AtomicHistogram`] per label set, registered in
//! the app's registry as one metric, and their exemplars added to an OpenMetrics scrape.
//!
//! Rules enforced here:
//! - the series are a list in the order they were first answered, only ever appended to, and a
//!   label set has one series however many route slots or threads ask for it at once;
//! - prometheus-client writes the counts (so the text is its own, byte for byte); it gives no
//!   way to hand it an exemplar it did not record, so an OpenMetrics scrape appends each bucket's
//!   exemplar to that bucket's line afterwards, in the exact form its encoder writes
//!   ([`exemplar_suffix`]): the family's lines are found by its `# TYPE` line, and a series'
//!   lines by its place in the list (each is `_sum`, `_count`, then one line per bucket);
//! - Prometheus text has no exemplars, and is left as encoded.

use std::sync::{Arc, PoisonError, RwLock};

use prometheus_client::encoding::{EncodeMetric, MetricEncoder};
use prometheus_client::metrics::{MetricType, TypedMetric};

use super::histogram::{exemplar_suffix, AtomicHistogram, SharedHistogram};
use super::{ServerLabels, SERVER_DURATION_BUCKETS};

/// The number of bounds of `http.server.request.duration`.
pub(crate) const BOUNDS: usize = SERVER_DURATION_BUCKETS.len();

/// One series' histogram.
pub(crate) type DurationHistogram = AtomicHistogram<BOUNDS>;

/// The name the family is written under (its registered name and unit).
const NAME: &str = "http_server_request_duration_seconds";

/// The series in order of arrival, each its labels and histogram.
type SeriesList = Vec<(ServerLabels, Arc<DurationHistogram>)>;

/// The series of `http.server.request.duration`, by label set. Cheap to clone: clones share
/// the list (the registry holds one, the request metrics another).
#[derive(Debug, Clone, Default)]
pub(crate) struct DurationFamily {
    series: Arc<RwLock<SeriesList>>,
}

impl DurationFamily {
    /// The histogram of `labels`, made (and appended) if it is new.
    pub(crate) fn get_or_create(&self, labels: &ServerLabels) -> Arc<DurationHistogram> {
        let find = |list: &[(ServerLabels, Arc<DurationHistogram>)]| {
            list.iter()
                .find(|(known, _)| known == labels)
                .map(|(_, histogram)| histogram.clone())
        };
        if let Some(found) = find(&self.series.read().unwrap_or_else(PoisonError::into_inner)) {
            return found;
        }
        let mut list = self.series.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = find(&list) {
            return found;
        }
        let histogram = Arc::new(AtomicHistogram::new(&SERVER_DURATION_BUCKETS));
        list.push((labels.clone(), histogram.clone()));
        histogram
    }

    /// The series now, in their order.
    pub(crate) fn series(&self) -> SeriesList {
        self.series.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Append each exemplar to its bucket's line in `text`, an OpenMetrics scrape of the
    /// registry this family is in (see the module rules).
    pub(crate) fn add_exemplars(&self, text: &mut String) {
        let exemplars: Vec<_> = self
            .series()
            .iter()
            .map(|(_, histogram)| histogram.exemplars())
            .collect();
        if exemplars
            .iter()
            .all(|of_series| of_series.iter().all(Option::is_none))
        {
            return;
        }
        let header = format!("# TYPE {NAME} histogram\n");
        let start = match text.find(&header) {
            Some(at) if at == 0 || text[..at].ends_with('\n') => at + header.len(),
            _ => return,
        };
        let rest = text.split_off(start);
        let per_series = 2 + BOUNDS + 1;
        let mut data_line = 0;
        let mut in_family = true;
        for line in rest.split_inclusive('\n') {
            if line.starts_with('#') {
                // The family's `# UNIT` line, or the next family's lines: ours have ended.
                in_family &= data_line == 0;
                text.push_str(line);
                continue;
            }
            let exemplar = if in_family {
                let (series, row) = (data_line / per_series, data_line % per_series);
                data_line += 1;
                row.checked_sub(2)
                    .and_then(|bucket| exemplars.get(series)?.get(bucket).copied().flatten())
                    .filter(|_| line.starts_with(NAME) && line[NAME.len()..].starts_with("_bucket{"))
            } else {
                None
            };
            match (exemplar, line.strip_suffix('\n')) {
                (Some(exemplar), Some(body)) => {
                    text.push_str(body);
                    exemplar_suffix(&exemplar, text);
                    text.push('\n');
                }
                _ => text.push_str(line),
            }
        }
    }
}

impl TypedMetric for DurationFamily {
    const TYPE: MetricType = MetricType::Histogram;
}

impl EncodeMetric for DurationFamily {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        for (labels, histogram) in self.series() {
            SharedHistogram(histogram).encode(encoder.encode_family(&labels)?)?;
        }
        Ok(())
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }

    fn is_empty(&self) -> bool {
        self.series
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use prometheus_client::encoding::{EncodeLabelSet, LabelSetEncoder};
    use prometheus_client::metrics::counter::Counter;
    use prometheus_client::metrics::exemplar::HistogramWithExemplars;
    use prometheus_client::metrics::family::Family;
    use prometheus_client::metrics::histogram::Histogram;
    use prometheus_client::registry::{Registry, Unit};

    use super::super::{latency_histogram, HistogramFamily, MethodLabel, RequestLabels, LATENCY_BUCKETS};
    use super::*;
    use crate::trace::{SpanId, TraceId, TraceIds, SAMPLED};

    /// The exemplar labels prometheus-client was given before our histogram.
    #[derive(Debug, Clone)]
    struct Ids(TraceIds);

    impl EncodeLabelSet for Ids {
        fn encode(&self, encoder: &mut LabelSetEncoder<'_>) -> Result<(), std::fmt::Error> {
            let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).unwrap();
            use prometheus_client::encoding::EncodeLabel;
            ("trace_id", text(&self.0.trace_id.to_hex())).encode(encoder.encode_label())?;
            ("span_id", text(&self.0.span_id.to_hex())).encode(encoder.encode_label())
        }
    }

    type Old = HistogramWithExemplars<Ids>;

    fn ids(span: u64) -> TraceIds {
        TraceIds {
            trace_id: TraceId::from_u128(0x4bf92f3577b34da6a3ce929d0e0e4736 + u128::from(span)).unwrap(),
            span_id: SpanId::from_u64(span).unwrap(),
            parent_span_id: None,
            flags: SAMPLED,
        }
    }

    fn labels(route: Option<&str>, status: u16) -> ServerLabels {
        ServerLabels {
            method: MethodLabel::Get,
            route: route.map(Into::into),
            status,
        }
    }

    /// Both registries' scrapes: (Prometheus text, OpenMetrics); a counter registered after
    /// the family, so the exemplars stop where it ends.
    fn scrapes(series: &[ServerLabels], observations: &[(usize, f64, Option<u64>)]) -> [(String, String); 2] {
        let at = UNIX_EPOCH + Duration::from_millis(1_764_000_000_123);
        let old = Family::<ServerLabels, Old, fn() -> Old>::new_with_constructor(|| {
            HistogramWithExemplars::new(SERVER_DURATION_BUCKETS.into_iter())
        });
        let new = DurationFamily::default();
        for (index, value, sampled) in observations {
            let labels = &series[*index];
            let histogram = new.get_or_create(labels);
            match sampled {
                Some(span) => histogram.observe_with_exemplar_at(*value, &ids(*span), at),
                None => histogram.observe(*value),
            }
            old.get_or_create(labels)
                .observe(*value, sampled.map(|s| Ids(ids(s))), Some(at));
        }
        let scrape = |family: &dyn Fn(&mut Registry), patch: &dyn Fn(&mut String)| {
            let mut registry = Registry::default();
            family(&mut registry);
            registry.register("after", "A counter after", Counter::<u64>::default());
            let mut prometheus = String::new();
            prometheus_client::encoding::prometheus_text::encode(&mut prometheus, &registry).unwrap();
            let mut open = String::new();
            prometheus_client::encoding::text::encode(&mut open, &registry).unwrap();
            patch(&mut open);
            (prometheus, open)
        };
        let help = "Duration of HTTP server requests";
        [
            scrape(
                &|r| r.register_with_unit("http_server_request_duration", help, Unit::Seconds, old.clone()),
                &|_| {},
            ),
            scrape(
                &|r| r.register_with_unit("http_server_request_duration", help, Unit::Seconds, new.clone()),
                &|text| new.add_exemplars(text),
            ),
        ]
    }

    #[test]
    fn a_series_is_written_byte_for_byte_as_prometheus_client_wrote_it() {
        let series = [labels(Some("/items/{id}"), 200)];
        let observations = [
            (0, 0.003, None),
            (0, 0.005, Some(1)),
            (0, 0.07, None),
            (0, 0.3, Some(2)),
            (0, 0.1 + 0.2, None),
            (0, 12.0, Some(3)),
            (0, 0.0049, Some(4)),
        ];
        let [old, new] = scrapes(&series, &observations);
        assert_eq!(new.0, old.0, "Prometheus text");
        assert_eq!(new.1, old.1, "OpenMetrics");
        assert_eq!(new.1.matches(" # {trace_id=").count(), 3, "{}", new.1);
    }

    #[test]
    fn each_exemplar_goes_to_its_own_series_and_bucket() {
        // prometheus-client writes its series in hash order, ours in order of arrival: the
        // same lines, each with the same exemplar.
        let series = [
            labels(Some("/items/{id}"), 200),
            labels(None, 404),
            labels(Some("/boom"), 503),
        ];
        let observations = [
            (0, 0.003, Some(1)),
            (1, 0.02, None),
            (2, 0.6, Some(2)),
            (1, 0.02, Some(3)),
            (0, 3.0, None),
            (2, 0.6, None),
        ];
        let [old, new] = scrapes(&series, &observations);
        let sorted = |text: &str| {
            let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
            lines.sort();
            lines
        };
        assert_eq!(sorted(&new.0), sorted(&old.0));
        assert_eq!(sorted(&new.1), sorted(&old.1));
        assert!(new.1.ends_with("# EOF\n"));
        assert_eq!(new.1.matches(" # {trace_id=").count(), 3, "{}", new.1);
    }

    #[test]
    fn no_series_no_family_as_before() {
        let [old, new] = scrapes(&[], &[]);
        assert_eq!(new, old);
        assert!(!new.1.contains("http_server_request_duration"));
    }

    #[test]
    fn the_latency_histogram_is_written_as_prometheus_client_s_was() {
        let labels = RequestLabels {
            method: MethodLabel::Post,
            route: "/items".into(),
            status: 201,
        };
        let old = Family::<RequestLabels, Histogram, fn() -> Histogram>::new_with_constructor(|| {
            Histogram::new(LATENCY_BUCKETS)
        });
        let new = HistogramFamily::new_with_constructor(latency_histogram);
        for value in [0.00005, 0.0001, 0.0003, 0.04, 0.7, 9.99, 11.0] {
            old.get_or_create(&labels).observe(value);
            new.get_or_create(&labels).0.observe(value);
        }
        let encode = |registry: &Registry| {
            let mut prometheus = String::new();
            prometheus_client::encoding::prometheus_text::encode(&mut prometheus, registry).unwrap();
            let mut open = String::new();
            prometheus_client::encoding::text::encode(&mut open, registry).unwrap();
            (prometheus, open)
        };
        let mut old_registry = Registry::default();
        old_registry.register("http_request_duration_seconds", "Latency", old);
        let mut new_registry = Registry::default();
        new_registry.register("http_request_duration_seconds", "Latency", new);
        assert_eq!(encode(&new_registry), encode(&old_registry));
    }

    #[test]
    fn concurrent_first_answers_share_one_series() {
        let family = DurationFamily::default();
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let family = family.clone();
                std::thread::spawn(move || {
                    for _ in 0..1000 {
                        family.get_or_create(&labels(Some("/a"), 200)).observe(0.01);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let series = family.series();
        assert_eq!(series.len(), 1);
        assert_eq!(series[0].1.snapshot().count, 4000);
    }
}
