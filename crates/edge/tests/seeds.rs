//! The seeds' puzzles give the published counts, in every scan order, with
//! symmetry broken inside the search and without.

mod common;
use common::*;
use jigsolve_edge::Options;

fn check(path: &str, expected: (u128, u128, u128)) {
    let puzzle = load(path);
    for order in orders() {
        for symmetry in [true, false] {
            let (report, solutions) = solve(
                &puzzle,
                Options {
                    order,
                    symmetry,
                    ..Options::default()
                },
                1,
            );
            assert_eq!(
                counts(&report),
                expected,
                "{path} {order} symmetry={symmetry}"
            );
            let listed = if symmetry { expected.2 } else { expected.1 };
            assert_eq!(
                solutions.len() as u128,
                listed,
                "{path} {order} symmetry={symmetry}"
            );
        }
    }
}

#[test]
fn impuzzable_has_four_raw_one_unique() {
    check("puzzles/edge/impuzzable.toml", (4, 4, 1));
}

#[test]
fn scramble_mockup_has_eight_raw_two_unique() {
    check("puzzles/edge/scramble.toml", (8, 8, 2));
}

#[test]
fn hunde_spiel_has_sixteen_raw_eight_distinct_two_unique() {
    check("puzzles/edge/hunde-spiel.toml", (16, 8, 2));
}

#[test]
fn owen_sets_give_published_raw_counts() {
    for (file, raw) in [
        ("pieces_04x04.txt", 48),
        ("pieces_05x05.txt", 4),
        ("pieces_06x06.txt", 160),
    ] {
        let path = format!("data/edge/owen-set2/{file}");
        let puzzle = load(&path);
        let (report, _) = solve(&puzzle, Options::default(), 1);
        assert_eq!(report.counts.raw, Some(raw), "{file}");
    }
}
