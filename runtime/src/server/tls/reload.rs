//! Certificates (the pair, and the client CA) replaced without a restart: on `SIGHUP`, and when
//! the files change.
//!
//! Rules enforced here:
//! - the files are polled (`TlsConfig::reload_poll`, every second by default), not watched with
//!   inotify: one `stat` per file a second, no new dependency, and it sees what inotify misses
//!   (a Kubernetes secret is swapped by renaming a symbolic link, `..data`, in the directory
//!   above the file; network file systems send no events). A change is the file's identity
//!   (device, inode), size or modification time, through symbolic links;
//! - the client CA file and the SNI pairs' files are watched with the pair, and all are
//!   reloaded together (`certs::make`);
//! - debounced: a change is taken only once the files have looked the same for one more poll,
//!   so a pair being written (the certificate new, the key not yet) is retried, not taken;
//! - `SIGHUP` reloads at once;
//! - a pair that cannot be read, or whose key is not the certificate's, is refused with a `WARN`
//!   line naming the file, and the pair in force is kept; a new pair is logged at `INFO`;
//! - only new handshakes see the new pair (`certs.rs`): open connections go on with theirs.

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use super::certs::{self, Current};
use crate::config::TlsConfig;

/// What a poll sees of one file: its identity, size and modification time.
type Look = Option<(u64, u64, u64, Option<SystemTime>)>;

/// What a poll sees of the files: the pair's, the client CA's (when there is one), then the SNI
/// pairs'.
type Looks = Vec<Look>;

/// What a poll sees of the files `settings` names.
fn look(settings: &TlsConfig) -> Looks {
    let ca = settings.client_auth.as_ref().map(|(ca, _)| ca.as_path());
    let sni = settings
        .sni_pairs
        .iter()
        .flat_map(|(cert, key)| [cert.as_path(), key.as_path()]);
    [settings.cert_path.as_path(), settings.key_path.as_path()]
        .into_iter()
        .chain(ca)
        .chain(sni)
        .map(look_at)
        .collect()
}

/// What a poll sees of `path`.
fn look_at(path: &Path) -> Look {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let (dev, ino) = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let (dev, ino) = (0, 0);
    Some((dev, ino, meta.len(), meta.modified().ok()))
}

/// The files, and where the configuration in force is kept.
pub(crate) struct Reload {
    pub(crate) settings: TlsConfig,
    pub(crate) current: Arc<Current>,
    pub(crate) provider: Arc<rustls::crypto::CryptoProvider>,
}

impl Reload {
    /// Read the files again: put them in force, or keep the old ones and say why.
    fn reload(&self, why: &str) {
        match certs::make(&self.settings, &self.provider) {
            Ok(config) => {
                self.current.replace(config);
                tracing::info!(
                    "TLS certificate reloaded ({why}): {}",
                    self.settings.cert_path.display()
                );
            }
            Err(line) => {
                tracing::warn!("TLS certificate not reloaded ({why}), the one in force is kept: {line}");
            }
        }
    }

    /// Watch for `SIGHUP` and changes of the files until the returned guard is dropped.
    pub(crate) fn spawn(self: Arc<Self>) -> Reloader {
        Reloader(tokio::spawn(async move { self.run().await }))
    }

    async fn run(&self) {
        #[cfg(unix)]
        let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
        let mut seen = look(&self.settings);
        // A change seen once, waiting to look the same at the next poll.
        let mut changed: Option<Looks> = None;
        let mut every = self.settings.reload_poll.map(tokio::time::interval);
        if let Some(every) = &mut every {
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        }
        loop {
            let tick = async {
                match &mut every {
                    Some(every) => {
                        every.tick().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            #[cfg(unix)]
            let signal = async {
                match &mut hangup {
                    Some(hangup) => {
                        hangup.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            #[cfg(not(unix))]
            let signal = std::future::pending::<()>();
            tokio::select! {
                () = signal => {
                    seen = look(&self.settings);
                    changed = None;
                    self.reload("SIGHUP");
                }
                () = tick => {
                    let now = look(&self.settings);
                    if now == seen {
                        changed = None;
                    } else if changed.as_ref() == Some(&now) {
                        seen = now;
                        changed = None;
                        self.reload("the files changed");
                    } else {
                        changed = Some(now);
                    }
                }
            }
        }
    }
}

/// The reload task of a server; dropping it stops the task.
pub(crate) struct Reloader(tokio::task::JoinHandle<()>);

impl Drop for Reloader {
    fn drop(&mut self) {
        self.0.abort();
    }
}
