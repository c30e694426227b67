//! Reading edge-matching puzzles from files.
//!
//! Three formats:
//!
//! - **TOML** (written by hand; documented in docs/edge.md):
//!
//!   ```toml
//!   family = "edge"
//!   name = "impuzzable"
//!   rows = 3
//!   cols = 3
//!   matching = "complementary"   # or "equal"
//!   marks = ["1", "2", "3", "4"] # optional: the allowed marks (bases), to catch typos
//!   # border = "0"               # optional: the mark that faces the frame
//!   tiles = [                    # sides clockwise from the top: top right bottom left
//!     "-3 -2 +3 +1",
//!     # ...
//!   ]
//!   # [[hints]]                  # optional: tile 5 at row 2, column 2, turned once clockwise
//!   # tile = 5
//!   # row = 2
//!   # col = 2
//!   # rotation = 1
//!   ```
//!
//! - **`W H` + tiles** (Owen's sets, the common Eternity II text format): a
//!   line `W H` (columns, rows), then one tile per line as four numbers top,
//!   right, bottom, left; `0` is the border colour; equal matching.
//! - **hints + tiles** (Heule's benchmark files): a line with the number of
//!   hints, that many hint lines `tile col row rotation` (all from 0, the
//!   layout used by the public `eternity2` SAT tools), then the tiles as
//!   above. The board size is read off the frame: with `c` corner and `e`
//!   edge tiles, width + height = e/2 + 4 and width x height = tiles.
//!
//! Lines starting with `#` (and, in the plain formats, `c`) are comments.

use crate::model::{
    split_polarity, Hint, Marks, Matching, ModelError, Place, Polarity, Puzzle, Tile,
};
use serde::Deserialize;
use std::fmt;
use std::str::FromStr;
use toml::Spanned;

/// The file formats this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The TOML format.
    Toml,
    /// A `W H` line, then four numbers per tile.
    WidthHeight,
    /// A hint count, hints, then four numbers per tile.
    Hints,
}

impl Format {
    /// The name used with `--format`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Toml => "toml",
            Format::WidthHeight => "wh",
            Format::Hints => "hints",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "toml" => Ok(Format::Toml),
            "wh" | "owen" => Ok(Format::WidthHeight),
            "hints" | "heule" => Ok(Format::Hints),
            other => Err(format!(
                "unknown edge format '{other}': expected toml, wh or hints"
            )),
        }
    }
}

/// What is wrong with a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// Nothing but blanks and comments.
    #[error("the file is empty: it has no puzzle in it")]
    Empty,
    /// TOML syntax or a field of the wrong type.
    #[error("{0}")]
    Syntax(String),
    /// A tile without exactly four marks.
    #[error("tile {tile} has {found} mark{}; a tile has exactly 4 (top, right, bottom, left)", if *found == 1 { "" } else { "s" })]
    TileMarks {
        /// Tile number, from 1.
        tile: usize,
        /// Marks found.
        found: usize,
    },
    /// A mark not in the declared vocabulary.
    #[error("tile {tile}: unknown mark '{mark}' (the marks are {known})")]
    UnknownMark {
        /// Tile number, from 1.
        tile: usize,
        /// The mark as written.
        mark: String,
        /// The declared marks.
        known: String,
    },
    /// A complementary mark without a polarity.
    #[error("tile {tile}: mark '{mark}' has no polarity; with complementary matching write +{mark} / -{mark}, {mark}-head / {mark}-tail or {mark}-in / {mark}-out")]
    NoPolarity {
        /// Tile number, from 1.
        tile: usize,
        /// The mark as written.
        mark: String,
    },
    /// A matching rule other than complementary or equal.
    #[error("unknown matching '{0}': expected \"complementary\" or \"equal\"")]
    Matching(String),
    /// A number that is missing, negative or not a number.
    #[error("expected {what}, found '{found}'")]
    Number {
        /// What was expected.
        what: &'static str,
        /// What was there.
        found: String,
    },
    /// The board size cannot be read off the tiles.
    #[error("cannot tell the board size from {tiles} tile{}: {why}", if *tiles == 1 { "" } else { "s" })]
    BoardSize {
        /// Tiles in the file.
        tiles: usize,
        /// Why not.
        why: String,
    },
    /// The family key names another family.
    #[error("family = \"{0}\" is not an edge-matching puzzle")]
    Family(String),
    /// A consistency problem of the puzzle itself.
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// A problem and where it is: `file:line: problem`.
pub type ParseError = jigsolve_search::Located<Problem>;

