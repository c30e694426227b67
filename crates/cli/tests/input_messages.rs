//! Messages about bad puzzle files say what the file got wrong in its own
//! terms: the value as written, the limit that applies, how things are
//! numbered; and mistakes that used to pass silently are refused.

use assert_cmd::Command;

fn run(text: &str, extra: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzle.txt");
    std::fs::write(&file, text).unwrap();
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .arg("solve")
        .arg(&file)
        .args(["--count", "--no-progress"])
        .args(extra)
        .output()
        .unwrap();
    let mut message = String::from_utf8_lossy(&out.stderr).into_owned();
    if let Some(at) = message.find("puzzle.txt") {
        message = message[at..].to_string();
    }
    (out.status.code(), message)
}

fn refused(text: &str, extra: &[&str], expected: &str) {
    let (code, message) = run(text, extra);
    assert_eq!(code, Some(2), "{message}");
    assert!(
        message.contains(expected),
        "expected '{expected}' in: {message}"
    );
}

const EDGE: &str = "family = \"edge\"\nname = \"t\"\nrows = 1\ncols = 2\nmatching = \"equal\"\ntiles = [\"0 1 0 0\", \"0 0 0 1\"]\n";

#[test]
fn a_negative_hint_rotation_is_reported_as_written() {
    refused(
        &format!("{EDGE}[[hints]]\ntile = 1\nrow = 1\ncol = 1\nrotation = -1\n"),
        &[],
        "has rotation -1; rotations are 0, 1, 2 or 3",
    );
}

#[test]
fn a_hint_for_a_missing_tile_says_how_tiles_are_numbered() {
    refused(
        "1\n99 0 0 0\n0 1 1 0\n0 0 1 1\n1 1 0 0\n1 0 0 1\n",
        &["--format", "hints"],
        "tiles are numbered from 1 here",
    );
}

const GRID_PIECE: &str = "[[piece]]\nname = \"D\"\nshape = \"##\"\n";

#[test]
fn board_sizes_state_their_limit() {
    refused(
        &format!("family = \"grid\"\nname = \"t\"\nboard = {{ size = [4097, 1] }}\n{GRID_PIECE}"),
        &[],
        "two positive whole numbers of at most 4096, found [4097, 1]",
    );
}

#[test]
fn holes_outside_the_board_or_listed_twice_are_refused() {
    refused(
        &format!("family = \"grid\"\nname = \"t\"\nboard = {{ size = [2, 2], holes = [[5, 0]] }}\n{GRID_PIECE}"),
        &[],
        "puzzle.txt:3: the hole [5, 0] is outside the board of size [2, 2]",
    );
    refused(
        &format!("family = \"grid\"\nname = \"t\"\nboard = {{ size = [2, 2], holes = [[1, 0], [1, 0]] }}\n{GRID_PIECE}"),
        &[],
        "puzzle.txt:3: the hole [1, 0] is listed twice",
    );
}

#[test]
fn a_board_written_as_a_list_of_cells_is_accepted() {
    let (code, message) = run(
        &format!("family = \"grid\"\nname = \"t\"\nboard = [[0, 0], [1, 0], [1, 1], [2, 1]]\n{GRID_PIECE}copies = 2\n"),
        &["--json"],
    );
    assert_eq!(code, Some(0), "{message}");
}

#[test]
fn too_many_colours_are_counted_not_named() {
    let names: Vec<String> = (0x100u32..)
        .filter_map(char::from_u32)
        .filter(|c| c.is_alphanumeric())
        .take(300)
        .map(|c| format!("\"{c}\""))
        .collect();
    refused(
        &format!(
            "family = \"grid\"\nname = \"t\"\ncolours = [{}]\nboard = \"##\"\n{GRID_PIECE}",
            names.join(", ")
        ),
        &[],
        "puzzle.txt:3: 300 colours are named; at most 255 are supported",
    );
}

/// A board of a few cells far apart is refused with its box and the limit
/// (issue 43: its letter grid spanned the box, and listing a solution of
/// four cells near (0, 0) and (1000000, 1000000) took all the memory).
#[test]
fn a_board_whose_cells_lie_far_apart_is_refused() {
    for (lattice, cells, span) in [
        (
            "square",
            "(0,0)(1,0)(1000000,1000000)(1000001,1000000)",
            "1000003000002",
        ),
        (
            "hexagon",
            "(0,0)(1,0)(10000,10000)(10001,10000)",
            "100030002",
        ),
        ("cube", "(0,0,0)(1,0,0)(0,0,5000)(1,0,5000)", "10002"),
    ] {
        let shape = if lattice == "hexagon" { "# #" } else { "##" };
        let text = format!(
            "family = \"grid\"\nname = \"t\"\nlattice = \"{lattice}\"\nboard = {{ cells = \"{cells}\" }}\n[[piece]]\nname = \"D\"\nshape = \"{shape}\"\ncopies = 2\n"
        );
        let (code, message) = run(&text, &["--limit", "1"]);
        if lattice == "cube" {
            // 2 x 1 x 5001 cells: a box that small is fine.
            assert_eq!(code, Some(0), "{lattice}: {message}");
            continue;
        }
        assert_eq!(code, Some(2), "{lattice}: {message}");
        assert!(
            message.contains(&format!(
                "the board's 4 cells lie in a box of {span} cells; at most 4194304 are supported"
            )),
            "{lattice}: {message}"
        );
        assert!(message.starts_with("puzzle.txt:4"), "{lattice}: {message}");
    }
}
