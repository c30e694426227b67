//! The engines against each other, on random puzzles with a planted
//! solution: every engine, with symmetry broken in the search and without,
//! must give the same raw, distinct and unique counts; without symmetry
//! breaking they must list the same solutions, the planted one among them;
//! every solution verifies independently.

mod common;
use common::*;
use jigsolve_grid::generate::{planted, Colouring, Spec};
use jigsolve_grid::{EngineChoice, Lattice, Options, Prepared, Puzzle, Solver};
use jigsolve_grid::{Piece, Sides};
use jigsolve_search::{count_solutions, Control, Report};
use proptest::prelude::*;
use std::collections::BTreeSet;

const ENGINES: [EngineChoice; 4] = [
    EngineChoice::BitboardFirst,
    EngineChoice::BitboardTight,
    EngineChoice::BitboardMrv,
    EngineChoice::Dlx,
];

/// Adds an optional piece (a domino or a single cell) so that optional
/// pieces and multiplicity ranges are exercised too.
fn with_optional(puzzle: &Puzzle, kind: u8) -> Puzzle {
    if kind == 0 {
        return puzzle.clone();
    }
    let shape = if kind == 1 {
        vec![([0, 0, 0], None)]
    } else {
        vec![([0, 0, 0], None), ([1, 0, 0], None)]
    };
    let mut pieces = puzzle.pieces.clone();
    pieces.push(Piece {
        name: "opt".into(),
        shape,
        copies: 1 + (kind as u32 % 2),
        optional: true,
        least: 0,
        open: None,
        sides: Sides::Two,
    });
    Puzzle::new(
        puzzle.name.clone(),
        puzzle.lattice,
        puzzle.colours.clone(),
        puzzle.board.clone(),
        pieces,
    )
    .expect("adding an optional piece keeps the puzzle valid")
}

/// Searches with more nodes than this are skipped (random cuts into small
/// pieces can have millions of solutions; the point here is agreement).
const NODE_BUDGET: u64 = 60_000;

type Counted = (u128, u128, u128);
type SolutionSet = BTreeSet<Vec<(usize, usize)>>;

/// Returns whether the puzzle was small enough to check.
fn check_engines_agree(puzzle: &Puzzle, planted_solution: Option<&[u16]>) -> bool {
    if !small_enough(puzzle) {
        return false;
    }
    let mut reference: Option<(Counted, SolutionSet)> = None;
    for engine in ENGINES {
        let (report, listed) = solve(puzzle, options(engine, false), 1);
        let set: BTreeSet<_> = listed.iter().map(|s| canonical(puzzle, s)).collect();
        assert_eq!(
            set.len(),
            listed.len(),
            "{engine}: a distinct solution was listed twice"
        );
        let c = counts(&report);
        assert_eq!(
            c.1,
            listed.len() as u128,
            "{engine}: distinct count vs listed"
        );
        if let Some(p) = planted_solution {
            assert!(
                set.contains(&canonical(puzzle, p)),
                "{engine} misses the planted solution"
            );
        }
        // The portable copy of the search loop finds the same solutions as
        // the one compiled for the processor's bit-manipulation instructions.
        let portable = Options {
            portable: true,
            ..options(engine, false)
        };
        let (p_report, p_listed) = solve(puzzle, portable, 1);
        assert_eq!(counts(&p_report), c, "{engine}: portable loop counts");
        let p_set: BTreeSet<_> = p_listed.iter().map(|s| canonical(puzzle, s)).collect();
        assert!(
            p_set == set,
            "{engine}: portable loop lists other solutions"
        );
        let (sym_report, sym_listed) = solve(puzzle, options(engine, true), 1);
        assert_eq!(
            counts(&sym_report),
            c,
            "{engine}: symmetry breaking changes the counts"
        );
        assert_eq!(
            sym_listed.len() as u128,
            c.2,
            "{engine}: one listed per unique class"
        );
        // Solutions listed with symmetry broken are among the distinct ones.
        for s in &sym_listed {
            assert!(
                set.contains(&canonical(puzzle, s)),
                "{engine}: unknown solution"
            );
        }
        match &reference {
            None => reference = Some((c, set)),
            Some((rc, rset)) => {
                assert_eq!(*rc, c, "{engine} disagrees on the counts");
                assert!(*rset == set, "{engine} lists other solutions");
            }
        }
    }
    true
}

#[test]
fn most_random_puzzles_are_small_enough_to_cross_check() {
    // The property tests skip puzzles over the node budget; make sure that
    // is the exception, so they cannot pass by skipping everything.
    let mut checked = 0;
    for seed in 0..24u64 {
        let (puzzle, solution) = planted(
            spec(Lattice::Square, 5, 4, 1, 1, seed % 2 == 0, seed % 3 == 0),
            seed,
        );
        checked += check_engines_agree(&puzzle, Some(&solution)) as u32;
    }
    assert!(
        checked >= 16,
        "only {checked} of 24 random puzzles were checked"
    );
}

