//! `jigsolve verify`: every solution of a file checked against the puzzle
//! by the family's independent verifier, which shares no code with the
//! engines.

use crate::exit;
use crate::family;
use crate::options::VerifyArgs;
use crate::solutions::records;
use crate::source::{self, InputError};
use crate::text::plural;
use anyhow::{bail, Result};

/// Checks every solution in the file. Exit 0 when all hold, 1 when one does
/// not (the message names its line), 2 when the files cannot be read.
pub fn verify_command(args: &VerifyArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.format.as_deref())?;
    let file = args.solution.as_str();
    let text = source::read_solutions_text(file)?;
    let mut checked = 0u64;
    for record in records(&text, file) {
        let record = record?;
        if let Err(why) = puzzle.verify(&record.solution) {
            eprintln!(
                "{file}:{}: not a solution of {}: {why}",
                record.line, source.label
            );
            return Ok(exit::NONE);
        }
        checked += 1;
    }
    if checked == 0 {
        bail!(InputError(format!("{file}: no solution in the file")));
    }
    exit::outln!(
        "ok: {checked} solution{} of {} verified",
        plural(checked),
        source.label
    );
    Ok(exit::FOUND)
}
