//! Edge matching as sessions: reading, preparing, verifying and drawing.

use crate::engine::EngineOptions;
use crate::error::{Error, Result};
use crate::puzzle::{HintChoice, Loaded};
use crate::session::{content_hash, Described, Engine, EngineSession, Job, Session};
use crate::source::{Family, Source};
use jigsolve_edge::verify::GridRecord;
use jigsolve_edge::{
    parse, Hint, Options, Placement, Prepared, Puzzle, ScanOrder, Solver, SymmetryMode,
};
use jigsolve_search::{run_restarts, Control, NaiveSpace, NoSuchNode, Report, Weight};
use serde_json::{json, Value};
use std::ops::ControlFlow;
use std::sync::Arc;

/// An edge-matching puzzle read from a file or the catalog.
pub struct EdgePuzzle(pub Puzzle);

/// Reads an edge-matching puzzle.
pub fn load(source: &Source, format: Option<&str>) -> Result<EdgePuzzle> {
    let format = match format {
        None => None,
        Some(f) => Some(f.parse::<parse::Format>().map_err(Error::input)?),
    };
    parse::parse(&source.text, &source.label, format)
        .map(EdgePuzzle)
        .map_err(|e| Error::input(e.to_string()))
}

impl Loaded for EdgePuzzle {
    fn family(&self) -> Family {
        Family::Edge
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn session(&self, options: &EngineOptions) -> Result<Box<dyn Session + '_>> {
        Ok(Box::new(EngineSession(EdgeEngine {
            puzzle: &self.0,
            prep: prepare(&self.0, options),
            order: options.order.unwrap_or_default(),
        })))
    }

    fn verify(&self, record: &Value) -> Result<(), String> {
        verify(&self.0, record)
    }

    fn puzzle_svg(&self) -> String {
        jigsolve_render::edge::puzzle_svg(&self.0)
    }

    fn solution_svg(&self, record: &Value, caption: &str) -> Result<String, String> {
        // A line of `best --json`: its board, holes and mismatches as they are.
        if record.get("type").and_then(Value::as_str) == Some("best") {
            let board = board_of(&self.0, record)?;
            let score = record.get("score").and_then(Value::as_u64).unwrap_or(0);
            let caption = format!("{caption} (best board, score {score})");
            return Ok(jigsolve_render::edge::board_svg(&self.0, &board, &caption));
        }
        let placements = checked(&self.0, record)?;
        Ok(jigsolve_render::edge::solution_svg(
            &self.0,
            &placements,
            caption,
        ))
    }

    fn takes_hints(&self) -> bool {
        true
    }

    fn hint_choices(&self, record: &Value) -> Result<Vec<HintChoice>> {
        let p = &self.0;
        let placements = checked(p, record).map_err(Error::input)?;
        let hinted: Vec<(usize, usize)> = p.hints.iter().map(|h| (h.row, h.col)).collect();
        Ok(placements
            .iter()
            .enumerate()
            .filter(|(cell, _)| !hinted.contains(&(cell / p.cols, cell % p.cols)))
            .map(|(cell, pl)| {
                let (row, col) = (cell / p.cols, cell % p.cols);
                let look = p.tiles[pl.tile as usize].rotated(pl.rotation);
                HintChoice {
                    // The look, not the tile number: identical tiles merge.
                    key: format!("{row},{col}:{}", p.marks_text(&look)),
                    label: format!(
                        "tile {} at row {}, column {}, turned {}",
                        pl.tile + 1,
                        row + 1,
                        col + 1,
                        pl.rotation
                    ),
                }
            })
            .collect())
    }

