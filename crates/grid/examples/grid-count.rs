//! Counts every solution of a puzzle file on one core and prints the rate:
//! `cargo run --release -p jigsolve-grid --example grid-count -- FILE [ENGINE] [nosym] [cap=N] [any] [portable]`.
//! `any` runs the copy of the bitboard search loop that serves every layout
//! (what a board without a copy of its own runs), `portable` the copy for
//! processors without the bit-manipulation instructions.
//! With `PROFILE` set in the environment it also prints the nodes at each
//! depth of the tree.

use jigsolve_grid::{parse, EngineChoice, Options, Prepared, Solver};
use jigsolve_search::{count_solutions, Control};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let mut options = Options::default();
    for a in &args[2..] {
        if a == "nosym" {
            options.symmetry = false;
        } else if a == "any" {
            options.any_layout = true;
        } else if a == "portable" {
            options.portable = true;
        } else if let Some(c) = a.strip_prefix("cap=") {
            options.region_cap = Some(c.parse().expect("cap"));
        } else {
            options.engine = a.parse::<EngineChoice>().expect("engine");
        }
    }
    let text = std::fs::read_to_string(path).expect("read");
    let parsed = parse::parse(&text, path).unwrap_or_else(|e| panic!("{e}"));
    for w in &parsed.puzzle.congruences() {
        eprintln!("warning: {}", parsed.warning_text(w));
    }
    let t0 = Instant::now();
    let prep = Prepared::new(&parsed.puzzle, options);
    let prep_time = t0.elapsed();
    let report = count_solutions(|| Solver::new(&prep), 1, &Control::new()).expect("run");
    let secs = report.elapsed.as_secs_f64();
    println!(
        "{path}: engine {:?} mode {:?} |G|={} reps={} prep {:.3}s search {:.3}s counts {:?} nodes {} => {:.1} M nodes/s",
        prep.engine(),
        prep.mode(),
        prep.problem().group.len(),
        prep.plan().reps.len(),
        prep_time.as_secs_f64(),
        secs,
        report.counts,
        report.nodes.total(),
        report.nodes.total() as f64 / secs / 1e6
    );
    if std::env::var_os("PROFILE").is_some() {
        for (d, n) in report.nodes.per_depth().iter().enumerate() {
            println!("depth {d}: {n}");
        }
    }
}
