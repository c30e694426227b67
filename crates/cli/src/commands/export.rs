//! `jigsolve export --dlx`: the puzzle as an exact-cover problem in Knuth's
//! DLX format, for his programs DLX1, DLX2 and DLX3.

use crate::exit;
use crate::family;
use crate::source;
use anyhow::Result;
use std::io::Write;

/// Writes the puzzle in Knuth's DLX format to standard output, with the
/// board's symmetry broken when `break_symmetry`.
pub fn export_command(spec: &str, break_symmetry: bool) -> Result<u8> {
    let source = source::read(spec)?;
    let puzzle = family::load(&source, None)?;
    let text = puzzle.export_dlx(break_symmetry)?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(exit::FOUND)
}
