//! Counts every solution of a puzzle file on one core and prints the rate:
//! `cargo run --release -p jigsolve-edge --example count -- FILE [ORDER] [nosym] [nohalves]`.

use jigsolve_edge::{Options, Prepared, Solver};
use jigsolve_search::{count_solutions, Control};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let order = args
        .get(2)
        .map(|s| s.parse().expect("order"))
        .unwrap_or_default();
    let symmetry = !args.iter().skip(3).any(|s| s == "nosym");
    let halves = args
        .iter()
        .skip(3)
        .any(|s| s == "nohalves")
        .then_some(false);
    let text = std::fs::read_to_string(path).expect("read");
    let puzzle = jigsolve_edge::parse::parse(&text, path, None).expect("parse");
    let t0 = Instant::now();
    let prep = Arc::new(Prepared::new(
        &puzzle,
        Options {
            order,
            symmetry,
            halves,
            ..Options::default()
        },
    ));
    let prep_time = t0.elapsed();
    let report =
        count_solutions(|| Solver::new(Arc::clone(&prep)), 1, &Control::new()).expect("run");
    let secs = report.elapsed.as_secs_f64();
    println!(
        "{path}: order {} mode {:?} prep {:.3}s search {:.3}s counts {:?} nodes {} => {:.1} M placements/s",
        prep.order(),
        prep.symmetry_mode(),
        prep_time.as_secs_f64(),
        secs,
        report.counts,
        report.nodes.total(),
        report.nodes.placements() as f64 / secs / 1e6
    );
}
