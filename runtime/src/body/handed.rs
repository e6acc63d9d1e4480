//! What the server hands over with a request body besides its bytes, and what it hears back: the
//! contract between the server's body and the body's readers, as types and calls of this layer.
//!
//! Rules enforced here:
//! - the dispatcher's first look is an explicit call ([`Look::looking`]): a reader that polls a
//!   body where no task can be woken (`BodyReader::first_look`) says so before and after, so a
//!   body with a deadline starts no clock for a wait met meanwhile (a timer armed then could wake
//!   no one, and on `POST /item` the bytes are there at the next poll: arming it at the look cost
//!   ~1,300 instructions a request, callgrind). Any other wait is a reader's in a task and starts
//!   the clock at once. A body that is not the server's (in-process, or a layer's) is told too,
//!   and ignores it;
//! - what became of a body travels back in the state the server handed over with it
//!   ([`Heard`]), not in the answer: a layer may replace the answer, and the server must still
//!   count a missed deadline or a memory refusal, and close an HTTP/1 connection whose body was
//!   cut (the rest of it may still be on its way, and would otherwise be read as the next
//!   request). Whoever meets the event tells it: the server's body its missed deadline, the
//!   reader a reset, the dispatcher a memory refusal where the route answered it (below the
//!   layers);
//! - a [`Heard`] is a connection's; its news are counts, taken once, so the news of concurrent
//!   HTTP/2 streams are each counted once, whichever stream's answer takes them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::budget::Share;

/// A request body that can be told when the dispatcher looks at it (see the module rules).
pub(crate) trait Look {
    /// The dispatcher's look begins (`true`) or ends (`false`): a wait met in between starts no
    /// clock.
    fn looking(&mut self, on: bool);
}

/// A body that is not the server's, or no longer known to be (handed to
/// [`Service::handle`](crate::Service::handle) or to the app as a `tower` service, or passed on
/// by a layer): whatever it wraps is told of nothing.
pub(crate) struct Unhanded<B>(pub(crate) B);

impl<B> Look for Unhanded<B> {
    #[inline(always)]
    fn looking(&mut self, _on: bool) {}
}

impl<B: hyper::body::Body + Unpin> hyper::body::Body for Unhanded<B> {
    type Data = B::Data;
    type Error = B::Error;

    #[inline]
    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<B::Data>, B::Error>>> {
        std::pin::Pin::new(&mut self.get_mut().0).poll_frame(cx)
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> hyper::body::SizeHint {
        self.0.size_hint()
    }
}

/// What the server hands over with a request body, borrowed for the dispatcher's synchronous
/// part: the share of its connection's bodies being received it counts against (HTTP/2, when
/// the app has a budget), and where its readers report what became of it.
#[derive(Clone, Copy, Default)]
pub(crate) struct Handed<'a> {
    pub(crate) share: Option<&'a Arc<Share>>,
    pub(crate) heard: Option<&'a Arc<Heard>>,
}

/// [`Handed`], owned: what a request carries down a layer stack, for the route's reader at the
/// bottom. A layer that drops it (a request rebuilt without its extensions) costs the body only
/// its connection's share and the server's hearing of a refusal, never the answer.
#[derive(Clone, Default)]
pub(crate) struct HandedOwned {
    share: Option<Arc<Share>>,
    heard: Option<Arc<Heard>>,
}

impl HandedOwned {
    /// `handed`, owned; `None` when it holds nothing (in-process, HTTP/1 without a server).
    pub(crate) fn of(handed: Handed<'_>) -> Option<Self> {
        if handed.share.is_none() && handed.heard.is_none() {
            return None;
        }
        Some(HandedOwned {
            share: handed.share.cloned(),
            heard: handed.heard.cloned(),
        })
    }

    /// Borrowed again.
    pub(crate) fn borrow(&self) -> Handed<'_> {
        Handed {
            share: self.share.as_ref(),
            heard: self.heard.as_ref(),
        }
    }
}

/// What happened to a request body, as its readers tell the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum News {
    /// It missed its deadline (`Config::body_timeout`, `Config::body_min_rate`).
    DeadlineMissed,
    /// The memory budget refused a charge of its request (413 or 503).
    MemoryRefused,
    /// It was reset to give the memory budget back.
    MemoryReset,
}

impl News {
    /// Every kind, in the order of their counts.
    pub(crate) const ALL: [News; 3] = [News::DeadlineMissed, News::MemoryRefused, News::MemoryReset];

    /// Bits a count of this kind starts at, in [`Heard`]'s word.
    const fn shift(self) -> u32 {
        self as u32 * 21
    }

    /// Whether an HTTP/1 connection is closed after it: the rest of the body may still come.
    pub(crate) fn closes(self) -> bool {
        matches!(self, News::DeadlineMissed | News::MemoryReset)
    }
}

/// The news of a connection's request bodies, kept until the server takes them (see the module
/// rules): three counts in one word, so a request with nothing to tell costs one load.
#[derive(Debug, Default)]
pub(crate) struct Heard {
    word: AtomicU64,
}

/// Each count's bits: 21 (two million news between two answers is more than a connection can
/// make).
const COUNT_MASK: u64 = (1 << 21) - 1;

impl Heard {
    /// Tell `news`.
    #[cold]
    pub(crate) fn tell(&self, news: News) {
        self.word.fetch_add(1 << news.shift(), Ordering::AcqRel);
    }

    /// The news told since the last call, as counts by kind (in [`News::ALL`]'s order); `None`
    /// when there are none (one load).
    #[inline]
    pub(crate) fn take(&self) -> Option<[(News, u64); 3]> {
        if self.word.load(Ordering::Acquire) == 0 {
            return None;
        }
        Some(unpack(self.word.swap(0, Ordering::AcqRel)))
    }
}

/// The counts of `word`.
#[cold]
fn unpack(word: u64) -> [(News, u64); 3] {
    News::ALL.map(|news| (news, (word >> news.shift()) & COUNT_MASK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_are_counted_by_kind_and_taken_once() {
        let heard = Arc::new(Heard::default());
        assert_eq!(heard.take(), None);
        heard.tell(News::DeadlineMissed);
        heard.tell(News::MemoryRefused);
        heard.tell(News::MemoryRefused);
        heard.tell(News::MemoryReset);
        assert_eq!(
            heard.take(),
            Some([
                (News::DeadlineMissed, 1),
                (News::MemoryRefused, 2),
                (News::MemoryReset, 1)
            ])
        );
        assert_eq!(heard.take(), None, "taken once");
        assert!(News::DeadlineMissed.closes() && News::MemoryReset.closes());
        assert!(!News::MemoryRefused.closes());
    }

    #[test]
    fn owned_handed_state_is_none_when_it_holds_nothing() {
        assert!(HandedOwned::of(Handed::default()).is_none());
        let heard = Arc::new(Heard::default());
        let handed = Handed {
            share: None,
            heard: Some(&heard),
        };
        let owned = HandedOwned::of(handed).map(|owned| owned.borrow().heard.is_some());
        assert_eq!(owned, Some(true));
    }
}
