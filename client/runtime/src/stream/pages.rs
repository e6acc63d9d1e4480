//! A list that pages (`skip`/`limit`, `offset`/`limit`), read page after page as one stream:
//! [`Pages`] yields each page, [`Items`] each item.
//!
//! Rules enforced here (the paging contract, which the generator and the TypeScript client
//! follow alike):
//! - the first page is asked at the caller's offset (else 0), with the caller's limit (else the
//!   operation's page size); the next offset is the last one plus the items received;
//! - a page shorter than the limit asked ends the stream after it, an empty page included (so a
//!   server that answers nothing, or a limit of 0, can never make the stream loop);
//! - when the next offset would exceed the server's maximum offset after a full page, the stream
//!   ends with [`ErrorKind::PageLimit`] (items may remain that the server will not serve: saying so
//!   beats ending as if the list were whole);
//! - an offset or limit that the parameter's type cannot hold, or a page that fails (no answer,
//!   another status: [`ErrorKind::Status`](crate::ErrorKind::Status)), ends the stream with that error;
//! - one page is in flight at a time, asked only when the stream is polled; nothing panics.

use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::error::{Error, ErrorKind, PageLimitError};
use crate::transport::BoxFuture;

/// What the document says of a list that pages: its page size and its maximum offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paging {
    /// The limit asked when the caller sets none (the limit parameter's `maximum`, else its
    /// `default`, else 100).
    pub page_size: u64,
    /// The largest offset the server serves (the offset parameter's `maximum`), if it has one.
    pub max_offset: Option<u64>,
}

/// One page being asked: the items of its `200` answer, or the error.
type PageFuture<'a, T> = BoxFuture<'a, Result<Vec<T>, Error>>;

/// Sends one page, given its offset and limit.
type SendPage<'a, T> = Box<dyn FnMut(u64, u64) -> PageFuture<'a, T> + Send + 'a>;

/// A list read page after page: each item a page (`Vec<T>`) or the error that ends the list.
///
/// Made by a generated operation's `.pages()`; [`Pages::items`] (or the operation's `.items()`)
/// reads it item by item.
#[must_use = "a stream does nothing unless polled"]
pub struct Pages<'a, T> {
    send: SendPage<'a, T>,
    /// The page being asked, and its offset and limit.
    pending: Option<(PageFuture<'a, T>, u64, u64)>,
    /// The offset of the next page; `None` once the list has ended.
    next: Option<u64>,
    limit: u64,
    max_offset: Option<u64>,
    read: u64,
    /// The error the stream ends with, after the page it follows.
    ending: Option<Error>,
}

impl<T> fmt::Debug for Pages<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pages")
            .field("next", &self.next)
            .field("limit", &self.limit)
            .field("max_offset", &self.max_offset)
            .field("read", &self.read)
            .finish_non_exhaustive()
    }
}

