//! Blessed documents: each version's document committed as `dir/<version>.json`, and the check a
//! test runs on the document the app serves now.
//!
//! Rules enforced here: a **released** version's committed document is never rewritten by a
//! test: the served one must not break a caller of it ([`breaks`](super::breaks)), compatible
//! changes pass and leave the file as it is (the committed copy stays what was released), and
//! `UPDATE_SNAPSHOTS=1` refuses to re-bless it (re-blessing a released version is a deliberate
//! hand edit); the **unreleased** version's document is a snapshot: it must equal the served one,
//! and `UPDATE_SNAPSHOTS=1` rewrites it; a version without a committed document yet is written
//! by `UPDATE_SNAPSHOTS=1` (its first blessing) and is a failure otherwise. Files are written as
//! pretty JSON with a final newline, so a review shows a change line by line.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{breaks, Break};
use crate::document::{Document, GenError};

/// The environment variable that lets a test rewrite what it may rewrite.
pub const UPDATE: &str = "UPDATE_SNAPSHOTS";

/// Whether a version has been released to callers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// Callers may use it: its document may only change compatibly.
    Released,
    /// Under development: its document is a snapshot, rewritten on request.
    Unreleased,
}

/// What a passing check did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The committed document is the served one.
    Same,
    /// A released version's document changed, compatibly (the committed copy is kept).
    Compatible,
    /// The document was written (`UPDATE_SNAPSHOTS=1`: a first blessing, or the unreleased one).
    Written,
}

/// Why a check failed; its `Display` is the message a test prints.
#[derive(Debug)]
pub enum SnapshotError {
    /// A released version's served document breaks callers of its committed one.
    Breaks {
        /// The committed file.
        path: PathBuf,
        /// Every change that breaks a caller.
        breaks: Vec<Break>,
        /// `UPDATE_SNAPSHOTS` was set (and refused).
        update_refused: bool,
    },
    /// The unreleased version's served document is not its committed snapshot.
    Changed {
        /// The committed file.
        path: PathBuf,
    },
    /// No document is committed for the version.
    Missing {
        /// Where it is expected.
        path: PathBuf,
    },
    /// A document could not be read (or a file written).
    Unreadable {
        /// The file concerned, or the served document.
        what: String,
        /// Why.
        error: String,
    },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Breaks {
                path,
                breaks,
                update_refused,
            } => {
                writeln!(
                    f,
                    "the served document breaks callers of the released version committed at {} ({} change{}):",
                    path.display(),
                    breaks.len(),
                    if breaks.len() == 1 { "" } else { "s" }
                )?;
                for found in breaks {
                    writeln!(f, "  - {found}")?;
                }
                if *update_refused {
                    writeln!(
                        f,
                        "{UPDATE}=1 does not rewrite a released version's document: re-blessing it is a \
                         deliberate hand edit of {} (callers of the version break).",
                        path.display()
                    )?;
                }
                write!(
                    f,
                    "Make the change compatible, or make it in a new version (the unreleased one)."
                )
            }
            SnapshotError::Changed { path } => write!(
                f,
                "the unreleased version's document is not the one committed at {}; \
                 if the change is meant, rewrite it with {UPDATE}=1",
                path.display()
            ),
            SnapshotError::Missing { path } => write!(
                f,
                "no document is committed at {}; write it with {UPDATE}=1 (once the version is \
                 released, the test never rewrites it)",
                path.display()
            ),
            SnapshotError::Unreadable { what, error } => write!(f, "{what}: {error}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// The committed documents of an app's versions: `dir/<version>.json`.
#[derive(Clone, Debug)]
pub struct Blessed {
    dir: PathBuf,
}

impl Blessed {
    /// The documents kept in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Blessed { dir: dir.into() }
    }

    /// The file of `version`'s document.
    pub fn path(&self, version: &str) -> PathBuf {
        self.dir.join(format!("{version}.json"))
    }

    /// Check `served` (the document the app serves for `version`, JSON text) against the
    /// committed one, rewriting what `UPDATE_SNAPSHOTS=1` may rewrite.
    pub fn check(&self, version: &str, release: Release, served: &str) -> Result<Checked, SnapshotError> {
        let update = std::env::var_os(UPDATE).is_some_and(|value| !value.is_empty() && value != "0");
        self.check_with(version, release, served, update)
    }

    /// [`check`](Self::check), with `update` saying whether `UPDATE_SNAPSHOTS` is set.
    pub fn check_with(
        &self,
        version: &str,
        release: Release,
        served: &str,
        update: bool,
    ) -> Result<Checked, SnapshotError> {
        let path = self.path(version);
        let served = parse(served, "the served document")?;
        let unreadable = |error: &dyn fmt::Display| SnapshotError::Unreadable {
            what: path.display().to_string(),
            error: error.to_string(),
        };
        let committed = match std::fs::read_to_string(&path) {
            Ok(text) => parse(&text, &path.display().to_string())?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                if !update {
                    return Err(SnapshotError::Missing { path });
                }
                write(&path, &served).map_err(|error| unreadable(&error))?;
                return Ok(Checked::Written);
            }
            Err(error) => return Err(unreadable(&error)),
        };
        if committed == served {
            return Ok(Checked::Same);
        }
        match release {
            Release::Unreleased if update => {
                write(&path, &served).map_err(|error| unreadable(&error))?;
                Ok(Checked::Written)
            }
            Release::Unreleased => Err(SnapshotError::Changed { path }),
            Release::Released => {
                let document = |value| Document::new(value).map_err(|error: GenError| unreadable(&error));
                let found = breaks(&document(&committed)?, &document(&served)?);
                if found.is_empty() {
                    return Ok(Checked::Compatible);
                }
                Err(SnapshotError::Breaks {
                    path,
                    breaks: found,
                    update_refused: update,
                })
            }
        }
    }
}

