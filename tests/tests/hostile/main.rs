//! Hostile clients against a real server on 127.0.0.1 (issue 21): each attack runs bounded in
//! time (under 30 s), while a fresh client keeps being answered, and the server's limits and
//! deadlines end the attack's hold. One test at a time (they measure latency, CPU and memory of
//! this process, which serves them).

mod support;
#[path = "../framework/support/tls.rs"]
mod tls_support;

mod body_deadline;
mod connection_limit;
mod fair_share;
mod h2_deadlines;
mod refusals;
mod slow_readers;
mod tls;
mod tls_key_update;
