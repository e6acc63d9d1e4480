//! What a test measures of its own process, which serves the app under test: resident memory
//! and CPU time (Linux `/proc`; 0 elsewhere).

use std::time::Duration;

/// This process's resident set size, in bytes.
pub fn rss() -> u64 {
    rss_at("/proc/self/status")
}

/// The resident set size of process `pid`, in bytes.
pub fn rss_of(pid: u32) -> u64 {
    rss_at(&format!("/proc/{pid}/status"))
}

fn rss_at(status: &str) -> u64 {
    let status = std::fs::read_to_string(status).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// This process's CPU time so far, user and system, all threads (10 ms resolution).
pub fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which may hold spaces) follow its closing parenthesis;
    // utime and stime are the line's 14th and 15th, the 12th and 13th after the name.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let ticks: u64 = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|field| field.parse::<u64>().ok())
        .sum();
    // Linux reports them in USER_HZ, 100 a second.
    Duration::from_millis(ticks * 10)
}