impl<'a, T: Send + 'a> Pages<'a, T> {
    /// The pages of a list that `paging` describes, from the caller's `offset` (else 0) with the
    /// caller's `limit` (else `paging.page_size`); `send` asks one page given its offset and limit
    /// in the parameters' own types (`O`, `L`).
    pub fn new<O, L, F>(paging: Paging, offset: Option<O>, limit: Option<L>, mut send: F) -> Self
    where
        O: TryFrom<u64> + TryInto<u64> + fmt::Display + Copy + 'a,
        L: TryFrom<u64> + TryInto<u64> + fmt::Display + Copy + 'a,
        F: FnMut(O, L) -> PageFuture<'a, T> + Send + 'a,
    {
        let start = offset.map_or(Ok(0), |offset| unsigned(offset, "offset"));
        let first_limit = limit.map_or(Ok(paging.page_size), |limit| unsigned(limit, "limit"));
        let send: SendPage<'a, T> =
            Box::new(
                move |offset, limit| match (O::try_from(offset), L::try_from(limit)) {
                    (Ok(offset), Ok(limit)) => send(offset, limit),
                    _ => Box::pin(std::future::ready(Err(Error::from(ErrorKind::InvalidRequest(
                        format!(
                            "a page's offset {offset} or limit {limit} does not fit its parameter's type"
                        ),
                    ))))),
                },
            );
        let (next, limit, ending) = match (start, first_limit) {
            (Ok(start), Ok(limit)) => (Some(start), limit, None),
            (Err(error), _) | (_, Err(error)) => (None, 0, Some(error)),
        };
        Pages {
            send,
            pending: None,
            next,
            limit,
            max_offset: paging.max_offset,
            read: 0,
            ending,
        }
    }

    /// The same list, item by item.
    pub fn items(self) -> Items<'a, T> {
        Items {
            pages: self,
            page: VecDeque::new(),
        }
    }

    /// How many items the stream has read so far.
    pub fn read(&self) -> u64 {
        self.read
    }

    /// What follows a page of `received` items asked at `offset` with `limit`.
    fn after_page(&mut self, offset: u64, limit: u64, received: usize) {
        let received = u64::try_from(received).unwrap_or(u64::MAX);
        self.read = self.read.saturating_add(received);
        if received == 0 || received < limit {
            self.next = None;
            return;
        }
        let next = offset.checked_add(received);
        match (next, self.max_offset) {
            (Some(next), Some(max)) if next <= max => self.next = Some(next),
            (Some(next), None) => self.next = Some(next),
            (_, max) => {
                // Past what the server serves (or past u64, which no server serves either).
                self.next = None;
                self.ending = Some(Error::from(ErrorKind::PageLimit(PageLimitError {
                    max_offset: max.unwrap_or(u64::MAX),
                    read: self.read,
                })));
            }
        }
    }
}

/// `value` as a non-negative offset or limit, or the error that says it is not one.
fn unsigned<V: TryInto<u64> + fmt::Display + Copy>(value: V, what: &str) -> Result<u64, Error> {
    value.try_into().map_err(|_| {
        ErrorKind::InvalidRequest(format!("a page's {what} must not be negative (it is {value})")).into()
    })
}

impl<'a, T: Send + 'a> Stream for Pages<'a, T> {
    type Item = Result<Vec<T>, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.pending.is_none() {
            let Some(offset) = this.next.take() else {
                return Poll::Ready(this.ending.take().map(Err));
            };
            let limit = this.limit;
            this.pending = Some(((this.send)(offset, limit), offset, limit));
        }
        let Some((page, offset, limit)) = this.pending.as_mut() else {
            return Poll::Ready(None);
        };
        let (offset, limit) = (*offset, *limit);
        let Poll::Ready(answer) = page.as_mut().poll(cx) else {
            return Poll::Pending;
        };
        this.pending = None;
        match answer {
            Ok(items) => {
                this.after_page(offset, limit, items.len());
                Poll::Ready(Some(Ok(items)))
            }
            Err(error) => {
                // A failed page ends the list: what follows it is unknown.
                this.next = None;
                this.ending = None;
                Poll::Ready(Some(Err(error)))
            }
        }
    }
}

/// A list read item by item across its pages: each item a `T`, or the error that ends the list.
#[must_use = "a stream does nothing unless polled"]
pub struct Items<'a, T> {
    pages: Pages<'a, T>,
    page: VecDeque<T>,
}

// Nothing of a stream is pinned in place (the page in flight is boxed): it moves freely, whatever
// `T` is.
impl<T> Unpin for Pages<'_, T> {}
impl<T> Unpin for Items<'_, T> {}

impl<T> fmt::Debug for Items<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Items")
            .field("pages", &self.pages)
            .field("buffered", &self.page.len())
            .finish()
    }
}

impl<T> Items<'_, T> {
    /// How many items the stream has read from the server so far (those yielded and those of the
    /// current page still to come).
    pub fn read(&self) -> u64 {
        self.pages.read
    }
}

