//! The OpenAPI document and the documentation pages.
//!
//! Each route documents itself: the route macros generate a function that builds the route's
//! [`Operation`] (its arguments contribute their parameters or body, see `extract`), and the app
//! assembles the document once, when it is built. Its files:
//!
//! - `operation`: one operation object, FastAPI's layout;
//! - `fields`: the schemas of parameters and model fields, pydantic's titles and keywords;
//! - `examples`: where `#[examples(..)]` of a field or an argument goes;
//! - `document`: the whole document (`info`, `paths`, `components`, `tags`);
//! - `items`: the item schema of a streamed answer (JSON lines, typed events);
//! - `paging`: the `x-paging` extension of a route that pages, and its check;
//! - `layout`: the order of every object's keys, and nulls, as FastAPI writes them;
//! - `docs`: the OpenAPI document's URL and the Swagger UI and ReDoc pages, served offline.
//!
//! Rules enforced here: the document is laid out as FastAPI writes it (so tools and generated
//! clients that work with FastAPI work here), it is built and serialized once, and the pages load
//! nothing from any host but the service.

mod docs;
mod document;
mod examples;
mod fields;
mod items;
mod layout;
mod operation;
mod paging;

pub(crate) use docs::{url_mistakes, DocsRoutes, VersionDoc};
pub use docs::{CONTENT_SECURITY_POLICY_VALUE, REDOC_VERSION, SWAGGER_UI_VERSION};
pub use document::Tag;
pub(crate) use document::{
    deprecate_operations, document, document_path, name_version, DocumentVersion, ErrorBody, Info,
};
pub use examples::with_examples;
pub use fields::field_schema;
pub(crate) use fields::{option_param_schema, param_schema, vec_param_schema};
pub(crate) use layout::fastapi_layout;
pub(crate) use operation::form_schema;
pub use operation::Operation;
pub(crate) use paging::problems as paging_problems;
