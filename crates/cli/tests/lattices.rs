//! The command line on triangle and hexagon puzzles: catalog counts with
//! both engines, every listed solution through `verify`, letter grids in
//! the art's layout, pictures, the DLX export, generated puzzles, and bad
//! files (file and line named, exit 2).

use predicates::prelude::*;

mod common;
use common::{assert_verified, complete_count, counts, file, jigsolve, json_lines};

/// (catalog name, raw, distinct, unique).
const CATALOG: [(&str, u64, u64, u64); 7] = [
    ("hexiamond-6x6", 624, 624, 156),
    ("hexiamond-4x9", 148, 148, 74),
    ("hexiamond-3x12", 0, 0, 0),
    ("tetrahex-4x7", 18, 18, 9),
    ("hexiamond-6x6-sides", 12, 12, 6),
    ("tetrahex-4x7-colours", 3, 3, 3),
    ("polyhex-hexagon", 147_480, 147_480, 12_290),
];

#[test]
fn catalog_counts_with_both_engines() {
    for (name, raw, distinct, unique) in CATALOG {
        for engine in ["auto", "dlx"] {
            let v = complete_count(name, &["--engine", engine, "--threads", "1"]);
            assert_eq!(
                counts(&v),
                [raw, distinct, unique].map(serde_json::Value::from),
                "{name} {engine}: {v}"
            );
        }
    }
}

#[test]
fn no_solution_exits_1() {
    jigsolve()
        .args(["solve", "hexiamond-3x12", "--count", "--no-progress"])
        .assert()
        .code(1);
}

#[test]
fn every_listed_solution_verifies() {
    for name in [
        "hexiamond-4x9",
        "tetrahex-4x7",
        "hexiamond-6x6-sides",
        "tetrahex-4x7-colours",
    ] {
        let out = jigsolve()
            .args(["solve", name, "--json", "--no-symmetry", "--no-progress"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let lines = json_lines(&out.stdout);
        let expected = CATALOG.iter().find(|c| c.0 == name).unwrap().2;
        assert_eq!(
            lines.len() as u64,
            expected + 1,
            "{name}: solutions and summary"
        );
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), &out.stdout).unwrap();
        assert_verified(name, f.path());
    }
}

#[test]
fn a_moved_piece_fails_verify() {
    let out = jigsolve()
        .args(["solve", "hexiamond-6x6", "--json", "--limit", "1"])
        .args(["--no-progress"])
        .output()
        .unwrap();
    let mut v = json_lines(&out.stdout).remove(0);
    // Turn one triangle of the first piece over (z 0 <-> 1): no longer the
    // piece's shape, and another piece's triangle is covered twice.
    let cell = &mut v["solution"]["placements"][0]["cells"][0];
    let z = cell[2].as_i64().unwrap();
    cell[2] = (1 - z).into();
    let text = format!("{v}\n");
    let f = file(&text);
    jigsolve()
        .args(["verify", "hexiamond-6x6"])
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(":1: not a solution"));
}

