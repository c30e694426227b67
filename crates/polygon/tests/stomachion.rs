//! Archimedes' Stomachion: the full count (17,152 raw, 4,288 distinct, 536
//! unique; Cutler 2003), every listed solution verified, and a prefix of
//! the search on two threads.

mod common;
use common::*;
use jigsolve_polygon::Options;
use jigsolve_search::Control;

#[test]
fn stomachion_solutions_found_early_verify() {
    let puzzle = load("puzzles/polygon/stomachion.toml", None);
    let (report, sols) = solve(
        &puzzle,
        Options::default(),
        2,
        Control::new().with_node_limit(30_000),
    );
    assert!(!sols.is_empty());
    // Each listed solution is canonical and stands for |orbit| x 2! x 2! raw ones.
    let raw = report.counts.raw.unwrap();
    let distinct = report.counts.distinct.unwrap();
    assert_eq!(raw, distinct * 4);
    assert_eq!(report.counts.unique.unwrap(), sols.len() as u128);
}

#[test]
fn stomachion_has_17152_raw_4288_distinct_536_unique() {
    let puzzle = load("puzzles/polygon/stomachion.toml", None);
    let (report, sols) = solve(&puzzle, Options::default(), 1, Control::new());
    assert_eq!(counts(&report), (17_152, 4_288, 536));
    assert_eq!(sols.len(), 536);
}
