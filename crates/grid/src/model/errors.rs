//! Why a puzzle is refused, and where in the file the reason lies.

use crate::lattice::Lattice;

/// Where in the puzzle a problem is (for messages with line numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The board.
    Board,
    /// The piece with this index (from 0).
    Piece(usize),
    /// The piece list as a whole.
    Pieces,
    /// The pin with this index (from 0).
    Pin(usize),
}

/// Why a puzzle is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// No board cells.
    #[error("the board has no cells")]
    EmptyBoard,
    /// No pieces.
    #[error("there are no pieces")]
    NoPieces,
    /// A piece without cells.
    #[error("piece '{piece}' has no cells")]
    EmptyPiece {
        /// Its name.
        piece: String,
    },
    /// A cell listed twice.
    #[error("{what} lists the cell {cell} twice")]
    RepeatedCell {
        /// "the board" or "piece 'X'".
        what: String,
        /// The cell, as written in files.
        cell: String,
    },
    /// A cell off the lattice (a third coordinate on the square lattice).
    #[error("{what}: the cell {cell} is not a cell of the {lattice} lattice")]
    OffLattice {
        /// "the board" or "piece 'X'".
        what: String,
        /// The cell.
        cell: String,
        /// The lattice.
        lattice: Lattice,
    },
    /// A piece in several parts.
    #[error("piece '{piece}' is not connected: its cells fall into {parts} separate parts (cells touch only across a side{})", if *cube { " face" } else { "" })]
    Disconnected {
        /// Its name.
        piece: String,
        /// Number of parts.
        parts: usize,
        /// Whether the lattice is the cube lattice.
        cube: bool,
    },
    /// A piece with zero copies.
    #[error("piece '{piece}' has copies = 0; give it at least 1 copy or remove it")]
    NoCopies {
        /// Its name.
        piece: String,
    },
    /// Two pieces with one name.
    #[error("two pieces are called '{0}'; names must differ (they label solutions)")]
    DuplicateName(String),
    /// A colour index with no name.
    #[error("colour number {0} is not declared")]
    UnknownColour(u8),
    /// Areas that cannot match.
    #[error("the pieces cover {pieces} cells{}, but the board has {board}", optional_note(*mandatory, *pieces))]
    Area {
        /// Cells of the board.
        board: usize,
        /// Cells of all copies of all pieces.
        pieces: usize,
        /// Cells of the copies that must be used.
        mandatory: usize,
    },
    /// Too many piece copies for the solution format.
    #[error("{0} piece copies in all; at most 65535 are supported")]
    TooManyCopies(u64),
    /// A pin names a piece the puzzle does not have (built in code; files
    /// name pieces, and an unknown name is a parse error).
    #[error("pin {pin} is of piece number {piece}, but there are only {pieces} pieces")]
    PinPiece {
        /// The pin, from 1.
        pin: usize,
        /// The piece index it gives.
        piece: usize,
        /// How many pieces there are.
        pieces: usize,
    },
    /// A pinned cell that is not a board cell.
    #[error("the pin of piece '{piece}' covers {cell}, which is not a board cell")]
    PinOffBoard {
        /// The piece.
        piece: String,
        /// The cell.
        cell: String,
    },
    /// Pinned cells that are not the piece moved.
    #[error("the cells pinned for piece '{piece}' are not that piece turned{}{}", if *flips { " or turned over" } else { "" }, if *flips { "" } else { " (it is one-sided: it may not be turned over)" })]
    PinShape {
        /// The piece.
        piece: String,
        /// Whether the piece may be turned over.
        flips: bool,
    },
    /// Pinned cells whose colours disagree with the piece's.
    #[error("the cells pinned for piece '{piece}' have its shape, but a coloured cell of the piece would lie on a board cell of another colour")]
    PinColour {
        /// The piece.
        piece: String,
    },
    /// Two pins on one cell.
    #[error("the pins of '{first}' and '{second}' both cover {cell}")]
    PinOverlap {
        /// The earlier pin's piece.
        first: String,
        /// The later pin's piece.
        second: String,
        /// A cell they share.
        cell: String,
    },
    /// A range of copies whose least is more than its most.
    #[error("piece '{piece}' has copies = \"{least}..{most}\": the least is more than the most")]
    Range {
        /// The piece.
        piece: String,
        /// The least copies.
        least: u32,
        /// The most copies.
        most: u32,
    },
    /// A cell of an open group that is not a board cell.
    #[error("open group '{group}': the cell {cell} is not a board cell")]
    OpenOffBoard {
        /// The group.
        group: String,
        /// The cell.
        cell: String,
    },
    /// An open group with fewer cells than it leaves open.
    #[error("open group '{group}' leaves {open} cells open but has only {cells}")]
    OpenTooFew {
        /// The group.
        group: String,
        /// Its cells.
        cells: usize,
        /// The cells it leaves open.
        open: u32,
    },
    /// A label for a cell that is not a board cell.
    #[error("a label names the cell {0}, which is not a board cell")]
    LabelOffBoard(String),
    /// More pins of a piece than it has copies.
    #[error("piece '{piece}' is pinned {pins} times, but it has only {copies} cop{}", if *copies == 1 { "y" } else { "ies" })]
    TooManyPins {
        /// The piece.
        piece: String,
        /// Its pins.
        pins: usize,
        /// Its copies.
        copies: u32,
    },
    /// A board whose cells lie too far apart.
    #[error("the board's {cells} cells lie in a box of {span} cells; at most {limit} are supported (its cells lie too far apart)")]
    Spread {
        /// Its cells.
        cells: usize,
        /// The cells of its box.
        span: u128,
        /// The limit.
        limit: usize,
    },
    /// A board or piece too big to search.
    #[error("{what} has {cells} cells; at most {limit} are supported")]
    TooBig {
        /// "the board" or "piece 'X'".
        what: String,
        /// Its cells.
        cells: usize,
        /// The limit.
        limit: usize,
    },
}

fn optional_note(mandatory: usize, pieces: usize) -> String {
    if mandatory == pieces {
        String::new()
    } else {
        format!(" ({mandatory} of them by the pieces that are not optional)")
    }
}
