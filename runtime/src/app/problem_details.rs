//! The app's switch to problem details (RFC 9457): see [`App::problem_details`].
//!
//! Rules enforced here: the switch is one flag of the app (not a value of the user's state), so
//! building the app asks one question of it; turning it on twice is turning it on once. Its layer
//! is put around every other layer when the app is built, so the answers made of the other
//! layers' errors (a timeout's 408, a load-shed 503) are problems too; the server's own answers
//! read the switch from the app's [`Config`](crate::Config).

use super::App;
use crate::problem::ProblemLayer;

impl App {
    /// Answer every error in FastAPI's `{"detail": …}` shape as RFC 9457 problem details
    /// (`application/problem+json`: `type`, `title`, `status`, `detail`, `instance`, and the
    /// validation items as the `errors` extension): the framework's 404, 405, 413, 422 and 500,
    /// and every [`HttpError`](crate::HttpError). The OpenAPI document shows the
    /// `ProblemDetails` schema on every error response. Off by default: FastAPI's bodies.
    pub fn problem_details(self) -> Self {
        Self {
            problem_details: true,
            ..self
        }
    }

    /// Whether [`App::problem_details`] was turned on.
    pub(super) fn answers_problems(&self) -> bool {
        self.problem_details
    }

    /// With the switch on, the problem layer around every layer added (the last one added is the
    /// outermost), and the switch in the config for the server's own answers.
    pub(super) fn wrap_problems(mut self) -> Self {
        if !self.answers_problems() {
            return self;
        }
        self.config.problem_details = true;
        self.layer(ProblemLayer)
    }
}
