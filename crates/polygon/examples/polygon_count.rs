//! Counts the tilings of a puzzle file (on one thread; `--nodes=N [--threads=T]` for a
//! limited or threaded count that also reports the shared memo's contention):
//! `cargo run --release -p jigsolve-polygon --example polygon_count -- FILE [--no-memo] [--no-flip]`.

use jigsolve_polygon::{parse, solve_all, Options};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: count FILE [--no-memo] [--no-flip] [--no-symmetry]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let flip = args.iter().any(|a| a == "--no-flip").then_some(false);
    let puzzle = parse::parse_with(&text, file, flip).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let options = Options {
        memo: !args.iter().any(|a| a == "--no-memo"),
        symmetry: !args.iter().any(|a| a == "--no-symmetry"),
    };
    let threads: usize = args
        .iter()
        .find_map(|a| a.strip_prefix("--threads="))
        .map_or(1, |t| t.parse().expect("a number"));
    let started = Instant::now();
    if let Some(limit) = args.iter().find_map(|a| a.strip_prefix("--nodes=")) {
        // Partial run: nodes per second and the per-depth profile.
        let limit: u64 = limit.parse().expect("a number");
        let prep = std::sync::Arc::new(
            jigsolve_polygon::Prepared::<jigsolve_polygon::Num>::new(&puzzle, options).unwrap(),
        );
        let control = jigsolve_search::Control::new().with_node_limit(limit);
        let report = jigsolve_search::count_solutions(
            || jigsolve_polygon::Solver::new(std::sync::Arc::clone(&prep)),
            threads,
            &control,
        )
        .unwrap();
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{} nodes in {secs:.3} s ({:.0}/s), unique so far {:?}, per depth {:?}",
            report.nodes.total(),
            report.nodes.total() as f64 / secs,
            report.counts.unique,
            report.nodes.per_depth()
        );
        let (entries, contended) = prep.memo_stats();
        println!(
            "memo: {entries} entries, {contended} contended lock acquisitions, {threads} threads"
        );
        return;
    }
    if let Some(probes) = args.iter().find_map(|a| a.strip_prefix("--estimate=")) {
        let prep = std::sync::Arc::new(
            jigsolve_polygon::Prepared::<jigsolve_polygon::Num>::new(&puzzle, options).unwrap(),
        );
        let mut solver = jigsolve_polygon::Solver::new(prep);
        let mut rng = jigsolve_search::estimate::SplitMix64::new(7);
        let e = jigsolve_search::estimate::estimate(&mut solver, probes.parse().unwrap(), &mut rng)
            .unwrap();
        println!(
            "estimate: nodes {:.3e} ± {:.1e}, unique sols {:.1} ± {:.1}; per depth {:?}",
            e.nodes.mean,
            e.nodes.std_error,
            e.solutions.mean,
            e.solutions.std_error,
            e.nodes_per_depth
                .iter()
                .map(|x| format!("{x:.2e}"))
                .collect::<Vec<_>>()
        );
        return;
    }
    let c = solve_all(&puzzle, options);
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{}: raw {} distinct {} unique {} listed {} nodes {} in {secs:.3} s ({:.0} nodes/s){}",
        puzzle.name,
        c.raw,
        c.distinct,
        c.unique,
        c.listed,
        c.nodes,
        c.nodes as f64 / secs,
        if c.approximate { " approximate" } else { "" }
    );
}
