//! Edge-matching benchmarks: count-all searches (throughput in placements,
//! so criterion prints placements per second) and first-solution searches
//! on Heule's few-colour puzzles.
//!
//! `cargo bench -p jigsolve-edge` (add a filter such as `count/` to run part).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use jigsolve_edge::{Options, Placement, Prepared, Puzzle, ScanOrder, Solver};
use jigsolve_search::{count_solutions, run_restarts, Control, Weight};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn load(path: &str) -> Puzzle {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    let text = std::fs::read_to_string(&full).expect("benchmark data");
    jigsolve_edge::parse::parse(&text, path, None).expect("a valid puzzle")
}

/// Counts every solution on one thread; returns (placements, unique).
fn count(prep: &Arc<Prepared>) -> (u64, u128) {
    let report =
        count_solutions(|| Solver::new(Arc::clone(prep)), 1, &Control::new()).expect("valid paths");
    (report.nodes.placements(), report.counts.unique.unwrap_or(0))
}

fn count_all(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    let cases = [
        (
            "impuzzable",
            "puzzles/edge/impuzzable.toml",
            ScanOrder::Auto,
        ),
        (
            "hunde-spiel",
            "puzzles/edge/hunde-spiel.toml",
            ScanOrder::Auto,
        ),
        (
            "owen-5x5",
            "data/edge/owen-set2/pieces_05x05.txt",
            ScanOrder::Auto,
        ),
        (
            "owen-6x6",
            "data/edge/owen-set2/pieces_06x06.txt",
            ScanOrder::Auto,
        ),
        (
            "owen-6x6",
            "data/edge/owen-set2/pieces_06x06.txt",
            ScanOrder::Frame,
        ),
        (
            "owen-6x6",
            "data/edge/owen-set2/pieces_06x06.txt",
            ScanOrder::Spiral,
        ),
    ];
    for (name, path, order) in cases {
        let puzzle = load(path);
        let prep = Arc::new(Prepared::new(
            &puzzle,
            Options {
                order,
                ..Options::default()
            },
        ));
        let (placements, unique) = count(&prep);
        eprintln!(
            "{name} ({}): {placements} placements, {unique} unique solutions",
            prep.order()
        );
        group.throughput(Throughput::Elements(placements));
        group.bench_function(BenchmarkId::new(name, prep.order()), |b| {
            b.iter(|| count(&prep))
        });
    }
    group.finish();
}

/// Finds one solution with randomized restarts, as `solve --limit 1 --threads 1` does.
fn first(puzzle: &Puzzle, orders: &[ScanOrder]) -> u64 {
    let report = run_restarts(
        |k| {
            let options = Options {
                order: orders[k as usize % orders.len()],
                seed: k,
                ..Options::default()
            };
            Solver::new(Arc::new(Prepared::new(puzzle, options)))
        },
        1 << 16,
        1,
        &Control::new(),
        |_: &[Placement], _: Weight| ControlFlow::Break(()),
    )
    .expect("valid paths");
    assert_eq!(report.reported, 1, "{}: no solution", puzzle.name);
    report.nodes.total()
}

fn first_solution(c: &mut Criterion) {
    let mut group = c.benchmark_group("first");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for name in [
        "clue1",
        "clue2",
        "clue3",
        "clue4",
        "em_7_3_6",
        "em_7_4_8",
        "em_7_4_9",
        "em_8_4_5",
        "em_9_3_5",
        "em_11_3_4",
        "em_12_2_4",
        "em_14_7_3",
    ] {
        let puzzle = load(&format!("data/edge/heule/{name}.txt"));
        let orders: Vec<ScanOrder> = jigsolve_edge::rank_orders(&puzzle, Options::default())
            .into_iter()
            .take(2)
            .map(|(o, _)| o)
            .collect();
        eprintln!(
            "{name}: {} nodes to the first solution ({orders:?})",
            first(&puzzle, &orders)
        );
        group.bench_function(name, |b| b.iter(|| first(&puzzle, &orders)));
    }
    group.finish();
}

criterion_group!(benches, count_all, first_solution);
criterion_main!(benches);