    fn with_hints(&self, record: &Value, chosen: &[usize]) -> Result<Box<dyn Loaded>> {
        let p = &self.0;
        let placements = checked(p, record).map_err(Error::input)?;
        let hinted: Vec<(usize, usize)> = p.hints.iter().map(|h| (h.row, h.col)).collect();
        let open: Vec<(usize, &Placement)> = placements
            .iter()
            .enumerate()
            .filter(|(cell, _)| !hinted.contains(&(cell / p.cols, cell % p.cols)))
            .collect();
        let mut puzzle = p.clone();
        for &i in chosen {
            let &(cell, pl) = open
                .get(i)
                .ok_or_else(|| Error::Bug(format!("hint choice {i} does not exist")))?;
            puzzle.hints.push(Hint {
                tile: pl.tile as usize,
                row: cell / p.cols,
                col: cell % p.cols,
                rotation: pl.rotation,
            });
        }
        Ok(Box::new(EdgePuzzle(puzzle)))
    }

    fn score_board(&self, record: &Value) -> Result<(u32, u32)> {
        let board = board_of(&self.0, record).map_err(Error::input)?;
        let score = jigsolve_edge::score::score(&self.0, &board)
            .map_err(|e| Error::input(e.to_string()))?;
        Ok((
            score,
            jigsolve_edge::best::max_score(self.0.rows, self.0.cols),
        ))
    }

    fn score_link(&self, link: &str) -> Result<(u32, u32)> {
        let board = jigsolve_edge::score::read_link(&self.0, link)
            .map_err(|e| Error::input(e.to_string()))?;
        let score = jigsolve_edge::score::score(&self.0, &board)
            .map_err(|e| Error::input(e.to_string()))?;
        Ok((
            score,
            jigsolve_edge::best::max_score(self.0.rows, self.0.cols),
        ))
    }

    fn to_toml(&self, comments: &[String]) -> String {
        jigsolve_edge::write::to_toml(&self.0, comments)
    }

    fn pair_svg(
        &self,
        _options: &EngineOptions,
        records: [&Value; 2],
        captions: [&str; 2],
        title: &str,
    ) -> Result<String, String> {
        let puzzle = &self.0;
        let (a, b) = (checked(puzzle, records[0])?, checked(puzzle, records[1])?);
        let marked = differing_cells(puzzle, &a, &b);
        let note = format!(
            "dashed box: the tile on this cell looks different in the other solution ({} of {} cells)",
            marked.len(),
            puzzle.rows * puzzle.cols
        );
        let picture = |placements: &[Placement], caption: &str| {
            jigsolve_render::edge::solution_picture(puzzle, placements, caption, &marked)
        };
        Ok(jigsolve_render::differ::pair(
            picture(&a, captions[0]),
            picture(&b, captions[1]),
            title,
            &note,
        ))
    }
}

/// The board cells (row by row) where two solutions differ: where the tile
/// as seen, its marks as its rotation turns them, is not the same. Two
/// identical tiles swapped, or a symmetric tile turned so that it looks the
/// same, are no difference.
pub fn differing_cells(puzzle: &Puzzle, a: &[Placement], b: &[Placement]) -> Vec<usize> {
    let look = |p: Option<&Placement>| {
        p.and_then(|p| {
            let tile = puzzle.tiles.get(p.tile as usize)?;
            Some(tile.rotated(p.rotation))
        })
    };
    (0..a.len().max(b.len()))
        .filter(|&i| look(a.get(i)) != look(b.get(i)))
        .collect()
}

/// The hash of the puzzle's normalised content, as shard results and best
/// boards carry it (a renamed file is the same puzzle, an edited one is not).
pub fn puzzle_hash(p: &Puzzle) -> String {
    content_hash(&normalised(p))
}

/// The puzzle written out in a fixed form, whatever file it came from: what
/// a shard result's puzzle hash is taken of.
fn normalised(p: &Puzzle) -> String {
    let mut s = format!(
        "edge\nrows {}\ncols {}\nmatching {}\nborder {}\n",
        p.rows,
        p.cols,
        p.matching.as_str(),
        p.border.map_or("-", |b| p.marks.name(b))
    );
    for t in 0..p.tiles.len() {
        s.push_str(&format!("tile {}\n", p.tile_text(t)));
    }
    for h in &p.hints {
        s.push_str(&format!(
            "hint {} {} {} {}\n",
            h.tile, h.row, h.col, h.rotation
        ));
    }
    s
}

