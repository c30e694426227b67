//! Cut a random polygon into pieces, move them, and the engine must put them
//! back: the planted tiling is among the solutions found.

mod common;
use common::*;
use jigsolve_polygon::geom::Pt;
use jigsolve_polygon::{generate, Approx, Num, Options, Placement, Prepared, Solver};
use jigsolve_search::{run, Control, NodeStats, RunConfig, Ticker, Tree};
use proptest::prelude::*;
use std::ops::ControlFlow;
use std::sync::Arc;

fn shape(mut pts: Vec<Pt<Num>>) -> Vec<Pt<Num>> {
    pts.sort_by(|a, b| a.cmp_xy(b));
    pts
}

fn tiling(mut polys: Vec<Vec<Pt<Num>>>) -> Vec<Vec<Pt<Num>>> {
    polys = polys.into_iter().map(shape).collect();
    polys.sort_by(|a, b| jigsolve_polygon::cmp_points(a, b));
    polys
}

/// A tiling as sorted corners rounded to a 1e-6 grid, for the
/// floating-point fallback (the engine's tolerance is 1e-7).
fn tiling_f<S: jigsolve_polygon::Scalar>(polys: &[Vec<Pt<S>>]) -> Vec<Vec<(i64, i64)>> {
    let r = |x: f64| (x * 1e6).round() as i64;
    let mut out: Vec<Vec<(i64, i64)>> = polys
        .iter()
        .map(|p| {
            let mut v: Vec<(i64, i64)> = p
                .iter()
                .map(|q| (r(q.x.to_f64()), r(q.y.to_f64())))
                .collect();
            v.sort();
            v
        })
        .collect();
    out.sort();
    out
}

fn check(pieces: usize, seed: u64) {
    let planted = generate::planted(pieces, seed);
    let puzzle = &planted.puzzle;
    let options = Options {
        symmetry: false,
        memo: true,
    };
    // Exact coefficients are 128-bit fractions; a random cut with many
    // pieces can exceed them. Then the search says so (it never returns a
    // wrong count), and the floating-point engine must do the job.
    let prep = Arc::new(Prepared::<Num>::new(puzzle, options).expect("exact"));
    let mut probe = Solver::new(Arc::clone(&prep));
    let control = Control::new();
    let mut ticker = Ticker::new(&control);
    let mut stats = NodeStats::new();
    let _ = probe.explore(
        &[],
        &mut |_: &[Placement<Num>], _| ControlFlow::Continue(()),
        &mut ticker,
        &mut stats,
    );
    if prep.overflowed() {
        let fprep = Arc::new(Prepared::<Approx>::new(puzzle, options).unwrap());
        let mut found = Vec::new();
        let report = run(
            || Solver::new(Arc::clone(&fprep)),
            &RunConfig::default(),
            &Control::new(),
            |s: &[Placement<Approx>], _| {
                jigsolve_polygon::verify(puzzle, s).expect("approximate solutions verify");
                found.push(tiling_f(
                    &s.iter().map(|p| p.corners(puzzle)).collect::<Vec<_>>(),
                ));
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert!(report.complete);
        let home = tiling_f(&planted.home);
        assert!(
            found.contains(&home),
            "{}: the planted tiling was not found in floating point",
            puzzle.name
        );
        return;
    }
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

#[test]
fn an_overflowing_cut_is_solved_in_floating_point() {
    // Found by a long property run: 8 pieces whose turns compound past
    // 128-bit coefficients.
    check(8, 8263559981378951572);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PLANTED_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24), ..ProptestConfig::default() })]
    #[test]
    fn planted_tilings_are_found(pieces in 1usize..=8, seed in any::<u64>()) {
        check(pieces, seed);
    }
}

#[test]
fn a_few_fixed_seeds() {
    for seed in 0..8 {
        check(4, seed);
    }
}