/// Whether the slowest engine lists every distinct solution within the budget.
fn small_enough(puzzle: &Puzzle) -> bool {
    let prep = Prepared::new(puzzle, options(EngineChoice::Dlx, false));
    let control = Control::new().with_node_limit(NODE_BUDGET);
    let report = count_solutions(|| Solver::new(&prep), 1, &control).expect("paths are valid");
    report.complete
}

fn spec(
    lattice: Lattice,
    w: i32,
    h: i32,
    d: i32,
    holes: u8,
    checker: bool,
    one_sided: bool,
) -> Spec {
    Spec {
        lattice,
        size: [w, h, d],
        holes: holes as f64 / 10.0,
        min_piece: 2,
        max_piece: if lattice == Lattice::Cube { 4 } else { 5 },
        colouring: if checker {
            Colouring::Checker
        } else {
            Colouring::None
        },
        one_sided: if one_sided { 0.7 } else { 0.0 },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

    #[test]
    fn engines_agree_on_random_square_puzzles(
        seed in any::<u64>(),
        w in 2i32..6,
        h in 2i32..5,
        holes in 0u8..3,
        checker in any::<bool>(),
        one_sided in any::<bool>(),
        optional in 0u8..3,
    ) {
        let (puzzle, solution) = planted(spec(Lattice::Square, w, h, 1, holes, checker, one_sided), seed);
        check_engines_agree(&puzzle, Some(&solution));
        let extended = with_optional(&puzzle, optional);
        check_engines_agree(&extended, None);
        let (coloured, solution) = planted(Spec { colouring: Colouring::Random(3), ..spec(Lattice::Square, w + 2, h + 2, 1, holes, false, one_sided) }, seed);
        check_engines_agree(&coloured, Some(&solution));
    }

    #[test]
    fn engines_agree_on_random_cube_puzzles(
        seed in any::<u64>(),
        w in 2i32..4,
        h in 2i32..4,
        d in 1i32..3,
        holes in 0u8..2,
        checker in any::<bool>(),
        one_sided in any::<bool>(),
    ) {
        let (puzzle, solution) = planted(spec(Lattice::Cube, w, h, d, holes, checker, one_sided), seed);
        check_engines_agree(&puzzle, Some(&solution));
    }
}

#[test]
fn engines_agree_on_the_small_catalog_puzzles() {
    for path in [
        "puzzles/grid/pentomino-3x20.toml",
        "puzzles/grid/soma.toml",
        "puzzles/grid/atwood.toml",
    ] {
        let puzzle = load(path);
        let mut first = None;
        for engine in ENGINES {
            for portable in [false, true] {
                let o = Options {
                    portable,
                    ..options(engine, true)
                };
                let c = counts(&count(&puzzle, o));
                match first {
                    None => first = Some(c),
                    Some(f) => assert_eq!(f, c, "{path}: {engine}, portable {portable}"),
                }
            }
        }
    }
}

#[test]
fn many_threads_and_shards_give_the_same_counts() {
    let puzzle = load("puzzles/grid/pentomino-4x15.toml");
    let (one, _) = solve(&puzzle, options(EngineChoice::Auto, true), 1);
    let (two, _) = solve(&puzzle, options(EngineChoice::Auto, true), 3);
    assert_eq!(counts(&one), counts(&two));
    assert_eq!(one.nodes.total(), two.nodes.total());
}

/// A pocket exactly one piece's size but of no shape left is refused where
/// it is made: in a 2 x 3 box an L and an I tromino leave, whichever is
/// placed first, three cells the other cannot fill (an L leaves an L, an I
/// leaves an I). The size check alone would let every first placement
/// through; every bitboard engine refuses them all at the root (with two
/// pieces left the rest of the board is checked whole), and every engine
/// counts 0.
#[test]
fn a_pocket_no_piece_left_fits_is_refused_when_it_is_made() {
    let text = r#"
family = "grid"
name = "l-and-i"
board = """
###
###
"""

[[piece]]
name = "L"
shape = """
L.
LL
"""

[[piece]]
name = "I"
shape = """
III
"""
"#;
    for (engine, symmetry, report) in solve_each_way(text, "l-and-i.toml") {
        assert_eq!(report.counts.raw, Some(0), "{engine:?}");
        if engine != EngineChoice::Dlx {
            assert_eq!(
                report.nodes.per_depth().iter().skip(1).sum::<u64>(),
                0,
                "{engine:?}, symmetry {symmetry}: a first placement got through"
            );
        }
    }
}

/// Solves the puzzle file `text` (named `file`) with every engine, with
/// symmetry broken in the search and without, every solution verified.
fn solve_each_way(text: &str, file: &str) -> Vec<(EngineChoice, bool, Report)> {
    let puzzle = jigsolve_grid::parse::parse(text, file)
        .expect("valid")
        .puzzle;
    ENGINES
        .into_iter()
        .flat_map(|engine| [false, true].map(|symmetry| (engine, symmetry)))
        .map(|(engine, symmetry)| {
            let (report, _) = solve(&puzzle, options(engine, symmetry), 1);
            (engine, symmetry, report)
        })
        .collect()
}

/// With at most two pieces left the bitboard engines check the rest of the
/// board whole, so they never enter a node with two pieces left that has
/// no child, nor one with one piece left that is not a solution: on
/// catalog puzzles of all-different pieces (each placed once), the nodes
/// one piece short of the end are as many as the solutions found, and
/// those two short no more. Before that check, hexiamonds in the 6 x 6
/// rhombus had 3,860 nodes two pieces short for 156 solutions.
#[test]
fn no_dead_ends_in_the_last_two_levels() {
    for (file, engine) in [
        (
            "puzzles/grid/hexiamond-6x6.toml",
            EngineChoice::BitboardTight,
        ),
        ("puzzles/grid/hexiamond-6x6.toml", EngineChoice::BitboardMrv),
        (
            "puzzles/grid/hexiamond-4x9.toml",
            EngineChoice::BitboardFirst,
        ),
        (
            "puzzles/grid/tetrahex-4x7.toml",
            EngineChoice::BitboardTight,
        ),
        (
            "puzzles/grid/pentomino-4x15.toml",
            EngineChoice::BitboardFirst,
        ),
    ] {
        let puzzle = load(file);
        assert!(puzzle.pieces.iter().all(|p| p.copies == 1 && !p.optional));
        let report = count(&puzzle, options(engine, true));
        let depth = report.nodes.per_depth();
        let n = puzzle.pieces.len();
        assert!(depth[n] > 0, "{file}: solutions found");
        assert_eq!(
            depth[n - 1],
            depth[n],
            "{file}, {engine:?}: one piece short"
        );
        assert!(
            depth[n - 2] <= depth[n - 1],
            "{file}, {engine:?}: two pieces short"
        );
    }
}

/// The check of the last two pieces counts copies: three identical
/// dominoes tile a 2 x 3 box in 3 ways, which every engine finds (after
/// the first domino the other two must both still be left, and are).
#[test]
fn the_last_two_pieces_may_be_copies_of_one() {
    let text = r#"
family = "grid"
name = "dominoes"
board = """
###
###
"""

[[piece]]
name = "D"
copies = 3
shape = """
DD
"""
"#;
    for (engine, symmetry, report) in solve_each_way(text, "dominoes.toml") {
        assert_eq!(
            report.counts.distinct,
            Some(3),
            "{engine:?}, symmetry {symmetry}"
        );
    }
}

/// The copy of the bitboard search loop that tells the layouts apart at
/// each step searches the very tree of each layout's own copy: the same
/// counts, nodes at every depth, and placements tried and refused, on
/// squares, cubes, triangles and hexagons, with each cell choice and with
/// and without the counting of what is tried.
#[test]
fn the_copy_for_any_layout_searches_the_same_tree() {
    for path in [
        "puzzles/grid/pentomino-3x20.toml",
        "puzzles/grid/soma.toml",
        "puzzles/grid/tetrahex-4x7.toml",
        "puzzles/grid/hexiamond-6x6-sides.toml",
    ] {
        let puzzle = load(path);
        for engine in [
            EngineChoice::BitboardFirst,
            EngineChoice::BitboardTight,
            EngineChoice::BitboardMrv,
        ] {
            for tried in [false, true] {
                let run = |any_layout: bool| {
                    let o = Options {
                        any_layout,
                        tried,
                        ..options(engine, true)
                    };
                    let r = count(&puzzle, o);
                    let rejected = r.nodes.rejected().to_vec();
                    (
                        counts(&r),
                        r.nodes.per_depth().to_vec(),
                        r.nodes.tried().to_vec(),
                        rejected,
                    )
                };
                let (own, any) = (run(false), run(true));
                assert!(own.1.iter().sum::<u64>() > 1, "{path}: {engine}: no tree");
                assert_eq!(own, any, "{path}: {engine}, tried {tried}");
                assert_eq!(own.2.is_empty(), !tried, "{path}: {engine}");
            }
        }
    }
}
