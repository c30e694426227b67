//! One module per puzzle family: load, solve, verify, describe.
//!
//! Each family module turns the shared command-line options into its
//! library's options and hands the search to [`crate::solve::execute`].

pub mod edge;

use crate::source::{InputError, Source};
use anyhow::{bail, Result};

/// Rejects a family-specific flag given to a puzzle of another family, so
/// that nothing a user asked for is silently dropped.
#[allow(dead_code)] // used once a second family lands
pub fn reject_flag(source: &Source, flag: &str, given: bool, family: &str) -> Result<()> {
    if given {
        bail!(InputError(format!(
            "{flag} applies to {family} puzzles only, and {} is not one",
            source.label
        )));
    }
    Ok(())
}
