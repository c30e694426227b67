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
//!
//! The reading follows the file, one concern a file: `schema` holds the
//! TOML tables as serde reads them, `errors` what can be wrong with a file
//! ([`Problem`]), `art` the context the readers share and the reading of
//! ASCII art, `coordinates` the reading of coordinate lists and colour
//! names, and this file the entry point [`parse`], which checks the keys,
//! builds the board, the pieces, the open groups and the pins, and hands
//! them to the model's checks.

mod art;
mod coordinates;
mod errors;
mod schema;
#[cfg(test)]
mod tests;

use crate::lattice::{Cell, Lattice};
use crate::model::{ModelError, Piece, Pin, Place, Puzzle, Sides, Site, Warning};
use art::{is_art, Ctx};
use jigsolve_search::LineIndex;
use schema::TomlPuzzle;
use toml::{Spanned, Value};

pub use errors::{ParseError, Problem};

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
