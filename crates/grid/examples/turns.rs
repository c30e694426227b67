//! Nodes and time of a puzzle's count with the scan laid out on each turn
//! of its board: `ALL=1 cargo run --release -p jigsolve-grid --example turns -- FILE...`
//! (without `ALL`, only the turn the scan takes by default; `ENGINE=bitboard-first` and
//! the like choose the engine).
use jigsolve_grid::{parse, Options, Prepared, Problem, Solver};
use jigsolve_search::{count_solutions, Control};
use std::time::Instant;

fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("read");
        let puzzle = parse::parse(&text, &path).expect("parse").puzzle;
        println!(
            "{path}: the scan's turn is {}",
            jigsolve_grid::scan_turn(&puzzle)
        );
        if std::env::var_os("ALL").is_none() {
            continue;
        }
        for m in 0..puzzle.lattice.motions() {
            let t0 = Instant::now();
            let mut options = Options::default();
            if let Ok(engine) = std::env::var("ENGINE") {
                options.engine = engine.parse().expect("an engine");
            }
            let prep = Prepared::from_problem(Problem::turned(&puzzle, m), options);
            let axes = prep.problem().scan_axes.clone();
            let r = count_solutions(|| Solver::new(&prep), 1, &Control::new()).expect("run");
            println!(
                "{path} turn {m:2} axes {axes:?} engine {:?} counts {:?} nodes {} time {:.3}s",
                prep.engine(),
                r.counts,
                r.nodes.total(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
}
