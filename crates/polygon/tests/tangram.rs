//! The tangram: the square, two non-convex figures, and the 20 convex shapes
//! of Wang and Hsiung (1942), with the parallelogram allowed to flip and
//! not. Every solution passes the independent verifier.

mod common;
use common::*;
use jigsolve_polygon::Options;
use jigsolve_search::Control;

/// (shape, (raw, distinct, unique) with flips, the same without).
/// Wang and Hsiung: exactly 13 of the 20 can be made. The counts themselves
/// are jigsolve's (no published table); each is cross-checked with symmetry
/// breaking on and off, on one thread and two.
type Counts = (u128, u128, u128);

const CONVEX: [(usize, Counts, Counts); 20] = [
    (1, (32, 8, 2), (16, 4, 2)),
    (2, (0, 0, 0), (0, 0, 0)),
    (3, (48, 12, 12), (20, 5, 5)),
    (4, (48, 12, 6), (24, 6, 3)),
    (5, (64, 16, 8), (32, 8, 8)),
    (6, (48, 12, 6), (24, 6, 6)),
    (7, (0, 0, 0), (0, 0, 0)),
    (8, (224, 56, 28), (112, 28, 28)),
    (9, (16, 4, 2), (8, 2, 1)),
    (10, (0, 0, 0), (0, 0, 0)),
    (11, (0, 0, 0), (0, 0, 0)),
    (12, (0, 0, 0), (0, 0, 0)),
    (13, (48, 12, 6), (24, 6, 6)),
    (14, (32, 8, 1), (16, 4, 1)),
    (15, (0, 0, 0), (0, 0, 0)),
    (16, (144, 36, 9), (72, 18, 9)),
    (17, (96, 24, 6), (48, 12, 6)),
    (18, (80, 20, 20), (36, 9, 9)),
    (19, (144, 36, 36), (80, 20, 20)),
    (20, (0, 0, 0), (0, 0, 0)),
];

fn check(path: &str, flip: Option<bool>, expected: Counts) {
    let puzzle = load(path, flip);
    for symmetry in [true, false] {
        for threads in [1, 2] {
            let options = Options {
                symmetry,
                memo: true,
            };
            let (report, sols) = solve(&puzzle, options, threads, Control::new());
            assert_eq!(
                counts(&report),
                expected,
                "{path} flip={flip:?} symmetry={symmetry}"
            );
            let listed = if symmetry { expected.2 } else { expected.1 };
            assert_eq!(sols.len() as u128, listed, "{path} symmetry={symmetry}");
        }
    }
    // The memo never changes what is found.
    let (report, _) = solve(
        &puzzle,
        Options {
            symmetry: true,
            memo: false,
        },
        1,
        Control::new(),
    );
    assert_eq!(counts(&report), expected, "{path} without the memo");
}

#[test]
fn exactly_13_of_the_20_convex_shapes_can_be_made() {
    let mut solvable = 0;
    for (k, with_flip, without) in CONVEX {
        let path = format!("data/polygon/convex/{k:02}.toml");
        check(&path, None, with_flip);
        check(&path, Some(false), without);
        assert_eq!(with_flip.0 > 0, without.0 > 0, "shape {k}");
        solvable += (with_flip.0 > 0) as usize;
    }
    assert_eq!(solvable, 13);
}

#[test]
fn the_tangram_square_has_one_solution_up_to_symmetry() {
    // 8 symmetries of the square, 2! x 2! for the two pairs of identical triangles.
    check("puzzles/polygon/tangram-square.toml", None, (32, 8, 1));
    check(
        "puzzles/polygon/tangram-square.toml",
        Some(false),
        (16, 4, 1),
    );
}

#[test]
fn non_convex_figures() {
    check("puzzles/polygon/tangram-t.toml", None, (104, 26, 13));
    check("puzzles/polygon/tangram-arrow.toml", None, (72, 18, 9));
}