/// Guesses the format from the first line that is not blank or a comment.
pub fn detect(text: &str) -> Option<Format> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !is_comment(l))?;
    if first.starts_with('[') || first.contains('=') {
        return Some(Format::Toml);
    }
    let numbers: Vec<&str> = first.split_whitespace().collect();
    if numbers.iter().all(|t| t.parse::<u64>().is_ok()) {
        match numbers.len() {
            1 => return Some(Format::Hints),
            2 => return Some(Format::WidthHeight),
            _ => {}
        }
    }
    None
}

fn is_comment(line: &str) -> bool {
    line.starts_with('#') || line == "c" || line.starts_with("c ")
}

/// Reads a puzzle in `format` (or the detected one). `file` names the source
/// in error messages; `name` becomes the puzzle's name.
pub fn parse(text: &str, file: &str, format: Option<Format>) -> Result<Puzzle, ParseError> {
    let err = |line: usize, problem: Problem| ParseError {
        file: file.to_string(),
        line,
        problem,
    };
    if jigsolve_search::is_blank(text) {
        return Err(err(1, Problem::Empty));
    }
    let format = match format.or_else(|| detect(text)) {
        Some(f) => f,
        None => {
            let (line, first) = text
                .lines()
                .enumerate()
                .find(|(_, l)| !l.trim().is_empty() && !is_comment(l.trim()))
                .map(|(i, l)| (i + 1, l.trim()))
                .unwrap_or((1, ""));
            return Err(err(
                line,
                Problem::Syntax(format!(
                    "cannot tell the format from '{first}': expected TOML (key = value), a 'W H' line or a hint count"
                )),
            ));
        }
    };
    let stem = file_stem(file);
    match format {
        Format::Toml => parse_toml(text, file),
        Format::WidthHeight | Format::Hints => parse_plain(text, file, format, &stem),
    }
}

fn file_stem(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    base.split('.').next().unwrap_or(base).to_string()
}