impl Blessed {
    /// Check every version of an app at once: each `(date, released, document)` (what
    /// `ferrapi::Service::version_documents` gives: every served version, oldest first) against
    /// `dir/<date>.json`, as [`check`](Self::check) does one (a released version must not
    /// break its committed document, the unreleased one must equal its snapshot;
    /// `UPDATE_SNAPSHOTS=1` rewrites only the unreleased one's, and writes a missing file). Every
    /// version is checked, whatever fails: the error names each failing version and, for a
    /// break, each JSON pointer.
    pub fn check_versions<'a, D: AsRef<[u8]>>(
        &self,
        versions: impl IntoIterator<Item = (&'a str, bool, D)>,
    ) -> Result<Vec<(String, Checked)>, VersionsFailed> {
        let update = std::env::var_os(UPDATE).is_some_and(|value| !value.is_empty() && value != "0");
        self.check_versions_with(versions, update)
    }

    /// [`check_versions`](Self::check_versions), with `update` saying whether `UPDATE_SNAPSHOTS`
    /// is set.
    pub fn check_versions_with<'a, D: AsRef<[u8]>>(
        &self,
        versions: impl IntoIterator<Item = (&'a str, bool, D)>,
        update: bool,
    ) -> Result<Vec<(String, Checked)>, VersionsFailed> {
        let (mut checked, mut failures) = (Vec::new(), Vec::new());
        for (date, released, document) in versions {
            let release = if released {
                Release::Released
            } else {
                Release::Unreleased
            };
            let outcome = match std::str::from_utf8(document.as_ref()) {
                Ok(served) => self.check_with(date, release, served, update),
                Err(error) => Err(SnapshotError::Unreadable {
                    what: format!("the served document of {date}"),
                    error: error.to_string(),
                }),
            };
            match outcome {
                Ok(done) => checked.push((date.to_owned(), done)),
                Err(error) => failures.push((date.to_owned(), error)),
            }
        }
        if failures.is_empty() && checked.is_empty() {
            return Err(VersionsFailed { failures, none: true });
        }
        if failures.is_empty() {
            Ok(checked)
        } else {
            Err(VersionsFailed {
                failures,
                none: false,
            })
        }
    }
}

/// The versions [`Blessed::check_versions`] refused; its `Display` is the message a test prints.
#[derive(Debug)]
pub struct VersionsFailed {
    /// Each failing version's date and why.
    pub failures: Vec<(String, SnapshotError)>,
    /// No version was given at all (an app without versions: nothing was checked).
    pub none: bool,
}

impl fmt::Display for VersionsFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.none {
            return write!(f, "no version to check: the app declares no API versions");
        }
        for (date, error) in &self.failures {
            writeln!(f, "version {date}: {error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VersionsFailed {}

fn parse(text: &str, what: &str) -> Result<Value, SnapshotError> {
    serde_json::from_str(text).map_err(|error| SnapshotError::Unreadable {
        what: what.to_owned(),
        error: format!("not JSON: {error}"),
    })
}

fn write(path: &Path, document: &Value) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = serde_json::to_string_pretty(document).map_err(std::io::Error::other)?;
    text.push('\n');
    std::fs::write(path, text)
}
