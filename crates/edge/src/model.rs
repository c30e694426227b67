//! Boards, tiles, marks and the rules that say which marks fit.
//!
//! A tile lists its four side marks clockwise from the top: top, right,
//! bottom, left (N, E, S, W). Rotation `r` means `r` quarter turns clockwise,
//! so after rotation `r` side `s` shows the mark the unrotated tile had on side
//! `(s - r) mod 4`. Boards are `rows x cols`; cells are numbered row by row
//! from the top-left, rows and columns from 0 in the library (the TOML format
//! and the command line count them from 1).

use std::collections::HashMap;

/// Index of a mark in a puzzle's [`Marks`] table.
pub type MarkId = u16;

/// Sides of a tile and of a cell, clockwise from the top.
pub const NORTH: usize = 0;
/// The right side.
pub const EAST: usize = 1;
/// The bottom side.
pub const SOUTH: usize = 2;
/// The left side.
pub const WEST: usize = 3;

/// Names of the sides, for messages.
pub const SIDE_NAMES: [&str; 4] = ["top", "right", "bottom", "left"];

/// Which marks fit each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Matching {
    /// A mark fits its opposite: `+3` fits `-3`, `brown-head` fits
    /// `brown-tail`, `club-in` fits `club-out` (Impuzzable, Scramble Squares,
    /// Das verflixte Hunde-Spiel).
    Complementary,
    /// A mark fits itself (Eternity II and most computer-made puzzles).
    Equal,
}

impl Matching {
    /// The name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Matching::Complementary => "complementary",
            Matching::Equal => "equal",
        }
    }
}

/// Polarity of a complementary mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Polarity {
    /// `+x`, `x+`, `x-head`, `x-in`, `x-top`.
    Plus,
    /// `-x`, `x-`, `x-tail`, `x-out`, `x-bottom`.
    Minus,
}

/// The marks of one puzzle: their names and which mark each one fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    names: Vec<String>,
    partner: Vec<MarkId>,
    by_name: HashMap<String, MarkId>,
}

impl Marks {
    /// Builds the table from `(name, base, polarity)` triples. Under
    /// [`Matching::Complementary`] a mark's partner is the mark with the same
    /// base and the other polarity (a partner that no tile shows is added, so
    /// that every mark has one); a mark without polarity (the border) fits
    /// itself. Under [`Matching::Equal`] every mark fits itself.
    pub fn build(matching: Matching, marks: &[(String, String, Option<Polarity>)]) -> Marks {
        let mut names = Vec::new();
        let mut by_name = HashMap::new();
        let mut by_key: HashMap<(String, Option<Polarity>), MarkId> = HashMap::new();
        let mut keys = Vec::new();
        let intern = |name: &str,
                      key: (String, Option<Polarity>),
                      names: &mut Vec<String>,
                      keys: &mut Vec<(String, Option<Polarity>)>,
                      by_key: &mut HashMap<(String, Option<Polarity>), MarkId>|
         -> MarkId {
            *by_key.entry(key.clone()).or_insert_with(|| {
                names.push(name.to_string());
                keys.push(key);
                (names.len() - 1) as MarkId
            })
        };
        for (name, base, polarity) in marks {
            let key = match matching {
                Matching::Complementary => (base.clone(), *polarity),
                Matching::Equal => (name.clone(), None),
            };
            let id = intern(name, key, &mut names, &mut keys, &mut by_key);
            by_name.entry(name.clone()).or_insert(id);
        }
        let mut partner = Vec::new();
        let mut i = 0;
        while i < names.len() {
            let (base, polarity) = keys[i].clone();
            let p = match (matching, polarity) {
                (Matching::Complementary, Some(pol)) => {
                    let other = match pol {
                        Polarity::Plus => Polarity::Minus,
                        Polarity::Minus => Polarity::Plus,
                    };
                    let other_name = complement_name(&names[i], pol);
                    intern(
                        &other_name,
                        (base, Some(other)),
                        &mut names,
                        &mut keys,
                        &mut by_key,
                    )
                }
                _ => i as MarkId,
            };
            partner.push(p);
            i += 1;
        }
        for (id, name) in names.iter().enumerate() {
            by_name.entry(name.clone()).or_insert(id as MarkId);
        }
        Marks {
            names,
            partner,
            by_name,
        }
    }

