//! The verifier rejects what is wrong and says where.

mod common;
use common::*;
use jigsolve_edge::generate::{planted, Spec};
use jigsolve_edge::verify::{GridRecord, VerifyError};
use jigsolve_edge::{verify, Matching, Options, Placement};

fn impuzzable_solution() -> (jigsolve_edge::Puzzle, Vec<Placement>) {
    let p = load("puzzles/edge/impuzzable.toml");
    let (_, solutions) = solve(&p, Options::default(), 1);
    (p, solutions[0].clone())
}

#[test]
fn a_good_solution_passes() {
    let (p, s) = impuzzable_solution();
    assert_eq!(verify(&p, &s), Ok(()));
}

#[test]
fn swapped_tiles_do_not_fit() {
    let (p, mut s) = impuzzable_solution();
    s.swap(0, 1);
    assert!(matches!(verify(&p, &s), Err(VerifyError::Mismatch { .. })));
}

#[test]
fn a_turned_tile_does_not_fit() {
    let (p, mut s) = impuzzable_solution();
    s[4].rotation = (s[4].rotation + 1) % 4;
    let err = verify(&p, &s).unwrap_err();
    assert!(matches!(err, VerifyError::Mismatch { .. }), "{err}");
}

#[test]
fn a_tile_used_twice_is_named() {
    let (p, mut s) = impuzzable_solution();
    s[1] = s[0];
    assert_eq!(
        verify(&p, &s),
        Err(VerifyError::Reused {
            tile: s[0].tile as usize + 1
        })
    );
}

#[test]
fn border_marks_must_face_the_frame() {
    let (p, s) = planted(
        Spec {
            frame_colours: 0,
            rows: 3,
            cols: 3,
            colours: 5,
            border: true,
            matching: Matching::Equal,
        },
        9,
    );
    assert_eq!(verify(&p, &s), Ok(()));
    // Turning the whole board half round keeps joins but the corner tile at
    // the top-left now shows its border marks inwards unless turned too.
    let mut bad = s.clone();
    bad[0].rotation = (bad[0].rotation + 2) % 4;
    let err = verify(&p, &bad).unwrap_err();
    assert!(
        matches!(
            err,
            VerifyError::Border { .. } | VerifyError::Mismatch { .. }
        ),
        "{err}"
    );
}

#[test]
fn records_of_the_wrong_shape_are_rejected() {
    let (p, s) = impuzzable_solution();
    let mut record = GridRecord::of(&p, &s);
    record.cells.pop();
    assert!(matches!(
        record.placements(&p),
        Err(VerifyError::Shape { .. })
    ));
    let mut record = GridRecord::of(&p, &s);
    record.cells[0][0].tile = 10;
    assert!(matches!(
        record.placements(&p),
        Err(VerifyError::NoSuchTile { tile: 10, .. })
    ));
    let mut record = GridRecord::of(&p, &s);
    record.cells[0][0].rotation = 4;
    assert!(matches!(
        record.placements(&p),
        Err(VerifyError::Rotation { .. })
    ));
}
