//! Knuth's DLX text format, to cross-check counts with his programs.
//!
//! The format (TAOCP 7.2.2.1 and the programs DLX1, DLX2, DLX3): lines
//! starting with `|` are comments; the first other line names the items,
//! primary ones first, then `|` and the secondary ones; every further line
//! is one option, the items it covers.
//!
//! Here each board cell is a primary item named by its coordinates (one
//! base-36 digit each when they fit: `3a` is x = 3, y = 10), and each
//! piece type is an item too: primary when exactly one copy must be used,
//! secondary when at most one may be (an optional piece), and a primary
//! item with DLX3's multiplicity prefix `a:b|` when several copies are
//! allowed (`2|E` for two copies that must both be used, `0:3|E` for up to
//! three optional ones). Each option is one placement of one piece type:
//! its cells and its piece. Colours are already applied (options that put a
//! coloured cell on the wrong colour are left out), and board symmetry is
//! not broken, so DLX1/DLX3 count exactly the *distinct* solutions. Pins
//! need nothing of their own: the problem already keeps, of the options on
//! a pinned cell, only the pin itself (see [`crate::Problem`]).
//!
//! [`dlx_unique`] breaks the board's symmetry the way the search does (see
//! [`crate::Plan`]): a breaker piece keeps one option per orbit of its
//! placements, so DLX1 counts exactly the *unique* solutions. That is only
//! exact with a breaker none of whose kept placements a symmetry maps to
//! itself (a piece without symmetry of its own always qualifies); the
//! search can post-check solutions through such placements, an exact-cover
//! file cannot, so without such a piece the export is refused, with the
//! reason.

use crate::lattice::bounding_box;
use crate::problem::Problem;
use crate::symmetry::{Mode, Plan};
use std::collections::HashSet;
use std::fmt::Write as _;

/// Knuth's limit on item names in DLX1.
const MAX_NAME: usize = 8;

/// Why the board's symmetry cannot be broken by leaving options out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no piece can break the board's {0} symmetries on its own (each has copies, is swapped with another by a mirror, or has a placement that a symmetry maps to itself), so leaving options out cannot count each solution once; export without breaking symmetry instead")]
pub struct Unbreakable(pub usize);

/// The problem as DLX text with the board's symmetry broken: its solutions
/// are the *unique* solutions.
pub fn dlx_unique(problem: &Problem) -> Result<String, Unbreakable> {
    if problem.group.len() <= 1 {
        let note = "the board has no symmetry, so its distinct solutions are the unique ones";
        return Ok(write(problem, |_| true, Some(note)));
    }
    let plan = Plan::exact(problem).ok_or(Unbreakable(problem.group.len()))?;
    let Mode::Breaker { ty } = plan.mode else {
        return Err(Unbreakable(problem.group.len()));
    };
    let reps: HashSet<usize> = plan.reps.iter().map(|r| r.placement).collect();
    let name = &problem.puzzle.pieces[problem.types[ty].members[0]].name;
    let note = format!(
        "board symmetry broken ({} symmetries): piece {name} keeps {} of its {} options, one per orbit; solutions are the unique solutions",
        problem.group.len(),
        reps.len(),
        plan.breaker_placements
    );
    Ok(write(
        problem,
        |i| problem.placements[i].ty as usize != ty || reps.contains(&i),
        Some(&note),
    ))
}

/// The problem as DLX text.
pub fn dlx(problem: &Problem) -> String {
    write(problem, |_| true, None)
}

/// The DLX text of the placements `keep` keeps, with `note` (what its
/// solutions are) in place of the usual line about them.
fn write(problem: &Problem, keep: impl Fn(usize) -> bool, note: Option<&str>) -> String {
    let puzzle = &problem.puzzle;
    let dim = puzzle.lattice.dim();
    // A puzzle always has board cells; the fallback only keeps this total.
    let (lo, hi) = bounding_box(puzzle.board.iter().map(|s| s.0)).unwrap_or(([0; 3], [0; 3]));
    let compact = (0..dim).all(|k| hi[k] - lo[k] < 36);
    let cell_name = |pos: u32| -> String {
        let c = puzzle.board[problem.order[pos as usize]].0;
        if compact {
            (0..dim)
                .map(|k| std::char::from_digit((c[k] - lo[k]) as u32, 36).unwrap_or('?'))
                .collect()
        } else {
            (0..dim)
                .map(|k| c[k].to_string())
                .collect::<Vec<_>>()
                .join(".")
        }
    };
    let cells: Vec<String> = (0..problem.cells() as u32).map(cell_name).collect();
    let taken: HashSet<&str> = cells.iter().map(String::as_str).collect();
    let type_names: Vec<String> = problem
        .types
        .iter()
        .enumerate()
        .map(|(t, ty)| {
            let name = &puzzle.pieces[ty.members[0]].name;
            let ok = name.len() <= MAX_NAME
                && !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_graphic() && c != ':' && c != '|')
                && !taken.contains(name.as_str());
            if ok {
                name.clone()
            } else {
                format!("p{}", t + 1)
            }
        })
        .collect();

    let mut out = String::new();
    let _ = writeln!(out, "| {} (jigsolve export --dlx)", puzzle.name);
    let kept = (0..problem.placements.len()).filter(|&i| keep(i)).count();
    let _ = writeln!(
        out,
        "| {} cells, {} piece type(s), {} options; {}",
        problem.cells(),
        problem.types.len(),
        kept,
        note.unwrap_or("solutions are the distinct solutions")
    );
    if !puzzle.pins.is_empty() {
        let _ = writeln!(
            out,
            "| {} pinned piece(s): the only options on their cells are the pins",
            puzzle.pins.len()
        );
    }
    if problem.types.iter().any(|t| t.hi > 1) {
        let _ = writeln!(
            out,
            "| some pieces have several copies: items with a:b| multiplicities need DLX3"
        );
    }
    for (t, ty) in problem.types.iter().enumerate() {
        let members: Vec<&str> = ty
            .members
            .iter()
            .map(|&m| puzzle.pieces[m].name.as_str())
            .collect();
        if type_names[t] != members[0] || members.len() > 1 {
            let _ = writeln!(
                out,
                "| item {} is piece {}",
                type_names[t],
                members.join(" + ")
            );
        }
    }
    let mut primary: Vec<String> = cells.clone();
    let mut secondary = Vec::new();
    for (t, ty) in problem.types.iter().enumerate() {
        let name = &type_names[t];
        match (ty.lo, ty.hi) {
            (1, 1) => primary.push(name.clone()),
            (0, 1) => secondary.push(name.clone()),
            (lo, hi) if lo == hi => primary.push(format!("{hi}|{name}")),
            (lo, hi) => primary.push(format!("{lo}:{hi}|{name}")),
        }
    }
    out.push_str(&primary.join(" "));
    if !secondary.is_empty() {
        out.push_str(" | ");
        out.push_str(&secondary.join(" "));
    }
    out.push('\n');
    for (_, pl) in problem
        .placements
        .iter()
        .enumerate()
        .filter(|&(i, _)| keep(i))
    {
        let mut line: Vec<&str> = pl
            .cells
            .iter()
            .map(|&c| cells[c as usize].as_str())
            .collect();
        line.push(&type_names[pl.ty as usize]);
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}
