//! Reading polyform puzzles from TOML files.
//!
//! Boards and pieces are drawn as ASCII art or listed as coordinates:
//!
//! ```toml
//! family = "grid"
//! name = "pentomino-6x10"
//! lattice = "square"          # or "cube", "triangle", "hexagon" (default: square)
//! sides = "two"               # default for pieces: "one" = rotations only,
//!                             # "two" = rotations and reflections
//!                             # (default: two on the square lattice, one on the cube)
//! # colours = ["b", "w"]      # optional: letters that are colours in the art
//! board = """
//! ..........
//! """
//! [[piece]]
//! name = "F"
//! shape = """
//! .##
//! ##.
//! .#.
//! """
//! # copies = 1, optional = false, sides = "one"
//! ```
//!
//! In art, each character is a cell: `.` (or a space) is no cell, `#` a cell
//! without colour, and a letter or digit a cell; when the puzzle declares
//! `colours`, such a letter must be one of them and is the cell's colour.
//! Rows go down the page (y grows downwards), columns across (x). On the
//! cube lattice art is a list of layers, `z = 0` first. Common indentation
//! and blank lines around the art are ignored.
//!
//! On the plane lattices of triangles and hexagons a character is a cell at
//! the place [`Lattice::art_cell`] describes. Hexagons stand two columns
//! apart in a line, each line shifted one column from the one above (a
//! character between two hexagons is an error naming its line and column).
//! Triangles fill every column, pointing down where column plus line is
//! even and up where it is odd, so that a triangle pointing up shares its
//! base with the one pointing down below it; there every column counts,
//! indentation included.
//!
//! ```text
//! hexagons:  # # #        triangles:  ######   (▽△▽△▽△)
//!             # # #                    ######  ( ▽△▽△▽△)
//! ```
//!
//! Coordinates: hexagons are axial `[q, r]`, triangles `[x, y, z]` with
//! `z = 0` pointing down and `z = 1` up; `size = [w, h]` is a parallelogram
//! of `w` by `h` hexagons, or of rhombi (two triangles each).
//!
//! Coordinates: `cells = [[1,0], [2,0], [0,1]]` (a trailing string is a
//! colour: `[0, 0, "b"]`), or a string in one of the forms of the published
//! data: `"(1,0)(2,0)(0,1)"` or `"100 010 110"` (one digit per coordinate).
//! A board may also be `{ size = [10, 6] }` (every cell of a box, optionally
//! minus `holes = [[4,2], ...]`) or `{ cells = ... }`.
//!
//! Pins (hints: one copy of a piece fixed on the board) are tables of their
//! own, after the pieces or anywhere else:
//!
//! ```toml
//! [[pin]]
//! piece = "F"
//! cells = [[1,0], [2,0], [0,1], [1,1], [1,2]]   # board coordinates
//! ```
//!
//! `cells` takes the coordinate forms of a piece's `cells` (colours, if
//! given, are ignored: a pin covers board cells, which have theirs).

use crate::lattice::{Cell, Lattice};
use crate::model::{ModelError, Piece, Pin, Place, Puzzle, Sides, Site, Warning};
use jigsolve_search::LineIndex;
use serde::Deserialize;
use toml::{Spanned, Value};

/// What is wrong with a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// Nothing but blanks and comments.
    #[error("the file is empty: it has no puzzle in it")]
    Empty,
    /// TOML syntax or a field of the wrong type.
    #[error("{0}")]
    Syntax(String),
    /// The family key names another family.
    #[error("family = \"{0}\" is not a polyform (grid) puzzle")]
    Family(String),
    /// An unknown lattice.
    #[error("unknown lattice '{0}': expected \"square\", \"cube\", \"triangle\" or \"hexagon\"")]
    Lattice(String),
    /// An unknown sidedness.
    #[error("unknown sides '{0}': expected \"one\" (rotations only) or \"two\" (rotations and reflections)")]
    Sides(String),
    /// A colour name that is not one character, or is `#` or `.`.
    #[error("colour '{0}' must be one letter or digit (it is written in the art)")]
    ColourName(String),
    /// More colours than the model can tell apart.
    #[error("{0} colours are named; at most 255 are supported")]
    TooManyColours(usize),
    /// A character in art that is not a cell, a colour or empty.
    #[error("{what}: unexpected character '{ch}' in the art; use '#' or a letter for a cell and '.' for no cell")]
    ArtCharacter {
        /// "the board" or "piece 'X'".
        what: String,
        /// The character.
        ch: char,
    },
    /// A character of hexagon art between two hexagons.
    #[error("{what}: '{ch}' in column {col} sits between two hexagons; in hexagon art the cells of a line are two columns apart and each line is shifted by one column from the line above, so every cell has the column parity of the first one")]
    BetweenHexagons {
        /// "the board" or "piece 'X'".
        what: String,
        /// The character.
        ch: char,
        /// Its column (from 1, after the common indentation).
        col: usize,
    },
    /// A letter in art that is not a declared colour.
    #[error("{what}: '{ch}' is not a colour (the colours are {known}); use '#' for a cell without colour")]
    UnknownColour {
        /// "the board" or "piece 'X'".
        what: String,
        /// The letter.
        ch: char,
        /// The declared colours.
        known: String,
    },
    /// A malformed coordinate list.
    #[error("{what}: {why}")]
    Cells {
        /// "the board" or "piece 'X'".
        what: String,
        /// What is wrong.
        why: String,
    },
    /// A piece with neither or both of `shape` and `cells`.
    #[error("piece '{0}' needs exactly one of shape = (art) or cells = (coordinates)")]
    PieceShape(String),
    /// A board in a form that is not art, a list of layers or a table.
    #[error("board must be art (a string), a list of layers (strings), or a table with size = [...] or cells = [...]")]
    BoardForm,
    /// A number out of range.
    #[error("expected {what}, found {found}")]
    Number {
        /// What was expected.
        what: &'static str,
        /// What was there.
        found: String,
    },
    /// A pin names no piece of the puzzle.
    #[error("pin of piece '{name}': the puzzle has no piece called '{name}'")]
    PinPiece {
        /// The name given.
        name: String,
    },
    /// A consistency problem of the puzzle itself.
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// A problem and where it is: `file:line: problem`.
pub type ParseError = jigsolve_search::Located<Problem>;

