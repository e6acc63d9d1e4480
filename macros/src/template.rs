//! Path templates checked at compile time: `{name}` and `:name`, with or without a leading `/`.
//! The runtime parses the same grammar (`ferrapi::Template`); this copy exists to report mistakes
//! at the attribute instead of at start-up.

/// A parameter of the template, in path order.
pub struct TemplateParam {
    /// The parameter's name.
    pub name: String,
}

/// Parse `path`; on failure, every problem found, as messages.
pub fn parse(path: &str) -> Result<Vec<TemplateParam>, Vec<String>> {
    let mut params: Vec<TemplateParam> = Vec::new();
    let mut problems = Vec::new();
    let trimmed = path.trim_start_matches('/');
    let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
    if trimmed.is_empty() {
        return Ok(params);
    }
    for raw in trimmed.split('/') {
        let name = if let Some(name) = raw.strip_prefix(':') {
            Some(name)
        } else if raw.starts_with('{') || raw.ends_with('}') || raw.contains(['{', '}']) {
            match raw.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                Some(name) if !name.contains(['{', '}']) => Some(name),
                _ => {
                    problems.push(format!(
                        "malformed path segment `{raw}`: braces must enclose a whole segment, as in `{{name}}`"
                    ));
                    None
                }
            }
        } else if raw.is_empty() {
            problems.push(format!("path `{path}` has an empty segment (`//`)"));
            None
        } else {
            None
        };
        if let Some(name) = name {
            let valid = !name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if name.is_empty() {
                problems.push(format!(
                    "empty parameter name in segment `{raw}`: name the parameter after its argument, as in `{{id}}`"
                ));
            } else if !valid {
                problems.push(format!(
                    "`{name}` is not a valid parameter name (use letters, digits and `_`)"
                ));
            } else if params.iter().any(|p| p.name == name) {
                problems.push(format!(
                    "parameter `{name}` appears twice in the path: each parameter needs its own name and argument"
                ));
            } else {
                params.push(TemplateParam {
                    name: name.to_owned(),
                });
            }
        }
    }
    if problems.is_empty() {
        Ok(params)
    } else {
        Err(problems)
    }
}
