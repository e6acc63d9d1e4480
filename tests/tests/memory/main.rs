//! The memory budget (issue 34): what a JSON body costs to read, and what clients can make a
//! server hold, measured on a server in a process of its own (`memory-server`, tests/src/bin/),
//! from its `/proc/PID/status` and its allocator. One test at a time: the attacks share the
//! machine's two cores with the server they measure.

mod support;

mod floods;
mod slow_readers;
mod tree_bounds;