#[test]
fn solutions_print_in_the_layout_of_the_art() {
    // Hexagons two columns apart, each line one column further right.
    let out = jigsolve()
        .args(["solve", "tetrahex-4x7", "--limit", "1", "--no-progress"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let grid: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("solution 1"))
        .skip(1)
        .take(4)
        .collect();
    for (r, line) in grid.iter().enumerate() {
        assert_eq!(line.len(), r + 13, "{text}");
        let chars: Vec<char> = line.chars().collect();
        for (c, ch) in chars.iter().enumerate() {
            let on = c >= r && (c - r) % 2 == 0;
            assert_eq!(ch.is_ascii_uppercase(), on, "{text}");
        }
    }
    // Triangles fill every column of a line.
    let out = jigsolve()
        .args(["solve", "hexiamond-6x6", "--limit", "1", "--no-progress"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let grid: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("solution 1"))
        .skip(1)
        .take(6)
        .collect();
    for (r, line) in grid.iter().enumerate() {
        assert_eq!(line.trim_start().len(), 12, "{text}");
        assert_eq!(line.len() - line.trim_start().len(), r, "{text}");
    }
}

#[test]
fn pictures_draw_polygons() {
    let out = jigsolve()
        .args(["render", "polyhex-hexagon", "--svg", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let svg = String::from_utf8_lossy(&out.stdout);
    // 37 board hexagons, and 3 x 3 + 7 x 4 piece hexagons, each with six
    // corners.
    let hexagons = svg
        .lines()
        .filter(|l| l.contains("<polygon") && l.matches(',').count() == 6)
        .count();
    assert!(hexagons >= 37 + 37, "{hexagons} hexagons\n{svg}");
}

#[test]
fn export_writes_triangles_as_items() {
    let out = jigsolve()
        .args(["export", "hexiamond-6x6", "--dlx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let items = text.lines().find(|l| !l.starts_with('|')).unwrap();
    // 72 triangles and 12 pieces.
    assert_eq!(items.split_whitespace().count(), 84, "{items}");
    // With the rhombus's 4 symmetries broken, one piece keeps a quarter of
    // its options; a piece without symmetry of its own is needed (a
    // symmetric one has placements the symmetries fix).
    let out = jigsolve()
        .args(["export", "hexiamond-6x6", "--dlx", "--break-symmetry"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let broken = String::from_utf8_lossy(&out.stdout);
    assert!(
        broken.contains("piece A keeps 27 of its 108 options"),
        "{broken}"
    );
    let options = |t: &str| t.lines().filter(|l| !l.starts_with('|')).count() - 1;
    assert_eq!(options(&text) - options(&broken), 108 - 27);
    jigsolve()
        .args(["export", "--dlx", "--break-symmetry", "soma"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no piece can break the board's 48 symmetries",
        ));
}

#[test]
fn generated_plane_puzzles_read_back_and_hold_their_solution() {
    for (how, source, sizes) in [
        ("--board", "tetrahex-4x7", &["--piece-size", "5-7"][..]),
        ("--pieces", "hexiamond-4x9", &[][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let puzzle = dir.path().join("p.toml");
        let solution = dir.path().join("s.json");
        jigsolve()
            .args(["generate", "grid", how, source, "--seed", "4"])
            .args(sizes)
            .args(["--no-progress", "--output"])
            .arg(&puzzle)
            .arg("--solution")
            .arg(&solution)
            .assert()
            .code(0);
        let text = std::fs::read_to_string(&puzzle).unwrap();
        let lattice = if source.starts_with("tetra") {
            "hexagon"
        } else {
            "triangle"
        };
        assert!(text.contains(&format!("lattice = \"{lattice}\"")), "{text}");
        assert_verified(puzzle.to_str().unwrap(), &solution);
    }
}

#[test]
fn bad_plane_files_name_file_and_line_and_exit_2() {
    let cases = [
        (
            "lattice = \"hexagon\"\nboard = \"\"\"\n# # #\n # #\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"\"\"\n# #\n  #\n\"\"\"\n",
            ":10: piece 'A': '#' in column 3 sits between two hexagons",
        ),
        (
            "lattice = \"triangle\"\nboard = { size = [2, 1] }\n[[piece]]\nname = \"A\"\ncells = [[0, 0], [1, 0]]\n",
            ":5: piece 'A': a cell has 2 coordinates, but the triangle lattice needs 3",
        ),
        (
            "lattice = \"triangle\"\nboard = { size = [2, 1] }\n[[piece]]\nname = \"A\"\ncells = [[0, 0, 0], [0, 0, 2]]\n",
            ":3: piece 'A': the cell (0,0,2) is not a cell of the triangle lattice",
        ),
        (
            "lattice = \"hexagon\"\nboard = [[0, 0], [1, 0]]\n[[piece]]\nname = \"A\"\ncells = [[0, 0, 0], [1, 0, 0]]\n",
            ":5: piece 'A': a cell has 3 coordinates, but the hexagon lattice needs 2",
        ),
        (
            "lattice = \"triangle\"\nboard = \"\"\"\n####\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"#.#\"\n",
            ":5: piece 'A' is not connected",
        ),
        (
            "lattice = \"pentagon\"\nboard = \"##\"\n",
            ":1: unknown lattice 'pentagon'",
        ),
        (
            "lattice = \"triangle\"\nboard = [\"\"\"\n##\n\"\"\", \"\"\"\n##\n\"\"\"]\n[[piece]]\nname = \"A\"\nshape = \"##\"\n",
            ":2: the board: 2 layers of art on the triangle lattice",
        ),
    ];
    for (text, want) in cases {
        let f = file(text);
        let path = f.path().display().to_string();
        jigsolve()
            .args(["solve"])
            .arg(f.path())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{path}{want}")))
            .stderr(predicate::str::contains("panicked").not());
    }
}
