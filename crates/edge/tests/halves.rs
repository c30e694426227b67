//! Counting by halves (meeting in the middle below each complete frame, for
//! a sink that only counts) counts what the plain walk counts, on one and two
//! threads, and is used where it is forced.

mod common;

use common::load;
use jigsolve_edge::{Options, Prepared, ScanOrder, Solver};
use jigsolve_search::{count_solutions, Control, Report};
use std::sync::Arc;

fn count(prep: &Arc<Prepared>, threads: usize) -> Report {
    let report = count_solutions(|| Solver::new(Arc::clone(prep)), threads, &Control::new())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.complete);
    report
}

#[test]
fn halves_count_what_the_plain_walk_counts() {
    for path in [
        "data/edge/owen-set2/pieces_04x04.txt",
        "data/edge/owen-set2/pieces_05x04.txt",
        "data/edge/owen-set2/pieces_05x05.txt",
        "data/edge/owen-set2/pieces_06x05.txt",
    ] {
        let puzzle = load(path);
        let prepare = |halves| {
            Arc::new(Prepared::new(
                &puzzle,
                Options {
                    order: ScanOrder::Frame,
                    halves: Some(halves),
                    ..Options::default()
                },
            ))
        };
        let (plain, halves) = (prepare(false), prepare(true));
        assert_eq!(plain.halves(), None, "{path}");
        let (at, mid) = halves
            .halves()
            .unwrap_or_else(|| panic!("{path}: no halves"));
        assert!(at < mid && mid < puzzle.rows * puzzle.cols, "{path}");
        let walked = count(&plain, 1);
        assert!(walked.counts.raw.unwrap() > 0, "{path}");
        for threads in [1, 2] {
            let met = count(&halves, threads);
            assert_eq!(met.counts, walked.counts, "{path} on {threads} threads");
            assert_eq!(met.reported, walked.reported, "{path} on {threads} threads");
            // Below the middle the halves walk other nodes than the plain
            // walk: the counts above agree without walking every leaf.
            assert_ne!(met.nodes.total(), walked.nodes.total(), "{path}");
        }
    }
}
