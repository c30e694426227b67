//! Numbers and words as people read them: grouped digits, durations,
//! counts that may have overflowed, shell-quoted words. Shared by every
//! report so that a count looks the same wherever it is printed.

/// 1234567 -> "1,234,567".
pub fn group_digits(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count for text: `-` when not counted, "over 2^128" when saturated.
pub fn count_text(n: Option<u128>) -> String {
    match n {
        None => "-".to_string(),
        Some(u128::MAX) => "over 2^128".to_string(),
        Some(n) => group_digits(n),
    }
}

/// 3725 -> "1 h 2 min".
pub fn human_duration(secs: f64) -> String {
    if !secs.is_finite() {
        return "unknown".into();
    }
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        3600..=86_399 => format!("{} h {} min", s / 3600, (s % 3600) / 60),
        _ => format!("{} days", s / 86_400),
    }
}

/// Quotes a word for a POSIX shell if it needs it.
pub fn shell_word(w: &str) -> String {
    if w.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./=:".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A name from a puzzle file made safe as a file name, and as a word of a
/// shell command: letters, digits, `-`, `_` and `.` kept, anything else
/// `_`; never empty, never starting with `.` or `-` (a hidden file, `..`,
/// or what a command would read as an option), at most 100 characters.
/// Every file name jigsolve makes from a puzzle's name goes through here,
/// so a file from a stranger cannot name a path outside the folder the
/// user chose, nor a shell command.
pub fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .take(100)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') || s.starts_with('-') {
        format!("puzzle{s}")
    } else {
        s
    }
}

/// A name from a puzzle file for a line of text that a shell may read (the
/// comment lines of `jigsolve split`): control characters, a line break
/// above all, become spaces, so the name cannot start a line of its own.
pub fn one_line(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// "s" after a count other than one.
pub fn plural(n: impl Into<u128>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// Parses a count that must be at least 1 (clap's own range check would
/// print the whole range of u64 as the limit).
pub fn positive(text: &str) -> Result<u64, String> {
    let n: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number, 1 or more"))?;
    if n == 0 {
        return Err("0 is not allowed: it must be 1 or more".into());
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_file_stems() {
        assert_eq!(file_stem("pentomino-6x10"), "pentomino-6x10");
        assert_eq!(file_stem("a/b c"), "a_b_c");
        assert_eq!(file_stem(""), "puzzle");
        assert_eq!(file_stem(".hidden"), "puzzle.hidden");
        assert_eq!(file_stem("../../x"), "puzzle.._.._x");
        assert_eq!(file_stem("/etc/passwd"), "_etc_passwd");
        assert_eq!(file_stem("-rf"), "puzzle-rf");
        assert_eq!(file_stem("$(touch x);`y`'\"\n"), "__touch_x___y____");
        assert_eq!(file_stem(&"a".repeat(5000)).len(), 100);
        for hostile in ["$(x)", "`x`", "a;b", "'", "\"", "a\nb", "..", "/", "-"] {
            let stem = file_stem(hostile);
            assert_eq!(shell_word(&stem), stem, "{hostile:?}");
            assert!(!stem.contains('/') && stem != ".." && !stem.starts_with('-'));
        }
    }

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(1234567), "1,234,567");
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(human_duration(59.4), "59 s");
        assert_eq!(human_duration(3725.0), "1 h 2 min");
        assert_eq!(human_duration(f64::NAN), "unknown");
    }

    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("a/b.toml"), "a/b.toml");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }
}
