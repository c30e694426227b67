//! Experiment: how often does a seeded candidate order find a first solution
//! within a node budget? `restarts FILE ORDER BUDGET SEEDS`
use jigsolve_edge::{Options, Prepared, Solver};
use jigsolve_search::{run, Control, RunConfig};
use std::sync::Arc;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let p = jigsolve_edge::parse::parse(&text, &a[1], None).unwrap();
    let order = a[2].parse().unwrap();
    let budget: u64 = a[3].parse().unwrap();
    let seeds: u64 = a[4].parse().unwrap();
    let mut ok = 0;
    for seed in 1..=seeds {
        let prep = Arc::new(Prepared::new(
            &p,
            Options {
                order,
                seed,
                ..Options::default()
            },
        ));
        let control = Control::new().with_node_limit(budget);
        let r = run(
            || Solver::new(prep.clone()),
            &RunConfig {
                threads: 1,
                shard: None,
                want_solutions: true,
            },
            &control,
            |_, _| std::ops::ControlFlow::Break(()),
        )
        .unwrap();
        if r.reported > 0 {
            ok += 1;
            println!("seed {seed}: found after {} nodes", r.nodes.total());
        }
    }
    println!("{ok}/{seeds} seeds found a solution within {budget} nodes");
}
