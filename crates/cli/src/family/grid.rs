//! Polyforms (pieces of cells on a lattice) on the command line.

use crate::options::EngineArgs;
use crate::puzzle::Loaded;
use crate::session::{content_hash, Described, Engine, EngineSession, Job, Session};
use crate::source::{Family, InputError, Source};
use anyhow::{anyhow, bail, Result};
use jigsolve_grid::parse::{self, Parsed};
use jigsolve_grid::verify::SolutionRecord;
use jigsolve_grid::Sides;
use jigsolve_grid::{Lattice, Mode, Options, Prepared, Problem, Puzzle, Solver};
use serde_json::{json, Value};
use std::cell::RefCell;

/// A polyform puzzle on the command line, with the exact-cover problem
/// built from it while loading (for its warnings), kept so that the search
/// does not build it again.
pub struct GridPuzzle {
    parsed: Parsed,
    problem: RefCell<Option<Problem>>,
}

impl GridPuzzle {
    fn puzzle(&self) -> &Puzzle {
        &self.parsed.puzzle
    }

    /// The problem, built at most once per command.
    fn problem(&self) -> Problem {
        self.problem
            .take()
            .unwrap_or_else(|| Problem::new(self.puzzle()))
    }

    /// Prepares the engine with the engine options.
    fn prepare(&self, args: &EngineArgs) -> Prepared {
        let options = Options {
            engine: args.engine_choice.unwrap_or_default(),
            symmetry: !args.no_symmetry,
            region_cap: None,
            portable: false,
        };
        Prepared::from_problem(self.problem(), options)
    }
}

/// Reads a polyform puzzle and prints its warnings (same-shape pieces,
/// pieces that fit nowhere) to standard error.
pub fn load(source: &Source, format: Option<&str>) -> Result<GridPuzzle> {
    if let Some(f) = format {
        if f != "toml" {
            bail!(InputError(format!(
                "--format {f} does not apply to polyform (grid) puzzles: they are TOML files"
            )));
        }
    }
    let parsed = parse::parse(&source.text, &source.label)
        .map_err(|e| anyhow!(InputError(e.to_string())))?;
    let problem = Problem::new(&parsed.puzzle);
    for w in &problem.warnings {
        eprintln!("warning: {}", parsed.warning_text(w));
    }
    Ok(GridPuzzle {
        parsed,
        problem: RefCell::new(Some(problem)),
    })
}

impl Loaded for GridPuzzle {
    fn family(&self) -> Family {
        Family::Grid
    }

    fn name(&self) -> &str {
        &self.puzzle().name
    }

    fn session(&self, options: &EngineArgs) -> Result<Box<dyn Session + '_>> {
        Ok(Box::new(EngineSession(GridEngine {
            prep: self.prepare(options),
        })))
    }

    fn verify(&self, record: &Value) -> Result<(), String> {
        verify(self.puzzle(), record)
    }

    fn puzzle_svg(&self) -> String {
        jigsolve_render::grid::puzzle_svg(self.puzzle())
    }

    fn solution_svg(&self, record: &Value, caption: &str) -> Result<String, String> {
        let copies = checked(self.puzzle(), record)?;
        Ok(jigsolve_render::grid::solution_svg(
            self.puzzle(),
            &copies,
            caption,
        ))
    }

    fn pair_svg(
        &self,
        _options: &EngineArgs,
        records: [&Value; 2],
        captions: [&str; 2],
        title: &str,
    ) -> Result<String, String> {
        let puzzle = self.puzzle();
        let (a, b) = (checked(puzzle, records[0])?, checked(puzzle, records[1])?);
        let marked = differing_cells(puzzle, &a, &b);
        let note = format!(
            "dashed box: another piece covers this cell in the other solution ({} of {} cells)",
            marked.len(),
            puzzle.board.len()
        );
        let picture = |copies: &[u16], caption: &str| {
            jigsolve_render::grid::solution_picture(puzzle, copies, caption, &marked)
        };
        Ok(jigsolve_render::differ::pair(
            picture(&a, captions[0]),
            picture(&b, captions[1]),
            title,
            &note,
        ))
    }

    fn export_dlx(&self) -> Result<String> {
        Ok(jigsolve_grid::export::dlx(&self.problem()))
    }
}

