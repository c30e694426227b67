//! Polyforms (pieces of cells on a lattice) as sessions: reading, preparing,
//! verifying and drawing.

use crate::engine::EngineOptions;
use crate::error::{Error, Result};
use crate::puzzle::{HintChoice, Loaded};
use crate::session::{content_hash, Described, Engine, EngineSession, Job, Session};
use crate::source::{Family, Source};
use jigsolve_grid::parse::{self, Parsed};
use jigsolve_grid::verify::SolutionRecord;
use jigsolve_grid::{Cell, Pin, Sides};
use jigsolve_grid::{Lattice, Mode, Options, Prepared, Problem, Puzzle, Solver};
use jigsolve_search::{Branch, NaiveSpace};
use serde_json::{json, Value};
use std::cell::RefCell;

/// A polyform puzzle read from a file or the catalog, with the exact-cover problem
/// built from it while loading (for its warnings), kept so that the search
/// does not build it again.
pub struct GridPuzzle {
    parsed: Parsed,
    problem: RefCell<Option<Problem>>,
    warnings: Vec<String>,
}

impl GridPuzzle {
    /// This file's puzzle changed to `puzzle` (pins added: hints, `--open`),
    /// its problem built anew; messages keep naming the file's lines.
    fn with_puzzle(&self, puzzle: Puzzle) -> GridPuzzle {
        let parsed = Parsed {
            pin_lines: vec![0; puzzle.pins.len()],
            puzzle,
            file: self.parsed.file.clone(),
            board_line: self.parsed.board_line,
            piece_lines: self.parsed.piece_lines.clone(),
        };
        let problem = Problem::new(&parsed.puzzle);
        GridPuzzle {
            parsed,
            problem: RefCell::new(Some(problem)),
            warnings: Vec::new(),
        }
    }

    fn puzzle(&self) -> &Puzzle {
        &self.parsed.puzzle
    }

    /// The pieces of a solution record that are not pinned already: each
    /// piece with the board cells it covers, sorted.
    fn placed(&self, record: &Value) -> Result<Vec<(usize, Vec<Cell>)>> {
        let puzzle = self.puzzle();
        let copies = checked(puzzle, record).map_err(Error::input)?;
        let instances = puzzle.instances();
        let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); instances.len()];
        for (&(cell, _), &copy) in puzzle.board.iter().zip(&copies) {
            if let Some(list) = cells.get_mut(copy as usize) {
                list.push(cell);
            }
        }
        Ok(cells
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_empty())
            .map(|(copy, mut c)| {
                c.sort_unstable();
                (instances[copy].0, c)
            })
            .filter(|(piece, c)| {
                !puzzle
                    .pins
                    .iter()
                    .any(|pin| pin.piece == *piece && pin.cells == *c)
            })
            .collect())
    }

    /// The problem, built at most once per command.
    fn problem(&self) -> Problem {
        self.problem
            .take()
            .unwrap_or_else(|| Problem::new(self.puzzle()))
    }

    /// Prepares the engine with the engine options.
    fn prepare(&self, args: &EngineOptions) -> Prepared {
        let options = Options {
            engine: args.engine_choice.unwrap_or_default(),
            symmetry: !args.no_symmetry,
            region_cap: None,
            portable: false,
            any_layout: false,
            tried: args.count_tried,
        };
        Prepared::from_problem(self.problem(), options)
    }
}

/// Reads a polyform puzzle, with its warnings (same-shape pieces, pieces
/// that fit nowhere).
pub fn load(source: &Source, format: Option<&str>) -> Result<GridPuzzle> {
    if let Some(f) = format {
        if f != "toml" {
            return Err(Error::input(format!(
                "--format {f} does not apply to polyform (grid) puzzles: they are TOML files"
            )));
        }
    }
    let parsed =
        parse::parse(&source.text, &source.label).map_err(|e| Error::input(e.to_string()))?;
    let problem = Problem::new(&parsed.puzzle);
    let warnings = problem
        .warnings
        .iter()
        .map(|w| parsed.warning_text(w))
        .collect();
    Ok(GridPuzzle {
        parsed,
        problem: RefCell::new(Some(problem)),
        warnings,
    })
}

impl Loaded for GridPuzzle {
    fn family(&self) -> Family {
        Family::Grid
    }

