//! Errors that name a file and a line.
//!
//! Every family reads puzzles from text and must say where a problem is;
//! [`Located`] is that message, generic over the family's own problem type,
//! so that all of them print `file:line: problem` the same way.

/// A problem found at a line of a named file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {problem}")]
pub struct Located<P> {
    /// The file as the user named it.
    pub file: String,
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub problem: P,
}

/// The line (from 1) of byte offset `at` in `text`. For one lookup; a
/// reader that names the line of every item of a file uses [`LineIndex`].
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The lines of one text, for naming the line of many byte offsets: counting
/// newlines from the start for each of 10,000 pieces made reading a 10,000
/// piece file take seconds; a binary search over the line starts does not.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts.
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the lines of `text`.
    pub fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts }
    }

    /// The line (from 1) of byte offset `at`, as [`line_of`] gives it.
    pub fn line(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at)
    }
}

/// A TOML reader's message in the words of the puzzle file rather than of
/// the Rust types behind it ("invalid type: floating point `NaN`, expected
/// i32" becomes "expected a whole number, found nan").
///
/// `forms` names, for an untagged choice of the reader (`Region`, ...), the
/// forms a value may take; the messages of such choices otherwise name the
/// Rust type only.
pub fn plain_toml_message(message: &str, forms: &[(&str, &str)]) -> String {
    let message = message.trim();
    if let Some(name) = message.strip_prefix("data did not match any variant of untagged enum ") {
        let name = name.trim();
        return match forms.iter().find(|(n, _)| *n == name) {
            Some((_, how)) => format!("this value has the wrong form: {how}"),
            None => "this value has the wrong form (see the guide of its family under docs/ for how to write it)".into(),
        };
    }
    if message.contains("number too large to fit in target type") {
        return "this number is too large".into();
    }
    if message.contains("number too small to fit in target type") {
        return "this number is too small (or negative where it may not be)".into();
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return format!("expected {}, found {}", kind(expected), value(found));
        }
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return format!("expected {}, found {}", kind(expected), value(found));
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        return match rest.split_once(", expected ") {
            Some((field, keys)) => format!(
                "unknown field {field} (the fields here are {})",
                keys.trim_start_matches("one of ")
            ),
            None => format!("unknown field {rest}"),
        };
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("the field {field} is missing");
    }
    message.to_string()
}

/// A Rust type as the puzzle file sees it.
fn kind(expected: &str) -> String {
    let e = expected.trim();
    match e {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".into(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" | "bool" => "true or false".into(),
        "a sequence" => "a list [...]".into(),
        "a map" => "a table".into(),
        _ if e.starts_with("struct ") || e.starts_with("a map") => "a table".into(),
        _ if e.starts_with("an array of length ") => {
            format!("a list of {}", e.trim_start_matches("an array of length "))
        }
        _ => e.to_string(),
    }
}

/// A TOML value as the puzzle file wrote it.
fn value(found: &str) -> String {
    let f = found.trim();
    let inner = |prefix: &str| {
        f.strip_prefix(prefix)
            .map(|v| v.trim().trim_matches('`').to_string())
    };
    if let Some(v) = inner("floating point") {
        return match v.as_str() {
            "NaN" | "-NaN" => "nan".into(),
            "inf" | "-inf" => v,
            _ => format!("the number {v}"),
        };
    }
    if let Some(v) = inner("integer") {
        return format!("the whole number {v}");
    }
    if let Some(v) = inner("string") {
        return format!("the text {v}");
    }
    if let Some(v) = inner("boolean") {
        return v;
    }
    match f {
        "sequence" => "a list".into(),
        "map" => "a table".into(),
        _ => f.to_string(),
    }
}

/// True when `text` holds nothing but blank lines and `#` comments: the
/// "empty file" every family's reader reports before parsing.
pub fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_agrees_with_counting_newlines() {
        for text in ["", "a", "\n", "ab\ncd\n\nef", "\n\nx\n", "é\nü\n"] {
            let index = LineIndex::new(text);
            let offsets =
                (0..=text.len() + 2).filter(|&at| at > text.len() || text.is_char_boundary(at));
            for at in offsets {
                assert_eq!(index.line(at), line_of(text, at), "{text:?} at {at}");
            }
        }
    }

    #[test]
    fn only_blank_lines_and_comments_are_blank() {
        assert!(is_blank(""));
        assert!(is_blank("\n  \n# a comment\n   # another\n"));
        assert!(!is_blank("# a comment\nrows = 3\n"));
    }

    #[test]
    fn lines_count_from_one() {
        let text = "a\nbc\nd";
        assert_eq!(line_of(text, 0), 1);
        assert_eq!(line_of(text, 2), 2);
        assert_eq!(line_of(text, 5), 3);
        assert_eq!(line_of(text, 99), 3);
        let e = Located {
            file: "f.toml".to_string(),
            line: 3,
            problem: "bad",
        };
        assert_eq!(e.to_string(), "f.toml:3: bad");
    }

    #[test]
    fn toml_messages_speak_of_the_file() {
        assert_eq!(
            plain_toml_message("invalid type: floating point `NaN`, expected i32", &[]),
            "expected a whole number, found nan"
        );
        assert_eq!(
            plain_toml_message("invalid type: string \"a\", expected u16", &[]),
            "expected a whole number, 0 or more, found the text \"a\""
        );
        assert_eq!(
            plain_toml_message("number too large to fit in target type", &[]),
            "this number is too large"
        );
        assert_eq!(
            plain_toml_message(
                "data did not match any variant of untagged enum Region",
                &[("Region", "write the region as \"(x,y) (x,y) ...\"")]
            ),
            "this value has the wrong form: write the region as \"(x,y) (x,y) ...\""
        );
        assert_eq!(
            plain_toml_message("unknown field `colour`, expected one of `a`, `b`", &[]),
            "unknown field `colour` (the fields here are `a`, `b`)"
        );
        assert_eq!(plain_toml_message("something else", &[]), "something else");
    }
}
