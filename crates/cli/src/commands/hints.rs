//! `jigsolve hints`: the fewest hints that leave exactly one solution.
//!
//! A puzzle already unique up to its symmetry needs none. Otherwise fix one
//! solution S; hints are places of S (a tile at its cell in its turn, a
//! piece on its cells), and a hint set works when S is the only distinct
//! solution that has them all (hints are printed on the board, so a turned
//! copy of S is another arrangement). The fewest hints are found by the
//! implicit hitting set method ([`jigsolve_search::hitting`]): take the
//! smallest set that rules out every other solution met so far, search the
//! puzzle with those hints for a distinct solution other than S, and if
//! there is one, remember what it lacks and go round again. When the
//! search finds none, the set is proven smallest (it is the smallest that
//! rules out only some of the other solutions). A time limit stops the
//! loop with the smallest set known to work, marked unproven.

use crate::engine::EngineOptions;
use crate::exit::{self, outln};
use crate::family;
use crate::options::HintsArgs;
use crate::outputs::{self, Output};
use crate::pictures::{write_output, write_svg_png};
use crate::puzzle::{check_engine_options, HintChoice, Loaded};
use crate::seek::{seek, uniqueness, Limits, Uniqueness};
use crate::source;
use crate::text::{file_stem, group_digits, plural};
use anyhow::Result;
use jigsolve_search::hitting::smallest_hitting_set;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::Path;

/// What the loop ended with.
pub struct Found {
    /// Indices into the choices of S.
    pub hints: Vec<usize>,
    /// No smaller set works.
    pub proven: bool,
    /// Other solutions ruled out along the way (one search each).
    pub others: usize,
    /// Nodes of every search.
    pub nodes: u64,
}

/// Finds the hints, writes the puzzle with them and reports; returns the
/// exit code.
pub fn hints_command(args: &HintsArgs) -> Result<u8> {
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.engine.format.as_deref())?;
    check_engine_options(puzzle.as_ref(), &args.engine.options())?;
    puzzle.check_takes_hints()?;
    let limits = Limits {
        threads: args.thread_count(),
        time_limit: args.time_limit,
        progress: !args.no_progress,
    };
    let name = puzzle.name().to_string();
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| format!("{}-hints.toml", file_stem(&name)).into());
    // Before the search: what it finds must have somewhere to go.
    let mut outs = vec![Output {
        option: "-o",
        path: &output,
        what: "the puzzle with its hints",
    }];
    for (option, path) in [("--svg", &args.svg), ("--png", &args.png)] {
        if let Some(path) = path {
            outs.push(Output {
                option,
                path,
                what: "the picture",
            });
        }
    }
    outputs::check(&outs, &[("the puzzle", Path::new(&args.puzzle))])?;
    let (answer, nodes) = uniqueness(puzzle.as_ref(), &args.engine.options(), &limits)?;
    let (target, found) = match answer {
        Uniqueness::Unique => (
            None,
            Found {
                hints: Vec::new(),
                proven: true,
                others: 0,
                nodes,
            },
        ),
        Uniqueness::None => {
            outln!("{name}: none: the puzzle has no solution, so no hints can make it unique");
            return Ok(exit::NONE);
        }
        Uniqueness::Unknown(reason) => {
            outln!(
                "{name}: unknown: {} before the first two solutions were found",
                match reason {
                    jigsolve_search::StopReason::Cancelled => "interrupted",
                    jigsolve_search::StopReason::NodeLimit => "stopped by the node limit",
                    _ => "stopped by the time limit",
                }
            );
            return Ok(match reason {
                jigsolve_search::StopReason::Cancelled => exit::CANCELLED,
                _ => exit::LIMIT,
            });
        }
        Uniqueness::Several(first) => {
            let choices = puzzle.hint_choices(&first)?;
            let mut found = fewest(
                puzzle.as_ref(),
                &args.engine.options(),
                &limits,
                &first,
                &choices,
            )?;
            found.nodes += nodes;
            (Some((first, choices)), found)
        }
    };
    let (file, labels) = match &target {
        Some((record, choices)) => (
            hinted_file(puzzle.as_ref(), record, &found, &[])?,
            found
                .hints
                .iter()
                .map(|&i| choices[i].label.clone())
                .collect(),
        ),
        None => (
            puzzle.to_toml(&[format!(
                "{name}: already unique up to symmetry, so `jigsolve hints` added none."
            )]),
            Vec::new(),
        ),
    };
    let n = found.hints.len();
    let verdict = verdict(found.proven);
    // What was found is reported first: a file that cannot be written
    // after all loses nothing.
    if output.as_os_str() == "-" {
        crate::exit::out!("{file}");
    }
    if args.json {
        let v = json!({
            "type": "hints",
            "puzzle": name,
            "hints": labels,
            "count": n,
            "proven": found.proven,
            "already_unique": target.is_none(),
            "others_ruled_out": found.others,
            "nodes": found.nodes,
            "output": if output.as_os_str() == "-" { Value::Null } else { json!(output.display().to_string()) },
        });
        eprintln_or_out(args, &v.to_string());
    } else {
        let mut text = if target.is_none() {
            format!("{name}: already unique up to symmetry: no hints needed\n")
        } else {
            format!(
                "{name}: {n} hint{} leave{} exactly one solution: {verdict}\n",
                plural(n as u64),
                if n == 1 { "s" } else { "" }
            )
        };
        for l in &labels {
            text.push_str(&format!("  {l}\n"));
        }
        text.push_str(&format!(
            "  {} other solution{} ruled out, {} nodes in all\n",
            group_digits(found.others as u128),
            plural(found.others as u64),
            group_digits(found.nodes as u128)
        ));
        eprintln_or_out(args, text.trim_end());
    }
    if output.as_os_str() != "-" {
        write_output(&output, file.as_bytes(), "the puzzle")?;
    }
    if args.svg.is_some() || args.png.is_some() {
        let picture = match &target {
            Some((record, _)) => puzzle.with_hints(record, &found.hints)?.puzzle_svg(),
            None => puzzle.puzzle_svg(),
        };
        write_svg_png(&picture, args.svg.as_deref(), args.png.as_deref())?;
    }
    if !args.json && output.as_os_str() != "-" {
        eprintln_or_out(args, &format!("  written to {}", output.display()));
    }
    Ok(if found.proven {
        exit::FOUND
    } else {
        exit::LIMIT
    })
}