    /// Number of marks.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when there are no marks.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of a mark as written in the puzzle.
    pub fn name(&self, mark: MarkId) -> &str {
        &self.names[mark as usize]
    }

    /// The mark that fits `mark`.
    pub fn partner(&self, mark: MarkId) -> MarkId {
        self.partner[mark as usize]
    }

    /// True when `a` and `b` fit each other.
    pub fn fits(&self, a: MarkId, b: MarkId) -> bool {
        self.partner[a as usize] == b
    }

    /// The mark of that name, if the puzzle has it.
    pub fn id(&self, name: &str) -> Option<MarkId> {
        self.by_name.get(name).copied()
    }
}

/// The name of the partner of a complementary mark, written the way the
/// mark was: `+3` → `-3`, `brown-head` → `brown-tail`, `7+` → `7-`.
fn complement_name(name: &str, polarity: Polarity) -> String {
    for (plus, minus) in POLARITY_SUFFIXES {
        let (from, to) = match polarity {
            Polarity::Plus => (plus, minus),
            Polarity::Minus => (minus, plus),
        };
        if let Some(base) = name.strip_suffix(&format!("-{from}")) {
            return format!("{base}-{to}");
        }
    }
    let flip = |c: char| if c == '+' { '-' } else { '+' };
    if let Some(rest) = name.strip_prefix(['+', '-']) {
        return format!("{}{rest}", flip(name.chars().next().unwrap_or('+')));
    }
    if let Some(rest) = name.strip_suffix(['+', '-']) {
        return format!("{rest}{}", flip(name.chars().last().unwrap_or('+')));
    }
    name.to_string()
}

/// Word suffixes that give a mark its polarity: `brown-head` fits `brown-tail`.
pub const POLARITY_SUFFIXES: [(&str, &str); 3] =
    [("head", "tail"), ("in", "out"), ("top", "bottom")];

/// Splits a complementary mark into its base and polarity: `+3`, `3+`,
/// `brown-head`, `club-out`. `None` when the mark has no polarity.
pub fn split_polarity(token: &str) -> Option<(String, Polarity)> {
    for (plus, minus) in POLARITY_SUFFIXES {
        if let Some(base) = token.strip_suffix(&format!("-{plus}")) {
            if !base.is_empty() {
                return Some((base.to_string(), Polarity::Plus));
            }
        }
        if let Some(base) = token.strip_suffix(&format!("-{minus}")) {
            if !base.is_empty() {
                return Some((base.to_string(), Polarity::Minus));
            }
        }
    }
    let sign = |c: char| match c {
        '+' => Some(Polarity::Plus),
        '-' => Some(Polarity::Minus),
        _ => None,
    };
    if token.len() >= 2 {
        if let Some(p) = token.chars().next().and_then(sign) {
            return Some((token[1..].to_string(), p));
        }
        if let Some(p) = token.chars().last().and_then(sign) {
            return Some((token[..token.len() - 1].to_string(), p));
        }
    }
    None
}

/// A square tile: its marks clockwise from the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    /// Marks on the top, right, bottom and left sides.
    pub sides: [MarkId; 4],
}

impl Tile {
    /// The marks shown after `rotation` quarter turns clockwise.
    pub fn rotated(&self, rotation: u8) -> [MarkId; 4] {
        let r = (rotation % 4) as usize;
        std::array::from_fn(|s| self.sides[(s + 4 - r) % 4])
    }

    /// How many of the four rotations look the same as the tile itself
    /// (1, 2 or 4).
    pub fn self_symmetry(&self) -> u8 {
        (0..4).filter(|&r| self.rotated(r) == self.sides).count() as u8
    }
}

