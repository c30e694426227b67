//! `jigsolve verify`: every solution of a file checked against the puzzle
//! by the family's independent verifier, which shares no code with the
//! engines; a best board (`best --json`) or a viewer link is scored
//! again instead.

use crate::exit;
use crate::family;
use crate::options::VerifyArgs;
use crate::solutions::records;
use crate::source::{self, InputError};
use crate::text::plural;
use anyhow::{anyhow, bail, Result};

/// Checks every solution in the file. Exit 0 when all hold, 1 when one does
/// not (the message names its line), 2 when the files cannot be read.
pub fn verify_command(args: &VerifyArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.format.as_deref())?;
    let file = args.solution.as_str();
    if file.contains("board_edges=") {
        return verify_link(puzzle.as_ref(), file, &source.label);
    }
    let text = source::read_solutions_text(file)?;
    if !text.trim_start().starts_with('{') && text.contains("board_edges=") {
        return verify_link(puzzle.as_ref(), text.trim(), &source.label);
    }
    let mut checked = 0u64;
    let mut boards = 0u64;
    let mut best = None;
    for record in records(&text, file) {
        let record = record?;
        if record.solution.get("type").and_then(|t| t.as_str()) == Some("best") {
            let (score, max) = puzzle
                .score_board(&record.solution)
                .map_err(|e| anyhow!(InputError(format!("{file}:{}: {e}", record.line))))?;
            let claimed = record.solution.get("score").and_then(|v| v.as_u64());
            if claimed.is_some_and(|c| c != u64::from(score)) {
                eprintln!(
                    "{file}:{}: the board claims score {}, but {score} of its {max} inner edges match",
                    record.line,
                    claimed.unwrap_or_default()
                );
                return Ok(exit::NONE);
            }
            boards += 1;
            best = best.max(Some((score, max)));
            continue;
        }
        if let Some(Err(why)) = record.weight.as_ref().map(weight_form) {
            eprintln!("{file}:{}: {why}", record.line);
            return Ok(exit::NONE);
        }
        if let Err(why) = puzzle.verify(&record.solution) {
            eprintln!(
                "{file}:{}: not a solution of {}: {why}",
                record.line, source.label
            );
            return Ok(exit::NONE);
        }
        checked += 1;
    }
    if let Some((score, max)) = best {
        if checked > 0 {
            bail!(InputError(format!(
                "{file}: best boards and solutions mixed in one file"
            )));
        }
        exit::outln!(
            "ok: {boards} board{} of {} scored independently; the best has {score} of {max} inner edges matching",
            plural(boards),
            source.label
        );
        return Ok(exit::FOUND);
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

/// Scores the board of a viewer link.
fn verify_link(puzzle: &dyn crate::puzzle::Loaded, link: &str, label: &str) -> Result<u8> {
    let (score, max) = puzzle.score_link(link)?;
    exit::outln!("ok: the linked board of {label} has {score} of {max} inner edges matching");
    Ok(exit::FOUND)
}

/// Checks the form of a listed solution's `weight`, which `verify` can
/// judge without knowing the options the listing ran with: whole numbers
/// (`null` where a count overflowed), at least 1 (the unique count 0 or
/// more), the raw count a multiple
/// of the distinct one (the orderings of identical pieces), the distinct
/// one a multiple of the unique one (the board symmetries that give other
/// solutions). Which multiples are right depends on the listing's options
/// and is not judged.
fn weight_form(weight: &serde_json::Value) -> Result<(), String> {
    // A listing without symmetry breaking gives the solutions that are
    // not their class's representative a unique count of 0.
    let count = |kind: &str, least: u64| -> Result<Option<u128>, String> {
        match weight.get(kind) {
            Some(serde_json::Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if n >= least => Ok(Some(u128::from(n))),
                _ => Err(format!(
                    "the weight's {kind} count {v} is not a whole number of at least {least}"
                )),
            },
            None => Err(format!("the weight has no {kind} count")),
        }
    };
    let (raw, distinct, unique) = (count("raw", 1)?, count("distinct", 1)?, count("unique", 0)?);
    if let (Some(raw), Some(distinct)) = (raw, distinct) {
        if raw % distinct != 0 {
            return Err(format!(
                "the weight's raw count {raw} is not a multiple of its distinct count {distinct}"
            ));
        }
    }
    if let (Some(distinct), Some(unique @ 1..)) = (distinct, unique) {
        if distinct % unique != 0 {
            return Err(format!(
                "the weight's distinct count {distinct} is not a multiple of its unique count \
                 {unique}"
            ));
        }
    }
    Ok(())
}
