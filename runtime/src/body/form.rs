//! The form of a route that takes files, as read before its arguments are converted
//! ([`FormParts`]): every part in order, text or a file, each file taken once by the argument
//! that names it.
//!
//! Rules enforced here: a file is handed out once (a clone of the form has the text and no
//! file); the parts keep the order they came in, which decides which of two parts of one name
//! an argument takes (the last) and the index of a part in a `Vec<UploadFile>`'s errors.

use std::sync::Mutex;

use super::upload::UploadFile;

/// One part of a form, as read.
#[derive(Debug)]
pub(crate) enum PartValue {
    /// A text field.
    Text(String),
    /// A file, until an argument takes it (boxed: a file is ten times the size of a text).
    File(Mutex<Option<Box<UploadFile>>>),
}

/// A form read whole before a route's arguments are converted: every part in order, with its
/// name. An [`UploadFile`] argument takes its file out (once); `Form<T>` fields read the text.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct FormParts {
    parts: Vec<(String, PartValue)>,
}

impl FormParts {
    /// The parts named `name`, in order.
    pub(crate) fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a PartValue> + 'a {
        self.parts
            .iter()
            .filter(move |(key, _)| key == name)
            .map(|(_, value)| value)
    }

    /// The text parts, in order.
    pub(crate) fn texts(&self) -> impl Iterator<Item = (&str, &str)> {
        self.parts.iter().filter_map(|(name, value)| match value {
            PartValue::Text(text) => Some((name.as_str(), text.as_str())),
            PartValue::File(_) => None,
        })
    }
}

impl Clone for FormParts {
    /// A clone has the text and no file: a file is taken once.
    fn clone(&self) -> Self {
        let parts = self.parts.iter().map(|(name, value)| {
            let value = match value {
                PartValue::Text(text) => PartValue::Text(text.clone()),
                PartValue::File(_) => PartValue::File(Mutex::new(None)),
            };
            (name.clone(), value)
        });
        FormParts {
            parts: parts.collect(),
        }
    }
}

impl PartialEq for FormParts {
    fn eq(&self, _other: &Self) -> bool {
        false
    }
}

impl FormParts {
    /// A form of these parts, in order.
    pub(super) fn new(parts: Vec<(String, PartValue)>) -> Self {
        FormParts { parts }
    }

    /// The number of parts.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.parts.len()
    }
}
