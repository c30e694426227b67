//! Polygonal jigsaws as sessions: reading, preparing, verifying and drawing.

use crate::engine::EngineOptions;
use crate::error::{Error, Result};
use crate::puzzle::Loaded;
use crate::session::{content_hash, Described, Engine, EngineSession, Job, Session};
use crate::source::{Family, Source};
use jigsolve_polygon::geom::Pt;
use jigsolve_polygon::verify::SolutionRecord;
use jigsolve_polygon::{parse, Approx, Num, Placement, Prepared, Puzzle, Scalar, Solver};
use jigsolve_search::NaiveSpace;
use serde_json::{json, Value};
use std::sync::Arc;

/// A polygonal jigsaw read from a file or the catalog.
pub struct PolygonPuzzle(pub Puzzle);

/// Reads a polygon puzzle (TOML only).
pub fn load(source: &Source, format: Option<&str>) -> Result<PolygonPuzzle> {
    if let Some(f) = format {
        if f != "toml" {
            return Err(Error::input(format!(
                "--format {f}: polygon puzzles are read from TOML only"
            )));
        }
    }
    parse::parse(&source.text, &source.label)
        .map(PolygonPuzzle)
        .map_err(|e| Error::input(e.to_string()))
}

impl Loaded for PolygonPuzzle {
    fn family(&self) -> Family {
        Family::Polygon
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn session(&self, options: &EngineOptions) -> Result<Box<dyn Session + '_>> {
        let puzzle = with_flips(&self.0, options);
        Ok(match prepare(&puzzle, options)? {
            Prep::Exact(prep) => Box::new(EngineSession(PolygonEngine { puzzle, prep })),
            Prep::Approx(prep) => Box::new(EngineSession(PolygonEngine { puzzle, prep })),
        })
    }

    fn verify(&self, record: &Value) -> Result<(), String> {
        verify(&self.0, record)
    }

    fn puzzle_svg(&self) -> String {
        jigsolve_render::polygon::puzzle_svg(&self.0)
    }

    fn solution_svg(&self, record: &Value, caption: &str) -> Result<String, String> {
        match checked(&self.0, record)? {
            Checked::Exact(p) => Ok(jigsolve_render::polygon::solution_svg(&self.0, &p, caption)),
            Checked::Approx(p) => Ok(jigsolve_render::polygon::solution_svg(&self.0, &p, caption)),
        }
    }

    fn to_toml(&self, comments: &[String]) -> String {
        jigsolve_polygon::write::to_toml(&self.0, comments)
    }

    fn pair_svg(
        &self,
        options: &EngineOptions,
        records: [&Value; 2],
        captions: [&str; 2],
        title: &str,
    ) -> Result<String, String> {
        // The solutions were found for the puzzle as the options shape it:
        // with --flip a piece may be flipped that the file says may not,
        // with --approximate the numbers are floating point.
        let puzzle = with_flips(&self.0, options);
        let check = |record| checked_as(&puzzle, record, options.approximate);
        match (check(records[0])?, check(records[1])?) {
            (Checked::Exact(a), Checked::Exact(b)) => Ok(pair(&puzzle, &a, &b, captions, title)),
            (Checked::Approx(a), Checked::Approx(b)) => Ok(pair(&puzzle, &a, &b, captions, title)),
            // Both are read in the numbers the puzzle and the options give.
            _ => Err("the two solutions are not in the same numbers".into()),
        }
    }
}

/// Two checked solutions side by side, the pieces of each that lie where
/// no piece of the other does marked.
fn pair<S: Scalar>(
    puzzle: &Puzzle,
    a: &[Placement<S>],
    b: &[Placement<S>],
    captions: [&str; 2],
    title: &str,
) -> String {
    let (in_a, in_b) = (unmatched(puzzle, a, b), unmatched(puzzle, b, a));
    let note = format!(
        "dashed outline: no piece of the other solution lies just here ({} of {} pieces in the first, {} of {} in the second)",
        in_a.len(),
        a.len(),
        in_b.len(),
        b.len()
    );
    jigsolve_render::differ::pair(
        jigsolve_render::polygon::solution_picture(puzzle, a, captions[0], &in_a),
        jigsolve_render::polygon::solution_picture(puzzle, b, captions[1], &in_b),
        title,
        &note,
    )
}

/// The placements of `a` (indices into it) whose placed outline, the set
/// of corners where the piece lands, is the outline of no placement of
/// `b`. Identical pieces swapped, or a symmetric piece turned onto itself,
/// are no difference; the names do not matter, only where pieces lie.
pub fn unmatched<S: Scalar>(puzzle: &Puzzle, a: &[Placement<S>], b: &[Placement<S>]) -> Vec<usize> {
    let outline = |p: &Placement<S>| -> Vec<Pt<S>> {
        if p.piece < puzzle.pieces.len() {
            p.corners(puzzle)
        } else {
            Vec::new()
        }
    };
    let theirs: Vec<Vec<Pt<S>>> = b.iter().map(outline).collect();
    a.iter()
        .enumerate()
        .filter(|(_, p)| {
            let mine = outline(p);
            !theirs.iter().any(|t| same_corners(&mine, t))
        })
        .map(|(i, _)| i)
        .collect()
}

