//! Regions of several polygons, apart or sharing a corner; counts worked out
//! by hand.

mod common;
use common::*;
use jigsolve_polygon::{parse, Options};
use jigsolve_search::Control;

const TRIANGLES: &str = r#"
[[pieces]]
name = "t"
vertices = "(0,0) (1,0) (0,1)"
copies = 4
"#;

fn counts_of(region: &str) -> (u128, u128, u128) {
    let text = format!("family = \"polygon\"\nregion = {region}\n{TRIANGLES}");
    let puzzle = parse::parse(&text, "regions.toml").unwrap();
    let (a, _) = solve(&puzzle, Options::default(), 1, Control::new());
    let (b, sols) = solve(
        &puzzle,
        Options {
            symmetry: false,
            memo: false,
        },
        2,
        Control::new(),
    );
    assert_eq!(counts(&a), counts(&b));
    assert_eq!(sols.len() as u128, counts(&b).1);
    counts(&a)
}

#[test]
fn two_squares_apart() {
    // Each unit square is cut by one of its two diagonals: 4 distinct
    // tilings; 4! labellings of the identical triangles. The region keeps 4
    // motions (half turn, two mirrors); orbits: {//, \\} and {/\, \/}.
    assert_eq!(
        counts_of(r#"["(0,0) (1,0) (1,1) (0,1)", "(3,0) (4,0) (4,1) (3,1)"]"#),
        (96, 4, 2)
    );
}

#[test]
fn two_squares_sharing_a_corner() {
    // Squares [0,1]² and [1,2]² meet at (1,1). The mirror in y = x keeps each
    // square and each diagonal; the half turn about (1,1) swaps the squares:
    // orbits {//}, {\\}, {/\, \/}.
    assert_eq!(
        counts_of(r#"["(0,0) (1,0) (1,1) (0,1)", "(1,1) (2,1) (2,2) (1,2)"]"#),
        (96, 4, 3)
    );
}
