//! A test-only fault point: the multi-process test makes a process stop for good between booking
//! a visit and keeping its idempotency key's answer, then SIGKILLs it, so that the window a crash
//! can fall into is hit every time rather than by chance.
//!
//! Rules enforced here: the environment is read once, when the clinic is built (at start-up);
//! unset (always, outside that test), a booking pays one branch on a `bool` and nothing else; the
//! variable is not a setting and is not advertised (a process that stops answering is no feature).

/// The variable; `hang-after-booking` is its one value.
const VARIABLE: &str = "RESOURCE_API_TEST_FAULT";

/// Where this process stops, if anywhere.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Fault {
    hang_after_booking: bool,
}

impl Fault {
    /// The fault the environment asks for (none unless it names one).
    pub(super) fn from_env() -> Self {
        Fault {
            hang_after_booking: std::env::var(VARIABLE).is_ok_and(|value| value == "hang-after-booking"),
        }
    }

    /// After a visit is written and before its key's answer is kept: with the fault on, say so in
    /// the log and never return (the test then kills the process).
    pub(super) async fn after_booking(self) {
        if self.hang_after_booking {
            tracing::warn!("test fault: a visit is booked, its key's answer will never be kept");
            std::future::pending::<()>().await;
        }
    }
}
