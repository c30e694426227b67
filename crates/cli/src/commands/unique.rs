//! `jigsolve unique`: is the solution unique? The search walks the tree in
//! order and stops at the second solution it lists (one per symmetry class
//! unless `--no-symmetry`), so the answer costs the nodes up to that second
//! solution instead of the whole tree; two solutions are shown side by side
//! with the places where they differ marked.

use crate::exit::{self, out, outln};
use crate::family;
use crate::options::UniqueArgs;
use crate::puzzle::{check_engine_options, Loaded};
use crate::report::weight_json;
use crate::seek::{self, seek_in, Limits};
use crate::source;
use crate::text::{group_digits, plural};
use anyhow::{anyhow, Context, Result};
use jigsolve_search::{StopReason, Weight};
use serde_json::{json, Value};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// One solution as `unique` shows it.
struct Shown {
    text: String,
    json: Value,
    weight: Weight,
    /// The picture of the first solution, drawn while the solution is at
    /// hand (with the engine's own puzzle), for the answer "unique".
    svg: Option<String>,
}

/// Answers the question and prints the answer; returns the exit code.
pub fn unique_command(args: &UniqueArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine.options())?;
    let pictures = args.pictures();
    pictures.prepare()?;
    let limits = Limits {
        threads: args.thread_count(),
        time_limit: args.time_limit,
        progress: !args.no_progress,
    };
    let session = puzzle.session(&args.engine.options())?;
    let described = session.described(&seek::job(&limits));
    let what = &described.listed_means;
    let name = puzzle.name();
    let only_caption = format!("{name}: unique: exactly one solution ({what})");
    let mut found: Vec<Shown> = Vec::new();
    let sought = seek_in(
        session.as_ref(),
        &described,
        &limits,
        &mut |solution, weight| {
            let svg = (pictures.wanted() && found.is_empty()).then(|| solution.svg(&only_caption));
            found.push(Shown {
                text: solution.text(),
                json: solution.json(),
                weight,
                svg,
            });
            if found.len() >= 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    )?;
    let report = &sought.report;
    let stopped_early = sought.stopped;
    let (answer, code) = match (found.len(), stopped_early) {
        (n, _) if n >= 2 => ("several", exit::SEVERAL),
        (_, Some(StopReason::Cancelled)) => ("unknown", exit::CANCELLED),
        (_, Some(_)) => ("unknown", exit::LIMIT),
        (1, None) => ("unique", exit::FOUND),
        _ => ("none", exit::NONE),
    };
    let sentence = match answer {
        "unique" => format!("unique: exactly one solution ({what})"),
        "none" => "none: the puzzle has no solution".to_string(),
        "several" => {
            format!("several: at least two solutions ({what}); two of them, differences marked ^")
        }
        _ => format!(
            "unknown: {} before the answer was known ({} solution{} found so far)",
            match stopped_early {
                Some(StopReason::Cancelled) => "interrupted",
                Some(StopReason::NodeLimit) => "stopped by the node limit",
                _ => "stopped by the time limit",
            },
            found.len(),
            plural(found.len() as u64)
        ),
    };
    let written = write_picture(puzzle.as_ref(), args, answer, &found)?;
    if args.json {
        let solutions: Vec<Value> = found
            .iter()
            .map(|s| {
                json!({
                    "weight": weight_json(s.weight),
                    "solution": s.json,
                })
            })
            .collect();
        let v = json!({
            "type": "unique",
            "family": described.family.as_str(),
            "puzzle": described.puzzle,
            "answer": answer,
            "listed_means": what,
            "solutions": solutions,
            "complete": report.complete,
            "stopped": stopped_early.map(|s| s.as_str()),
            "nodes": report.nodes.total(),
            "seconds": report.elapsed.as_secs_f64(),
        });
        outln!("{v}");
    } else {
        let mut text = format!("{}: {sentence}\n", described.puzzle);
        match found.as_slice() {
            [one] if answer == "unique" => text.push_str(&one.text),
            [a, b, ..] => text.push_str(&side_by_side(&a.text, &b.text)),
            _ => {}
        }
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!(
            "  nodes    {} in {:.3} s\n",
            group_digits(report.nodes.total() as u128),
            report.elapsed.as_secs_f64()
        ));
        for path in written {
            text.push_str(&format!("  picture  {}\n", path.display()));
        }
        out!("{text}");
    }
    Ok(code)
}

/// Writes the picture `--svg` / `--png` ask for, if any: the two
/// solutions side by side for "several", the one solution for "unique";
/// returns the files written. For "none" and "unknown" there is nothing to
/// draw, and standard error says so rather than leave the files silently
/// missing.
fn write_picture(
    puzzle: &dyn Loaded,
    args: &UniqueArgs,
    answer: &str,
    found: &[Shown],
) -> Result<Vec<PathBuf>> {
    let pictures = args.pictures();
    if !pictures.wanted() {
        return Ok(Vec::new());
    }
    let name = puzzle.name();
    let svg = match (answer, found) {
        ("several", [a, b, ..]) => puzzle
            .pair_svg(
                &args.engine.options(),
                [&a.json, &b.json],
                [
                    &format!("{name}: first solution"),
                    &format!("{name}: second solution"),
                ],
                &format!("{name}: two solutions, differences marked"),
            )
            // The solutions come from the search: one that fails its
            // verifier is a bug, not bad input.
            .map_err(|why| anyhow!("cannot draw the two solutions found (a bug): {why}"))?,
        ("unique", [one]) => one
            .svg
            .clone()
            .context("the picture of the solution was not drawn (a bug)")?,
        _ => {
            let why = match answer {
                "none" => "the puzzle has no solution",
                _ => "the answer is unknown",
            };
            for (option, file) in pictures.files() {
                eprintln!(
                    "note: no picture written ({option} {}): {why}",
                    file.display()
                );
            }
            return Ok(Vec::new());
        }
    };
    pictures.write(&svg)?;
    Ok(pictures.files().map(|(_, f)| f.clone()).collect())
}

/// Two solutions' text side by side, with a line of `^` under each pair of
/// lines that differ, under the characters that differ.
fn side_by_side(a: &str, b: &str) -> String {
    let left: Vec<Vec<char>> = a.lines().map(|l| l.chars().collect()).collect();
    let right: Vec<Vec<char>> = b.lines().map(|l| l.chars().collect()).collect();
    let width = left.iter().map(Vec::len).max().unwrap_or(0).max(10);
    let gap = "   |   ";
    let mut out = format!("{:<width$}{gap}{}\n", "first", "second");
    for i in 0..left.len().max(right.len()) {
        let l = left.get(i).cloned().unwrap_or_default();
        let r = right.get(i).cloned().unwrap_or_default();
        let ls: String = l.iter().collect();
        let rs: String = r.iter().collect();
        let line = format!("{ls:<width$}{gap}{rs}");
        out.push_str(line.trim_end());
        out.push('\n');
        let n = l.len().max(r.len());
        let marks: String = (0..n)
            .map(|j| if l.get(j) == r.get(j) { ' ' } else { '^' })
            .collect();
        if marks.contains('^') {
            let marks_left: String = marks.chars().take(width).collect();
            let line = format!("{marks_left:<width$}{}{marks}", " ".repeat(gap.len()));
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_marked_under_both_solutions() {
        let text = side_by_side("AB\nCD\n", "AB\nDC\n");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "AB           |   AB");
        assert_eq!(lines[2], "CD           |   DC");
        // The marks sit under the columns of both sides.
        assert_eq!(lines[3], format!("^^{}^^", " ".repeat(15)));
        assert_eq!(lines.len(), 4);
    }
}