pub use jigsolve_search::line_of;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPuzzle {
    family: Option<String>,
    name: Option<String>,
    #[allow(dead_code)]
    title: Option<String>,
    #[allow(dead_code)]
    about: Option<String>,
    #[allow(dead_code)]
    source: Option<String>,
    rows: Spanned<i64>,
    cols: Spanned<i64>,
    matching: Option<Spanned<String>>,
    marks: Option<Spanned<Vec<String>>>,
    border: Option<Spanned<String>>,
    tiles: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    hints: Vec<Spanned<TomlHint>>,
    #[allow(dead_code)]
    expected: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlHint {
    tile: i64,
    row: i64,
    col: i64,
    #[serde(default)]
    rotation: i64,
}

fn parse_toml(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let err = |line: usize, problem: Problem| ParseError {
        file: file.to_string(),
        line,
        problem,
    };
    let doc: TomlPuzzle = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
        err(
            line,
            Problem::Syntax(jigsolve_search::plain_toml_message(e.message(), &[])),
        )
    })?;
    if let Some(f) = &doc.family {
        if f != "edge" {
            return Err(err(1, Problem::Family(f.clone())));
        }
    }
    let lines = jigsolve_search::LineIndex::new(text);
    let at = |s: std::ops::Range<usize>| lines.line(s.start);
    let size = |v: &Spanned<i64>, what: &'static str| -> Result<usize, ParseError> {
        usize::try_from(*v.get_ref())
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                err(
                    at(v.span()),
                    Problem::Number {
                        what,
                        found: v.get_ref().to_string(),
                    },
                )
            })
    };
    let rows = size(&doc.rows, "a positive number of rows")?;
    let cols = size(&doc.cols, "a positive number of columns")?;
    let matching = match &doc.matching {
        None => Matching::Complementary,
        Some(m) => match m.get_ref().as_str() {
            "complementary" => Matching::Complementary,
            "equal" => Matching::Equal,
            other => return Err(err(at(m.span()), Problem::Matching(other.to_string()))),
        },
    };
    let vocabulary: Option<Vec<String>> = doc.marks.as_ref().map(|m| m.get_ref().clone());
    let border_name = doc.border.as_ref().map(|b| b.get_ref().clone());

    let mut raw_tiles: Vec<[String; 4]> = Vec::new();
    let mut tile_lines = Vec::new();
    for (i, t) in doc.tiles.get_ref().iter().enumerate() {
        let line = at(t.span());
        let tokens: Vec<&str> = t
            .get_ref()
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .collect();
        if tokens.len() != 4 {
            return Err(err(
                line,
                Problem::TileMarks {
                    tile: i + 1,
                    found: tokens.len(),
                },
            ));
        }
        raw_tiles.push(std::array::from_fn(|s| tokens[s].to_string()));
        tile_lines.push(line);
    }
    let described = describe_marks(
        &raw_tiles,
        matching,
        border_name.as_deref(),
        vocabulary.as_deref(),
    )
    .map_err(|(tile, problem)| err(tile_lines[tile], problem))?;

    let mut hints = Vec::new();
    let mut hint_lines = Vec::new();
    for (i, h) in doc.hints.iter().enumerate() {
        let line = at(h.span());
        let v = h.get_ref();
        // Files count tiles, rows and columns from 1.
        let from1 = |x: i64, what: &'static str| -> Result<usize, ParseError> {
            usize::try_from(x)
                .ok()
                .filter(|&n| n >= 1)
                .map(|n| n - 1)
                .ok_or_else(|| {
                    err(
                        line,
                        Problem::Number {
                            what,
                            found: x.to_string(),
                        },
                    )
                })
        };
        let rotation = u8::try_from(v.rotation)
            .ok()
            .filter(|r| *r < 4)
            .ok_or_else(|| {
                err(
                    line,
                    Problem::Model(ModelError::HintRotation {
                        hint: i + 1,
                        rotation: v.rotation.into(),
                    }),
                )
            })?;
        hints.push(Hint {
            tile: from1(v.tile, "a tile number from 1")?,
            row: from1(v.row, "a row number from 1")?,
            col: from1(v.col, "a column number from 1")?,
            rotation,
        });
        hint_lines.push(line);
    }
    let name = doc.name.clone().unwrap_or_else(|| file_stem(file));
    let (marks, tiles, border) = described;
    Puzzle::new(name, rows, cols, matching, marks, border, tiles, hints).map_err(|(e, place)| {
        let line = match place {
            Place::Board => at(doc.rows.span()),
            Place::Tiles => at(doc.tiles.span()),
            Place::Tile(i) => tile_lines.get(i).copied().unwrap_or(1),
            Place::Hint(i) => hint_lines.get(i).copied().unwrap_or(1),
            Place::Border => doc
                .border
                .as_ref()
                .map(|b| at(b.span()))
                .unwrap_or_else(|| at(doc.tiles.span())),
        };
        err(line, Problem::Model(e))
    })
}

type Described = (Marks, Vec<Tile>, Option<u16>);

