//! Knuth estimates of the tree size for each bitboard cell choice:
//! `cargo run --release -p jigsolve-grid --example estimate -- FILE [PROBES]`.
use jigsolve_grid::{parse, EngineChoice, Options, Prepared, Solver};
use jigsolve_search::estimate::{estimate, SplitMix64};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let probes: u64 = args.get(2).map_or(1000, |p| p.parse().expect("probes"));
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let puzzle = parse::parse(&text, &args[1]).expect("parse").puzzle;
    for engine in [EngineChoice::BitboardFirst, EngineChoice::BitboardTight] {
        let prep = Prepared::new(
            &puzzle,
            Options {
                engine,
                ..Options::default()
            },
        );
        let mut solver = Solver::new(&prep);
        for seed in [1u64, 2, 3] {
            let t = std::time::Instant::now();
            let e = estimate(&mut solver, probes, &mut SplitMix64::new(seed)).expect("probe");
            println!(
                "{engine:>15} seed {seed}: nodes {:.3e} ± {:.1e}  solutions {:.0}  ({:.1} ms)",
                e.nodes.mean,
                e.nodes.std_error,
                e.solutions.mean,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
