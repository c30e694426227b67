//! The puzzle families as the command line and the web page see them.
//!
//! Each family module reads its puzzles into a type that implements
//! [`Loaded`]; everything else works through that trait and
//! the session it prepares. A family runs no command and prints no
//! result: it hands back a session and the commands decide what to show.
//! To add a family: a module here, a variant of [`Family`], and one arm in
//! [`load`] (and in [`crate::source::family_of`] for detection).

mod edge;

pub use edge::{
    board_json, board_of as edge_board_of, puzzle_hash as edge_puzzle_hash,
    solution_json as edge_solution_json,
};
pub use grid::solution_json as grid_solution_json;
mod grid;
mod polygon;

use crate::error::{Error, Result};
use crate::puzzle::Loaded;
use crate::source::{Family, Source};

/// Reads `source` as a puzzle of its family.
///
/// A loaded puzzle is the puzzle only; [`Loaded::session`] prepares its
/// search for one set of engine options.
pub fn load(source: &Source, format: Option<&str>) -> Result<Box<dyn Loaded>> {
    match crate::source::family_of(source, format)? {
        Family::Edge => Ok(Box::new(edge::load(source, format)?)),
        Family::Grid => Ok(Box::new(grid::load(source, format)?)),
        Family::Polygon => Ok(Box::new(polygon::load(source, format)?)),
    }
}

/// Reads `source` as an edge-matching puzzle, for the commands that exist
/// for that family only (`best`): any other family is an input error naming
/// `command`.
pub fn load_edge(
    source: &Source,
    format: Option<&str>,
    command: &str,
) -> Result<jigsolve_edge::Puzzle> {
    match crate::source::family_of(source, format)? {
        Family::Edge => Ok(edge::load(source, format)?.0),
        other => Err(Error::input(format!(
            "{}: {command} applies to edge-matching puzzles only, and this is a {} puzzle",
            source.label,
            other.as_str()
        ))),
    }
}