/// Interns the marks of `tiles` under `matching`; on error returns the tile
/// index (from 0) and the problem.
fn describe_marks(
    tiles: &[[String; 4]],
    matching: Matching,
    border: Option<&str>,
    vocabulary: Option<&[String]>,
) -> Result<Described, (usize, Problem)> {
    let known = || {
        let mut v: Vec<String> = vocabulary.unwrap_or(&[]).to_vec();
        if let Some(b) = border {
            v.push(b.to_string());
        }
        v.join(", ")
    };
    let mut specs: Vec<(String, String, Option<Polarity>)> = Vec::new();
    if let Some(b) = border {
        specs.push((b.to_string(), b.to_string(), None));
    }
    for (i, tile) in tiles.iter().enumerate() {
        for token in tile {
            if Some(token.as_str()) == border {
                continue;
            }
            let (base, polarity) = match matching {
                Matching::Equal => (token.clone(), None),
                Matching::Complementary => match split_polarity(token) {
                    Some((base, p)) => (base, Some(p)),
                    None => {
                        if vocabulary.is_some_and(|v| !v.contains(token)) {
                            return Err((
                                i,
                                Problem::UnknownMark {
                                    tile: i + 1,
                                    mark: token.clone(),
                                    known: known(),
                                },
                            ));
                        }
                        return Err((
                            i,
                            Problem::NoPolarity {
                                tile: i + 1,
                                mark: token.clone(),
                            },
                        ));
                    }
                },
            };
            if let Some(v) = vocabulary {
                if !v.contains(&base) {
                    return Err((
                        i,
                        Problem::UnknownMark {
                            tile: i + 1,
                            mark: token.clone(),
                            known: known(),
                        },
                    ));
                }
            }
            specs.push((token.clone(), base, polarity));
        }
    }
    let marks = Marks::build(matching, &specs);
    let border_id = border.and_then(|b| marks.id(b));
    let tiles = tiles
        .iter()
        .map(|t| Tile {
            sides: std::array::from_fn(|s| marks.id(&t[s]).expect("interned above")),
        })
        .collect();
    Ok((marks, tiles, border_id))
}

fn parse_plain(text: &str, file: &str, format: Format, name: &str) -> Result<Puzzle, ParseError> {
    let err = |line: usize, problem: Problem| ParseError {
        file: file.to_string(),
        line,
        problem,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !is_comment(l));
    let numbers = |line: usize, l: &str| -> Result<Vec<u64>, ParseError> {
        l.split_whitespace()
            .map(|t| {
                t.parse::<u64>().map_err(|_| {
                    err(
                        line,
                        Problem::Number {
                            what: "a whole number",
                            found: t.to_string(),
                        },
                    )
                })
            })
            .collect()
    };
    let (header_line, header) = lines.next().ok_or_else(|| err(1, Problem::Empty))?;
    let header = numbers(header_line, header)?;

    let mut size = None;
    let mut hints = Vec::new();
    let mut hint_lines = Vec::new();
    match format {
        Format::WidthHeight => {
            if header.len() != 2 || header[0] == 0 || header[1] == 0 {
                return Err(err(
                    header_line,
                    Problem::Syntax(
                        "the first line must be the board size 'W H' (columns, rows), both positive"
                            .into(),
                    ),
                ));
            }
            size = Some((header[1] as usize, header[0] as usize));
        }
        Format::Hints => {
            if header.len() != 1 {
                return Err(err(
                    header_line,
                    Problem::Syntax("the first line must be the number of hints".into()),
                ));
            }
            for h in 0..header[0] {
                let (line, l) = lines.next().ok_or_else(|| {
                    err(
                        header_line,
                        Problem::Syntax(format!(
                            "the file promises {} hints but ends after {h}",
                            header[0]
                        )),
                    )
                })?;
                let v = numbers(line, l)?;
                if v.len() != 4 {
                    return Err(err(
                        line,
                        Problem::Syntax(format!(
                            "hint {} has {} numbers; a hint is 'tile col row rotation' (from 0)",
                            h + 1,
                            v.len()
                        )),
                    ));
                }
                if v[3] > 3 {
                    return Err(err(
                        line,
                        Problem::Model(ModelError::HintRotation {
                            hint: h as usize + 1,
                            rotation: v[3].into(),
                        }),
                    ));
                }
                hints.push(Hint {
                    tile: v[0] as usize,
                    col: v[1] as usize,
                    row: v[2] as usize,
                    rotation: v[3] as u8,
                });
                hint_lines.push(line);
            }
        }
        Format::Toml => unreachable!("TOML is parsed elsewhere"),
    }

    let mut raw_tiles: Vec<[String; 4]> = Vec::new();
    let mut tile_lines = Vec::new();
    for (line, l) in lines {
        let v = numbers(line, l)?;
        if v.len() != 4 {
            return Err(err(
                line,
                Problem::TileMarks {
                    tile: raw_tiles.len() + 1,
                    found: v.len(),
                },
            ));
        }
        raw_tiles.push(std::array::from_fn(|s| v[s].to_string()));
        tile_lines.push(line);
    }
    let last_line = tile_lines.last().copied().unwrap_or(header_line);
    let has_border = raw_tiles.iter().flatten().any(|m| m == "0");
    let (rows, cols) = match size {
        Some(s) => s,
        None => infer_size(&raw_tiles, has_border).map_err(|why| {
            err(
                last_line,
                Problem::BoardSize {
                    tiles: raw_tiles.len(),
                    why,
                },
            )
        })?,
    };
    let border = has_border.then_some("0");
    let (marks, tiles, border) = describe_marks(&raw_tiles, Matching::Equal, border, None)
        .map_err(|(i, p)| err(tile_lines[i], p))?;
    Puzzle::new(
        name,
        rows,
        cols,
        Matching::Equal,
        marks,
        border,
        tiles,
        hints,
    )
    .map_err(|(e, place)| {
        let line = match place {
            Place::Tile(i) => tile_lines.get(i).copied().unwrap_or(last_line),
            Place::Hint(i) => hint_lines.get(i).copied().unwrap_or(header_line),
            Place::Board => header_line,
            Place::Tiles | Place::Border => last_line,
        };
        err(line, Problem::Model(e))
    })
}

