//! The puzzle families as the command line loads them: the session crate's
//! [`jigsolve_session::family`], with what reading a puzzle found odd but
//! allowed (its warnings) printed to standard error.

pub use jigsolve_session::family::*;

use crate::puzzle::Loaded;
use crate::source::Source;
use anyhow::Result;

/// Reads `source` as a puzzle of its family and prints its warnings.
pub fn load(source: &Source, format: Option<&str>) -> Result<Box<dyn Loaded>> {
    let puzzle = jigsolve_session::family::load(source, format)?;
    for warning in puzzle.warnings() {
        eprintln!("warning: {warning}");
    }
    Ok(puzzle)
}