/// Prepares the engine for `puzzle`.
fn prepare(puzzle: &Puzzle, args: &EngineOptions) -> Arc<Prepared> {
    let options = Options {
        order: args.order.unwrap_or_default(),
        symmetry: !args.no_symmetry,
        tried: args.count_tried,
        deadline: args.deadline,
        ..Options::default()
    };
    Arc::new(Prepared::new(puzzle, options))
}

/// An edge-matching puzzle prepared for searching.
struct EdgeEngine<'a> {
    puzzle: &'a Puzzle,
    prep: Arc<Prepared>,
    /// The order asked for (`auto` unless `--order` says).
    order: ScanOrder,
}

impl EdgeEngine<'_> {
    /// The scan orders restarts alternate between: the two with the
    /// smallest estimated trees, or the one asked for.
    fn restart_orders(&self) -> Vec<ScanOrder> {
        match self.order {
            ScanOrder::Auto => {
                let ranked = jigsolve_edge::rank_orders(self.puzzle, self.prep.options());
                ranked.into_iter().take(2).map(|(o, _)| o).collect()
            }
            fixed => vec![fixed],
        }
    }
}

impl Engine for EdgeEngine<'_> {
    type Tree = Solver;

    fn tree(&self) -> Solver {
        Solver::new(Arc::clone(&self.prep))
    }

    fn level_labels(&self) -> Vec<String> {
        // The scan order fixes the cell filled at each depth.
        let cols = self.prep.puzzle().cols;
        self.prep
            .cells()
            .iter()
            .map(|&c| format!("row {}, column {}", c / cols + 1, c % cols + 1))
            .collect()
    }

    fn described(&self, job: &Job) -> Described {
        let mut described = describe(&self.prep);
        if job.first_solutions_only {
            let names: Vec<&str> = self.restart_orders().iter().map(|o| o.as_str()).collect();
            described.extras[0] = ("order", json!(names.join(" and ")));
            described.extras.push((
                "strategy",
                json!(format!(
                    "randomized restarts (Luby budgets of {RESTART_BASE} nodes, candidates shuffled per attempt; --no-restarts for one fixed order)"
                )),
            ));
            described.fraction_known = false;
        }
        described
    }

    fn text(&self, solution: &[Placement]) -> String {
        jigsolve_render::edge::solution_text(self.puzzle, solution)
    }

    fn json(&self, solution: &[Placement]) -> Value {
        solution_json(self.puzzle, solution)
    }

    fn svg(&self, solution: &[Placement], caption: &str) -> String {
        jigsolve_render::edge::solution_svg(self.puzzle, solution, caption)
    }

    /// With `--limit` (and not `--no-restarts`) the search looks for
    /// solutions with randomized restarts: attempt k shuffles the
    /// candidates with seed k and alternates between the two scan orders
    /// with the smallest estimated trees (or uses the order given), within
    /// Luby budgets of 2^16 nodes.
    fn run_first(
        &self,
        job: &Job,
        control: &Control,
        found: &mut dyn FnMut(&[Placement], Weight) -> ControlFlow<()>,
    ) -> Option<Result<Report, NoSuchNode>> {
        let orders = self.restart_orders();
        let base_options = self.prep.options();
        let make = |k: u64| {
            let options = Options {
                order: orders[(k as usize) % orders.len()],
                seed: k,
                ..base_options
            };
            Solver::new(Arc::new(Prepared::new(self.puzzle, options)))
        };
        Some(run_restarts(
            make,
            RESTART_BASE,
            job.threads,
            control,
            found,
        ))
    }
}

