//! A deprecated route's notice (the route option `deprecated(since = "..", sunset = "..")`): a
//! layer of the route's own that puts `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) on every
//! answer of it.
//!
//! Rules enforced here: only a deprecated route has the layer, so no other route pays for it (it
//! takes the route-stack path the groups' layers already take); the layer is outside the route's
//! groups' layers, so an answer a group's layer makes for it (a 401) carries the notice too; the
//! headers are made once, when the app is built; at a deprecated version the version's notice is
//! applied after it (with the version's echo), so the version's headers are the ones sent.

use std::sync::Arc;

use tower::util::MapResponseLayer;

use crate::dispatch::LayerFn;
use crate::response::Response;
use crate::versions::Notice;

/// The layer of a route deprecated since `since` (and gone after `sunset`); `None` for dates that
/// are not `YYYY-MM-DD` (the app's checks report them, and it does not build).
pub(super) fn notice_layer((since, sunset): (&'static str, Option<&'static str>)) -> Option<LayerFn> {
    let notice = Notice::new(since, sunset)?;
    let layer = MapResponseLayer::new(move |mut response: Response| {
        notice.apply(response.headers_mut());
        response
    });
    Some(Arc::new(move |endpoint: crate::dispatch::Endpoint| {
        endpoint.layered(&layer)
    }))
}