/// A polyform puzzle prepared for searching.
struct GridEngine {
    prep: Prepared,
}

impl Engine for GridEngine {
    type Tree = Solver;

    fn tree(&self) -> Solver {
        Solver::new(&self.prep)
    }

    fn described(&self, _job: &Job) -> Described {
        describe(&self.prep)
    }

    fn text(&self, solution: &[u16]) -> String {
        jigsolve_render::grid::solution_text(self.prep.puzzle(), solution)
    }

    fn json(&self, solution: &[u16]) -> Value {
        solution_json(self.prep.puzzle(), solution)
    }

    fn svg(&self, solution: &[u16], caption: &str) -> String {
        jigsolve_render::grid::solution_svg(self.prep.puzzle(), solution, caption)
    }
}

/// What the counts mean for this puzzle, and how the engine searched it.
fn describe(prep: &Prepared) -> Described {
    let problem = prep.problem();
    let puzzle = prep.puzzle();
    let g = problem.group.len();
    let identical = problem.types.iter().any(|t| t.hi > 1);
    let coloured = puzzle.board.iter().any(|s| s.1.is_some());
    let moves = match puzzle
        .pieces
        .iter()
        .map(|p| p.sides)
        .collect::<std::collections::BTreeSet<_>>()
    {
        s if s.len() == 1 && s.contains(&Sides::One) => "pieces turn but are never turned over",
        s if s.len() == 1 => "pieces turn and may be turned over",
        _ => "some pieces may be turned over, others only turn",
    };
    let swapped: Vec<String> = problem
        .types
        .iter()
        .enumerate()
        .filter_map(|(t, ty)| {
            let u = problem
                .group
                .iter()
                .map(|s| s.types[t] as usize)
                .find(|&u| u != t)?;
            (t < u).then(|| {
                format!(
                    "{} and {}",
                    puzzle.pieces[ty.members[0]].name,
                    puzzle.pieces[problem.types[u].members[0]].name
                )
            })
        })
        .collect();
    let what = match puzzle.lattice {
        Lattice::Square => "board",
        Lattice::Cube => "box",
    };
    let mirror = if swapped.is_empty() {
        String::new()
    } else {
        format!(
            "; the piece set is closed under mirroring, so a mirror image is the same solution with pieces {} swapped",
            swapped.join(", ")
        )
    };
    let unique_means = format!(
        "{what} symmetries removed too ({g} symmetr{} keep{} the {what}{}{mirror})",
        if g == 1 { "y" } else { "ies" },
        if g == 1 { "s" } else { "" },
        if coloured { " and its colours" } else { "" },
    );
    let plan = prep.plan();
    let symmetry = match plan.mode {
        Mode::None => "none to break: no motion keeps the board and the pieces".to_string(),
        Mode::Breaker { ty } => {
            let name = &puzzle.pieces[problem.types[ty].members[0]].name;
            let special = plan.special_reps();
            format!(
                "broken in the search: piece {name} takes one placement per orbit of the {g} symmetries ({} of its {} placements){}",
                plan.reps.len(),
                plan.breaker_placements,
                if special > 0 {
                    format!(
                        "; {special} of them {} fixed by a symmetry, and their solutions are checked against it",
                        if special == 1 { "is" } else { "are" }
                    )
                } else {
                    String::new()
                }
            )
        }
        Mode::PostCheck => format!(
            "no piece occurs once in a shape every symmetry keeps: each solution is checked against its {} images",
            g - 1
        ),
        Mode::Off => "off (--no-symmetry): every distinct solution is listed; unique counted by comparing each with its images".into(),
    };
    Described {
        family: Family::Grid,
        puzzle: puzzle.name.clone(),
        puzzle_hash: content_hash(&normalised(puzzle)),
        split: format!(
            "engine={} symmetry={}",
            prep.engine().describe(),
            if plan.mode == Mode::Off { "off" } else { "on" }
        ),
        raw_means: format!(
            "pieces told apart{}, every orientation of the whole {what}",
            if identical { " (copies numbered)" } else { "" }
        ),
        distinct_means: if identical {
            "identical pieces merged".into()
        } else {
            "identical pieces merged (no two pieces are identical)".into()
        },
        unique_means,
        listed_means: if plan.mode == Mode::Off || g == 1 {
            "every distinct solution".into()
        } else {
            "one per unique solution".into()
        },
        extras: vec![
            ("engine", json!(prep.engine().describe())),
            ("pieces", json!(moves)),
            ("symmetry", json!(symmetry)),
        ],
        fraction_known: true,
    }
}