/// A tile fixed in advance at a cell with a rotation (a hint or clue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hint {
    /// Index of the tile in the puzzle's list (from 0).
    pub tile: usize,
    /// Row, from 0 at the top.
    pub row: usize,
    /// Column, from 0 at the left.
    pub col: usize,
    /// Quarter turns clockwise.
    pub rotation: u8,
}

/// What a puzzle's data is wrong about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The board has no cells.
    #[error("the board is {rows} x {cols}; it needs at least one row and one column")]
    EmptyBoard {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// More or fewer tiles than cells.
    #[error("{tiles} tiles for a {rows} x {cols} board: it needs exactly {} tiles", rows * cols)]
    TileCount {
        /// Tiles given.
        tiles: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A hint names a tile that does not exist.
    #[error("hint {hint} names tile {tile} (tiles are numbered from 1 here; a hints file's from 0 are shown plus one), but there are only {tiles} tiles")]
    HintTile {
        /// Hint number, from 1.
        hint: usize,
        /// Tile number given, from 1.
        tile: usize,
        /// Tiles in the puzzle.
        tiles: usize,
    },
    /// A hint places a tile outside the board.
    #[error(
        "hint {hint} puts a tile at row {row}, column {col}, outside the {rows} x {cols} board"
    )]
    HintOutside {
        /// Hint number, from 1.
        hint: usize,
        /// Row given, from 1.
        row: usize,
        /// Column given, from 1.
        col: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A hint rotation that is not 0..=3.
    #[error(
        "hint {hint} has rotation {rotation}; rotations are 0, 1, 2 or 3 quarter turns clockwise"
    )]
    HintRotation {
        /// Hint number, from 1.
        hint: usize,
        /// Rotation given.
        rotation: i128,
    },
    /// Two hints for one cell or one tile.
    #[error("hint {hint} uses {what} that hint {earlier} already uses")]
    HintClash {
        /// Hint number, from 1.
        hint: usize,
        /// The earlier hint, from 1.
        earlier: usize,
        /// "the same cell" or "the same tile".
        what: &'static str,
    },
    /// The border mark appears more or less often than the frame has sides.
    #[error("the border mark '{mark}' appears {found} times, but the frame of a {rows} x {cols} board has {needed} sides")]
    BorderCount {
        /// The border mark.
        mark: String,
        /// How often it appears on the tiles.
        found: usize,
        /// Sides on the frame: 2 x (rows + cols).
        needed: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// Tiles whose border marks fit no cell of the frame.
    #[error("{problem}")]
    BorderShape {
        /// Which tiles and why.
        problem: String,
    },
    /// Too many tiles or marks for the engine's tables.
    #[error("{what} is too large: at most {max}")]
    TooLarge {
        /// What overflowed.
        what: &'static str,
        /// The limit.
        max: usize,
    },
}

/// Where in the puzzle a [`ModelError`] is, so a parser can name the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The board size.
    Board,
    /// The tile list as a whole.
    Tiles,
    /// One tile (index from 0).
    Tile(usize),
    /// One hint (index from 0).
    Hint(usize),
    /// The border setting.
    Border,
}

/// The most tiles a puzzle may have (tile indices are 16-bit).
pub const MAX_TILES: usize = 4096;
/// The most distinct marks a puzzle may have.
pub const MAX_MARKS: usize = 4096;

/// An edge-matching puzzle: a board, tiles, the matching rule, an optional
/// border mark and optional hints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Short name.
    pub name: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Which marks fit.
    pub matching: Matching,
    /// The marks.
    pub marks: Marks,
    /// The mark that must face the frame and appear nowhere else, if any.
    pub border: Option<MarkId>,
    /// The tiles, in the order given (tile number = index + 1).
    pub tiles: Vec<Tile>,
    /// Tiles fixed in advance.
    pub hints: Vec<Hint>,
}