/// True when two outlines have the same corners, whatever corner each
/// starts at and whichever way round it goes (the corners of one simple
/// polygon are distinct, so sets of equal size are enough).
fn same_corners<S: Scalar>(p: &[Pt<S>], q: &[Pt<S>]) -> bool {
    let same = |u: &Pt<S>, v: &Pt<S>| u.x.sub(&v.x).is_zero() && u.y.sub(&v.y).is_zero();
    !p.is_empty()
        && p.len() == q.len()
        && p.iter().all(|u| q.iter().any(|v| same(u, v)))
        && q.iter().all(|v| p.iter().any(|u| same(u, v)))
}

/// The puzzle with `--flip` or `--no-flip` applied to every piece.
fn with_flips(puzzle: &Puzzle, engine: &EngineOptions) -> Puzzle {
    let mut puzzle = puzzle.clone();
    let flip = if engine.flip {
        Some(true)
    } else if engine.no_flip {
        Some(false)
    } else {
        None
    };
    if let Some(f) = flip {
        for p in &mut puzzle.pieces {
            p.flip = f;
        }
    }
    puzzle
}

/// A puzzle prepared in exact numbers, or in floating point when asked for
/// or when its numbers leave the exact fields jigsolve supports.
enum Prep {
    Exact(Arc<Prepared<Num>>),
    Approx(Arc<Prepared<Approx>>),
}

fn prepare(puzzle: &Puzzle, engine: &EngineOptions) -> Result<Prep> {
    let options = jigsolve_polygon::Options {
        symmetry: !engine.no_symmetry,
        memo: true,
    };
    if !engine.approximate {
        if let Ok(p) = Prepared::<Num>::new(puzzle, options) {
            return Ok(Prep::Exact(Arc::new(p)));
        }
    }
    let p = Prepared::<Approx>::new(puzzle, options)
        .map_err(|e| Error::input(format!("{}: {e}", puzzle.name)))?;
    Ok(Prep::Approx(Arc::new(p)))
}

/// The puzzle written out in a fixed form, whatever file it came from: what
/// a shard result's puzzle hash is taken of.
fn normalised(p: &Puzzle) -> String {
    let mut s = String::from("polygon\n");
    for poly in &p.region {
        s.push_str(&format!("region {poly:?}\n"));
    }
    for piece in &p.pieces {
        s.push_str(&format!(
            "piece {} flip {} {:?}\n",
            piece.name, piece.flip, piece.vertices
        ));
    }
    s
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

/// The naive search space of a polygon jigsaw, as the engine builds a
/// tiling: at each step the next region corner takes a piece, one of the
/// piece's corners and a side up. Without pruning that is every order of
/// the n pieces (n!) times, for each piece, its corners and its sides
/// (2 when it may flip): n! x the product of v_i x s_i.
fn naive_space(puzzle: &Puzzle) -> NaiveSpace {
    let n = puzzle.pieces.len() as u64;
    let mut space = NaiveSpace::new(
        "ways to lay the pieces in turn at the next corner, each by any of its corners and either side up if it may flip, no overlap checked",
    )
    .factorial(n);
    let mut corners: Vec<u64> = puzzle
        .pieces
        .iter()
        .map(|p| p.vertices.len() as u64)
        .collect();
    corners.sort_unstable();
    let mut i = 0;
    while i < corners.len() {
        let run = corners[i..]
            .iter()
            .take_while(|&&c| c == corners[i])
            .count();
        space = space.power(corners[i], run as u64);
        i += run;
    }
    let flips = puzzle.pieces.iter().filter(|p| p.flip).count() as u64;
    space.power(2, flips)
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
        let cut = match prep.symmetry_breaker() {
            Some(name) => format!("; broken in the search too: piece {name} is placed only in the least of its poses under them"),
            None => String::new(),
        };
        format!("each tiling is compared with its {} images under the region's symmetries; only the least is listed, standing for its orbit{cut}", g - 1)
    } else {
        "off (--no-symmetry): every distinct tiling is listed; unique counted by comparing each with its images".to_string()
    };
    Described {
        naive: naive_space(puzzle),
        family: Family::Polygon,
        puzzle: puzzle.name.clone(),
        puzzle_hash: content_hash(&normalised(puzzle)),
        split: format!(
            "numbers={} symmetry={} memo=on{}",
            if approximate { "approximate" } else { "exact" },
            if prep.options().symmetry { "on" } else { "off" },
            // The cut changes the tree, so plans made without it differ.
            prep.symmetry_breaker()
                .map(|name| format!(" breaker={name}"))
                .unwrap_or_default()
        ),
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
        fraction_known: true,
    }
}

