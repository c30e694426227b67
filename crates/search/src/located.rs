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

/// The line (from 1) of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
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
}