impl Puzzle {
    /// Checks and assembles a puzzle.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: impl Into<String>,
        rows: usize,
        cols: usize,
        matching: Matching,
        marks: Marks,
        border: Option<MarkId>,
        tiles: Vec<Tile>,
        hints: Vec<Hint>,
    ) -> Result<Puzzle, (ModelError, Place)> {
        if rows == 0 || cols == 0 {
            return Err((ModelError::EmptyBoard { rows, cols }, Place::Board));
        }
        if tiles.len() > MAX_TILES {
            return Err((
                ModelError::TooLarge {
                    what: "the number of tiles",
                    max: MAX_TILES,
                },
                Place::Tiles,
            ));
        }
        if marks.len() > MAX_MARKS {
            return Err((
                ModelError::TooLarge {
                    what: "the number of distinct marks",
                    max: MAX_MARKS,
                },
                Place::Tiles,
            ));
        }
        if tiles.len() != rows * cols {
            return Err((
                ModelError::TileCount {
                    tiles: tiles.len(),
                    rows,
                    cols,
                },
                Place::Tiles,
            ));
        }
        let puzzle = Puzzle {
            name: name.into(),
            rows,
            cols,
            matching,
            marks,
            border,
            tiles,
            hints,
        };
        puzzle.check_hints()?;
        puzzle.check_border()?;
        Ok(puzzle)
    }

    fn check_hints(&self) -> Result<(), (ModelError, Place)> {
        let mut cells: HashMap<(usize, usize), usize> = HashMap::new();
        let mut tiles: HashMap<usize, usize> = HashMap::new();
        for (i, h) in self.hints.iter().enumerate() {
            let at = Place::Hint(i);
            if h.tile >= self.tiles.len() {
                return Err((
                    ModelError::HintTile {
                        hint: i + 1,
                        tile: h.tile + 1,
                        tiles: self.tiles.len(),
                    },
                    at,
                ));
            }
            if h.row >= self.rows || h.col >= self.cols {
                return Err((
                    ModelError::HintOutside {
                        hint: i + 1,
                        row: h.row + 1,
                        col: h.col + 1,
                        rows: self.rows,
                        cols: self.cols,
                    },
                    at,
                ));
            }
            if h.rotation > 3 {
                return Err((
                    ModelError::HintRotation {
                        hint: i + 1,
                        rotation: h.rotation.into(),
                    },
                    at,
                ));
            }
            if let Some(&earlier) = cells.get(&(h.row, h.col)) {
                return Err((
                    ModelError::HintClash {
                        hint: i + 1,
                        earlier: earlier + 1,
                        what: "the same cell",
                    },
                    at,
                ));
            }
            if let Some(&earlier) = tiles.get(&h.tile) {
                return Err((
                    ModelError::HintClash {
                        hint: i + 1,
                        earlier: earlier + 1,
                        what: "the same tile",
                    },
                    at,
                ));
            }
            cells.insert((h.row, h.col), i);
            tiles.insert(h.tile, i);
        }
        Ok(())
    }

    /// With a border mark, the frame has 2 x (rows + cols) sides and each must
    /// show the border mark; no other side may. Checks the count, and on
    /// boards at least 2 x 2 the shape of each tile's border sides.
    fn check_border(&self) -> Result<(), (ModelError, Place)> {
        let Some(b) = self.border else { return Ok(()) };
        let found: usize = self
            .tiles
            .iter()
            .map(|t| t.sides.iter().filter(|&&m| m == b).count())
            .sum();
        let needed = 2 * (self.rows + self.cols);
        if found != needed {
            return Err((
                ModelError::BorderCount {
                    mark: self.marks.name(b).to_string(),
                    found,
                    needed,
                    rows: self.rows,
                    cols: self.cols,
                },
                Place::Border,
            ));
        }
        if self.rows >= 2 && self.cols >= 2 {
            let mut corners = 0;
            let mut edges = 0;
            for (i, t) in self.tiles.iter().enumerate() {
                let on: Vec<bool> = t.sides.iter().map(|&m| m == b).collect();
                let n = on.iter().filter(|&&x| x).count();
                let adjacent = (0..4).any(|s| on[s] && on[(s + 1) % 4]);
                match n {
                    0 => {}
                    1 => edges += 1,
                    2 if adjacent => corners += 1,
                    _ => {
                        return Err((
                            ModelError::BorderShape {
                                problem: format!(
                                    "tile {} shows the border mark on {n} {}sides; on a board at least 2 x 2 only corner tiles (two adjacent sides) and edge tiles (one side) face the frame",
                                    i + 1,
                                    if n == 2 { "opposite " } else { "" }
                                ),
                            },
                            Place::Tile(i),
                        ))
                    }
                }
            }
            let edge_cells = 2 * (self.rows - 2) + 2 * (self.cols - 2);
            if corners != 4 || edges != edge_cells {
                return Err((
                    ModelError::BorderShape {
                        problem: format!(
                            "{corners} corner tiles and {edges} edge tiles, but a {} x {} board has 4 corners and {edge_cells} edge cells",
                            self.rows, self.cols
                        ),
                    },
                    Place::Border,
                ));
            }
        }
        Ok(())
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The marks of a tile written out, e.g. `+3 -2 -3 +1`.
    pub fn tile_text(&self, tile: usize) -> String {
        self.marks_text(&self.tiles[tile].sides)
    }

    /// Four marks written out.
    pub fn marks_text(&self, sides: &[MarkId; 4]) -> String {
        sides
            .iter()
            .map(|&m| self.marks.name(m))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polarity_notations() {
        assert_eq!(split_polarity("+3"), Some(("3".into(), Polarity::Plus)));
        assert_eq!(split_polarity("-3"), Some(("3".into(), Polarity::Minus)));
        assert_eq!(split_polarity("7-"), Some(("7".into(), Polarity::Minus)));
        assert_eq!(
            split_polarity("brown-head"),
            Some(("brown".into(), Polarity::Plus))
        );
        assert_eq!(
            split_polarity("club-out"),
            Some(("club".into(), Polarity::Minus))
        );
        assert_eq!(split_polarity("brown"), None);
        assert_eq!(split_polarity("+"), None);
    }

    #[test]
    fn complementary_partners_are_named_like_their_mark() {
        let marks = Marks::build(
            Matching::Complementary,
            &[
                ("+3".into(), "3".into(), Some(Polarity::Plus)),
                ("brown-head".into(), "brown".into(), Some(Polarity::Plus)),
            ],
        );
        let plus3 = marks.id("+3").unwrap();
        let minus3 = marks.partner(plus3);
        assert_eq!(marks.name(minus3), "-3");
        assert_eq!(marks.partner(minus3), plus3);
        let head = marks.id("brown-head").unwrap();
        assert_eq!(marks.name(marks.partner(head)), "brown-tail");
        assert!(marks.fits(head, marks.partner(head)));
        assert!(!marks.fits(head, head));
    }

    #[test]
    fn rotation_is_clockwise() {
        let t = Tile {
            sides: [1, 2, 3, 4],
        };
        // One quarter turn clockwise: the old left side is now on top.
        assert_eq!(t.rotated(1), [4, 1, 2, 3]);
        assert_eq!(t.rotated(2), [3, 4, 1, 2]);
        assert_eq!(t.self_symmetry(), 1);
        assert_eq!(
            Tile {
                sides: [1, 2, 1, 2]
            }
            .self_symmetry(),
            2
        );
        assert_eq!(Tile { sides: [5; 4] }.self_symmetry(), 4);
    }
}

/// One tile of a solution: which tile (index into the puzzle's list, from 0)
/// and how many quarter turns clockwise.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Placement {
    /// Tile index, from 0.
    pub tile: u16,
    /// Quarter turns clockwise, 0..=3.
    pub rotation: u8,
}