/// The puzzle written out in a fixed form, whatever file it came from: what
/// a shard result's puzzle hash is taken of (names of pieces included, since
/// solutions name them; the puzzle's own name not).
fn normalised(p: &Puzzle) -> String {
    let mut s = format!(
        "grid\n{:?}\ncolours {:?}\nboard {:?}\n",
        p.lattice, p.colours, p.board
    );
    for piece in &p.pieces {
        s.push_str(&format!(
            "piece {} {:?} copies {} optional {} {:?}\n",
            piece.name, piece.shape, piece.copies, piece.optional, piece.sides
        ));
    }
    s
}

/// A solution as JSON: the letter grid for reading, and the placed copies.
fn solution_json(puzzle: &Puzzle, copies: &[u16]) -> Value {
    let layers = jigsolve_grid::letter_layers(puzzle, copies);
    let grid = match puzzle.lattice {
        Lattice::Square => json!(layers.into_iter().next().unwrap_or_default()),
        Lattice::Cube => json!(layers),
    };
    let record = SolutionRecord::of(puzzle, copies);
    json!({
        "grid": grid,
        "placements": record.placements,
    })
}

/// The board cells (indices into `puzzle.board`, every layer of a solid)
/// that two solutions cover with different pieces, `a[b]` being the piece
/// copy on board cell `b`. Pieces count by name: two copies of one piece
/// swapped are no difference.
pub fn differing_cells(puzzle: &Puzzle, a: &[u16], b: &[u16]) -> Vec<usize> {
    let instances = puzzle.instances();
    let piece = |copies: &[u16], cell: usize| {
        let copy = *copies.get(cell)? as usize;
        let &(p, _) = instances.get(copy)?;
        Some(puzzle.pieces.get(p)?.name.as_str())
    };
    (0..puzzle.board.len())
        .filter(|&cell| piece(a, cell) != piece(b, cell))
        .collect()
}

/// Checks one solution record (the `solution` object of a JSON line).
fn verify(puzzle: &Puzzle, record: &Value) -> Result<(), String> {
    checked(puzzle, record).map(|_| ())
}

/// The copy on each board cell of a solution record, once the verifier has
/// passed it.
fn checked(puzzle: &Puzzle, record: &Value) -> Result<Vec<u16>, String> {
    let record: SolutionRecord = serde_json::from_value(record.clone())
        .map_err(|e| format!("not a polyform solution: {e}"))?;
    let copies = record.copies(puzzle).map_err(|e| e.to_string())?;
    jigsolve_grid::verify(puzzle, &copies).map_err(|e| e.to_string())?;
    Ok(copies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_differ_where_another_piece_covers_them() {
        // A 1 x 6 board, two copies of a domino and a different domino.
        let text = "board = \"######\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncopies = 2\n[[piece]]\nname = \"E\"\nshape = \"##\"\n";
        let puzzle = parse::parse(text, "t.toml").unwrap().puzzle;
        // Copies 0 and 1 are D, copy 2 is E.
        let a = [0, 0, 1, 1, 2, 2];
        // The two copies of D swapped: no difference.
        assert!(differing_cells(&puzzle, &a, &[1, 1, 0, 0, 2, 2]).is_empty());
        // E moved to the front: four cells change piece.
        assert_eq!(
            differing_cells(&puzzle, &a, &[2, 2, 0, 0, 1, 1]),
            [0, 1, 4, 5]
        );
    }

    #[test]
    fn a_solid_differs_cell_by_cell_in_every_layer() {
        // A 1 x 1 x 3 box: a domino standing on a cube, or under it.
        let text = "lattice = \"cube\"\nboard = { size = [1, 1, 3] }\n[[piece]]\nname = \"2\"\ncells = \"000 001\"\n[[piece]]\nname = \"1\"\ncells = \"000\"\n";
        let puzzle = parse::parse(text, "t.toml").unwrap().puzzle;
        assert_eq!(differing_cells(&puzzle, &[0, 0, 1], &[1, 0, 0]), [0, 2]);
    }
}
