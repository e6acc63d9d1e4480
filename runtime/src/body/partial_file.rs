//! A file being written that is removed unless it is finished: [`PartialFile`], the guard of
//! `Part::save_to` and `UploadFile::save_to`.
//!
//! Rules enforced here:
//! - the file is removed when the guard is dropped without [`PartialFile::keep`]: on an error
//!   return, and when the future writing it is dropped (a client gone, a timeout layer), which an
//!   `if result.is_err()` after the `.await` never sees;
//! - only a file the guard created is removed: it is armed once the create succeeded;
//! - the create is synchronous, like the removal: a `tokio::fs::File::create` cancelled while it
//!   runs in the blocking pool would still create the file, after the guard had removed nothing;
//! - the removal is `std::fs::remove_file` in `drop`: one unlink (microseconds on a local disk),
//!   paid only on a failed or cancelled save, and done when `drop` returns, so the file is gone
//!   by the time the request is; it needs no runtime (a task may be dropped while its runtime
//!   shuts down, when `spawn_blocking` is refused). A write still running in the blocking pool
//!   ends in the unlinked file (Unix; Windows deletes it once that write closes it).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A file being written at a path, removed on drop unless [`kept`](PartialFile::keep).
#[derive(Debug)]
pub(crate) struct PartialFile {
    path: Option<PathBuf>,
}

impl PartialFile {
    /// Create the file at `path` (replacing one there), and the guard that removes it.
    pub(crate) fn create(path: &Path) -> io::Result<(PartialFile, File)> {
        let file = File::create(path)?;
        let guard = PartialFile {
            path: Some(path.to_owned()),
        };
        Ok((guard, file))
    }

    /// The file is whole: keep it.
    pub(crate) fn keep(mut self) {
        self.path = None;
    }
}

impl Drop for PartialFile {
    fn drop(&mut self) {
        let Some(path) = self.path.take() else {
            return;
        };
        match std::fs::remove_file(&path) {
            Ok(()) => tracing::debug!(path = %path.display(), "partial upload removed"),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => {
                tracing::warn!(path = %path.display(), error = %error, "a partial upload could not be removed");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ferrapi-partial-{name}-{}", std::process::id()))
    }

    #[test]
    fn a_dropped_guard_removes_its_file_and_a_kept_one_does_not() {
        let dropped = temp("dropped");
        let (guard, _file) = PartialFile::create(&dropped).expect("create");
        assert!(dropped.exists());
        drop(guard);
        assert!(!dropped.exists());

        let kept = temp("kept");
        let (guard, _file) = PartialFile::create(&kept).expect("create");
        guard.keep();
        assert!(kept.exists());
        let _ = std::fs::remove_file(&kept);
    }

    #[test]
    fn a_failed_create_arms_nothing() {
        let missing = temp("no-such-dir").join("file");
        assert!(PartialFile::create(&missing).is_err());
    }
}
