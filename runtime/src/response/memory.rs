//! Responses and the memory budget (`budget/`): the answer to a charge that does not fit, and
//! a response body that holds its charge until its bytes are freed.
//!
//! Rules enforced here:
//! - a refused charge is answered 503 `{"detail": …}` with `Retry-After: 1` when the budget is in
//!   use by others (it will be given back), 413 when the request alone needs more than the whole
//!   budget; both carry [`MemoryRefused`], which the dispatcher reads where the route answered
//!   (below any layer, which may replace the answer) to tell the server, which counts and logs
//!   them as refusals (`body/handed.rs`); an
//!   answer larger than the whole budget is the app's mistake, not the client's: a logged 500;
//! - a response body of [`CHARGED_FROM`] bytes or more is charged before it is handed to the
//!   connection, and the charge travels inside its bytes: it is given back when the connection
//!   has written them (or dropped them, when it is cut), not when the body is handed over, since
//!   a client that reads nothing leaves them in the connection's write queue;
//! - a smaller response is not charged: what it can hold is bounded by the connections
//!   (`max_connections`) and costs a charge more than it weighs;
//! - a body reset to give the budget back (it brought nothing while others needed the memory,
//!   `budget/receiving.rs`) is answered 503 with `Retry-After: 1` and `Connection: close` (the
//!   rest of its body may still come, and would otherwise be read as the next request); its
//!   reader tells the server, which counts it as `memory_reset` (`body/handed.rs`).

use bytes::Bytes;
use hyper::header::{HeaderValue, CONNECTION, RETRY_AFTER};
use hyper::StatusCode;
use serde_json::json;

use super::{error_response, internal_error, Body, Response};
use crate::budget::{Charge, MemoryBudget, OverBudget};

/// Response bodies this large or larger are charged against the memory budget.
pub(crate) const CHARGED_FROM: usize = 4096;

/// `bytes` without spare room of [`CHARGED_FROM`] bytes or more: an answer's budget charge is
/// its length, so its allocation must not be much larger (serde_json's writer doubles its buffer
/// after the exact reservation for a long string: a 1 MB answer sat in a 2 MB allocation).
#[inline]
pub(crate) fn fitted(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.capacity() - bytes.len() >= CHARGED_FROM {
        bytes.shrink_to_fit();
    }
    bytes
}

/// Marks an answer to a refused charge (a response extension), for the dispatcher, which tells
/// the server where the route answers: a refusal is made inside the route (its arguments', its
/// answer's charge), where nothing of the server is at hand.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MemoryRefused;

/// The answer to a body reset to give the memory budget back (see the module rules).
#[cold]
pub(crate) fn body_reset() -> Response {
    let mut response = error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        &json!("The request body stopped arriving while the server needed its memory; retry shortly"),
    );
    let headers = response.headers_mut();
    headers.insert(RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The answer to a charge that did not fit (see the module rules).
#[cold]
pub(crate) fn over_budget(refused: OverBudget) -> Response {
    let mut response = match refused {
        OverBudget::TooLarge => error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            &json!("The request needs more memory than the server allows one request"),
        ),
        OverBudget::Busy => {
            let mut response = error_response(
                StatusCode::SERVICE_UNAVAILABLE,
                &json!("The server is busy; retry shortly"),
            );
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from_static("1"));
            response
        }
    };
    response.extensions_mut().insert(MemoryRefused);
    response
}

/// Charge `response`'s body against `budget` when it is [`CHARGED_FROM`] bytes or more; when that
/// does not fit, the answer becomes the refusal (its body dropped). In place: an answer taken and
/// given back by value was copied twice (≈ 30 instructions a request, callgrind `GET /item/42`),
/// and most answers are too small to be charged.
#[inline]
pub(crate) fn charge_answer(response: &mut Response, budget: &std::sync::Arc<MemoryBudget>) {
    if response
        .body()
        .whole()
        .is_some_and(|bytes| bytes.len() >= CHARGED_FROM)
    {
        charge_body(response, budget);
    }
}

/// [`charge_answer`] of an answer large enough to be charged (out of line: most are not).
#[cold]
fn charge_body(slot: &mut Response, budget: &std::sync::Arc<MemoryBudget>) {
    let response = std::mem::replace(slot, Response::new(Body::empty()));
    *slot = charged(response, budget);
}

/// `response`, its body (whole) charged against `budget`, or the answer to the refused charge.
fn charged(response: Response, budget: &std::sync::Arc<MemoryBudget>) -> Response {
    let len = response.body().whole().map_or(0, Bytes::len);
    match Charge::of(budget, len) {
        Ok(charge) => response.map(|body| body.holding(charge)),
        Err(OverBudget::Busy) => over_budget(OverBudget::Busy),
        // No retry can help: the app answers more than the server may hold at all.
        Err(OverBudget::TooLarge) => {
            tracing::error!(
                bytes = len,
                "an answer is larger than the whole memory budget (memory_budget); answering 500: raise the budget, or stream the answer"
            );
            internal_error()
        }
    }
}

/// Bytes that hold a charge: given back when the last reference to them is dropped.
struct Held {
    bytes: Bytes,
    _charge: Charge,
}

/// `bytes`, holding `charge` until the last reference to them is dropped.
fn holding_charge(bytes: Bytes, charge: Charge) -> Bytes {
    Bytes::from_owner(Held {
        bytes,
        _charge: charge,
    })
}

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Body {
    /// This body, holding `charge` until its bytes are freed (a boxed body drops it at once:
    /// it is never charged).
    pub(crate) fn holding(self, charge: Charge) -> Body {
        match self.whole() {
            Some(bytes) => Body::from(holding_charge(bytes.clone(), charge)),
            None => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`charge_answer`] of `response`, by value.
    fn answer_charged(mut response: Response, budget: &std::sync::Arc<MemoryBudget>) -> Response {
        charge_answer(&mut response, budget);
        response
    }

    #[test]
    fn a_large_body_holds_its_charge_until_its_bytes_are_dropped() {
        let budget = MemoryBudget::new(10_000);
        let response = Response::new(Body::from(vec![b'x'; 5000]));
        let response = answer_charged(response, &budget);
        assert_eq!(budget.used(), 5000);
        let bytes = response.body().whole().cloned().unwrap();
        drop(response);
        assert_eq!(budget.used(), 5000, "the connection still holds the bytes");
        assert_eq!(bytes.len(), 5000);
        drop(bytes);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn answers_are_fitted_to_their_length() {
        let mut spare = Vec::with_capacity(100_000);
        spare.extend_from_slice(&[b'x'; 10_000]);
        assert_eq!(fitted(spare).capacity(), 10_000);
        let mut small = Vec::with_capacity(200);
        small.push(b'x');
        assert_eq!(fitted(small).capacity(), 200, "a small spare room is left alone");
    }

    #[test]
    fn small_bodies_are_not_charged_and_refusals_are_answered() {
        let budget = MemoryBudget::new(6000);
        let small = answer_charged(Response::new(Body::from(vec![b'x'; 100])), &budget);
        assert_eq!((small.status(), budget.used()), (StatusCode::OK, 0));
        let _held = answer_charged(Response::new(Body::from(vec![b'x'; 5000])), &budget);
        let busy = answer_charged(Response::new(Body::from(vec![b'x'; 5000])), &budget);
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(busy.headers()[RETRY_AFTER], "1");
        assert!(busy.extensions().get::<MemoryRefused>().is_some());
        let huge = answer_charged(Response::new(Body::from(vec![b'x'; 7000])), &budget);
        assert_eq!(huge.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(budget.used(), 5000);
    }
}
