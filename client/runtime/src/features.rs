//! The features a generated client needs, checked where it is built: one error per feature that
//! is off, naming it and the line of `Cargo.toml` that turns it on.
//!
//! Rules enforced here: a generated client calls [`require_features!`](crate::require_features)
//! inside its own module `rt` (its `use` of this crate), once, with the features its types name;
//! a feature that is on expands to nothing, one that is off to a `compile_error!`. Why a macro of
//! this crate and not `#[cfg(feature = ..)]` in the generated code: in the user's crate, `feature`
//! means the user's features, not this crate's; only this crate knows which of its own are on.
//! Why inside the module `rt`: rustc does not report a path that fails to resolve in a module
//! where a macro failed (the macro might have defined it), so the 19 "cannot find `chrono` in
//! `rt`" errors of a client whose dates are off become the one error that says what to do.

/// Stops the build with one error for each of the named features of `ferrapi-client` that this
/// build of it lacks (`chrono`, `uuid`, `decimal`, `url`), saying how to turn it on; nothing for
/// the ones that are on. Generated clients call it in their module `rt`:
///
/// ```
/// mod rt {
///     pub use ::ferrapi_client::*;
///     ::ferrapi_client::require_features!();
/// }
/// ```
#[macro_export]
macro_rules! require_features {
    ($($feature:ident),* $(,)?) => {
        $($crate::__require_feature!($feature);)*
    };
}

/// One feature of [`require_features!`](crate::require_features): a feature this crate does not
/// have is a mistake of the generator (or of a hand edit), reported as such.
#[doc(hidden)]
#[macro_export]
macro_rules! __require_feature {
    (chrono) => {
        $crate::__feature_chrono!();
    };
    (uuid) => {
        $crate::__feature_uuid!();
    };
    (decimal) => {
        $crate::__feature_decimal!();
    };
    (url) => {
        $crate::__feature_url!();
    };
    ($other:ident) => {
        ::core::compile_error!(::core::concat!(
            "ferrapi-client has no feature `",
            ::core::stringify!($other),
            "`: regenerate the client with the ferrapi-client-gen of this ferrapi-client"
        ));
    };
}

// One definition per feature and state: `macro_rules!` arms cannot be switched by `cfg` one by
// one, and a macro defined by another macro's expansion cannot be exported by path.

#[cfg(feature = "chrono")]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_chrono {
    () => {};
}

#[cfg(not(feature = "chrono"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_chrono {
    () => {
        ::core::compile_error!(
            "this client needs ferrapi-client's feature `chrono` (dates, times, date-times, durations): \
             add `features = [\"chrono\"]` to the ferrapi-client dependency in Cargo.toml"
        );
    };
}

#[cfg(feature = "uuid")]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_uuid {
    () => {};
}

#[cfg(not(feature = "uuid"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_uuid {
    () => {
        ::core::compile_error!(
            "this client needs ferrapi-client's feature `uuid` (UUIDs): \
             add `features = [\"uuid\"]` to the ferrapi-client dependency in Cargo.toml"
        );
    };
}

#[cfg(feature = "decimal")]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_decimal {
    () => {};
}

#[cfg(not(feature = "decimal"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_decimal {
    () => {
        ::core::compile_error!(
            "this client needs ferrapi-client's feature `decimal` (pydantic's decimals): \
             add `features = [\"decimal\"]` to the ferrapi-client dependency in Cargo.toml"
        );
    };
}

#[cfg(feature = "url")]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_url {
    () => {};
}

#[cfg(not(feature = "url"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __feature_url {
    () => {
        ::core::compile_error!(
            "this client needs ferrapi-client's feature `url` (URLs): \
             add `features = [\"url\"]` to the ferrapi-client dependency in Cargo.toml"
        );
    };
}
