//! Boards, pieces, colours and copies.
//!
//! A puzzle is a board (any finite set of lattice cells, holes allowed) and a
//! list of pieces (finite, connected sets of cells). Cells of the board and of
//! the pieces may carry a colour; a piece cell with a colour may only cover a
//! board cell of the same colour (a cell without a colour fits any). Each piece
//! comes in a number of copies, is *mandatory* (every copy is used) or
//! *optional* (at most its copies are used), and is one-sided (it may only be
//! turned) or two-sided (it may also be turned over, i.e. mirrored).
//!
//! A piece may come with a range of copies (`least..=copies` of an optional
//! piece are used). Cells may also be left *open*: an open "piece"
//! ([`Piece::open`]) is one cell that lies only on the board cells it lists
//! and stands for a cell no piece covers (the month and the day a calendar
//! puzzle leaves showing, or any of a hole limit's cells). The engines take
//! it as a piece like the others, whose copies are never told apart; the
//! output shows its cells as open.
//!
//! A solution covers every board cell exactly once. Pieces and board are
//! checked here for what makes a puzzle meaningless (empty or disconnected
//! pieces, repeated cells, areas that cannot match); what is merely suspicious
//! (two pieces that are the same shape) becomes a [`Warning`].
//!
//! A puzzle may also *pin* pieces ([`Pin`], the hints of a printed puzzle):
//! a pin says that one copy of a piece lies exactly on given board cells,
//! so every solution contains that placement. A pin is checked here like
//! the rest of the puzzle: its cells must be on the board, be its piece
//! moved by a motion the piece may make, agree with the board's colours,
//! and not overlap another pin; a piece has at most as many pins as copies.
//!
//! One concern a file: this file holds the puzzle and its parts, the
//! limits and the checks that build a puzzle ([`Puzzle::new`]), `errors`
//! why a puzzle is refused ([`ModelError`]) and where ([`Place`]),
//! `warnings` what is merely suspicious ([`Warning`]), and `pins` the
//! checks of pinned pieces ([`Puzzle::with_pins`]).

mod errors;
mod pins;
mod warnings;

use crate::lattice::{Cell, Lattice};
use std::collections::{BTreeSet, HashSet};
use std::fmt;

pub use errors::{ModelError, Place};
pub use warnings::Warning;

/// A cell and its colour (an index into [`Puzzle::colours`], or none).
pub type Site = (Cell, Option<u8>);

/// Whether a piece may be turned over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Sides {
    /// Rotations only (a piece printed on one side, or any solid piece).
    One,
    /// Rotations and reflections (a flat piece that may be turned over).
    #[default]
    Two,
}

impl Sides {
    /// The name used in files: `one` or `two`.
    pub fn as_str(self) -> &'static str {
        match self {
            Sides::One => "one",
            Sides::Two => "two",
        }
    }

    /// How the moves are described in messages.
    pub fn moves(self) -> &'static str {
        match self {
            Sides::One => "rotations",
            Sides::Two => "rotations and reflections",
        }
    }
}

/// One piece as the file lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its name (shown in solutions).
    pub name: String,
    /// Its cells with their colours, in normal form (see [`Lattice::normalize`]).
    pub shape: Vec<Site>,
    /// How many copies there are (at least 1).
    pub copies: u32,
    /// True when copies may be left unused.
    pub optional: bool,
    /// For an optional piece, the fewest copies used (a range `least..=copies`
    /// in the file; 0 for a plain optional piece). Ignored otherwise.
    pub least: u32,
    /// For a cell left open rather than a piece: the board cells it may lie
    /// on (its shape is one cell). Its copies are never told apart.
    pub open: Option<Vec<Cell>>,
    /// Whether it may be turned over.
    pub sides: Sides,
}

impl Piece {
    /// A mandatory piece of one copy.
    pub fn new(name: impl Into<String>, shape: Vec<Site>, sides: Sides) -> Piece {
        Piece {
            name: name.into(),
            shape,
            copies: 1,
            optional: false,
            least: 0,
            open: None,
            sides,
        }
    }

    /// The fewest copies every solution uses.
    pub fn fewest(&self) -> u32 {
        if self.optional {
            self.least.min(self.copies)
        } else {
            self.copies
        }
    }

    /// Number of cells.
    pub fn size(&self) -> usize {
        self.shape.len()
    }

    /// The motions of `lattice` this piece may make.
    pub fn motions(&self, lattice: Lattice) -> std::ops::Range<usize> {
        match self.sides {
            Sides::One => 0..lattice.rotations(),
            Sides::Two => 0..lattice.motions(),
        }
    }

    /// Every distinct orientation of the piece (its shape moved by each
    /// allowed motion, in normal form), sorted.
    pub fn orientations(&self, lattice: Lattice) -> Vec<Vec<Site>> {
        let mut set = BTreeSet::new();
        for m in self.motions(lattice) {
            let mut moved: Vec<Site> = self
                .shape
                .iter()
                .map(|&(c, k)| (lattice.apply(m, c), k))
                .collect();
            lattice.normalize(&mut moved);
            set.insert(moved);
        }
        set.into_iter().collect()
    }
}

