//! The puzzle families as the command line sees them.
//!
//! Each family module reads its puzzles into a type that implements
//! [`Loaded`]; everything else in the binary works through that trait and
//! the session it prepares. A family runs no command and prints no
//! result: it hands back a session and the commands decide what to show.
//! To add a family: a module here, a variant of [`Family`], and one arm in
//! [`load`] (and in [`crate::source::family_of`] for detection).

mod edge;

pub use edge::{board_json, board_of as edge_board_of, puzzle_hash as edge_puzzle_hash};
mod grid;
mod polygon;

use crate::options::GenerateKind;
use crate::puzzle::Loaded;
use crate::source::{Family, Source};
use anyhow::Result;
use serde_json::Value;

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
        other => Err(anyhow::anyhow!(crate::source::InputError(format!(
            "{}: {command} applies to edge-matching puzzles only, and this is a {} puzzle",
            source.label,
            other.as_str()
        )))),
    }
}

/// A generated puzzle: its file, and the solution planted in it (a
/// `solution` record as `solve --json` writes it).
pub struct Generated {
    /// The puzzle in its family's TOML format.
    pub text: String,
    /// The planted solution.
    pub record: Value,
}

/// Generates a puzzle of the kind asked for from `seed`, named `name`
/// (or a name made of the options) and headed by `comments`.
pub fn generate(
    kind: &GenerateKind,
    name: Option<&str>,
    seed: u64,
    comments: &[String],
) -> Result<Generated> {
    match kind {
        GenerateKind::Edge { spec, .. } => Ok(edge::generate(spec, name, seed, comments)),
        GenerateKind::Grid { spec, .. } => grid::generate(spec, name, seed, comments),
        GenerateKind::Polygon { spec, .. } => Ok(polygon::generate(spec, name, seed, comments)),
    }
}
