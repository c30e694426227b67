//! What can be wrong with a puzzle file, as the messages say it.

use crate::model::ModelError;

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