    fn name(&self) -> &str {
        &self.puzzle().name
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn session(&self, options: &EngineOptions) -> Result<Box<dyn Session + '_>> {
        Ok(Box::new(EngineSession(GridEngine::new(
            self.prepare(options),
        ))))
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
        _options: &EngineOptions,
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

    fn export_dlx(&self, break_symmetry: bool) -> Result<String> {
        let problem = self.problem();
        if !break_symmetry {
            return Ok(jigsolve_grid::export::dlx(&problem));
        }
        jigsolve_grid::export::dlx_unique(&problem)
            .map_err(|e| Error::input(format!("{}: {e}", self.name())))
    }

    fn takes_hints(&self) -> bool {
        true
    }

    fn hint_choices(&self, record: &Value) -> Result<Vec<HintChoice>> {
        Ok(self
            .placed(record)?
            .into_iter()
            .map(|(piece, cells)| {
                let p = &self.puzzle().pieces[piece];
                let lattice = self.puzzle().lattice;
                let shown: Vec<String> = cells
                    .iter()
                    .map(|c| match lattice {
                        Lattice::Cube | Lattice::Triangle => {
                            format!("({},{},{})", c[0], c[1], c[2])
                        }
                        Lattice::Square | Lattice::Hexagon => format!("({},{})", c[0], c[1]),
                    })
                    .collect();
                HintChoice {
                    // The shape, not the name: congruent pieces merge.
                    key: format!("{cells:?}:{:?}", p.orientations(lattice).first()),
                    label: format!("piece {} on {}", p.name, shown.join(" ")),
                }
            })
            .collect())
    }

    fn with_hints(&self, record: &Value, chosen: &[usize]) -> Result<Box<dyn Loaded>> {
        let placed = self.placed(record)?;
        let mut pins = self.puzzle().pins.clone();
        for &i in chosen {
            let (piece, cells) = placed
                .get(i)
                .cloned()
                .ok_or_else(|| Error::Bug(format!("hint choice {i} does not exist")))?;
            pins.push(Pin { piece, cells });
        }
        let puzzle = self
            .puzzle()
            .clone()
            .with_pins(pins)
            .map_err(|(e, _)| Error::Bug(format!("the hints do not fit the puzzle: {e}")))?;
        Ok(Box::new(self.with_puzzle(puzzle)))
    }

    fn open_groups(&self) -> Vec<(String, Vec<String>)> {
        let puzzle = self.puzzle();
        puzzle
            .pieces
            .iter()
            .filter_map(|p| {
                let cells = p.open.as_ref()?;
                Some((
                    p.name.clone(),
                    cells.iter().map(|&c| puzzle.cell_name(c)).collect(),
                ))
            })
            .collect()
    }

    fn with_open(&self, names: &[String]) -> Result<Box<dyn Loaded>> {
        let puzzle = self.puzzle();
        if !puzzle.has_open() {
            return Err(Error::input(format!(
                "{} leaves no cells open: --open is for puzzles with [[open]] groups",
                puzzle.name
            )));
        }
        let mut pins = puzzle.pins.clone();
        let mut per_group = vec![0u32; puzzle.pieces.len()];
        for name in names {
            let name = name.trim();
            let found = puzzle.pieces.iter().enumerate().find_map(|(i, p)| {
                let c = p
                    .open
                    .as_ref()?
                    .iter()
                    .find(|&&c| puzzle.cell_name(c).eq_ignore_ascii_case(name))?;
                Some((i, *c))
            });
            let Some((piece, cell)) = found else {
                let known: Vec<String> = self.open_groups().into_iter().flat_map(|g| g.1).collect();
                return Err(Error::input(format!(
                    "--open: no cell that may stay open is called '{name}'; they are {}",
                    known.join(", ")
                )));
            };
            if pins.iter().any(|p| p.cells == [cell]) {
                return Err(Error::input(format!(
                    "--open names the cell '{name}' twice"
                )));
            }
            per_group[piece] += 1;
            pins.push(Pin {
                piece,
                cells: vec![cell],
            });
        }
        for (i, p) in puzzle.pieces.iter().enumerate() {
            if p.open.is_some() && !p.optional && per_group[i] != p.copies {
                return Err(Error::input(format!(
                    "--open names {} cell{} of '{}', which leaves {} open",
                    per_group[i],
                    if per_group[i] == 1 { "" } else { "s" },
                    p.name,
                    p.copies
                )));
            }
            if p.optional && per_group[i] > p.copies {
                return Err(Error::input(format!(
                    "--open names {} cells that only the {} holes may leave open",
                    per_group[i], p.copies
                )));
            }
        }
        let puzzle = puzzle
            .clone()
            .with_pins(pins)
            .map_err(|(e, _)| Error::input(format!("--open: {e}")))?;
        Ok(Box::new(self.with_puzzle(puzzle)))
    }

    fn heat_map_svg(
        &self,
        counts: &std::collections::HashMap<String, u128>,
        caption: &str,
    ) -> Option<String> {
        let puzzle = self.puzzle();
        if !puzzle.has_open() {
            return None;
        }
        Some(jigsolve_render::grid::heat_map_svg(
            puzzle,
            &|name| counts.get(name).copied(),
            caption,
        ))
    }

    fn to_toml(&self, comments: &[String]) -> String {
        let mut text: String = comments.iter().map(|c| format!("# {c}\n")).collect();
        text.push_str(&jigsolve_grid::write::to_toml(self.puzzle()));
        text
    }
}

/// A polyform puzzle prepared for searching.
struct GridEngine {
    prep: Prepared,
    /// For each piece copy, its open group's rank among the puzzle's
    /// pieces when it is an open cell (for goals, read per solution).
    open_rank: Vec<Option<u16>>,
}

impl GridEngine {
    fn new(prep: Prepared) -> GridEngine {
        let puzzle = prep.puzzle();
        let open_rank = puzzle
            .instances()
            .iter()
            .map(|&(p, _)| puzzle.pieces[p].open.is_some().then_some(p as u16))
            .collect();
        GridEngine { prep, open_rank }
    }
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

