//! Times counting every solution of a puzzle file on one core, preparation
//! included (as `jigsolve solve --count --threads 1` does it), several times
//! in one process, and prints the median and the fastest run:
//! `cargo run --release -p jigsolve-grid --example grid-time -- FILE [ENGINE] [runs=N]`.
//!
//! On a shared machine the fastest run is the best estimate of the time on
//! a quiet one; compare variants by interleaving runs of both. On Linux the
//! time the thread actually spent on a core (from the scheduler's
//! statistics) is printed too: it leaves out the time other processes held
//! the core.

use jigsolve_grid::{parse, EngineChoice, Options, Prepared, Solver};
use jigsolve_search::{count_solutions, Control};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let mut options = Options::default();
    let mut runs = 20;
    for a in &args[2..] {
        if let Some(n) = a.strip_prefix("runs=") {
            runs = n.parse().expect("runs");
        } else {
            options.engine = a.parse::<EngineChoice>().expect("engine");
        }
    }
    let text = std::fs::read_to_string(path).expect("read");
    let puzzle = parse::parse(&text, path)
        .unwrap_or_else(|e| panic!("{e}"))
        .puzzle;
    let mut times = Vec::with_capacity(runs);
    let mut on_cpu = Vec::with_capacity(runs);
    let mut nodes = 0;
    for _ in 0..runs {
        let c0 = cpu_ns();
        let t0 = Instant::now();
        let prep = Prepared::new(&puzzle, options);
        let report = count_solutions(|| Solver::new(&prep), 1, &Control::new()).expect("run");
        times.push(t0.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c0, cpu_ns()) {
            on_cpu.push((b - a) as f64 * 1e-9);
        }
        nodes = report.nodes.total();
    }
    times.sort_by(f64::total_cmp);
    on_cpu.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    print!(
        "{path}: median {:.3} ms, fastest {:.3} ms of {runs} runs, {nodes} nodes, {:.1} M nodes/s at the median",
        median * 1e3,
        times[0] * 1e3,
        nodes as f64 / median / 1e6
    );
    if on_cpu.len() == runs {
        print!(
            "; on a core: median {:.3} ms, fastest {:.3} ms",
            on_cpu[runs / 2] * 1e3,
            on_cpu[0] * 1e3
        );
    }
    println!();
}

/// Nanoseconds this thread has spent on a core, from Linux's scheduler
/// statistics (`None` elsewhere).
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