/// A polygon puzzle (with `--flip`/`--no-flip` applied) prepared for
/// searching in numbers `S`.
struct PolygonEngine<S: Scalar> {
    puzzle: Puzzle,
    prep: Arc<Prepared<S>>,
}

impl<S: Scalar> Engine for PolygonEngine<S> {
    type Tree = Solver<S>;

    fn tree(&self) -> Solver<S> {
        Solver::new(Arc::clone(&self.prep))
    }

    fn described(&self, _job: &Job) -> Described {
        describe(&self.prep, !S::EXACT)
    }

    fn text(&self, solution: &[Placement<S>]) -> String {
        jigsolve_render::polygon::solution_text(&self.puzzle, solution)
    }

    fn json(&self, solution: &[Placement<S>]) -> Value {
        json!(SolutionRecord::of(&self.puzzle, solution))
    }

    fn svg(&self, solution: &[Placement<S>], caption: &str) -> String {
        jigsolve_render::polygon::solution_svg(&self.puzzle, solution, caption)
    }

    fn fault(&self) -> Option<String> {
        self.prep.overflowed().then(|| {
            format!(
                "{}: exact arithmetic overflowed its 128-bit coefficients, so the search stopped and the counts above are incomplete; solve it in floating point with --approximate",
                self.puzzle.name
            )
        })
    }
}

/// Checks one solution record (the `solution` object of a JSON line).
fn verify(puzzle: &Puzzle, record: &Value) -> Result<(), String> {
    checked(puzzle, record).map(|_| ())
}

/// The placements of a checked solution, in the numbers the puzzle is read in.
enum Checked {
    Exact(Vec<Placement<Num>>),
    Approx(Vec<Placement<Approx>>),
}

/// The placements of a solution record, once the verifier has passed them.
fn checked(puzzle: &Puzzle, record: &Value) -> Result<Checked, String> {
    checked_as(puzzle, record, false)
}

/// The placements of a solution record, in floating point when
/// `approximate` (as `--approximate` solves) or when the puzzle's numbers
/// leave the exact fields, once the verifier has passed them.
fn checked_as(puzzle: &Puzzle, record: &Value, approximate: bool) -> Result<Checked, String> {
    let rec: SolutionRecord = serde_json::from_value(record.clone())
        .map_err(|e| format!("not a polygon solution: {e}"))?;
    let exact = !approximate && Prepared::<Num>::new(puzzle, Default::default()).is_ok();
    if exact {
        let placements = rec
            .placements::<Num>(puzzle, |s| s.parse::<Num>().map_err(|e| e.to_string()))
            .map_err(|e| e.to_string())?;
        jigsolve_polygon::verify(puzzle, &placements).map_err(|e| e.to_string())?;
        Ok(Checked::Exact(placements))
    } else {
        let placements = rec
            .placements::<Approx>(puzzle, |s| {
                s.parse::<f64>()
                    .map(Approx)
                    .or_else(|_| s.parse::<Num>().map(|n| Approx(n.to_f64())))
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| e.to_string())?;
        jigsolve_polygon::verify(puzzle, &placements).map_err(|e| e.to_string())?;
        Ok(Checked::Approx(placements))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(piece: usize, rot: (i64, i64), shift: (i64, i64)) -> Placement<Num> {
        let pt = |(x, y): (i64, i64)| Pt::new(Num::int(x), Num::int(y));
        Placement {
            piece,
            flipped: false,
            rot: pt(rot),
            shift: pt(shift),
        }
    }

    #[test]
    fn pieces_differ_where_no_piece_of_the_other_solution_lies() {
        // Two 2 x 1 bars in a 2 x 2 square, lying or standing.
        let text = "region = \"(0,0) (2,0) (2,2) (0,2)\"\n[[pieces]]\nname = \"bar\"\nvertices = \"(0,0) (2,0) (2,1) (0,1)\"\ncopies = 2\n";
        let puzzle = parse::parse(text, "t.toml").unwrap();
        assert_eq!(puzzle.pieces.len(), 2);
        let lying = [placed(0, (1, 0), (0, 0)), placed(1, (1, 0), (0, 1))];
        // The same bars the other way round, and the lower one turned a
        // half turn onto itself: the same outlines.
        let swapped = [placed(0, (1, 0), (0, 1)), placed(1, (-1, 0), (2, 1))];
        // A quarter turn, then shifted: the bars stand side by side.
        let standing = [placed(0, (0, 1), (1, 0)), placed(1, (0, 1), (2, 0))];
        for s in [&lying, &swapped, &standing] {
            jigsolve_polygon::verify(&puzzle, s).unwrap();
        }
        assert!(unmatched(&puzzle, &lying, &swapped).is_empty());
        assert_eq!(unmatched(&puzzle, &lying, &standing), [0, 1]);
        assert_eq!(unmatched(&puzzle, &standing, &lying), [0, 1]);
        // Against an empty solution everything differs.
        assert_eq!(unmatched(&puzzle, &lying, &[]), [0, 1]);
    }
}
