//! Puzzles made to order (`jigsolve generate`): each family's generator
//! plants a solution in a random puzzle of the size asked for, and the
//! puzzle is written in its family's TOML format with that solution.

use crate::family;
use crate::options::{EdgeSpec, GenerateKind, GridColouring, GridSpec, PolygonSpec};
use crate::source::InputError;
use anyhow::{anyhow, Result};
use jigsolve_edge::Matching;
use jigsolve_grid::{Lattice, Puzzle};
use jigsolve_polygon::verify::SolutionRecord;
use jigsolve_session::Error;
use serde_json::{json, Value};

/// A generated puzzle: its file, and the solution planted in it (a
/// `solution` record as `solve --json` writes it).
pub struct Generated {
    /// The puzzle in its family's TOML format.
    pub text: String,
    /// The planted solution.
    pub record: Value,
}

/// Generates a puzzle of the kind asked for from `seed`, named `name`
/// (or a name made of the options) and headed by `comments`.
pub fn generate(
    kind: &GenerateKind,
    name: Option<&str>,
    seed: u64,
    comments: &[String],
) -> Result<Generated> {
    match kind {
        GenerateKind::Edge { spec, .. } => Ok(edge(spec, name, seed, comments)),
        GenerateKind::Grid { spec, .. } => grid(spec, name, seed, comments),
        GenerateKind::Polygon { spec, .. } => Ok(polygon(spec, name, seed, comments)),
    }
}

/// An edge-matching puzzle cut from a randomly coloured board.
fn edge(spec: &EdgeSpec, name: Option<&str>, seed: u64, comments: &[String]) -> Generated {
    let matching = if spec.matching == "complementary" {
        Matching::Complementary
    } else {
        Matching::Equal
    };
    let (mut puzzle, planted) = jigsolve_edge::generate::planted(
        jigsolve_edge::generate::Spec {
            rows: spec.rows as usize,
            cols: spec.cols as usize,
            colours: spec.colours as usize,
            frame_colours: spec.frame_colours as usize,
            border: !spec.no_border,
            matching,
        },
        seed,
    );
    puzzle.name = name.map_or_else(
        || format!("edge-{}x{}-c{}-s{seed}", spec.rows, spec.cols, spec.colours),
        str::to_string,
    );
    Generated {
        text: jigsolve_edge::write::to_toml(&puzzle, comments),
        record: family::edge_solution_json(&puzzle, &planted),
    }
}

/// A polyform puzzle: a board cut into random pieces, or a region for a
/// given piece set.
fn grid(spec: &GridSpec, name: Option<&str>, seed: u64, comments: &[String]) -> Result<Generated> {
    use jigsolve_grid::generate::{
        cut, merge_congruent, planted, region_for, Colouring, Cutting, Spec,
    };
    let (min_piece, max_piece) = spec.piece_size;
    // Solids cannot be mirrored, so cubes are one-sided unless asked.
    let one_sided = |lattice: Lattice| {
        spec.one_sided
            .unwrap_or(if lattice == Lattice::Cube { 1.0 } else { 0.0 })
    };
    let cutting = |lattice: Lattice| Cutting {
        min_piece,
        max_piece,
        one_sided: one_sided(lattice),
    };
    let from = |label: &str| -> Result<Puzzle> {
        let source = crate::source::read(label)?;
        let family = crate::source::family_of(&source, None)?;
        if family != crate::source::Family::Grid {
            return Err(InputError(format!(
                "{}: generate grid takes a polyform puzzle's board, and this is {} puzzle",
                source.label,
                match family {
                    crate::source::Family::Edge => "an edge-matching",
                    _ => "a polygon",
                }
            ))
            .into());
        }
        Ok(jigsolve_grid::parse::parse(&source.text, &source.label)
            .map_err(|e| anyhow!(InputError(e.to_string())))?
            .puzzle)
    };
    let bad = |e: jigsolve_grid::ModelError| Error::from(InputError(format!("generate: {e}")));
    let (puzzle, copies, made) = if let Some(size) = spec.size {
        let cells: u64 = size.iter().map(|&n| n.max(1) as u64).product();
        if cells > jigsolve_grid::MAX_BOARD as u64 {
            return Err(InputError(format!(
                "generate: --size {}x{}x{} has {cells} cells; a board has at most {}",
                size[0],
                size[1],
                size[2],
                jigsolve_grid::MAX_BOARD
            ))
            .into());
        }
        let lattice = if size[2] > 1 {
            Lattice::Cube
        } else {
            Lattice::Square
        };
        let colouring = match spec.colouring {
            GridColouring::None => Colouring::None,
            GridColouring::Checker => Colouring::Checker,
            GridColouring::Random(k) => Colouring::Random(k),
        };
        let (p, c) = planted(
            Spec {
                lattice,
                size,
                holes: spec.holes.min(0.6),
                min_piece,
                max_piece,
                colouring,
                one_sided: one_sided(lattice),
            },
            seed,
        );
        let made = format!(
            "grid-{}x{}{}",
            size[0],
            size[1],
            if size[2] > 1 {
                format!("x{}", size[2])
            } else {
                String::new()
            }
        );
        (p, c, made)
    } else if let Some(label) = &spec.board {
        let given = from(label)?;
        let made = format!("{}-cut", given.name);
        let (p, c) = cut(
            made.clone(),
            given.lattice,
            given.colours,
            given.board,
            cutting(given.lattice),
            seed,
        )
        .map_err(bad)?;
        (p, c, made)
    } else if let Some(label) = &spec.pieces {
        let given = from(label)?;
        let made = format!("{}-region", given.name);
        let (p, c) = region_for(
            made.clone(),
            given.lattice,
            given.colours,
            given.pieces,
            seed,
        )
        .map_err(bad)?;
        (p, c, made)
    } else {
        return Err(InputError("generate grid needs --size, --board or --pieces".into()).into());
    };
    let (mut puzzle, copies) = merge_congruent(&puzzle, &copies).map_err(bad)?;
    puzzle.name = name.map_or_else(|| format!("{made}-s{seed}"), str::to_string);
    let mut text: String = comments.iter().map(|c| format!("# {c}\n")).collect();
    text.push_str(&jigsolve_grid::write::to_toml(&puzzle));
    Ok(Generated {
        text,
        record: family::grid_solution_json(&puzzle, &copies),
    })
}

/// A polygon puzzle cut from a random convex polygon.
fn polygon(spec: &PolygonSpec, name: Option<&str>, seed: u64, comments: &[String]) -> Generated {
    let planted = jigsolve_polygon::generate::planted(spec.count as usize, seed);
    let mut puzzle = planted.puzzle;
    puzzle.name = name.map_or_else(|| format!("polygon-{}-s{seed}", spec.count), str::to_string);
    Generated {
        text: jigsolve_polygon::write::to_toml(&puzzle, comments),
        record: json!(SolutionRecord::of(&puzzle, &planted.placements)),
    }
}