/// Rows and columns (rows <= columns) of a board whose frame the tiles
/// describe: `e` tiles with one border side lie on the edges, so
/// width + height = e/2 + 4, and width x height is the number of tiles.
fn infer_size(tiles: &[[String; 4]], has_border: bool) -> Result<(usize, usize), String> {
    let n = tiles.len();
    if n == 0 {
        return Err("there are no tiles".into());
    }
    if !has_border {
        let side = (n as f64).sqrt().round() as usize;
        return if side * side == n {
            Ok((side, side))
        } else {
            Err("without a border colour 0 the board must be square".into())
        };
    }
    let edges = tiles
        .iter()
        .filter(|t| t.iter().filter(|m| *m == "0").count() == 1)
        .count();
    let sum = edges / 2 + 4;
    for rows in 1..=sum / 2 {
        let cols = sum - rows;
        if rows * cols == n && 2 * rows.saturating_sub(2) + 2 * cols.saturating_sub(2) == edges {
            return Ok((rows, cols));
        }
    }
    Err(format!(
        "{edges} edge tiles do not frame a rectangle of {n} cells"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        assert_eq!(detect("# c\nrows = 3\n"), Some(Format::Toml));
        assert_eq!(detect("4 4\n0 0 1 1\n"), Some(Format::WidthHeight));
        assert_eq!(detect("0\n1 2 3 4\n"), Some(Format::Hints));
        assert_eq!(detect("hello world\n"), None);
    }

    #[test]
    fn infers_rectangles_from_the_frame() {
        // A 2 x 3 board has 4 corners and 2 edge tiles.
        let mut tiles = vec![];
        for _ in 0..4 {
            tiles.push(["0".into(), "0".into(), "1".into(), "1".into()]);
        }
        for _ in 0..2 {
            tiles.push(["0".into(), "1".into(), "1".into(), "1".into()]);
        }
        assert_eq!(infer_size(&tiles, true), Ok((2, 3)));
    }
}