impl<'a, T: Send + 'a> Stream for Items<'a, T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(item) = this.page.pop_front() {
                return Poll::Ready(Some(Ok(item)));
            }
            match Pin::new(&mut this.pages).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(Some(Ok(page))) => this.page = page.into(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use futures_util::StreamExt as _;
    use hyper::StatusCode;

    use super::*;

    /// A fake server's list of `len` numbers served at most `max_offset`; every page asked is
    /// recorded as (offset, limit).
    fn list(
        len: u64,
        max_offset: Option<u64>,
        asked: Arc<Mutex<Vec<(i64, i64)>>>,
    ) -> impl FnMut(i64, i64) -> BoxFuture<'static, Result<Vec<u64>, Error>> + Send {
        move |offset: i64, limit: i64| {
            asked.lock().map(|mut asked| asked.push((offset, limit))).ok();
            let beyond = max_offset.is_some_and(|max| offset as u64 > max);
            let page = if beyond {
                Err(Error::decode(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "past the maximum",
                    Default::default(),
                ))
            } else {
                let end = (offset as u64).saturating_add(limit as u64).min(len);
                Ok((offset as u64..end).collect())
            };
            Box::pin(std::future::ready(page))
        }
    }

    fn paging(page_size: u64, max_offset: Option<u64>) -> Paging {
        Paging {
            page_size,
            max_offset,
        }
    }

    #[tokio::test]
    async fn pages_go_on_until_a_short_page() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let pages: Vec<Vec<u64>> = Pages::new(
            paging(20, None),
            None::<i64>,
            None::<i64>,
            list(45, None, asked.clone()),
        )
        .map(|page| page.unwrap_or_default())
        .collect()
        .await;
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 5]);
        assert_eq!(pages.concat(), (0..45).collect::<Vec<_>>());
        assert_eq!(*asked.lock().unwrap(), [(0, 20), (20, 20), (40, 20)]);
    }

    #[tokio::test]
    async fn an_exact_multiple_ends_with_an_empty_page() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let items: Vec<u64> = Pages::new(
            paging(10, None),
            None::<i64>,
            None::<i64>,
            list(20, None, asked.clone()),
        )
        .items()
        .map(|item| item.unwrap_or(u64::MAX))
        .collect()
        .await;
        assert_eq!(items, (0..20).collect::<Vec<_>>());
        assert_eq!(*asked.lock().unwrap(), [(0, 10), (10, 10), (20, 10)]);
    }

    #[tokio::test]
    async fn the_callers_offset_and_limit_are_kept() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let items: Vec<u64> = Pages::new(
            paging(100, None),
            Some(5i64),
            Some(7i64),
            list(25, None, asked.clone()),
        )
        .items()
        .map(|item| item.unwrap_or(u64::MAX))
        .collect()
        .await;
        assert_eq!(items, (5..25).collect::<Vec<_>>());
        assert_eq!(*asked.lock().unwrap(), [(5, 7), (12, 7), (19, 7)]);
    }

    #[tokio::test]
    async fn a_full_page_at_the_maximum_offset_ends_with_page_limit() {
        // The service's rule at a small scale: offsets up to 30 served, pages of 10, 100 items.
        let asked = Arc::new(Mutex::new(Vec::new()));
        let mut items = Pages::new(
            paging(10, Some(30)),
            None::<i64>,
            None::<i64>,
            list(100, Some(30), asked.clone()),
        )
        .items();
        let mut read = Vec::new();
        let mut ending = None;
        while let Some(item) = items.next().await {
            match item {
                Ok(item) => read.push(item),
                Err(error) => ending = Some(error),
            }
        }
        assert_eq!(read, (0..40).collect::<Vec<_>>(), "every page the server serves");
        assert_eq!(*asked.lock().unwrap(), [(0, 10), (10, 10), (20, 10), (30, 10)]);
        let Some(ErrorKind::PageLimit(limit)) = ending.as_ref().map(Error::kind) else {
            panic!("ends with PageLimit, not {ending:?}");
        };
        let limit = *limit;
        assert_eq!(
            limit,
            PageLimitError {
                max_offset: 30,
                read: 40
            }
        );
        assert_eq!(
            Error::from(ErrorKind::PageLimit(limit)).to_string(),
            "the server serves no page past offset 30 (40 items read); more may exist: narrow the query"
        );
        assert!(items.next().await.is_none(), "the error is the end");
    }

    #[tokio::test]
    async fn the_services_maximum_skip_ends_with_page_limit() {
        // The clinic's lists: skip ≤ 10,000, limit ≤ 100 (the page size), more rows than that.
        let asked = Arc::new(Mutex::new(Vec::new()));
        let mut pages = Pages::new(
            paging(100, Some(10_000)),
            None::<i64>,
            None::<i64>,
            list(20_000, Some(10_000), asked.clone()),
        );
        let mut full = 0;
        let ending = loop {
            match pages.next().await {
                Some(Ok(page)) => {
                    assert_eq!(page.len(), 100);
                    full += 1;
                }
                Some(Err(error)) => break error,
                None => panic!("the stream ended without an error"),
            }
        };
        assert_eq!(full, 101, "pages at skip 0, 100, …, 10,000");
        assert_eq!(asked.lock().unwrap().last(), Some(&(10_000, 100)));
        assert_eq!(
            ending.to_string(),
            "the server serves no page past offset 10000 (10100 items read); more may exist: narrow the query"
        );
        // A list that ends within the maximum ends without an error, even at the maximum.
        let asked = Arc::new(Mutex::new(Vec::new()));
        let items = Pages::new(
            paging(100, Some(10_000)),
            None::<i64>,
            None::<i64>,
            list(10_050, Some(10_000), asked),
        )
        .items()
        .collect::<Vec<_>>()
        .await;
        assert_eq!(items.len(), 10_050);
        assert!(items.iter().all(Result::is_ok));
    }

    #[tokio::test]
    async fn a_failed_page_ends_the_stream_with_its_error() {
        let mut calls = 0;
        let mut pages = Pages::new(
            paging(2, None),
            None::<i64>,
            None::<i64>,
            move |offset: i64, _limit: i64| {
                calls += 1;
                let page = if calls == 1 {
                    Ok(vec![offset, offset + 1])
                } else {
                    Err(ErrorKind::Timeout(std::time::Duration::from_secs(1)).into())
                };
                Box::pin(std::future::ready(page))
            },
        );
        assert_eq!(pages.next().await.map(|page| page.ok()), Some(Some(vec![0, 1])));
        let ended = pages.next().await;
        assert!(matches!(
            ended.as_ref().map(|page| page.as_ref().map_err(Error::kind)),
            Some(Err(ErrorKind::Timeout(_)))
        ));
        assert!(pages.next().await.is_none());
    }

    #[tokio::test]
    async fn a_negative_offset_or_a_type_too_small_is_an_error_not_a_panic() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let mut pages = Pages::new(
            paging(10, None),
            Some(-1i64),
            None::<i64>,
            list(5, None, asked.clone()),
        );
        let Some(Err(error)) = pages.next().await else {
            panic!("a negative offset is refused");
        };
        let ErrorKind::InvalidRequest(why) = error.kind() else {
            panic!("InvalidRequest, not {error:?}");
        };
        assert_eq!(why, "a page's offset must not be negative (it is -1)");
        assert!(pages.next().await.is_none() && asked.lock().unwrap().is_empty());
        // A `u8` offset cannot go past 255: the page that would start at 300 is an error.
        let mut pages = Pages::new(
            paging(300, None),
            None::<u8>,
            None::<u16>,
            |offset: u8, limit: u16| {
                let page: Vec<u16> = (0..limit).map(|i| i.wrapping_add(offset.into())).collect();
                Box::pin(std::future::ready(Ok(page)))
            },
        );
        assert!(matches!(pages.next().await, Some(Ok(page)) if page.len() == 300));
        let ended = pages.next().await;
        assert!(matches!(
            ended.as_ref().map(|page| page.as_ref().map_err(Error::kind)),
            Some(Err(ErrorKind::InvalidRequest(_)))
        ));
        assert!(pages.next().await.is_none());
    }

    #[tokio::test]
    async fn a_limit_of_zero_asks_once() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let pages: Vec<_> = Pages::new(
            paging(10, None),
            None::<i64>,
            Some(0i64),
            list(5, None, asked.clone()),
        )
        .collect()
        .await;
        assert_eq!(pages.len(), 1);
        assert_eq!(*asked.lock().unwrap(), [(0, 0)]);
    }
}
