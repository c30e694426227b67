//! The automatic order on few colours. Random probes estimate each order's
//! tree; with 256 probes an order the estimate puts first can have the
//! larger tree. When the two best estimates are close, the automatic choice
//! probes them again (see `Prepared::new`).

mod common;

use common::load;
use jigsolve_edge::generate::{planted, Spec};
use jigsolve_edge::{Matching, Options, Prepared, ScanOrder};

/// Generated 6 x 6 boards of 4 colours with a border (`jigsolve generate
/// edge --rows 6 --cols 6 --colours 4 --seed N`) on which 256 probes per
/// order put the row order first, though the frame-first tree is 4.3 and
/// 1.9 times smaller (72.5 M against 16.7 M nodes counted, and 53.7 M
/// against 27.9 M; BENCHMARKS.md, issue 15).
#[test]
fn auto_picks_the_frame_where_its_tree_is_smaller_on_four_colours() {
    for seed in [1, 3] {
        let spec = Spec {
            rows: 6,
            cols: 6,
            colours: 4,
            frame_colours: 0,
            border: true,
            matching: Matching::Equal,
        };
        let (puzzle, _) = planted(spec, seed);
        let prep = Prepared::new(&puzzle, Options::default());
        assert_eq!(prep.order(), ScanOrder::Frame, "seed {seed}");
    }
}

/// Owen's 6 x 6 keeps the row order (10.96 M nodes against 76.5 M for the
/// frame first) although its estimates are close enough to probe again.
#[test]
fn auto_keeps_the_rows_on_owens_six_by_six() {
    let puzzle = load("data/edge/owen-set2/pieces_06x06.txt");
    let prep = Prepared::new(&puzzle, Options::default());
    assert_eq!(prep.order(), ScanOrder::Rows);
}