/// A puzzle and where its parts are in the file.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The file as named.
    pub file: String,
    /// Line of the board.
    pub board_line: usize,
    /// Line of each piece's table.
    pub piece_lines: Vec<usize>,
    /// Line of each pin's table.
    pub pin_lines: Vec<usize>,
}

impl Parsed {
    /// The line of a place in the puzzle.
    pub fn line(&self, place: Place) -> usize {
        match place {
            Place::Board => self.board_line,
            Place::Piece(i) => self.piece_lines.get(i).copied().unwrap_or(1),
            Place::Pieces => self.piece_lines.first().copied().unwrap_or(self.board_line),
            Place::Pin(i) => self.pin_lines.get(i).copied().unwrap_or(1),
        }
    }

    /// A warning as `file:line: message`.
    pub fn warning_text(&self, w: &Warning) -> String {
        format!(
            "{}:{}: {}",
            self.file,
            self.line(w.place()),
            w.message(&self.puzzle)
        )
    }
}

pub use jigsolve_search::line_of;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPuzzle {
    family: Option<Spanned<String>>,
    name: Option<String>,
    #[allow(dead_code)]
    title: Option<String>,
    #[allow(dead_code)]
    about: Option<String>,
    #[allow(dead_code)]
    source: Option<String>,
    lattice: Option<Spanned<String>>,
    sides: Option<Spanned<String>>,
    optional: Option<bool>,
    #[serde(alias = "colors")]
    colours: Option<Spanned<Vec<String>>>,
    board: Spanned<Value>,
    #[serde(rename = "piece", default)]
    pieces: Vec<Spanned<TomlPiece>>,
    #[serde(rename = "pin", default)]
    pins: Vec<Spanned<TomlPin>>,
    #[serde(rename = "open", default)]
    open: Vec<Spanned<TomlOpen>>,
    holes: Option<Spanned<i64>>,
    #[allow(dead_code)]
    expected: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlOpen {
    name: Spanned<String>,
    cells: Spanned<Value>,
    count: Option<Spanned<i64>>,
    labels: Option<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPiece {
    name: Spanned<String>,
    shape: Option<Spanned<Value>>,
    cells: Option<Spanned<Value>>,
    copies: Option<Spanned<Value>>,
    optional: Option<bool>,
    sides: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPin {
    piece: Spanned<String>,
    cells: Spanned<Value>,
}

struct Ctx<'a> {
    text: &'a str,
    lines: &'a LineIndex,
    file: &'a str,
    lattice: Lattice,
    colours: Vec<String>,
    /// While the board's art is read: each cell drawn with a letter or
    /// digit, for open groups named by a letter.
    letters: std::cell::RefCell<Option<Vec<(Cell, char)>>>,
}

impl Ctx<'_> {
    fn err(&self, line: usize, problem: Problem) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            problem,
        }
    }

    fn line(&self, at: usize) -> usize {
        self.lines.line(at)
    }

    /// Reads art (one string, or a list of layer strings on the cube
    /// lattice) whose value starts at byte `at`.
    fn art(&self, value: &Value, at: usize, what: &str) -> Result<Vec<Site>, ParseError> {
        let layers: Vec<&str> = match value {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) if a.iter().all(|v| v.is_str()) && !a.is_empty() => {
                a.iter().filter_map(Value::as_str).collect()
            }
            _ => return Err(self.err(
                self.line(at),
                Problem::Cells {
                    what: what.into(),
                    why: "art must be a string, or a list of strings (layers) on the cube lattice"
                        .into(),
                },
            )),
        };
        if layers.len() > 1 && self.lattice != Lattice::Cube {
            return Err(self.err(
                self.line(at),
                Problem::Cells {
                    what: what.into(),
                    why: format!(
                        "{} layers of art on the {} lattice; add lattice = \"cube\" for a solid puzzle",
                        layers.len(),
                        self.lattice
                    ),
                },
            ));
        }
        let starts = string_starts(&self.text[at.min(self.text.len())..]);
        let mut sites = Vec::new();
        // Hexagon art only: the column parity of cells (see above); other
        // lattices keep 0.
        let mut parity: Option<i32> = (self.lattice != Lattice::Hexagon).then_some(0);
        for (z, layer) in layers.iter().enumerate() {
            // The file line of the layer's first content line.
            let first_line = match starts.get(z) {
                Some(&(off, multi)) => self.line(at + off) + multi as usize,
                None => self.line(at),
            };
            let lines: Vec<&str> = layer.lines().collect();
            let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
            let last = lines
                .iter()
                .rposition(|l| !l.trim().is_empty())
                .map_or(0, |i| i + 1);
            // On triangles a column's parity is the direction of its
            // triangle, so every column counts, leading blanks included.
            let indent = lines[first..last.max(first)]
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .filter(|_| self.lattice != Lattice::Triangle)
                .unwrap_or(0);
            for (y, l) in lines.iter().enumerate().take(last).skip(first) {
                let line = first_line + y;
                let row = l.get(indent..).unwrap_or("").trim_end();
                let art_line = (y - first) as i32;
                for (x, ch) in row.chars().enumerate() {
                    let colour = match ch {
                        '.' | ' ' => continue,
                        '#' => None,
                        c if c.is_alphanumeric() => {
                            if self.colours.is_empty() {
                                None
                            } else {
                                match self
                                    .colours
                                    .iter()
                                    .position(|k| k.chars().eq(std::iter::once(c)))
                                {
                                    Some(k) => Some(k as u8),
                                    None => {
                                        return Err(self.err(
                                            line,
                                            Problem::UnknownColour {
                                                what: what.into(),
                                                ch: c,
                                                known: self.colours.join(", "),
                                            },
                                        ))
                                    }
                                }
                            }
                        }
                        c => {
                            return Err(self.err(
                                line,
                                Problem::ArtCharacter {
                                    what: what.into(),
                                    ch: c,
                                },
                            ))
                        }
                    };
                    let cell = match self.lattice {
                        Lattice::Cube => [x as i32, art_line, z as i32],
                        plane => {
                            // Hexagons take the column parity of the first
                            // cell drawn, so that art may start a line
                            // anywhere; a cell of the other parity sits
                            // between two hexagons.
                            let col = x as i32 - *parity.get_or_insert((x as i32 + art_line) & 1);
                            match plane.art_cell(col, art_line) {
                                Some(c) => c,
                                None => {
                                    return Err(self.err(
                                        line,
                                        Problem::BetweenHexagons {
                                            what: what.into(),
                                            ch,
                                            col: x + 1,
                                        },
                                    ))
                                }
                            }
                        }
                    };
                    if ch.is_alphanumeric() {
                        if let Some(letters) = self.letters.borrow_mut().as_mut() {
                            letters.push((cell, ch));
                        }
                    }
                    sites.push((cell, colour));
                }
            }
        }
        Ok(sites)
    }

    /// Reads a coordinate list whose value starts at byte `at`.
    fn coordinates(&self, value: &Value, at: usize, what: &str) -> Result<Vec<Site>, ParseError> {
        let dim = self.lattice.dim();
        let bad = |why: String| {
            self.err(
                self.line(at),
                Problem::Cells {
                    what: what.into(),
                    why,
                },
            )
        };
        let cell = |coords: &[i64]| -> Result<Cell, ParseError> {
            if coords.len() != dim {
                let hint = match self.lattice {
                    Lattice::Square if coords.len() == 3 => {
                        "; add lattice = \"cube\" for a solid puzzle"
                    }
                    Lattice::Hexagon => " (axial [q, r])",
                    Lattice::Triangle => {
                        " ([x, y, z] with z = 0 for a triangle pointing down, 1 for one pointing up)"
                    }
                    _ => "",
                };
                return Err(bad(format!(
                    "a cell has {} coordinates, but the {} lattice needs {dim}{hint}",
                    coords.len(),
                    self.lattice
                )));
            }
            let mut c = [0i32; 3];
            for (k, &v) in coords.iter().enumerate() {
                c[k] = i32::try_from(v)
                    .ok()
                    .filter(|v| v.abs() < 1 << 20)
                    .ok_or_else(|| bad(format!("coordinate {v} is out of range")))?;
            }
            Ok(c)
        };
        match value {
            Value::Array(items) => {
                let mut sites = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let Value::Array(parts) = item else {
                        return Err(bad(format!(
                            "cell {} is {item}; write each cell as [x, y] or [x, y, z], optionally with a colour: [x, y, \"b\"]",
                            i + 1
                        )));
                    };
                    let mut coords = Vec::new();
                    let mut colour = None;
                    for (k, p) in parts.iter().enumerate() {
                        match p {
                            Value::Integer(v) => coords.push(*v),
                            Value::String(s) if k + 1 == parts.len() => {
                                colour = Some(self.colour(s, at, what)?)
                            }
                            other => {
                                return Err(bad(format!(
                                    "cell {}: {other} is not a coordinate",
                                    i + 1
                                )))
                            }
                        }
                    }
                    sites.push((cell(&coords)?, colour));
                }
                Ok(sites)
            }
            Value::String(s) => {
                let mut sites = Vec::new();
                if s.contains('(') {
                    let mut rest = s.as_str();
                    while let Some(open) = rest.find('(') {
                        if !rest[..open].trim().is_empty() {
                            return Err(bad(format!(
                                "unexpected '{}' between cells",
                                rest[..open].trim()
                            )));
                        }
                        let close = rest[open..]
                            .find(')')
                            .ok_or_else(|| bad("a '(' without its ')'".into()))?;
                        let inner = &rest[open + 1..open + close];
                        let coords: Result<Vec<i64>, _> =
                            inner.split(',').map(|t| t.trim().parse::<i64>()).collect();
                        let coords = coords.map_err(|_| {
                            bad(format!(
                                "'({inner})' is not a cell: write (x,y) with whole numbers"
                            ))
                        })?;
                        sites.push((cell(&coords)?, None));
                        rest = &rest[open + close + 1..];
                    }
                    if !rest.trim().is_empty() {
                        return Err(bad(format!("unexpected '{}' after the cells", rest.trim())));
                    }
                } else {
                    for token in s.split_whitespace() {
                        let coords: Option<Vec<i64>> = token
                            .chars()
                            .map(|c| c.to_digit(10).map(i64::from))
                            .collect();
                        let coords = coords.ok_or_else(|| {
                            bad(format!(
                                "'{token}' is not a cell: write one digit per coordinate (\"120\" is x=1, y=2, z=0) or (x,y) pairs"
                            ))
                        })?;
                        sites.push((cell(&coords)?, None));
                    }
                }
                Ok(sites)
            }
            _ => Err(bad(
                "cells must be a list of [x, y] cells or a string of cells".into(),
            )),
        }
    }

    fn colour(&self, name: &str, at: usize, what: &str) -> Result<u8, ParseError> {
        self.colours
            .iter()
            .position(|k| k == name)
            .map(|k| k as u8)
            .ok_or_else(|| {
                self.err(
                    self.line(at),
                    Problem::Cells {
                        what: what.into(),
                        why: if self.colours.is_empty() {
                            format!("colour \"{name}\" but the puzzle declares no colours = [...]")
                        } else {
                            format!(
                                "\"{name}\" is not a colour (the colours are {})",
                                self.colours.join(", ")
                            )
                        },
                    },
                )
            })
    }
}

