//! Polyform benchmarks (one core): every solution of 6 x 10 pentominoes,
//! Atwood's checkerboard and the Bedlam cube, and the same exact-cover
//! matrices solved side by side by the `dlx` crate from crates.io (Knuth's
//! Algorithm X with the minimum-remaining-values choice) in the same run.
//!
//! `cargo bench -p jigsolve-grid --bench solve` (results in BENCHMARKS.md,
//! medians in `target/criterion/*/new/estimates.json`). Each measurement
//! includes preparing the puzzle (placements, symmetry, tables), as a user
//! of `jigsolve solve --count` sees it.

use criterion::{criterion_group, criterion_main, Criterion};
use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
use dlx::{OptOrder, Solver as DlxCrateSolver};
use jigsolve_grid::Plan;
use jigsolve_grid::{parse, EngineChoice, Options, Prepared, Problem, Puzzle, Solver};
use jigsolve_search::{count_solutions, Control};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

fn load(name: &str) -> Puzzle {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../puzzles/grid/{name}.toml"));
    let text = std::fs::read_to_string(&path).expect("catalog file");
    parse::parse(&text, name).expect("valid").puzzle
}

/// Counts every solution with jigsolve on one core; returns (unique, nodes).
fn jigsolve(puzzle: &Puzzle, engine: EngineChoice) -> (u128, u64) {
    let prep = Prepared::new(
        puzzle,
        Options {
            engine,
            ..Options::default()
        },
    );
    let report = count_solutions(|| Solver::new(&prep), 1, &Control::new()).expect("valid paths");
    (report.counts.unique.unwrap_or(0), report.nodes.total())
}

/// The matrix jigsolve's dancing-links engine searches (cells and pieces as
/// items, the symmetry breaker restricted to one placement per orbit), as
/// the `dlx` crate's input. Only for puzzles whose pieces have one
/// mandatory copy each.
fn dlx_crate_matrix(puzzle: &Puzzle) -> (u32, Vec<Vec<u32>>) {
    let problem = Problem::new(puzzle);
    let plan = Plan::new(&problem, true);
    let n = problem.cells() as u32;
    assert!(problem.types.iter().all(|t| t.lo == 1 && t.hi == 1));
    let breaker = plan.breaker();
    let reps: Vec<usize> = plan.reps.iter().map(|r| r.placement).collect();
    assert!(
        plan.special_reps() == 0,
        "post-checked representatives are not comparable"
    );
    let options = problem
        .placements
        .iter()
        .enumerate()
        .filter(|(i, p)| Some(p.ty as usize) != breaker || reps.contains(i))
        .map(|(_, p)| {
            let mut o: Vec<u32> = p.cells.clone();
            o.push(n + p.ty as u32);
            o
        })
        .collect();
    (n + problem.types.len() as u32, options)
}

/// Counts the solutions of a matrix with the `dlx` crate.
fn dlx_crate(items: u32, options: &[Vec<u32>]) -> u64 {
    let mut problem = dlx::x::make_problem(
        items as _,
        0,
        &options
            .iter()
            .map(|o| o.iter().map(|&i| i as _).collect())
            .collect::<Vec<Vec<_>>>(),
        OptOrder::Seq,
    );
    let mut solver = DlxCrateSolver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut n = 0;
    while solver.next_solution(&mut chooser) {
        n += 1;
    }
    n
}

fn pentominoes(c: &mut Criterion) {
    let puzzle = load("pentomino-6x10");
    assert_eq!(jigsolve(&puzzle, EngineChoice::Auto).0, 2339);
    let mut g = c.benchmark_group("pentomino-6x10");
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("jigsolve", |b| {
        b.iter(|| black_box(jigsolve(&puzzle, EngineChoice::Auto)))
    });
    g.bench_function("jigsolve-dlx-engine", |b| {
        b.iter(|| black_box(jigsolve(&puzzle, EngineChoice::Dlx)))
    });
    let (items, options) = dlx_crate_matrix(&puzzle);
    assert_eq!(dlx_crate(items, &options), 2339);
    g.bench_function("dlx-crate", |b| {
        b.iter(|| black_box(dlx_crate(items, &options)))
    });
    g.finish();
}

fn soma(c: &mut Criterion) {
    let puzzle = load("soma");
    let mut g = c.benchmark_group("soma");
    g.bench_function("jigsolve", |b| {
        b.iter(|| black_box(jigsolve(&puzzle, EngineChoice::Auto)))
    });
    g.finish();
}

fn atwood(c: &mut Criterion) {
    let puzzle = load("atwood");
    assert_eq!(jigsolve(&puzzle, EngineChoice::Auto).0, 11);
    let mut g = c.benchmark_group("atwood");
    g.bench_function("jigsolve", |b| {
        b.iter(|| black_box(jigsolve(&puzzle, EngineChoice::Auto)))
    });
    g.finish();
}

fn bedlam(c: &mut Criterion) {
    let puzzle = load("bedlam");
    let mut g = c.benchmark_group("bedlam");
    g.sample_size(10).measurement_time(Duration::from_secs(60));
    g.bench_function("jigsolve", |b| {
        b.iter(|| black_box(jigsolve(&puzzle, EngineChoice::Auto)))
    });
    g.finish();
}

criterion_group!(benches, pentominoes, soma, atwood, bedlam);
criterion_main!(benches);
