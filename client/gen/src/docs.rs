//! The document's `summary` and `description` texts as rustdoc comments.
//!
//! Rules enforced here: a text becomes documentation that builds without a rustdoc warning and
//! runs no doctest: outside code, `[` and `]` are escaped (no broken intra-doc link), `<` and `>`
//! too (no stray HTML tag), and a bare `http(s)://` URL is wrapped in `<…>`; a fenced block
//! without a language, or in Rust, is marked `text` (it is not Rust this crate can compile); an
//! indented line loses its indentation (an indented block would be a doctest).

/// `text` as the lines of a doc comment.
pub fn rustdoc(text: &str) -> String {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.trim().lines() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if fenced {
                fenced = false;
                out.push("```".to_owned());
            } else {
                fenced = true;
                let language = info.trim();
                let language = if language.is_empty() || language.starts_with("rust") {
                    "text"
                } else {
                    language
                };
                out.push(format!("```{language}"));
            }
            continue;
        }
        if fenced {
            out.push(line.to_owned());
        } else {
            out.push(prose(line.trim()));
        }
    }
    if fenced {
        out.push("```".to_owned());
    }
    out.join("\n")
}

/// One line of prose: code spans kept, the rest escaped.
fn prose(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&escape(&rest[..start]));
        let after = &rest[start..];
        let ticks = after.len() - after.trim_start_matches('`').len();
        let fence = &after[..ticks];
        match after[ticks..].find(fence) {
            Some(end) => {
                let span = &after[..ticks + end + ticks];
                out.push_str(span);
                rest = &after[span.len()..];
            }
            None => {
                out.push_str(&escape(after));
                rest = "";
            }
        }
    }
    out.push_str(&escape(rest));
    out
}

/// Text outside code: brackets and angle brackets escaped, bare URLs made links.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let url_start = word.find("https://").or_else(|| word.find("http://"));
        match url_start {
            Some(start) => {
                let url_end = word[start..]
                    .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | ')' | ']'))
                    .map_or(word.len(), |end| start + end);
                let (url, trailing) = split_trailing(&word[start..url_end]);
                out.push_str(&escape_chars(&word[..start]));
                out.push('<');
                out.push_str(url);
                out.push('>');
                out.push_str(&escape_chars(trailing));
                out.push_str(&escape_chars(&word[url_end..]));
            }
            None => out.push_str(&escape_chars(word)),
        }
    }
    out
}

/// A URL without the punctuation that ends a sentence after it.
fn split_trailing(url: &str) -> (&str, &str) {
    let end = url.trim_end_matches(['.', ',', ';', ':', '!', '?']).len();
    url.split_at(end)
}

fn escape_chars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_escaped_and_code_kept() {
        assert_eq!(
            rustdoc("Items [a] <b> of `Vec<[u8]>` at https://example.com/x."),
            "Items \\[a\\] &lt;b&gt; of `Vec<[u8]>` at <https://example.com/x>."
        );
        assert_eq!(rustdoc("an `unclosed span [x]"), "an `unclosed span \\[x\\]");
    }

    #[test]
    fn blocks_never_become_doctests() {
        assert_eq!(
            rustdoc("Example:\n\n    let x = 1;\n\n```\nx\n```\n```python\nprint(1)\n```\n```rust\nfn\n"),
            "Example:\n\nlet x = 1;\n\n```text\nx\n```\n```python\nprint(1)\n```\n```text\nfn\n```"
        );
    }
}