/// The byte offsets (within `raw`) of the string literals in a TOML value,
/// in order, each with whether it is a multi-line string whose first line
/// break is trimmed (so its content starts on the next line).
fn string_starts(raw: &str) -> Vec<(usize, bool)> {
    let b = raw.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b']' | b'}' => {
                depth -= 1;
                i += 1;
                if depth <= 0 {
                    break;
                }
            }
            q @ (b'"' | b'\'') => {
                let triple = b.len() >= i + 3 && b[i + 1] == q && b[i + 2] == q;
                let start = i;
                if triple {
                    let after = i + 3;
                    let trimmed =
                        raw[after..].starts_with('\n') || raw[after..].starts_with("\r\n");
                    out.push((start, trimmed));
                    let delim = if q == b'"' { "\"\"\"" } else { "'''" };
                    i = raw[after..].find(delim).map_or(b.len(), |k| after + k + 3);
                } else {
                    out.push((start, false));
                    i += 1;
                    while i < b.len() && b[i] != q {
                        if q == b'"' && b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 0 => break,
            b'\n' if depth == 0 && !out.is_empty() => break,
            _ => i += 1,
        }
    }
    out
}

fn file_stem(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    base.split('.').next().unwrap_or(base).to_string()
}

/// Reads a puzzle. `file` names the source in error messages and is the
/// puzzle's name when the file has none.
pub fn parse(text: &str, file: &str) -> Result<Parsed, ParseError> {
    let err = |line: usize, problem: Problem| ParseError {
        file: file.to_string(),
        line,
        problem,
    };
    if jigsolve_search::is_blank(text) {
        return Err(err(1, Problem::Empty));
    }
    let doc: TomlPuzzle = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
        err(
            line,
            Problem::Syntax(jigsolve_search::plain_toml_message(e.message(), &[])),
        )
    })?;
    let lines = LineIndex::new(text);
    let at = |start: usize| lines.line(start);
    if let Some(f) = &doc.family {
        if f.get_ref() != "grid" {
            return Err(err(
                at(f.span().start),
                Problem::Family(f.get_ref().clone()),
            ));
        }
    }
    let lattice = match &doc.lattice {
        None => Lattice::Square,
        Some(l) => Lattice::from_name(l.get_ref())
            .ok_or_else(|| err(at(l.span().start), Problem::Lattice(l.get_ref().clone())))?,
    };
    let sides_of = |s: &Spanned<String>| match s.get_ref().as_str() {
        "one" => Ok(Sides::One),
        "two" => Ok(Sides::Two),
        other => Err(err(at(s.span().start), Problem::Sides(other.into()))),
    };
    let default_sides = match &doc.sides {
        Some(s) => sides_of(s)?,
        None => match lattice {
            Lattice::Cube => Sides::One,
            Lattice::Square | Lattice::Triangle | Lattice::Hexagon => Sides::Two,
        },
    };
    let colours: Vec<String> = doc
        .colours
        .as_ref()
        .map(|c| c.get_ref().clone())
        .unwrap_or_default();
    if let Some(c) = &doc.colours {
        for name in c.get_ref() {
            let ok = name.chars().count() == 1 && name.chars().all(char::is_alphanumeric);
            if !ok {
                return Err(err(at(c.span().start), Problem::ColourName(name.clone())));
            }
        }
        if colours.len() > 255 {
            return Err(err(
                at(c.span().start),
                Problem::TooManyColours(colours.len()),
            ));
        }
    }
    let ctx = Ctx {
        text,
        lines: &lines,
        file,
        lattice,
        colours,
        letters: std::cell::RefCell::new(Some(Vec::new())),
    };

    // The board.
    let board_at = doc.board.span().start;
    let board_line = at(board_at);
    let board: Vec<Site> = match doc.board.get_ref() {
        v @ (Value::String(_) | Value::Array(_)) if is_art(v) => {
            ctx.art(v, board_at, "the board")?
        }
        // A list of cells, `[[x, y], ...]`, as for pieces.
        v @ Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_array) => {
            ctx.coordinates(v, board_at, "the board")?
        }
        Value::Table(t) => {
            let known = ["size", "holes", "cells"];
            if let Some(k) = t.keys().find(|k| !known.contains(&k.as_str())) {
                return Err(err(
                    board_line,
                    Problem::Syntax(format!(
                        "unknown board key '{k}': expected size, holes or cells"
                    )),
                ));
            }
            match (t.get("size"), t.get("cells")) {
                (Some(size), None) => {
                    let dims = match size {
                        Value::Array(a) => a
                            .iter()
                            .map(Value::as_integer)
                            .collect::<Option<Vec<i64>>>(),
                        _ => None,
                    };
                    let dims = dims.filter(|d| {
                        d.len() == if lattice == Lattice::Cube { 3 } else { 2 }
                            && d.iter().all(|&n| (1..=4096).contains(&n))
                    });
                    let Some(dims) = dims else {
                        return Err(err(
                            board_line,
                            Problem::Number {
                                what: if lattice == Lattice::Cube {
                                    "size = [x, y, z], three positive whole numbers of at most 4096"
                                } else {
                                    "size = [width, height], two positive whole numbers of at most 4096"
                                },
                                found: size.to_string(),
                            },
                        ));
                    };
                    // On triangles a box is a parallelogram of rhombi, each
                    // a triangle pointing down and one pointing up.
                    let depth = match lattice {
                        Lattice::Cube => dims[2],
                        Lattice::Triangle => 2,
                        Lattice::Square | Lattice::Hexagon => 1,
                    };
                    let volume = dims[0] * dims[1] * depth;
                    if volume > 1 << 20 {
                        return Err(err(
                            board_line,
                            Problem::Number {
                                what: "a board of at most 2^20 cells",
                                found: volume.to_string(),
                            },
                        ));
                    }
                    let holes: Vec<Cell> = match t.get("holes") {
                        Some(h) => ctx
                            .coordinates(h, board_at, "the board's holes")?
                            .into_iter()
                            .map(|s| s.0)
                            .collect(),
                        None => Vec::new(),
                    };
                    // A hole outside the box or listed twice is a mistake
                    // in the file, not something to pass over.
                    for (i, h) in holes.iter().enumerate() {
                        let inside = (0..2).all(|k| (0..dims[k]).contains(&i64::from(h[k])))
                            && (0..depth).contains(&i64::from(h[2]));
                        let shown = if lattice.dim() == 3 {
                            format!("[{}, {}, {}]", h[0], h[1], h[2])
                        } else {
                            format!("[{}, {}]", h[0], h[1])
                        };
                        if !inside {
                            return Err(err(
                                board_line,
                                Problem::Syntax(format!(
                                    "the hole {shown} is outside the board of size {}",
                                    size
                                )),
                            ));
                        }
                        if holes[..i].contains(h) {
                            return Err(err(
                                board_line,
                                Problem::Syntax(format!("the hole {shown} is listed twice")),
                            ));
                        }
                    }
                    let mut cells = Vec::new();
                    for z in 0..depth as i32 {
                        for y in 0..dims[1] as i32 {
                            for x in 0..dims[0] as i32 {
                                if !holes.contains(&[x, y, z]) {
                                    cells.push(([x, y, z], None));
                                }
                            }
                        }
                    }
                    cells
                }
                (None, Some(cells)) => ctx.coordinates(cells, board_at, "the board")?,
                _ => return Err(err(board_line, Problem::BoardForm)),
            }
        }
        _ => return Err(err(board_line, Problem::BoardForm)),
    };

    // The pieces.
    let mut pieces = Vec::with_capacity(doc.pieces.len());
    let mut piece_lines = Vec::with_capacity(doc.pieces.len());
    for p in &doc.pieces {
        let line = at(p.span().start);
        let v = p.get_ref();
        let name = v.name.get_ref().clone();
        let what = format!("piece '{name}'");
        let shape = match (&v.shape, &v.cells) {
            (Some(s), None) => ctx.art(s.get_ref(), s.span().start, &what)?,
            (None, Some(c)) => ctx.coordinates(c.get_ref(), c.span().start, &what)?,
            _ => return Err(err(line, Problem::PieceShape(name))),
        };
        let bad_copies = |c: &Spanned<Value>| {
            err(
                at(c.span().start),
                Problem::Number {
                    what: "a number of copies from 0 to 65535, or a range \"least..most\" of them",
                    found: c.get_ref().to_string(),
                },
            )
        };
        let count = |n: i64| u32::try_from(n).ok().filter(|&n| n <= u16::MAX as u32);
        // (least, most) for a range, else (copies, copies).
        let (least, copies) = match &v.copies {
            None => (None, 1),
            Some(c) => match c.get_ref() {
                Value::Integer(n) => (None, count(*n).ok_or_else(|| bad_copies(c))?),
                Value::String(range) => {
                    let (a, b) = range.split_once("..").ok_or_else(|| bad_copies(c))?;
                    let b = b.strip_prefix('=').unwrap_or(b);
                    let n = |t: &str| t.trim().parse::<i64>().ok().and_then(count);
                    let (a, b) = n(a).zip(n(b)).ok_or_else(|| bad_copies(c))?;
                    if a > b {
                        return Err(err(
                            at(c.span().start),
                            Problem::Model(ModelError::Range {
                                piece: name,
                                least: a,
                                most: b,
                            }),
                        ));
                    }
                    (Some(a), b)
                }
                _ => return Err(bad_copies(c)),
            },
        };
        let sides = match &v.sides {
            Some(s) => sides_of(s)?,
            None => default_sides,
        };
        let optional = v.optional.or(doc.optional).unwrap_or(false);
        pieces.push(Piece {
            name,
            shape,
            copies,
            // A range is optional down to its least (a range of one
            // number, "2..2", is that many copies, used).
            optional: optional || least.is_some_and(|a| a < copies),
            least: least.unwrap_or(0),
            open: None,
            sides,
        });
        piece_lines.push(line);
    }
    // Cells left open: each group an open "piece" of its own, then the
    // hole limit's, which lies anywhere no group does.
    let letters = ctx.letters.borrow_mut().take().unwrap_or_default();
    let mut labels: Vec<(Cell, String)> = Vec::new();
    let mut grouped: std::collections::HashSet<Cell> = std::collections::HashSet::new();
    for g in &doc.open {
        let line = at(g.span().start);
        let v = g.get_ref();
        let name = v.name.get_ref().clone();
        let what = format!("open group '{name}'");
        let cells: Vec<Cell> = match v.cells.get_ref() {
            Value::String(letter) if letter.chars().count() == 1 => {
                let ch = letter.chars().next().unwrap_or('#');
                // The art's reading order: line by line, left to right.
                let mut cells: Vec<(Cell, char)> =
                    letters.iter().filter(|(_, c)| *c == ch).copied().collect();
                cells.sort_by_key(|(c, _)| [c[2], c[1], c[0]]);
                if cells.is_empty() {
                    return Err(err(
                        at(v.cells.span().start),
                        Problem::Syntax(format!(
                            "{what}: no board cell is drawn with '{ch}' in the board's art"
                        )),
                    ));
                }
                cells.into_iter().map(|(c, _)| c).collect()
            }
            other => ctx
                .coordinates(other, v.cells.span().start, &what)?
                .into_iter()
                .map(|s| s.0)
                .collect(),
        };
        let open = match &v.count {
            None => 1,
            Some(c) => u32::try_from(*c.get_ref())
                .ok()
                .filter(|&n| (1..=u16::MAX as u32).contains(&n))
                .ok_or_else(|| {
                    err(
                        at(c.span().start),
                        Problem::Number {
                            what: "a number of cells left open from 1 to 65535",
                            found: c.get_ref().to_string(),
                        },
                    )
                })?,
        };
        if let Some(ls) = &v.labels {
            if ls.get_ref().len() != cells.len() {
                return Err(err(
                    at(ls.span().start),
                    Problem::Syntax(format!(
                        "{what} has {} cells but {} labels: give one label per cell, in the order of its cells",
                        cells.len(),
                        ls.get_ref().len()
                    )),
                ));
            }
            labels.extend(cells.iter().copied().zip(ls.get_ref().iter().cloned()));
        }
        for &c in &cells {
            if !grouped.insert(c) {
                return Err(err(
                    line,
                    Problem::Syntax(format!(
                        "{what}: the cell {} is in another open group too",
                        crate::model::cell_text(lattice, c)
                    )),
                ));
            }
        }
        pieces.push(Piece {
            name,
            shape: vec![([0, 0, 0], None)],
            copies: open,
            optional: false,
            least: 0,
            open: Some(cells),
            sides: Sides::Two,
        });
        piece_lines.push(line);
    }
    if let Some(h) = &doc.holes {
        let most = u32::try_from(*h.get_ref())
            .ok()
            .filter(|&n| n <= u16::MAX as u32)
            .ok_or_else(|| {
                err(
                    at(h.span().start),
                    Problem::Number {
                        what: "a number of holes from 0 to 65535",
                        found: h.get_ref().to_string(),
                    },
                )
            })?;
        if most > 0 {
            pieces.push(Piece {
                name: "holes".into(),
                shape: vec![([0, 0, 0], None)],
                copies: most,
                optional: true,
                least: 0,
                open: Some(
                    board
                        .iter()
                        .map(|s| s.0)
                        .filter(|c| !grouped.contains(c))
                        .collect(),
                ),
                sides: Sides::Two,
            });
            piece_lines.push(at(h.span().start));
        }
    }
    // The pins: piece names looked up here, the rest checked by the model.
    let mut pins = Vec::with_capacity(doc.pins.len());
    let mut pin_lines = Vec::with_capacity(doc.pins.len());
    for p in &doc.pins {
        let v = p.get_ref();
        let name = v.piece.get_ref();
        let Some(piece) = pieces.iter().position(|q| &q.name == name) else {
            return Err(err(
                at(v.piece.span().start),
                Problem::PinPiece { name: name.clone() },
            ));
        };
        let what = format!("the pin of piece '{name}'");
        let cells = ctx
            .coordinates(v.cells.get_ref(), v.cells.span().start, &what)?
            .into_iter()
            .map(|s| s.0)
            .collect();
        pins.push(Pin { piece, cells });
        pin_lines.push(at(p.span().start));
    }
    let name = doc.name.clone().unwrap_or_else(|| file_stem(file));
    let puzzle = Puzzle::new(name, lattice, ctx.colours, board, pieces)
        .and_then(|p| {
            p.with_labels(labels)
                .map_err(|e| (e, Place::Piece(piece_lines.len().saturating_sub(1))))
        })
        .and_then(|p| p.with_pins(pins))
        .map_err(|(e, place)| {
            let line = match place {
                Place::Board => board_line,
                Place::Piece(i) => piece_lines.get(i).copied().unwrap_or(1),
                Place::Pieces => piece_lines.first().copied().unwrap_or(board_line),
                Place::Pin(i) => pin_lines.get(i).copied().unwrap_or(1),
            };
            err(line, Problem::Model(e))
        })?;
    Ok(Parsed {
        puzzle,
        file: file.to_string(),
        board_line,
        piece_lines,
        pin_lines,
    })
}

