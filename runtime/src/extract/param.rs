//! An argument's declaration in a route's signature ([`Param`]): its name in the API, its
//! `#[default(..)]` and its constraints, one constant per argument that the generated handler
//! and the OpenAPI builder share.
//!
//! Rules enforced here: a declaration is plain `Copy` data made in a `const` (the default a
//! function pointer, evaluated only when the argument is missing), so reading an argument
//! copies nothing per request.

use crate::validate::Constraint;

/// How an argument is declared in the route's signature: its name in the API, its
/// `#[default(..)]` and its constraints (`#[ge(0)]`, `#[max_length(50)]`). A dependency, which is
/// not a parameter itself, usually ignores it.
pub struct Param<T> {
    name: &'static str,
    default: Option<fn() -> T>,
    constraints: &'static [Constraint],
}

impl<T> Clone for Param<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Param<T> {}

impl<T> std::fmt::Debug for Param<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Param")
            .field("name", &self.name)
            .field("default", &self.default.is_some())
            .field("constraints", &self.constraints)
            .finish()
    }
}

impl<T> Param<T> {
    /// The declaration the route macros write for one argument.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn new(
        name: &'static str,
        default: Option<fn() -> T>,
        constraints: &'static [Constraint],
    ) -> Self {
        Param {
            name,
            default,
            constraints,
        }
    }

    /// [`Param::new`] without a default or constraints: what the route macros start from (a
    /// shorter expansion), adding [`Param::default`] and [`Param::constrained`].
    #[doc(hidden)]
    #[inline(always)]
    pub const fn named(name: &'static str) -> Self {
        Self::new(name, None, &[])
    }

    /// The declaration with the `#[default(..)]` value `default` gives.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn default(self, default: fn() -> T) -> Self {
        Self::new(self.name, Some(default), self.constraints)
    }

    /// The declaration with `constraints`.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn constrained(self, constraints: &'static [Constraint]) -> Self {
        Self::new(self.name, self.default, constraints)
    }

    /// The argument's name: the parameter's name in the API.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The `#[default(..)]` value, evaluated now, if the argument has one.
    pub fn default_value(&self) -> Option<T> {
        self.default.map(|f| f())
    }

    /// The function giving the `#[default(..)]` value.
    pub fn default_fn(&self) -> Option<fn() -> T> {
        self.default
    }

    /// The constraint attributes, checked by the built-in parameter kinds.
    #[doc(hidden)]
    pub fn constraints(&self) -> &'static [Constraint] {
        self.constraints
    }
}
