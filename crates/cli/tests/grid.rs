//! The command line on polyform (grid) puzzles: output, JSON, exit codes,
//! verify, export, and bad files (file and line named, exit 2, no panic).

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{assert_rejected, file, jigsolve, json_lines};

#[test]
fn catalog_puzzle_counts_and_summary() {
    jigsolve()
        .args(["solve", "pentomino-3x20", "--count"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("pentomino-3x20: complete search"))
        .stdout(predicate::str::contains("raw      8"))
        .stdout(predicate::str::contains("unique   2"))
        .stdout(predicate::str::contains("engine"));
}

#[test]
fn solutions_print_as_letter_grids() {
    let out = jigsolve()
        .args(["solve", "pentomino-3x20", "--threads", "1"])
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(text.matches("solution ").count(), 2, "{text}");
    // Each solution is three rows of twenty piece letters.
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.len() == 20 && l.chars().all(|c| "FILNPTUVWXYZ".contains(c)))
        .collect();
    assert_eq!(rows.len(), 6, "{text}");
}

#[test]
fn solids_print_layer_by_layer() {
    jigsolve()
        .args(["solve", "soma", "--limit", "1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("z = 0:\n"))
        .stdout(predicate::str::contains("z = 2:\n"))
        .stdout(predicate::str::contains("pieces A and B swapped"));
}

#[test]
fn json_lines_then_verify() {
    let out = jigsolve()
        .args(["solve", "atwood", "--json"])
        .assert()
        .code(0);
    let stdout = out.get_output().stdout.clone();
    let lines = json_lines(&stdout);
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["family"], "grid");
    assert_eq!(summary["raw"], 44);
    assert_eq!(summary["distinct"], 22);
    assert_eq!(summary["unique"], 11);
    assert_eq!(summary["complete"], true);
    let first = &lines[0];
    assert_eq!(first["type"], "solution");
    assert_eq!(first["weight"]["unique"], 1);
    assert_eq!(first["solution"]["grid"].as_array().unwrap().len(), 8);
    assert!(!first["solution"]["placements"]
        .as_array()
        .unwrap()
        .is_empty());
    let saved = file(&String::from_utf8_lossy(&stdout));
    jigsolve()
        .args(["verify", "atwood"])
        .arg(saved.path())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("ok: 11 solutions"));
}

#[test]
fn verify_rejects_a_wrong_solution() {
    let out = jigsolve()
        .args(["solve", "pentomino-3x20", "--json", "--limit", "1"])
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    // Move one cell of the first piece somewhere else.
    let first_line = text.lines().next().unwrap();
    let mut v: Value = serde_json::from_str(first_line).unwrap();
    v["solution"]["placements"][0]["cells"][0] = serde_json::json!([0, 0]);
    let bad = file(&format!("{v}\n"));
    jigsolve()
        .args(["verify", "pentomino-3x20"])
        .arg(bad.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(":1: not a solution"));
    // A grid text that contradicts the placements (issue 43: accepted).
    let mut v: Value = serde_json::from_str(first_line).unwrap();
    let row = v["solution"]["grid"][0].as_str().unwrap().to_string();
    let swapped: String = row.chars().rev().collect();
    v["solution"]["grid"][0] = serde_json::json!(swapped);
    let bad = file(&format!("{v}\n"));
    jigsolve()
        .args(["verify", "pentomino-3x20"])
        .arg(bad.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "its \"grid\" does not show its placements",
        ));
    // Weights no listing gives (issue 43: any weight was accepted).
    for (weight, why) in [
        (
            serde_json::json!({"raw": -4, "distinct": 4, "unique": 1}),
            "raw count -4 is not",
        ),
        (
            serde_json::json!({"raw": 4, "distinct": 0, "unique": 1}),
            "distinct count 0 is not",
        ),
        (
            serde_json::json!({"raw": 4, "distinct": 4, "unique": -1}),
            "unique count -1 is not",
        ),
        (
            serde_json::json!({"raw": 4, "distinct": "4", "unique": 1}),
            "distinct count \"4\"",
        ),
        (
            serde_json::json!({"raw": 6, "distinct": 4, "unique": 1}),
            "not a multiple of its distinct",
        ),
        (
            serde_json::json!({"raw": 4, "distinct": 4, "unique": 3}),
            "not a multiple of its unique",
        ),
        (
            serde_json::json!({"raw": 4, "distinct": 4}),
            "no unique count",
        ),
    ] {
        let mut v: Value = serde_json::from_str(first_line).unwrap();
        v["weight"] = weight;
        let bad = file(&format!("{v}\n"));
        jigsolve()
            .args(["verify", "pentomino-3x20"])
            .arg(bad.path())
            .assert()
            .code(1)
            .stderr(predicate::str::contains(why));
    }
    // The line as solve wrote it verifies.
    let good = file(&format!("{first_line}\n"));
    jigsolve()
        .args(["verify", "pentomino-3x20"])
        .arg(good.path())
        .assert()
        .code(0);
}

