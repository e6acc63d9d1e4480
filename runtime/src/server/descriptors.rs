//! The process's limit of open files, which bounds the connections it can hold.
//!
//! Rules enforced here:
//! - when a server starts, the soft limit (`RLIMIT_NOFILE`) is raised to the hard limit, as Go's
//!   runtime does for every program: the soft limit's usual default of 1,024 exists for programs
//!   that use `select()`, which this one does not, and it left 768 places for connections where
//!   the hard limit (often 524,288) allows the configured 10,000. Both limits are logged, and a
//!   refusal to raise is logged and changes nothing else;
//! - the call goes through `rustix` (a safe wrapper of the system call): the workspace forbids
//!   `unsafe` code, and `libc::setrlimit` would need it;
//! - processes the app starts inherit the raised soft limit (Rust's `Command` does not restore
//!   it, unlike Go's `os/exec`); a child that uses `select()` on descriptors above 1,023 must
//!   lower it itself.

/// Raise the soft limit of open files to the hard limit (see the module rules) and return the
/// soft limit in force afterwards; `None` when it is unlimited or unknown (not a Unix system).
pub(crate) fn raise_to_hard_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let Rlimit { current, maximum } = getrlimit(Resource::Nofile);
        if let (Some(soft), Some(hard)) = (current, maximum) {
            if soft < hard {
                let raised = Rlimit {
                    current: Some(hard),
                    maximum: Some(hard),
                };
                match setrlimit(Resource::Nofile, raised) {
                    Ok(()) => {
                        tracing::info!("open files: soft limit raised from {soft} to the hard limit {hard}");
                        return Some(hard);
                    }
                    Err(err) => {
                        tracing::warn!("open files: soft limit {soft} could not be raised to the hard limit {hard}: {err}");
                        return Some(soft);
                    }
                }
            }
        }
        let shown = |limit: Option<u64>| limit.map_or("unlimited".to_owned(), |n| n.to_string());
        tracing::info!(
            "open files: soft limit {}, hard limit {}",
            shown(current),
            shown(maximum)
        );
        current
    }
    #[cfg(not(unix))]
    None
}

#[cfg(all(test, unix))]
mod tests {
    use rustix::process::{getrlimit, Resource};

    #[test]
    fn the_soft_limit_is_the_hard_one_afterwards() {
        let in_force = super::raise_to_hard_limit();
        let limits = getrlimit(Resource::Nofile);
        assert_eq!(in_force, limits.current);
        if limits.maximum.is_some() {
            assert_eq!(limits.current, limits.maximum, "{limits:?}");
        }
    }
}
