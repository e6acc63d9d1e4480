//! Compile-fail tests of the route macros and derives: every mistake a route author can make is
//! reported at the argument, attribute or path string that caused it, in words that say what to
//! do. The `.stderr` snapshots next to each case are the messages; regenerate them with
//! `TRYBUILD=overwrite cargo test -p ferrapi-tests --test ui` and read every one.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
