//! Cut a random polygon into pieces, move them, and the engine must put them
//! back: the planted tiling is among the solutions found.

mod common;
use common::*;
use jigsolve_polygon::geom::Pt;
use jigsolve_polygon::{generate, Num, Options};
use jigsolve_search::Control;
use proptest::prelude::*;

fn shape(mut pts: Vec<Pt<Num>>) -> Vec<Pt<Num>> {
    pts.sort_by(|a, b| a.cmp_xy(b));
    pts
}

fn tiling(mut polys: Vec<Vec<Pt<Num>>>) -> Vec<Vec<Pt<Num>>> {
    polys = polys.into_iter().map(shape).collect();
    polys.sort_by(|a, b| jigsolve_polygon::symmetry::cmp_points(a, b));
    polys
}

fn check(pieces: usize, seed: u64) {
    let planted = generate::planted(pieces, seed);
    let puzzle = &planted.puzzle;
    let options = Options {
        symmetry: false,
        memo: true,
    };
    let (report, sols) = solve(puzzle, options, 1, Control::new());
    assert!(report.complete);
    let home = tiling(planted.home.clone());
    let found = sols
        .iter()
        .any(|s| tiling(s.iter().map(|p| p.corners(puzzle)).collect()) == home);
    assert!(
        found,
        "{}: the planted tiling was not found ({} found)",
        puzzle.name,
        sols.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn planted_tilings_are_found(pieces in 1usize..=5, seed in any::<u64>()) {
        check(pieces, seed);
    }
}

#[test]
fn a_few_fixed_seeds() {
    for seed in 0..8 {
        check(4, seed);
    }
}