/// The report goes to standard output, unless the puzzle file does.
fn eprintln_or_out(args: &HintsArgs, text: &str) {
    if args.output.as_deref().is_some_and(|o| o.as_os_str() == "-") {
        eprintln!("{text}");
    } else {
        outln!("{text}");
    }
}

/// The puzzle with the hints `found` (choices of the solution `record`)
/// as a file, under `comments`.
pub fn hinted_file(
    puzzle: &dyn Loaded,
    record: &Value,
    found: &Found,
    comments: &[String],
) -> Result<String> {
    let n = found.hints.len();
    let mut comments = comments.to_vec();
    comments.push(format!(
        "{n} hint{} added by `jigsolve hints`: {} that leave exactly one solution.",
        plural(n as u64),
        verdict(found.proven)
    ));
    Ok(puzzle.with_hints(record, &found.hints)?.to_toml(&comments))
}

fn verdict(proven: bool) -> &'static str {
    if proven {
        "the fewest (proven)"
    } else {
        "the fewest found before the time limit (not proven smallest)"
    }
}

/// The implicit hitting set loop for the solution `target` with `choices`.
pub fn fewest(
    puzzle: &dyn Loaded,
    engine: &EngineOptions,
    limits: &Limits,
    target: &Value,
    choices: &[HintChoice],
) -> Result<Found> {
    // Distinct solutions: the hinted puzzle is searched without symmetry.
    let mut engine = engine.clone();
    engine.no_symmetry = true;
    let keys: HashSet<&str> = choices.iter().map(|c| c.key.as_str()).collect();
    let mut lacks: Vec<Vec<usize>> = Vec::new();
    let mut nodes = 0u64;
    let mut best_known: Option<Vec<usize>> = None;
    loop {
        let stop = || limits.out_of_time();
        let candidate = smallest_hitting_set(&lacks, choices.len(), &stop);
        let hinted = puzzle.with_hints(target, &candidate.elements)?;
        // A distinct solution of the hinted puzzle other than the target.
        let mut other: Option<HashSet<String>> = None;
        // A solution the family cannot read back is a bug; it must stop
        // the loop, not pass for the target.
        let mut unreadable: Option<jigsolve_session::Error> = None;
        let sought = seek(hinted.as_ref(), &engine, limits, &mut |record| {
            let seen: HashSet<String> = match puzzle.hint_choices(&record) {
                Ok(c) => c.into_iter().map(|c| c.key).collect(),
                Err(e) => {
                    unreadable = Some(e);
                    return ControlFlow::Break(());
                }
            };
            if seen.len() == keys.len() && seen.iter().all(|k| keys.contains(k.as_str())) {
                ControlFlow::Continue(())
            } else {
                other = Some(seen);
                ControlFlow::Break(())
            }
        })?;
        if let Some(e) = unreadable {
            return Err(anyhow::Error::from(e)
                .context("a solution of the hinted puzzle does not check (a bug)"));
        }
        nodes += sought.report.nodes.total();
        match (other, sought.stopped) {
            (Some(seen), _) => {
                let lack: Vec<usize> = choices
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| !seen.contains(&c.key))
                    .map(|(i, _)| i)
                    .collect();
                lacks.push(lack);
            }
            (None, None) => {
                // Nothing else has these hints: they work.
                if candidate.proven {
                    return Ok(Found {
                        hints: candidate.elements,
                        proven: true,
                        others: lacks.len(),
                        nodes,
                    });
                }
                best_known = Some(candidate.elements);
            }
            (None, Some(_)) => {}
        }
        if limits.out_of_time() || best_known.is_some() {
            // Every place of S pinned leaves S alone: the fallback.
            return Ok(Found {
                hints: best_known.unwrap_or_else(|| (0..choices.len()).collect()),
                proven: false,
                others: lacks.len(),
                nodes,
            });
        }
    }
}