#[test]
fn no_symmetry_lists_every_distinct_solution() {
    let out = jigsolve()
        .args(["solve", "pentomino-3x20", "--json", "--no-symmetry"])
        .assert()
        .code(0);
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 8 + 1);
    let summary = lines.last().unwrap();
    assert_eq!(
        (summary["raw"].as_u64(), summary["unique"].as_u64()),
        (Some(8), Some(2))
    );
}

#[test]
fn engines_can_be_chosen_and_agree() {
    for engine in ["bitboard", "bitboard-first", "bitboard-mrv", "dlx"] {
        let out = jigsolve()
            .args([
                "solve",
                "pentomino-3x20",
                "--count",
                "--json",
                "--engine",
                engine,
            ])
            .assert()
            .code(0);
        let lines = json_lines(&out.get_output().stdout);
        assert_eq!(lines[0]["unique"], 2, "{engine}");
    }
    jigsolve()
        .args(["solve", "soma", "--engine", "fastest"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown engine 'fastest'"));
}

#[test]
fn options_of_other_families_are_rejected() {
    jigsolve()
        .args(["solve", "soma", "--order", "rows"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--order applies to edge-matching puzzles only",
        ));
    jigsolve()
        .args(["solve", "impuzzable", "--engine", "dlx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--engine applies to polyform (grid) puzzles only",
        ));
    jigsolve()
        .args(["solve", "soma", "--format", "wh"])
        .assert()
        .code(2);
}

#[test]
fn export_writes_knuths_dlx_format() {
    jigsolve()
        .args(["export", "--dlx", "soma"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("| soma"))
        .stdout(predicate::str::contains("000 001 002"));
    jigsolve()
        .args(["export", "--dlx", "impuzzable"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "applies to polyform (grid) puzzles only",
        ));
}

#[test]
fn a_file_puzzle_with_colours_copies_and_optional_pieces() {
    let f = file(
        r##"family = "grid"
name = "tiny"
colours = ["b", "w"]
board = """
bwb
wbw
"""
[[piece]]
name = "L"
sides = "one"
shape = """
b.
wb
"""
[[piece]]
name = "m"
optional = true
copies = 3
shape = "#"
"##,
    );
    let out = jigsolve()
        .args(["solve", "--json", "--count"])
        .arg(f.path())
        .assert()
        .code(0);
    let lines = json_lines(&out.get_output().stdout);
    let s = lines.last().unwrap();
    assert_eq!(s["puzzle"], "tiny");
    assert!(s["distinct"].as_u64().unwrap() > 0);
}

#[test]
fn no_solution_exits_1() {
    // A one-sided L tetromino on a board shaped like its mirror image.
    let f = file("board = \"\"\"\n#..\n###\n\"\"\"\n[[piece]]\nname = \"L\"\nsides = \"one\"\nshape = \"\"\"\n..#\n###\n\"\"\"\n");
    jigsolve()
        .args(["solve"])
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("piece 'L' fits nowhere"));
    // Turned over, it fits.
    let f = file("board = \"\"\"\n#..\n###\n\"\"\"\n[[piece]]\nname = \"L\"\nsides = \"two\"\nshape = \"\"\"\n..#\n###\n\"\"\"\n");
    jigsolve().args(["solve"]).arg(f.path()).assert().code(0);
    // Colours that cannot match.
    let f =
        file("colours = [\"b\", \"w\"]\nboard = \"bw\"\n[[piece]]\nname = \"D\"\nshape = \"bb\"\n");
    jigsolve()
        .args(["solve"])
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("fits nowhere"));
}

#[test]
fn bad_files_name_file_and_line_and_exit_2() {
    let cases = [
        ("family = \"grid\"\nboard = \"##\"\n[[piece]]\nname = \"A\"\nshape = \"#?\"\n", ":5: piece 'A': unexpected character '?'"),
        ("family = \"grid\"\nboard = \"###\"\n[[piece]]\nname = \"A\"\nshape = \"#.#\"\n[[piece]]\nname = \"B\"\nshape = \"#\"\n", ":3: piece 'A' is not connected"),
        ("family = \"grid\"\nboard = \"####\"\n[[piece]]\nname = \"A\"\nshape = \"###\"\n", ":3: the pieces cover 3 cells, but the board has 4"),
        ("family = \"grid\"\nboard = \"##\"\n[[piece]]\nname = \"A\"\ncells = \"(0,0)(1\"\n", ":5: piece 'A'"),
        ("family = \"polygons\"\n", ":1: unknown family \"polygons\""),
        ("family = \"grid\"\nboard = \n", ":2:"),
    ];
    for (text, want) in cases {
        assert_rejected(text, want);
    }
}

#[test]
fn congruent_pieces_warn_with_the_line() {
    let f = file("family = \"grid\"\nboard = \"####\"\n[[piece]]\nname = \"A\"\nshape = \"##\"\n[[piece]]\nname = \"B\"\nshape = \"##\"\n");
    let path = f.path().display().to_string();
    jigsolve()
        .args(["solve", "--count"])
        .arg(f.path())
        .assert()
        .code(0)
        .stderr(predicate::str::contains(format!(
            "warning: {path}:6: pieces 'A' and 'B' are the same shape"
        )))
        .stderr(predicate::str::contains("copies = 2"));
}