    fn goal(&self, solution: &[u16]) -> Option<Vec<u32>> {
        if !self.has_goals() {
            return None;
        }
        // Group by group, then by cell (board cells are sorted).
        let mut open: Vec<(u16, u32)> = solution
            .iter()
            .enumerate()
            .filter_map(|(b, &i)| Some((self.open_rank.get(i as usize).copied()??, b as u32)))
            .collect();
        open.sort_unstable();
        Some(open.into_iter().map(|(_, b)| b).collect())
    }

    fn cell_name(&self, cell: u32) -> String {
        let puzzle = self.prep.puzzle();
        puzzle
            .board
            .get(cell as usize)
            .map_or_else(|| cell.to_string(), |s| puzzle.cell_name(s.0))
    }

    fn has_goals(&self) -> bool {
        self.open_rank.iter().any(Option::is_some)
    }

    fn svg(&self, solution: &[u16], caption: &str) -> String {
        jigsolve_render::grid::solution_svg(self.prep.puzzle(), solution, caption)
    }

    /// A cell by its coordinates in the file, a piece by its name.
    fn branch_name(&self, branch: &Branch) -> String {
        let problem = self.prep.problem();
        let puzzle = self.prep.puzzle();
        match *branch {
            Branch::Cell(c) => {
                let [x, y, z] = puzzle.board[problem.order[c as usize]].0;
                if puzzle.board.iter().any(|s| s.0[2] != 0) {
                    format!("cell ({x}, {y}, {z})")
                } else {
                    format!("cell ({x}, {y})")
                }
            }
            Branch::Piece(t) => {
                let ty = &problem.types[t as usize];
                format!("piece {}", puzzle.pieces[ty.members[0]].name)
            }
            other => crate::session::default_branch_name(&other),
        }
    }
}

/// What the counts mean for this puzzle, and how the engine searched it.
/// The naive search space of a polyform puzzle: a placement on the board
/// chosen for every piece independently, overlaps allowed. A piece's
/// placements are its distinct orientations at every position inside the
/// board (what the exact-cover problem lists), an optional copy also has
/// "left out", and a pinned copy has its pin only.
fn naive_space(problem: &Problem) -> NaiveSpace {
    let mut space = NaiveSpace::new(
        "ways to choose a placement on the board for every piece, each independently, overlaps allowed",
    );
    for (t, ty) in problem.types.iter().enumerate() {
        let name = &problem.puzzle.pieces[ty.members[0]].name;
        let p = problem.by_type[t].len() as u64;
        space = space
            .named_power(name, p, ty.lo.saturating_sub(ty.pinned) as u64)
            .named_power(&format!("{name} or none"), p + 1, (ty.hi - ty.lo) as u64);
    }
    space
}

fn describe(prep: &Prepared) -> Described {
    let problem = prep.problem();
    let puzzle = prep.puzzle();
    let g = problem.group.len();
    // Open cells are never numbered: only real pieces make raw and distinct differ.
    let identical = problem.types.iter().any(|t| t.hi > 1 && !t.open);
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
        Lattice::Cube => "box",
        Lattice::Square | Lattice::Triangle | Lattice::Hexagon => "board",
    };
    let mirror = if swapped.is_empty() {
        String::new()
    } else {
        format!(
            "; the piece set is closed under mirroring, so a mirror image is the same solution with pieces {} swapped",
            swapped.join(", ")
        )
    };
    let pinned = !puzzle.pins.is_empty();
    let kept = match (coloured, pinned) {
        (false, false) => "",
        (true, false) => " and its colours",
        (false, true) => " and its pinned pieces",
        (true, true) => ", its colours and its pinned pieces",
    };
    let unique_means = format!(
        "{what} symmetries removed too ({g} symmetr{} keep{} the {what}{kept}{mirror})",
        if g == 1 { "y" } else { "ies" },
        if g == 1 { "s" } else { "" },
    );
    let plan = prep.plan();
    let symmetry = match plan.mode {
        Mode::None if pinned => {
            "none to break: no motion keeps the board, the pinned pieces and the pieces".to_string()
        }
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
        naive: naive_space(problem),
        family: Family::Grid,
        puzzle: puzzle.name.clone(),
        puzzle_hash: content_hash(&normalised(puzzle)),
        split: format!(
            "engine={} symmetry={}",
            prep.engine().describe(),
            if plan.mode == Mode::Off { "off" } else { "on" }
        ),
        raw_means: format!(
            "pieces told apart{}, {}",
            if identical { " (copies numbered)" } else { "" },
            if pinned {
                "the pinned pieces in place".to_string()
            } else {
                format!("every orientation of the whole {what}")
            }
        ),
        distinct_means: match (identical, pinned) {
            (false, _) => "identical pieces merged (no two pieces are identical)".into(),
            (true, false) => "identical pieces merged".into(),
            (true, true) => {
                "identical pieces merged (a pinned copy with its unpinned twins)".into()
            }
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
    // Only pinned puzzles write pins, so unpinned puzzles keep their hash
    // (and the shard results already written stay valid).
    for pin in &p.pins {
        s.push_str(&format!("pin {} {:?}\n", pin.piece, pin.cells));
    }
    // Likewise only puzzles with ranges, open cells or labels write them.
    for piece in &p.pieces {
        if piece.optional && piece.least > 0 {
            s.push_str(&format!("least {} {}\n", piece.name, piece.least));
        }
        if let Some(cells) = &piece.open {
            s.push_str(&format!("open {} {:?}\n", piece.name, cells));
        }
    }
    for (c, label) in &p.labels {
        s.push_str(&format!("label {c:?} {label}\n"));
    }
    s
}

/// A solution as JSON: the letter grid for reading, and the placed copies.
pub fn solution_json(puzzle: &Puzzle, copies: &[u16]) -> Value {
    let layers = jigsolve_grid::letter_layers(puzzle, copies);
    let grid = match puzzle.lattice {
        Lattice::Cube => json!(layers),
        Lattice::Square | Lattice::Triangle | Lattice::Hexagon => {
            json!(layers.into_iter().next().unwrap_or_default())
        }
    };
    let record = SolutionRecord::of(puzzle, copies);
    let mut out = json!({
        "grid": grid,
        "placements": record.placements,
    });
    if puzzle.has_open() {
        out["open"] = json!(open_cells(puzzle, copies)
            .into_iter()
            .map(|(group, cell)| json!({
                "group": puzzle.pieces[group].name,
                "cell": &cell[..puzzle.lattice.dim()],
                "label": puzzle.cell_name(cell),
            }))
            .collect::<Vec<_>>());
    }
    out
}

/// The cells a solution leaves open, each with its open group (an index
/// into the puzzle's pieces), by group in file order and then by cell.
pub fn open_cells(puzzle: &Puzzle, copies: &[u16]) -> Vec<(usize, Cell)> {
    let instances = puzzle.instances();
    let mut open: Vec<(usize, Cell)> = copies
        .iter()
        .enumerate()
        .filter_map(|(b, &i)| {
            let &(p, _) = instances.get(i as usize)?;
            puzzle.pieces[p]
                .open
                .is_some()
                .then(|| (p, puzzle.board[b].0))
        })
        .collect();
    open.sort_unstable();
    open
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
fn checked(puzzle: &Puzzle, record_value: &Value) -> Result<Vec<u16>, String> {
    let record: SolutionRecord = serde_json::from_value(record_value.clone())
        .map_err(|e| format!("not a polyform solution: {e}"))?;
    let copies = record.copies(puzzle).map_err(|e| e.to_string())?;
    jigsolve_grid::verify(puzzle, &copies).map_err(|e| e.to_string())?;
    // The letter grid is for reading, but a record whose grid shows other
    // pieces than its placements place says two things: refused.
    if let Some(shown) = record_value.get("grid") {
        let drawn = &solution_json(puzzle, &copies)["grid"];
        if shown != drawn {
            return Err(format!(
                "its \"grid\" does not show its placements: {shown} where the placements give {drawn}"
            ));
        }
    }
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
