//! The puzzle families as the command line sees them.
//!
//! Each family module reads its puzzles into a type that implements
//! [`Loaded`]; everything else in the binary works through that trait. To
//! add a family: a module here, a variant of [`Family`], and one arm in
//! [`load`] (and in [`crate::source::family_of`] for detection).

pub mod edge;
pub mod grid;
pub mod polygon;

use crate::args::{EstimateArgs, SolveArgs, SplitArgs};
use crate::source::{Family, InputError, Source};
use anyhow::{bail, Result};
use serde_json::Value;

/// A puzzle read from a file or the catalog, of any family.
pub trait Loaded {
    /// Its family.
    fn family(&self) -> Family;

    /// Its name.
    fn name(&self) -> &str;

    /// Solves it and prints as `args` says; returns the exit code.
    fn solve(&self, args: &SolveArgs) -> Result<u8>;

    /// Checks one solution record (the `solution` object of a JSON line).
    fn verify(&self, record: &Value) -> Result<(), String>;

    /// The puzzle as an SVG picture: the pieces laid apart, the board or region.
    fn puzzle_svg(&self) -> String;

    /// One solution record (the `solution` object of a JSON line), checked
    /// like [`Loaded::verify`] does, as an SVG picture under `caption`.
    fn solution_svg(&self, record: &Value, caption: &str) -> Result<String, String>;

    /// Estimates the size of the search tree by random probes and prints it.
    fn estimate(&self, args: &EstimateArgs) -> Result<u8>;

    /// Prints how the tree is cut for `args.shards` shards and each shard's command.
    fn split(&self, args: &SplitArgs) -> Result<u8>;

    /// The puzzle in Knuth's DLX format (`jigsolve export --dlx`), for
    /// families that are exact-cover problems.
    fn export_dlx(&self) -> Result<String> {
        bail!(InputError(format!(
            "export --dlx applies to polyform (grid) puzzles only, and {} is not one",
            self.name()
        )))
    }
}

/// Reads `source` as a puzzle of its family.
pub fn load(source: &Source, format: Option<&str>) -> Result<Box<dyn Loaded>> {
    match crate::source::family_of(source, format)? {
        Family::Edge => Ok(Box::new(edge::load(source, format)?)),
        Family::Grid => Ok(Box::new(grid::load(source, format)?)),
        Family::Polygon => Ok(Box::new(polygon::load(source, format)?)),
    }
}

/// Rejects a family-specific option given to a puzzle of another family, so
/// that nothing a user asked for is silently dropped.
pub fn reject_option(name: &str, option: &str, given: bool, family: &str) -> Result<()> {
    if given {
        bail!(InputError(format!(
            "{option} applies to {family} puzzles only, and {name} is not one"
        )));
    }
    Ok(())
}
