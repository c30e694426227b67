//! Polygonal jigsaws on the command line.

use crate::args::SolveArgs;
use crate::family::Loaded;
use crate::solve::{execute, Described};
use crate::source::{Family, InputError, Source};
use anyhow::{anyhow, bail, Result};
use jigsolve_polygon::verify::SolutionRecord;
use jigsolve_polygon::{parse, Approx, Num, Placement, Prepared, Puzzle, Scalar, Solver};
use serde_json::{json, Value};
use std::sync::Arc;

/// A polygonal jigsaw on the command line.
pub struct PolygonPuzzle(pub Puzzle);

/// Reads a polygon puzzle (TOML only).
pub fn load(source: &Source, format: Option<&str>) -> Result<PolygonPuzzle> {
    if let Some(f) = format {
        if f != "toml" {
            bail!(InputError(format!(
                "--format {f}: polygon puzzles are read from TOML only"
            )));
        }
    }
    parse::parse(&source.text, &source.label)
        .map(PolygonPuzzle)
        .map_err(|e| anyhow!(InputError(e.to_string())))
}

impl Loaded for PolygonPuzzle {
    fn family(&self) -> Family {
        Family::Polygon
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn solve(&self, args: &SolveArgs) -> Result<u8> {
        let flip = if args.flip {
            Some(true)
        } else if args.no_flip {
            Some(false)
        } else {
            None
        };
        let mut puzzle = self.0.clone();
        if let Some(f) = flip {
            for p in &mut puzzle.pieces {
                p.flip = f;
            }
        }
        solve(&puzzle, args)
    }

    fn verify(&self, record: &Value) -> Result<(), String> {
        verify(&self.0, record)
    }
}

/// The square roots the puzzle's numbers use, e.g. "Q(√2, √5)".
fn field_of(puzzle: &Puzzle) -> String {
    let mut rads: Vec<u64> = Vec::new();
    let mut add = |n: &Num| {
        for r in n.radicands() {
            if !rads.contains(&r) {
                rads.push(r);
            }
        }
    };
    for p in puzzle
        .region
        .iter()
        .chain(puzzle.pieces.iter().map(|p| &p.vertices))
    {
        let k = p.len();
        for i in 0..k {
            add(&p[i].x);
            add(&p[i].y);
            let d = p[(i + 1) % k].sub(&p[i]);
            if let Some(l) = d.dot(&d).sqrt() {
                add(&l);
            }
        }
    }
    rads.sort();
    if rads.is_empty() {
        "the rationals".into()
    } else {
        let roots: Vec<String> = rads.iter().map(|r| format!("√{r}")).collect();
        format!("Q({})", roots.join(", "))
    }
}

fn describe<S: Scalar>(prep: &Prepared<S>, approximate: bool) -> Described {
    let puzzle = prep.puzzle();
    let g = prep.group_order();
    let (rot, refl) = prep.region_symmetries();
    let groups = prep.identical_groups();
    let names = |idx: &Vec<usize>| -> String {
        idx.iter()
            .map(|&i| puzzle.pieces[i].name.as_str())
            .collect::<Vec<_>>()
            .join(" = ")
    };
    let identical = if groups.is_empty() {
        " (no two pieces are identical)".to_string()
    } else {
        format!(
            " ({})",
            groups.iter().map(names).collect::<Vec<_>>().join(", ")
        )
    };
    let unique_means = {
        let mut s = format!(
            "region symmetries removed too ({rot} rotation{}",
            if rot == 1 { "" } else { "s" }
        );
        if refl > 0 {
            if prep.mirror_closed() {
                s.push_str(&format!(
                    " and {refl} reflection{}",
                    if refl == 1 { "" } else { "s" }
                ));
            } else {
                s.push_str(&format!(
                    "; the region's {refl} reflection{} not counted: a piece that may not flip has no mirror twin",
                    if refl == 1 { " is" } else { "s are" }
                ));
            }
        }
        s.push(')');
        s
    };
    let numbers = if approximate {
        format!(
            "approximate: floating point with tolerance {:e} (asked for with --approximate, or a side length has no exact square root jigsolve supports)",
            Approx::TOLERANCE
        )
    } else {
        format!("exact, in {}", field_of(puzzle))
    };
    let flips: usize = puzzle.pieces.iter().filter(|p| p.flip).count();
    let symmetry = if g == 1 {
        "none to remove: no motion of the region keeps it".to_string()
    } else if prep.options().symmetry {
        format!("each tiling is compared with its {} images under the region's symmetries; only the least is listed, standing for its orbit", g - 1)
    } else {
        "off (--no-symmetry): every distinct tiling is listed; unique counted by comparing each with its images".to_string()
    };
    Described {
        family: Family::Polygon,
        puzzle: puzzle.name.clone(),
        raw_means: "pieces told apart, every orientation of the region".into(),
        distinct_means: format!("identical pieces merged{identical}"),
        unique_means,
        listed_means: if g == 1 || !prep.options().symmetry {
            "every distinct tiling".into()
        } else {
            "one per unique tiling".into()
        },
        extras: vec![
            ("numbers", json!(numbers)),
            ("approximate", json!(approximate)),
            (
                "pieces",
                json!(format!(
                    "{} pieces of {} kinds; {} may flip",
                    puzzle.pieces.len(),
                    prep.type_count(),
                    if flips == puzzle.pieces.len() {
                        "all".to_string()
                    } else if flips == 0 {
                        "none".to_string()
                    } else {
                        format!("{flips}")
                    }
                )),
            ),
            ("symmetry", json!(symmetry)),
        ],
    }
}

fn run<S: Scalar>(puzzle: &Puzzle, prep: Arc<Prepared<S>>, args: &SolveArgs) -> Result<u8> {
    let described = describe(&prep, !S::EXACT);
    let code = execute(
        || Solver::new(Arc::clone(&prep)),
        &args.common(),
        &described,
        |s: &[Placement<S>]| jigsolve_render::polygon::solution_text(puzzle, s),
        |s: &[Placement<S>]| json!(SolutionRecord::of(puzzle, s)),
    )?;
    if prep.overflowed() {
        bail!(
            "{}: exact arithmetic overflowed its 128-bit coefficients, so the search stopped and the counts above are incomplete; solve it in floating point with --approximate",
            puzzle.name
        );
    }
    Ok(code)
}

/// Solves `puzzle` and prints as `args` say; returns the exit code.
pub fn solve(puzzle: &Puzzle, args: &SolveArgs) -> Result<u8> {
    let options = jigsolve_polygon::Options {
        symmetry: !args.no_symmetry,
        memo: true,
    };
    let exact = if args.approximate {
        None
    } else {
        Prepared::<Num>::new(puzzle, options).ok()
    };
    match exact {
        Some(p) => run(puzzle, Arc::new(p), args),
        None => {
            let p = Prepared::<Approx>::new(puzzle, options)
                .map_err(|e| anyhow!("{}: {e}", puzzle.name))?;
            run(puzzle, Arc::new(p), args)
        }
    }
}

/// Checks one solution record (the `solution` object of a JSON line).
pub fn verify(puzzle: &Puzzle, record: &Value) -> Result<(), String> {
    let rec: SolutionRecord = serde_json::from_value(record.clone())
        .map_err(|e| format!("not a polygon solution: {e}"))?;
    let exact = Prepared::<Num>::new(puzzle, Default::default()).is_ok();
    if exact {
        let placements = rec
            .placements::<Num>(puzzle, |s| s.parse::<Num>().map_err(|e| e.to_string()))
            .map_err(|e| e.to_string())?;
        jigsolve_polygon::verify(puzzle, &placements).map_err(|e| e.to_string())
    } else {
        let placements = rec
            .placements::<Approx>(puzzle, |s| {
                s.parse::<f64>()
                    .map(Approx)
                    .or_else(|_| s.parse::<Num>().map(|n| Approx(n.to_f64())))
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| e.to_string())?;
        jigsolve_polygon::verify(puzzle, &placements).map_err(|e| e.to_string())
    }
}
