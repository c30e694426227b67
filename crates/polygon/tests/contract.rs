//! The polygon engine keeps the search contract (`jigsolve_search::
//! testkit`) in exact and in floating-point numbers: the same counts on 1
//! to 4 threads and on 1, 2, 3 and 7 shards added up, probes that walk the
//! tree `node` describes, and every solution passing the independent
//! verifier. Node totals match too without the memo of impossible regions;
//! with it (one memo per thread) how the tree is cut changes what is
//! pruned, so only the counts must match.

mod common;

use common::load;
use jigsolve_polygon::{verify, Approx, Num, Options, Placement, Prepared, Scalar, Solver};
use jigsolve_search::testkit::{check, Contract};
use std::sync::Arc;

fn keeps_the_contract<S: Scalar>(path: &str, symmetry: bool, memo: bool) -> Option<u128> {
    let puzzle = load(path, None);
    let options = Options { symmetry, memo };
    let prep = Arc::new(Prepared::<S>::new(&puzzle, options).expect("prepared"));
    let report = check(
        || Solver::new(Arc::clone(&prep)),
        |s: &[Placement<S>]| verify(&puzzle, s).map_err(|e| e.to_string()),
        &Contract {
            same_nodes: !memo,
            ..Contract::default()
        },
    )
    .unwrap_or_else(|e| {
        panic!(
            "{path} exact {} symmetry {symmetry} memo {memo}: {e}",
            S::EXACT
        )
    });
    report.counts.unique
}

#[test]
fn exact_and_approximate_with_and_without_symmetry() {
    for path in [
        "puzzles/polygon/tangram-square.toml",
        "puzzles/polygon/tangram-t.toml",
    ] {
        let exact = keeps_the_contract::<Num>(path, true, false);
        assert!(exact.is_some_and(|u| u >= 1), "{path}: {exact:?}");
        assert_eq!(keeps_the_contract::<Num>(path, true, true), exact, "{path}");
        assert_eq!(
            keeps_the_contract::<Num>(path, false, true),
            exact,
            "{path}"
        );
        assert_eq!(
            keeps_the_contract::<Approx>(path, true, true),
            exact,
            "{path}"
        );
        assert_eq!(
            keeps_the_contract::<Approx>(path, true, false),
            exact,
            "{path}"
        );
    }
}