fn is_art(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(a) => !a.is_empty() && a.iter().all(Value::is_str),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PENTA: &str = r#"
family = "grid"
name = "tiny"
board = """
  ###
  #.#
"""
[[piece]]
name = "U"
shape = """
#.#
###
"""
"#;

    #[test]
    fn art_is_read_with_rows_going_down() {
        let p = parse(PENTA, "t.toml").unwrap();
        assert_eq!(p.puzzle.cells(), 5);
        assert!(p.puzzle.board_index([1, 1, 0]).is_none());
        assert_eq!(p.board_line, 4);
        assert_eq!(p.piece_lines, vec![8]);
        let u = &p.puzzle.pieces[0];
        assert_eq!(u.size(), 5);
    }

    #[test]
    fn coordinates_in_three_spellings() {
        let text = r#"
lattice = "cube"
board = { size = [2, 2, 1] }
[[piece]]
name = "A"
cells = "000 100"
[[piece]]
name = "B"
cells = [[0,0,0],[1,0,0]]
"#;
        let p = parse(text, "t.toml").unwrap();
        assert_eq!(p.puzzle.pieces[0].shape, p.puzzle.pieces[1].shape);
        let text2 = "board = { size = [2, 1] }\n[[piece]]\nname = \"D\"\ncells = \"(0,0)(1,0)\"\n";
        assert_eq!(parse(text2, "t.toml").unwrap().puzzle.pieces[0].size(), 2);
    }

    #[test]
    fn art_errors_name_their_line() {
        let text = "board = \"\"\"\n##\n#?\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"###\"\n";
        let e = parse(text, "t.toml").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(matches!(e.problem, Problem::ArtCharacter { ch: '?', .. }));
        let layers = "lattice = \"cube\"\nboard = [\"\"\"\n##\n\"\"\", \"\"\"\n#%\n\"\"\"]\n[[piece]]\nname = \"A\"\nshape = \"####\"\n";
        let e = parse(layers, "t.toml").unwrap_err();
        assert_eq!(e.line, 5, "{e}");
    }

    #[test]
    fn colours_must_be_declared() {
        let text =
            "colours = [\"b\", \"w\"]\nboard = \"bw\"\n[[piece]]\nname = \"D\"\nshape = \"bx\"\n";
        let e = parse(text, "t.toml").unwrap_err();
        assert!(
            matches!(e.problem, Problem::UnknownColour { ch: 'x', .. }),
            "{e}"
        );
        assert_eq!(e.line, 5);
    }

    #[test]
    fn triangle_art_alternates_down_and_up_and_keeps_its_indentation() {
        let text = "lattice = \"triangle\"\nboard = \"\"\"\n##\n ##\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"\"\"\n ##\n\"\"\"\n[[piece]]\nname = \"B\"\ncells = [[0, 0, 0], [0, 0, 1]]\n";
        let p = parse(text, "t.toml").unwrap().puzzle;
        let board: Vec<Cell> = p.board.iter().map(|s| s.0).collect();
        // Line 0: down, up at x = 0; line 1 from column 1: down, up at x = 0.
        assert_eq!(board, [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]]);
        // " ##" starts with an up triangle, so piece A is up then down:
        // [0,0,1] and [1,0,0], which is not the rhombus of piece B.
        assert_eq!(p.pieces[0].shape, [([0, 0, 1], None), ([1, 0, 0], None)]);
        assert_eq!(p.pieces[1].shape, [([0, 0, 0], None), ([0, 0, 1], None)]);
    }

    #[test]
    fn hexagon_art_is_axial_and_names_a_cell_between_hexagons() {
        let text = "lattice = \"hexagon\"\nboard = \"\"\"\n  # #\n   #\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"# # #\"\n";
        let p = parse(text, "t.toml").unwrap().puzzle;
        let board: Vec<Cell> = p.board.iter().map(|s| s.0).collect();
        assert_eq!(board, [[0, 0, 0], [0, 1, 0], [1, 0, 0]]);
        let bad = text.replace("   #\n", "  #\n");
        let e = parse(&bad, "t.toml").unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(
            matches!(e.problem, Problem::BetweenHexagons { col: 1, .. }),
            "{e}"
        );
    }

    #[test]
    fn boxes_on_the_plane_lattices_are_parallelograms() {
        let text = "lattice = \"triangle\"\nboard = { size = [3, 2], holes = [[0, 0, 1]] }\n[[piece]]\nname = \"A\"\nshape = \"#\"\ncopies = 11\n";
        assert_eq!(parse(text, "t.toml").unwrap().puzzle.cells(), 11);
        let hex = "lattice = \"hexagon\"\nboard = { size = [3, 2] }\n[[piece]]\nname = \"A\"\nshape = \"#\"\ncopies = 6\n";
        assert_eq!(parse(hex, "t.toml").unwrap().puzzle.cells(), 6);
        let e = parse(&text.replace("[0, 0, 1]", "[0, 0, 2]"), "t.toml").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
    }

    #[test]
    fn model_errors_point_at_the_piece() {
        let text = "board = \"####\"\n[[piece]]\nname = \"A\"\nshape = \"#.#\"\n[[piece]]\nname = \"B\"\nshape = \"##\"\n";
        let e = parse(text, "t.toml").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("not connected"), "{e}");
    }
}
