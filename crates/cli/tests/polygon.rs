//! The command line on polygon puzzles: output, JSON, verify, exit codes,
//! bad files.

use predicates::prelude::*;
use std::io::Write;

mod common;
use common::{jigsolve, root, succeeds};

#[test]
fn lists_and_shows_the_catalog() {
    jigsolve()
        .arg("list")
        .assert()
        .success()
        .stdout(
            predicate::str::contains("stomachion").and(predicate::str::contains(
                "published counts: raw 17152, distinct 4288, unique 536",
            )),
        )
        .stdout(predicate::str::contains("tangram-square"));
    jigsolve()
        .args(["show", "tangram-square"])
        .assert()
        .success()
        .stdout(predicate::str::contains("family = \"polygon\""));
}

#[test]
fn counts_the_tangram_square() {
    jigsolve()
        .args(["solve", "tangram-square", "--count", "--threads", "1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("raw      32"))
        .stdout(predicate::str::contains("distinct  8"))
        .stdout(predicate::str::contains("unique    1"))
        .stdout(predicate::str::contains("exact, in Q(√2)"));
    jigsolve()
        .args(["solve", "tangram-square", "--count", "--no-flip"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("raw      16"));
}

#[test]
fn prints_placements_and_verifies_json() {
    jigsolve()
        .args(["solve", "tangram-t", "--limit", "1", "--threads", "1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("parallelogram").and(predicate::str::contains("turn")));
    let out = succeeds(jigsolve().args(["solve", "tangram-t", "--json", "--threads", "2"]));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["raw"], 104);
    assert_eq!(summary["unique"], 13);
    assert_eq!(summary["approximate"], false);
    assert_eq!(lines.len(), 14);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    jigsolve()
        .args(["verify", "tangram-t"])
        .arg(file.path())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("ok: 13 solutions"));
    // A tampered solution fails verification with exit 1.
    let tampered = text.replacen("\"flipped\":false", "\"flipped\":true", 1);
    let mut bad = tempfile::NamedTempFile::new().unwrap();
    bad.write_all(tampered.as_bytes()).unwrap();
    jigsolve()
        .args(["verify", "tangram-t"])
        .arg(bad.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(":1: not a solution"));
}

#[test]
fn unsolvable_shape_exits_1() {
    jigsolve()
        .args(["solve"])
        .arg(root().join("data/polygon/convex/07.toml"))
        .arg("--count")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("raw      0"));
}

fn bad(text: &str, expect: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    jigsolve()
        .arg("solve")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(expect))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn bad_files_name_file_and_line() {
    bad(
        "family = \"polygon\"\nregion = \"(0,0) (2,2) (2,0) (0,2)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n",
        "bad.toml:2: the region is not a simple polygon",
    );
    bad(
        "family = \"polygon\"\nregion = \"(0,0) (1,0) (0,1)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (zero,1)\"\n",
        "bad.toml:4: 'zero' is not a number",
    );
    bad(
        "family = \"polygon\"\nregion = \"(0,0) (2,0) (0,2)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n",
        "bad.toml:2: the pieces' total area is 1/2 but the region's is 2",
    );
    bad(
        "family = \"polygon\"\nregion = \"(0,0) (2,0) (0,2)\"\n[[pieces]]\nvertices = \"(0,0) (1,1) (2,2)\"\n",
        "bad.toml:4: piece 1 is not a simple polygon",
    );
}

#[test]
fn polygon_options_are_rejected_elsewhere() {
    jigsolve()
        .args(["solve", "impuzzable", "--no-flip"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--no-flip applies to polygon puzzles only",
        ));
    jigsolve()
        .args(["solve", "tangram-square", "--order", "rows"])
        .assert()
        .code(2);
}

#[test]
fn approximate_puzzles_say_so() {
    let out = succeeds(
        jigsolve()
            .arg("solve")
            .arg(root().join("data/polygon/approx/kite-halves.toml"))
            .args(["--json", "--threads", "1"]),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(summary["approximate"], true);
    assert!(summary["numbers"]
        .as_str()
        .unwrap()
        .starts_with("approximate"));
    // The two halves are congruent by a reflection: identical; the region's
    // mirror symmetry leaves one unique tiling.
    assert_eq!(summary["distinct"], 1);
    assert_eq!(summary["unique"], 1);
    assert_eq!(summary["raw"], 2);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    jigsolve()
        .arg("verify")
        .arg(root().join("data/polygon/approx/kite-halves.toml"))
        .arg(file.path())
        .assert()
        .code(0);
}

#[test]
fn approximate_on_request_gives_the_same_counts() {
    jigsolve()
        .args([
            "solve",
            "tangram-square",
            "--count",
            "--approximate",
            "--threads",
            "1",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("raw      32"))
        .stdout(predicate::str::contains("unique    1"))
        .stdout(predicate::str::contains("approximate true"));
    jigsolve()
        .args(["solve", "impuzzable", "--approximate"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--approximate applies to polygon puzzles only",
        ));
}