/// The naive search space of an edge-matching puzzle: every free tile on
/// every free cell (a permutation) in each of its 4 rotations, no side
/// checked: f! x 4^f for f tiles not fixed by hints.
fn naive_space(puzzle: &Puzzle) -> NaiveSpace {
    let free = (puzzle.tiles.len() - puzzle.hints.len()) as u64;
    NaiveSpace::new(format!(
        "ways to lay the {free} free tiles on the free cells, each in 4 rotations, no side checked"
    ))
    .factorial(free)
    .power(4, free)
}

/// What the counts mean for this puzzle, and how the engine searched it.
fn describe(prep: &Prepared) -> Described {
    let puzzle = prep.puzzle();
    let types = prep.types();
    let g = prep.group().order();
    let look_alike = types.types.iter().any(|t| t.period < 4);
    let identical = types.types.iter().any(|t| t.members.len() > 1);
    let symmetry = match prep.symmetry_mode() {
        SymmetryMode::None => "none to break: no rotation of the board keeps it and its hints".to_string(),
        SymmetryMode::Breaker { breaker } => {
            let tile = types.types[breaker].members[0] + 1;
            let pinned = prep.pinned_breaker().map_or(String::new(), |cell| {
                format!(
                    ", which pins it to row {}, column {}",
                    cell / puzzle.cols + 1,
                    cell % puzzle.cols + 1
                )
            });
            format!("broken in the search: tile {tile} may take one rotation per orbit of the {g} board rotations{pinned}")
        }
        SymmetryMode::PostCheck => format!(
            "no tile occurs once in a shape that breaks all {g} board rotations: each solution is checked against its images"
        ),
        SymmetryMode::Off => "off (--no-symmetry): every distinct solution is listed; unique counted by comparing each with its images".into(),
    };
    Described {
        naive: naive_space(puzzle),
        family: Family::Edge,
        puzzle: puzzle.name.clone(),
        puzzle_hash: content_hash(&normalised(puzzle)),
        split: format!(
            "order={} symmetry={}",
            prep.order().as_str(),
            if prep.options().symmetry { "on" } else { "off" }
        ),
        raw_means: format!(
            "tiles told apart, every board orientation{}",
            if look_alike {
                ", look-alike rotations of symmetric tiles counted apart"
            } else {
                ""
            }
        ),
        distinct_means: format!(
            "identical tiles merged{}",
            if look_alike {
                ", look-alike rotations merged"
            } else if !identical {
                " (no two tiles are identical)"
            } else {
                ""
            }
        ),
        unique_means: format!(
            "board rotations removed too ({g} rotation{} keep{} the board{})",
            if g == 1 { "" } else { "s" },
            if g == 1 { "s" } else { "" },
            if puzzle.hints.is_empty() {
                ""
            } else {
                " and its hints"
            }
        ),
        listed_means: if prep.symmetry_mode() == SymmetryMode::Off || g == 1 {
            "every distinct solution".into()
        } else {
            "one per unique solution".into()
        },
        extras: vec![
            ("order", json!(prep.order().as_str())),
            ("symmetry", json!(symmetry)),
        ],
        fraction_known: true,
    }
}

/// Nodes in the first attempt of a restart schedule.
const RESTART_BASE: u64 = 1 << 16;

/// A solution as JSON: rows of `{tile, rotation}` with tiles numbered from 1.
pub fn solution_json(puzzle: &Puzzle, placements: &[Placement]) -> Value {
    let record = GridRecord::of(puzzle, placements);
    json!({
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "cells": record.cells,
    })
}

/// Checks one solution record (the `solution` object of a JSON line).
fn verify(puzzle: &Puzzle, record: &Value) -> Result<(), String> {
    checked(puzzle, record).map(|_| ())
}

/// The placements of a solution record, once the verifier has passed them.
fn checked(puzzle: &Puzzle, record: &Value) -> Result<Vec<Placement>, String> {
    let grid: GridRecord = serde_json::from_value(record.clone())
        .map_err(|e| format!("not an edge-matching solution: {e}"))?;
    let placements = grid.placements(puzzle).map_err(|e| e.to_string())?;
    jigsolve_edge::verify(puzzle, &placements).map_err(|e| e.to_string())?;
    Ok(placements)
}

