//! Counts the tilings of a puzzle file on one thread:
//! `cargo run --release -p jigsolve-polygon --example count -- FILE [--no-memo] [--no-flip]`.

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
    let started = Instant::now();
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
