//! Benchmarks: Archimedes' Stomachion, all solutions on one core; the 20
//! convex tangram shapes, all solutions, one after another on one core.
//!
//! `cargo bench -p jigsolve-polygon` (results in BENCHMARKS.md). Node counts
//! are printed once per benchmark, since they do not depend on the machine.

use criterion::{criterion_group, criterion_main, Criterion};
use jigsolve_polygon::{parse, solve_all, Options, Puzzle};
use std::path::PathBuf;
use std::time::Duration;

fn load(path: &str) -> Puzzle {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    let text = std::fs::read_to_string(&full).expect("puzzle file");
    parse::parse(&text, path).expect("a valid puzzle")
}

fn stomachion(c: &mut Criterion) {
    let puzzle = load("puzzles/polygon/stomachion.toml");
    let once = solve_all(&puzzle, Options::default());
    eprintln!(
        "stomachion: raw {} distinct {} unique {} nodes {}",
        once.raw, once.distinct, once.unique, once.nodes
    );
    let mut g = c.benchmark_group("polygon");
    g.sample_size(10).measurement_time(Duration::from_secs(100));
    g.bench_function("stomachion_all_one_core", |b| {
        b.iter(|| {
            let r = solve_all(&puzzle, Options::default());
            assert_eq!(r.unique, 536);
        })
    });
    g.finish();
}

fn convex(c: &mut Criterion) {
    let shapes: Vec<Puzzle> = (1..=20)
        .map(|k| load(&format!("data/polygon/convex/{k:02}.toml")))
        .collect();
    let nodes: u64 = shapes
        .iter()
        .map(|p| solve_all(p, Options::default()).nodes)
        .sum();
    eprintln!("convex tangram shapes: {nodes} nodes in all");
    let mut g = c.benchmark_group("polygon");
    g.sample_size(20);
    g.bench_function("tangram_convex_20_all", |b| {
        b.iter(|| {
            let solvable = shapes
                .iter()
                .filter(|p| solve_all(p, Options::default()).raw > 0)
                .count();
            assert_eq!(solvable, 13);
        })
    });
    g.finish();
}

criterion_group!(benches, convex, stomachion);
criterion_main!(benches);
