//! The edge-matching engine keeps the search contract (`jigsolve_search::
//! testkit`) in every scan order, with and without symmetry breaking: the
//! same counts and node totals on 1 to 4 threads and on 1, 2, 3 and 7
//! shards added up, probes that walk the tree `node` describes, and every
//! solution passing the independent verifier.

mod common;

use common::load;
use jigsolve_edge::{verify, Options, Placement, Prepared, ScanOrder, Solver};
use jigsolve_search::testkit::{check, Contract};
use std::sync::Arc;

#[test]
fn every_order_with_and_without_symmetry() {
    // Published unique counts: Impuzzable 1 (Knuth), Hunde-Spiel 2.
    for (path, unique) in [
        ("puzzles/edge/impuzzable.toml", 1),
        ("puzzles/edge/hunde-spiel.toml", 2),
    ] {
        let puzzle = load(path);
        for order in [
            ScanOrder::Auto,
            ScanOrder::Rows,
            ScanOrder::Frame,
            ScanOrder::Spiral,
        ] {
            for symmetry in [true, false] {
                let options = Options {
                    order,
                    symmetry,
                    ..Options::default()
                };
                let prep = Arc::new(Prepared::new(&puzzle, options));
                let report = check(
                    || Solver::new(Arc::clone(&prep)),
                    |s: &[Placement]| verify(&puzzle, s).map_err(|e| e.to_string()),
                    &Contract::default(),
                )
                .unwrap_or_else(|e| panic!("{path} {order:?} symmetry {symmetry}: {e}"));
                assert_eq!(report.counts.unique, Some(unique), "{path} {order:?}");
            }
        }
    }
}