/// The board of a `best --json` line: `board` is rows of cells, each
/// `{"tile": N, "rotation": R}` (tiles from 1) or `null` for an empty cell.
pub fn board_of(puzzle: &Puzzle, record: &Value) -> Result<Vec<Option<Placement>>, String> {
    let rows = record
        .get("board")
        .and_then(Value::as_array)
        .ok_or("no \"board\" array of rows")?;
    if rows.len() != puzzle.rows {
        return Err(format!(
            "the board has {} rows, but the puzzle has {}",
            rows.len(),
            puzzle.rows
        ));
    }
    let mut out = Vec::with_capacity(puzzle.cells());
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| format!("row {} of the board is not an array", r + 1))?;
        if cells.len() != puzzle.cols {
            return Err(format!(
                "row {} of the board has {} cells, but the puzzle has {} columns",
                r + 1,
                cells.len(),
                puzzle.cols
            ));
        }
        for (c, cell) in cells.iter().enumerate() {
            if cell.is_null() {
                out.push(None);
                continue;
            }
            let number = |key: &str| cell.get(key).and_then(Value::as_u64);
            let (Some(tile), Some(rotation)) = (number("tile"), number("rotation")) else {
                return Err(format!(
                    "row {}, column {}: a cell is null or {{\"tile\": N, \"rotation\": R}}",
                    r + 1,
                    c + 1
                ));
            };
            if tile == 0 || tile > puzzle.tiles.len() as u64 {
                return Err(format!(
                    "row {}, column {}: there is no tile {tile} (the puzzle has {})",
                    r + 1,
                    c + 1,
                    puzzle.tiles.len()
                ));
            }
            if rotation > 3 {
                return Err(format!(
                    "row {}, column {}: rotation {rotation} is not 0, 1, 2 or 3",
                    r + 1,
                    c + 1
                ));
            }
            out.push(Some(Placement {
                tile: (tile - 1) as u16,
                rotation: rotation as u8,
            }));
        }
    }
    Ok(out)
}

/// A board as `best --json` writes it (the reverse of [`board_of`]).
pub fn board_json(puzzle: &Puzzle, board: &[Option<Placement>]) -> Value {
    Value::Array(
        board
            .chunks(puzzle.cols.max(1))
            .map(|row| {
                Value::Array(
                    row.iter()
                        .map(|cell| match cell {
                            Some(p) => json!({"tile": p.tile as u64 + 1, "rotation": p.rotation}),
                            None => Value::Null,
                        })
                        .collect(),
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tile: u16, rotation: u8) -> Placement {
        Placement { tile, rotation }
    }

    #[test]
    fn cells_differ_where_the_tiles_look_different() {
        // Tile 1 and 2 are identical, tile 3 looks the same after a half
        // turn, tile 4 is different again.
        let text =
            "rows = 1\ncols = 4\nmatching = \"equal\"\ntiles = [\"1 2 3 4\", \"1 2 3 4\", \"1 2 1 2\", \"4 4 4 1\"]\n";
        let puzzle = parse::parse(text, "t.toml", None).unwrap();
        let a = [at(0, 0), at(1, 1), at(2, 0), at(3, 0)];
        // Identical tiles swapped, the symmetric tile half turned: the same.
        let b = [at(1, 0), at(0, 1), at(2, 2), at(3, 0)];
        assert!(differing_cells(&puzzle, &a, &b).is_empty());
        // A quarter turn of the symmetric tile, another tile on the last cell.
        let c = [at(1, 0), at(0, 1), at(2, 1), at(0, 0)];
        assert_eq!(differing_cells(&puzzle, &a, &c), [2, 3]);
        // A tile the puzzle does not have, or a missing cell, differs.
        let d = [at(9, 0), at(1, 1), at(2, 0)];
        assert_eq!(differing_cells(&puzzle, &a, &d), [0, 3]);
    }
}
