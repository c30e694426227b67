//! Where a puzzle comes from (a file or the catalog) and which family it is.

use crate::catalog;
pub use crate::error::InputError;
use crate::error::{Error, Result};
use std::path::Path;

/// A puzzle's text and where it came from.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name used in messages: the path as given, or the catalog name.
    pub label: String,
    /// The text.
    pub text: String,
}

/// The largest puzzle file read: far beyond any real puzzle (Eternity II is
/// 12 KB), small enough that `/dev/zero` or a wrong file fails at once.
pub const MAX_PUZZLE_BYTES: u64 = 64 << 20;

/// The largest shard result file `merge` reads (a real one is under 1 KB,
/// one counted by goal about 150 bytes a goal: 400 KB for the weekday
/// calendar).
pub const MAX_RESULT_BYTES: u64 = 16 << 20;

/// The largest solutions file (or standard input) `verify` and `render`
/// read.
pub const MAX_SOLUTIONS_BYTES: u64 = 256 << 20;

/// Reads at most `limit` bytes from `reader`, refusing more with a message
/// that names the input and the limit.
pub fn read_limited(label: &str, reader: impl std::io::Read, limit: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut reader.take(limit + 1), &mut bytes)
        .map_err(|e| Error::input(format!("{label}: cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Error::input(format!(
            "{label}: larger than {} MiB, the most jigsolve reads here (is this the right file?)",
            limit >> 20
        )));
    }
    Ok(bytes)
}

/// Reads the file at `path`, at most `limit` bytes.
pub fn read_file_limited(label: &str, path: &Path, limit: u64) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path)
        .map_err(|e| Error::input(format!("{label}: cannot read the file: {e}")))?;
    read_limited(label, file, limit)
}

/// The text of a solutions file (JSON Lines from `solve --json`), `-` for
/// standard input: what `verify` and `render` read.
pub fn read_solutions_text(file: &str) -> Result<String> {
    let bytes = if file == "-" {
        read_limited(
            "standard input",
            std::io::stdin().lock(),
            MAX_SOLUTIONS_BYTES,
        )?
    } else {
        read_file_limited(file, Path::new(file), MAX_SOLUTIONS_BYTES)?
    };
    text_of(if file == "-" { "standard input" } else { file }, bytes)
}

/// Reads `spec`: a file if one exists at that path, else a catalog name.
pub fn read(spec: &str) -> Result<Source> {
    let path = Path::new(spec);
    if path.exists() {
        if path.is_dir() {
            return Err(Error::input(format!(
                "{spec}: is a directory, not a puzzle file"
            )));
        }
        let bytes = read_file_limited(spec, path, MAX_PUZZLE_BYTES)?;
        let text = text_of(spec, bytes)?;
        return Ok(Source {
            label: spec.to_string(),
            text,
        });
    }
    if let Some(entry) = catalog::find(spec) {
        return Ok(Source {
            label: entry.path.to_string(),
            text: entry.text.to_string(),
        });
    }
    let names: Vec<&str> = catalog::ENTRIES.iter().map(|e| e.name).collect();
    Err(Error::input(format!(
        "{spec}: no such file, and no catalog puzzle of that name (the catalog has: {}; `jigsolve list` describes them)",
        names.join(", ")
    )))
}

/// The text of a file, or an error naming the line where it stops being text.
pub fn text_of(label: &str, bytes: Vec<u8>) -> Result<String> {
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        return Err(Error::input(format!(
            "{label}:{line}: this is a binary file (it contains a NUL byte), not a puzzle"
        )));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Err(Error::input(format!(
                "{label}:{line}: this file is not UTF-8 text (a binary file?), not a puzzle"
            )))
        }
    }
}

/// The puzzle families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Edge matching.
    Edge,
    /// Polyforms on a lattice.
    Grid,
    /// Polygonal jigsaws.
    Polygon,
}

impl Family {
    /// The name used in files and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Edge => "edge",
            Family::Grid => "grid",
            Family::Polygon => "polygon",
        }
    }
}

/// Which family `source` is, from its TOML `family` key or from its format.
pub fn family_of(source: &Source, format: Option<&str>) -> Result<Family> {
    let text = &source.text;
    if text.trim().is_empty()
        || text
            .lines()
            .all(|l| l.trim().is_empty() || l.trim().starts_with('#'))
    {
        return Err(Error::input(format!(
            "{}:1: the file is empty: it has no puzzle in it",
            source.label
        )));
    }
    match format {
        Some("wh" | "owen" | "hints" | "heule") => return Ok(Family::Edge),
        Some("toml") | None => {}
        Some(other) => return Err(Error::input(format!(
            "unknown --format '{other}': expected toml, wh (W H + tiles) or hints (hint count + hints + tiles)"
        ))),
    }
    let looks_toml = format == Some("toml")
        || jigsolve_edge::parse::detect(text) == Some(jigsolve_edge::parse::Format::Toml);
    if !looks_toml {
        // The plain numeric formats are edge-matching formats.
        return Ok(Family::Edge);
    }
    let table: toml::Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            let line = e
                .span()
                .map(|s| jigsolve_edge::parse::line_of(text, s.start))
                .unwrap_or(1);
            return Err(Error::input(format!(
                "{}:{line}: {}",
                source.label,
                jigsolve_search::plain_toml_message(e.message(), &[])
            )));
        }
    };
    match table.get("family").and_then(|v| v.as_str()) {
        Some("edge") => Ok(Family::Edge),
        Some("grid") => Ok(Family::Grid),
        Some("polygon") => Ok(Family::Polygon),
        Some(other) => Err(Error::input(format!(
            "{}:{}: unknown family \"{other}\": expected \"edge\", \"grid\" or \"polygon\"",
            source.label,
            line_of_key(text, "family")
        ))),
        None if table.contains_key("tiles") => Ok(Family::Edge),
        None if table.contains_key("piece") || table.contains_key("board") => Ok(Family::Grid),
        None if table.contains_key("region") => Ok(Family::Polygon),
        None => Err(Error::input(format!(
            "{}:1: the file does not say which kind of puzzle it is: add family = \"edge\", \"grid\" or \"polygon\"",
            source.label
        ))),
    }
}

/// The line of the first `key =` in a TOML text.
pub fn line_of_key(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map_or(1, |i| i + 1)
}
