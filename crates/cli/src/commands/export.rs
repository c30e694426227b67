//! `jigsolve export --dlx`: the puzzle as an exact-cover problem in Knuth's
//! DLX format, for his programs DLX1, DLX2 and DLX3.

use crate::exit;
use crate::family;
use crate::source;
use anyhow::Result;
use std::io::Write;

/// Writes the puzzle in Knuth's DLX format to standard output.
pub fn export_command(spec: &str) -> Result<u8> {
    let source = source::read(spec)?;
    let puzzle = family::load(&source, None)?;
    let text = puzzle.export_dlx()?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(exit::FOUND)
}
