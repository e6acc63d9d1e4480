//! The request path of a static file, turned into a path under the served directory.
//!
//! Rules enforced here:
//! - the path is split at `/` first and each segment percent-decoded after, so an encoded `/`
//!   (`%2f`) can never make a separator, and an encoded `..` (`%2e%2e`) is seen as the `..` it is;
//! - a `..` segment, a segment with `\`, a NUL or (decoded) `/`, a segment that is not UTF-8, an
//!   empty segment inside the path (`a//b`, which some resolvers read as a root) and a segment that
//!   looks like a drive (`c:`) are refused: the request is answered 404, never resolved;
//! - `.` segments are dropped; the result is relative, made only of normal components; an empty
//!   result is the directory itself;
//! - the caller still checks the resolved (canonical) path against the root, for symlinks.

use std::path::{Component, PathBuf};

use percent_encoding::percent_decode_str;

/// The relative path that `raw` (the part of the request path after the route's prefix, still
/// percent-encoded, without the query) names, or `None` when it must be refused.
pub(crate) fn normalise(raw: &str) -> Option<PathBuf> {
    let raw = raw.strip_prefix('/').unwrap_or(raw);
    let mut path = PathBuf::new();
    let mut segments = raw.split('/').peekable();
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        if segment.is_empty() {
            // Only a trailing `/` (a directory) may leave an empty segment.
            if last {
                break;
            }
            return None;
        }
        let decoded = percent_decode_str(segment).decode_utf8().ok()?;
        if decoded == "." {
            continue;
        }
        if decoded == ".." || decoded.contains(['/', '\\', '\0']) || decoded.contains(':') {
            return None;
        }
        path.push(&*decoded);
    }
    // Belt and braces: what was pushed is made of normal components only.
    path.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ordinary_paths_are_kept() {
        assert_eq!(normalise("/a/b.css"), Some(PathBuf::from("a/b.css")));
        assert_eq!(normalise("a/./b"), Some(PathBuf::from("a/b")));
        assert_eq!(normalise("/dir/"), Some(PathBuf::from("dir")));
        assert_eq!(normalise(""), Some(PathBuf::new()));
        assert_eq!(normalise("/"), Some(PathBuf::new()));
        assert_eq!(
            normalise("/na%C3%AFve%20file.txt"),
            Some(PathBuf::from("naïve file.txt"))
        );
        assert_eq!(normalise("/.well-known/x"), Some(PathBuf::from(".well-known/x")));
    }

    #[test]
    fn traversal_is_refused() {
        for raw in [
            "/../etc/passwd",
            "/a/../../etc/passwd",
            "/%2e%2e/etc/passwd",
            "/%2E%2E/etc/passwd",
            "/.%2e/x",
            "/a/%2e%2e%2f%2e%2e%2fetc/passwd",
            "/%2fetc%2fpasswd",
            "//etc/passwd",
            "/a//b",
            "/..%5c..%5cwindows",
            "/a\\..\\b",
            "/c:/windows",
            "/x%00.txt",
            "/%ff",
            "/..",
        ] {
            assert_eq!(normalise(raw), None, "{raw:?}");
        }
    }

    proptest! {
        #[test]
        fn a_kept_path_never_leaves_the_root(raw in "(/|\\.|\\.\\.|%2e|%2E|%2f|%5c|%00|a|b|:|\\\\){0,24}") {
            if let Some(path) = normalise(&raw) {
                prop_assert!(path.components().all(|c| matches!(c, Component::Normal(_))));
                prop_assert!(!path.is_absolute());
                for part in path.iter() {
                    prop_assert!(part != "..");
                }
            }
        }

        #[test]
        fn any_text_is_handled_without_panicking(raw in "\\PC{0,60}") {
            let _ = normalise(&raw);
        }
    }
}