/// One copy of a piece fixed on the board: every solution has a copy of
/// `piece` covering exactly `cells` (and no other copy of any piece on them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The piece (an index into [`Puzzle::pieces`]).
    pub piece: usize,
    /// The board cells it covers, sorted (coordinates as on the board).
    pub cells: Vec<Cell>,
}

/// A polyform puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name.
    pub name: String,
    /// The lattice.
    pub lattice: Lattice,
    /// Colour names, indexed by the colours of sites.
    pub colours: Vec<String>,
    /// The board's cells with their colours, sorted (not translated: the
    /// coordinates are the file's).
    pub board: Vec<Site>,
    /// The pieces, in file order.
    pub pieces: Vec<Piece>,
    /// Pinned copies, in file order (empty for most puzzles); set through
    /// [`Puzzle::with_pins`], which checks them.
    pub pins: Vec<Pin>,
    /// Names of board cells for output ("Jan", "25"), sorted by cell; set
    /// through [`Puzzle::with_labels`].
    pub labels: Vec<(Cell, String)>,
}

/// Most cells the box around a board may hold (4,194,304: a 2,048 x 2,048
/// square). Its letter grid and picture span the box, so a board of a few
/// cells far apart is refused rather than drawn over billions of cells.
pub const MAX_BOARD_BOX: usize = 1 << 22;

/// Most cells a board may have (the exact-cover matrix grows with the board
/// times the placements; beyond this it would not fit in memory anyway).
pub const MAX_BOARD: usize = 1 << 16;
/// Most cells a piece may have.
pub const MAX_PIECE: usize = 1 << 12;

/// Writes a cell as files do: `(x,y)` or `(x,y,z)`.
pub fn cell_text(lattice: Lattice, c: Cell) -> String {
    match lattice.dim() {
        2 => format!("({},{})", c[0], c[1]),
        _ => format!("({},{},{})", c[0], c[1], c[2]),
    }
}

