//! Connection strings in logs and error messages: `scheme://user:secret@host/…` is shown as
//! `scheme://user:***@host/…`.
//!
//! Rules enforced here: a connection string's password never reaches a log line or an error's
//! cause; everything else of it (scheme, user, hosts, options) is kept, so the line still says
//! where the service tried to connect. Its own module because both the `DB_CONN_STRING` grammar
//! (`location.rs`) and the MongoDB store (`mongo/`) show connection strings, and the grammar
//! already depends on the store (the driver checks a `mongodb://` string).

/// `scheme://user:secret@host/…` → `scheme://user:***@host/…`.
pub(crate) fn redact(uri: &str) -> String {
    let Some((scheme, rest)) = uri.split_once("://") else {
        return uri.to_owned();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else {
        return uri.to_owned();
    };
    let user = match authority[..at].split_once(':') {
        Some((user, _secret)) => format!("{user}:***"),
        None => authority[..at].to_owned(),
    };
    format!("{scheme}://{user}@{}", &rest[at + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden_in_logs() {
        assert_eq!(
            redact("mongodb://admin:s3cr3t@db1:27017,db2/app?authSource=admin"),
            "mongodb://admin:***@db1:27017,db2/app?authSource=admin"
        );
        assert_eq!(redact("mongodb://db1/app"), "mongodb://db1/app");
        assert_eq!(redact("mongodb://user@db1/app"), "mongodb://user@db1/app");
    }
}