/// Number of parts of a set of cells (0 for the empty set).
pub fn parts(lattice: Lattice, cells: &[Cell]) -> usize {
    let set: HashSet<Cell> = cells.iter().copied().collect();
    let mut seen: HashSet<Cell> = HashSet::new();
    let mut parts = 0;
    for &start in cells {
        if !seen.insert(start) {
            continue;
        }
        parts += 1;
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            for n in lattice.neighbours(c) {
                if set.contains(&n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
    }
    parts
}

impl Puzzle {
    /// Checks and builds a puzzle. Piece shapes are put in normal form and
    /// board cells sorted; errors name the place they come from.
    pub fn new(
        name: String,
        lattice: Lattice,
        colours: Vec<String>,
        mut board: Vec<Site>,
        mut pieces: Vec<Piece>,
    ) -> Result<Puzzle, (ModelError, Place)> {
        if board.is_empty() {
            return Err((ModelError::EmptyBoard, Place::Board));
        }
        if board.len() > MAX_BOARD {
            return Err((
                ModelError::TooBig {
                    what: "the board".into(),
                    cells: board.len(),
                    limit: MAX_BOARD,
                },
                Place::Board,
            ));
        }
        // What is drawn and written of a board (its letter grid, its
        // picture) spans its box: cells far apart would make a box of
        // billions from a few cells.
        if let Some((lo, hi)) = crate::lattice::bounding_box(board.iter().map(|s| s.0)) {
            let span: u128 = (0..3)
                .map(|k| (i128::from(hi[k]) - i128::from(lo[k]) + 1) as u128)
                .product();
            if span > MAX_BOARD_BOX as u128 {
                return Err((
                    ModelError::Spread {
                        cells: board.len(),
                        span,
                        limit: MAX_BOARD_BOX,
                    },
                    Place::Board,
                ));
            }
        }
        if pieces.is_empty() {
            return Err((ModelError::NoPieces, Place::Pieces));
        }
        let check_sites =
            |sites: &[Site], what: &str, place: Place| -> Result<(), (ModelError, Place)> {
                let mut seen = HashSet::new();
                for &(c, k) in sites {
                    if !lattice.contains(c) {
                        return Err((
                            ModelError::OffLattice {
                                what: what.to_string(),
                                cell: cell_text(Lattice::Cube, c),
                                lattice,
                            },
                            place,
                        ));
                    }
                    if !seen.insert(c) {
                        return Err((
                            ModelError::RepeatedCell {
                                what: what.to_string(),
                                cell: cell_text(lattice, c),
                            },
                            place,
                        ));
                    }
                    if let Some(k) = k {
                        if k as usize >= colours.len() {
                            return Err((ModelError::UnknownColour(k), place));
                        }
                    }
                }
                Ok(())
            };
        check_sites(&board, "the board", Place::Board)?;
        board.sort_unstable();
        let mut names = HashSet::new();
        let mut total_copies: u64 = 0;
        for (i, p) in pieces.iter_mut().enumerate() {
            let what = format!("piece '{}'", p.name);
            if p.shape.is_empty() {
                return Err((
                    ModelError::EmptyPiece {
                        piece: p.name.clone(),
                    },
                    Place::Piece(i),
                ));
            }
            if p.shape.len() > MAX_PIECE {
                return Err((
                    ModelError::TooBig {
                        what,
                        cells: p.shape.len(),
                        limit: MAX_PIECE,
                    },
                    Place::Piece(i),
                ));
            }
            check_sites(&p.shape, &what, Place::Piece(i))?;
            let cells: Vec<Cell> = p.shape.iter().map(|s| s.0).collect();
            let n = parts(lattice, &cells);
            if n > 1 {
                return Err((
                    ModelError::Disconnected {
                        piece: p.name.clone(),
                        parts: n,
                        cube: lattice == Lattice::Cube,
                    },
                    Place::Piece(i),
                ));
            }
            if p.copies == 0 {
                return Err((
                    ModelError::NoCopies {
                        piece: p.name.clone(),
                    },
                    Place::Piece(i),
                ));
            }
            if !names.insert(p.name.clone()) {
                return Err((ModelError::DuplicateName(p.name.clone()), Place::Piece(i)));
            }
            total_copies += p.copies as u64;
            lattice.normalize(&mut p.shape);
        }
        if total_copies > u16::MAX as u64 {
            return Err((ModelError::TooManyCopies(total_copies), Place::Pieces));
        }
        for (i, p) in pieces.iter().enumerate() {
            if p.optional && p.least > p.copies {
                return Err((
                    ModelError::Range {
                        piece: p.name.clone(),
                        least: p.least,
                        most: p.copies,
                    },
                    Place::Piece(i),
                ));
            }
            if let Some(cells) = &p.open {
                let on_board: HashSet<Cell> = board.iter().map(|s| s.0).collect();
                if let Some(&c) = cells.iter().find(|c| !on_board.contains(*c)) {
                    return Err((
                        ModelError::OpenOffBoard {
                            group: p.name.clone(),
                            cell: cell_text(lattice, c),
                        },
                        Place::Piece(i),
                    ));
                }
                if (cells.len() as u64) < u64::from(p.fewest()) {
                    return Err((
                        ModelError::OpenTooFew {
                            group: p.name.clone(),
                            cells: cells.len(),
                            open: p.fewest(),
                        },
                        Place::Piece(i),
                    ));
                }
            }
        }
        let area = |mandatory_only: bool| -> usize {
            pieces
                .iter()
                .map(|p| {
                    let n = if mandatory_only { p.fewest() } else { p.copies };
                    p.size() * n as usize
                })
                .sum()
        };
        let (all, mandatory) = (area(false), area(true));
        if mandatory > board.len() || all < board.len() {
            return Err((
                ModelError::Area {
                    board: board.len(),
                    pieces: all,
                    mandatory,
                },
                Place::Pieces,
            ));
        }
        Ok(Puzzle {
            name,
            lattice,
            colours,
            board,
            pieces,
            pins: Vec::new(),
            labels: Vec::new(),
        })
    }

    /// The puzzle with names for some board cells (replacing any it had);
    /// each cell must be a board cell and named once.
    pub fn with_labels(mut self, mut labels: Vec<(Cell, String)>) -> Result<Puzzle, ModelError> {
        labels.sort();
        for w in labels.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(ModelError::RepeatedCell {
                    what: "the labels".into(),
                    cell: cell_text(self.lattice, w[0].0),
                });
            }
        }
        if let Some((c, _)) = labels.iter().find(|(c, _)| self.board_index(*c).is_none()) {
            return Err(ModelError::LabelOffBoard(cell_text(self.lattice, *c)));
        }
        self.labels = labels;
        Ok(self)
    }

    /// The name of board cell `c`: its label, or its coordinates.
    pub fn cell_name(&self, c: Cell) -> String {
        match self.labels.binary_search_by(|(k, _)| k.cmp(&c)) {
            Ok(i) => self.labels[i].1.clone(),
            Err(_) => cell_text(self.lattice, c),
        }
    }

    /// Whether some cells may be left open (open groups or holes).
    pub fn has_open(&self) -> bool {
        self.pieces.iter().any(|p| p.open.is_some())
    }

    /// Number of board cells.
    pub fn cells(&self) -> usize {
        self.board.len()
    }

    /// The board cell index of `c` (cells are sorted), if it is on the board.
    pub fn board_index(&self, c: Cell) -> Option<usize> {
        self.board.binary_search_by(|s| s.0.cmp(&c)).ok()
    }

    /// Every piece copy, as (piece index, copy from 0); a solution names
    /// copies by their position in this list.
    pub fn instances(&self) -> Vec<(usize, u32)> {
        self.pieces
            .iter()
            .enumerate()
            .flat_map(|(i, p)| (0..p.copies).map(move |k| (i, k)))
            .collect()
    }

    /// The colour name of a site, for messages (`-` for none).
    pub fn colour_name(&self, k: Option<u8>) -> &str {
        k.and_then(|k| self.colours.get(k as usize))
            .map_or("-", String::as_str)
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} board cells, {} pieces on the {} lattice",
            self.name,
            self.cells(),
            self.pieces.len(),
            self.lattice
        )
    }
}
