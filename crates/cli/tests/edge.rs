//! The command line on edge-matching puzzles: output, JSON, exit codes, and
//! clear errors for bad files. Every solution printed is checked again with
//! the library's independent verifier.

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{jigsolve, root};

/// Runs `solve --json` with `args`; returns the solution lines and the summary.
fn solve_json(args: &[&str]) -> (Vec<Value>, Value, i32) {
    let out = jigsolve()
        .current_dir(root())
        .arg("solve")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary", "{text}");
    for l in &lines {
        assert_eq!(l["type"], "solution");
    }
    (lines, summary, out.status.code().unwrap())
}

/// Checks each JSON solution with the library's verifier, independently of
/// the command's own `verify`.
fn verify_all(puzzle_path: &str, solutions: &[Value]) {
    let text = std::fs::read_to_string(root().join(puzzle_path)).unwrap();
    let puzzle = jigsolve_edge::parse::parse(&text, puzzle_path, None).unwrap();
    for s in solutions {
        let grid: jigsolve_edge::verify::GridRecord =
            serde_json::from_value(s["solution"].clone()).unwrap();
        let placements = grid.placements(&puzzle).unwrap();
        jigsolve_edge::verify(&puzzle, &placements).unwrap();
    }
}

fn counts(summary: &Value) -> (u64, u64, u64) {
    (
        summary["raw"].as_u64().unwrap(),
        summary["distinct"].as_u64().unwrap(),
        summary["unique"].as_u64().unwrap(),
    )
}

#[test]
fn catalog_puzzles_give_the_published_counts() {
    for (name, file, expected) in [
        ("impuzzable", "puzzles/edge/impuzzable.toml", (4, 4, 1)),
        ("scramble", "puzzles/edge/scramble.toml", (8, 8, 2)),
        ("hunde-spiel", "puzzles/edge/hunde-spiel.toml", (16, 8, 2)),
    ] {
        for threads in ["1", "2"] {
            let (solutions, summary, code) = solve_json(&[name, "--threads", threads]);
            assert_eq!(code, 0);
            assert_eq!(counts(&summary), expected, "{name}");
            assert_eq!(summary["complete"], true);
            assert_eq!(
                solutions.len() as u64,
                expected.2,
                "one listed per unique solution"
            );
            let weights: u64 = solutions
                .iter()
                .map(|s| s["weight"]["raw"].as_u64().unwrap())
                .sum();
            assert_eq!(weights, expected.0, "weights add up to the raw count");
            verify_all(file, &solutions);
        }
    }
}

#[test]
fn no_symmetry_lists_every_distinct_solution() {
    let (solutions, summary, _) = solve_json(&["hunde-spiel", "--no-symmetry", "--threads", "1"]);
    assert_eq!(counts(&summary), (16, 8, 2));
    assert_eq!(solutions.len(), 8);
    verify_all("puzzles/edge/hunde-spiel.toml", &solutions);
}

#[test]
fn owen_sets_in_the_wh_format() {
    for (file, raw) in [
        ("pieces_04x04.txt", 48),
        ("pieces_05x05.txt", 4),
        ("pieces_06x06.txt", 160),
    ] {
        let path = format!("data/edge/owen-set2/{file}");
        let (solutions, summary, code) = solve_json(&[&path, "--threads", "2"]);
        assert_eq!(code, 0);
        assert_eq!(summary["raw"].as_u64(), Some(raw), "{file}");
        verify_all(&path, &solutions);
    }
}

#[test]
fn every_order_gives_the_same_counts() {
    for order in ["auto", "rows", "frame", "spiral"] {
        let (_, summary, _) = solve_json(&[
            "data/edge/owen-set2/pieces_04x04.txt",
            "--count",
            "--order",
            order,
        ]);
        assert_eq!(summary["raw"].as_u64(), Some(48), "{order}");
    }
}

#[test]
fn the_text_output_shows_the_grid_and_says_what_it_counted() {
    jigsolve()
        .args(["solve", "impuzzable", "--threads", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "solution 1 (stands for 4 raw, 4 distinct)",
        ))
        .stdout(predicate::str::contains("+-------------+"))
        .stdout(predicate::str::contains(
            "tiles told apart, every board orientation",
        ))
        .stdout(predicate::str::contains("board rotations removed too"))
        .stdout(predicate::str::contains("complete search"));
}

#[test]
fn limit_stops_after_n_solutions() {
    let (solutions, summary, code) =
        solve_json(&["data/edge/owen-set2/pieces_04x04.txt", "--limit", "2"]);
    assert_eq!(code, 0);
    assert_eq!(solutions.len(), 2);
    assert_eq!(summary["listed"], 2);
    verify_all("data/edge/owen-set2/pieces_04x04.txt", &solutions);
    // Fixed order, no restarts: the first two in depth-first order.
    let (fixed, _, _) = solve_json(&[
        "data/edge/owen-set2/pieces_04x04.txt",
        "--limit",
        "2",
        "--no-restarts",
        "--threads",
        "1",
    ]);
    assert_eq!(fixed.len(), 2);
}

#[test]
fn limit_finds_first_solutions_of_few_colour_puzzles() {
    for f in ["clue1", "clue2", "em_9_3_5", "em_14_7_3"] {
        let path = format!("data/edge/heule/{f}.txt");
        let (solutions, summary, code) = solve_json(&[&path, "--limit", "1", "--threads", "1"]);
        assert_eq!(code, 0, "{f}");
        assert_eq!(solutions.len(), 1, "{f}");
        assert!(summary["attempts"].as_u64().unwrap() >= 1);
        verify_all(&path, &solutions);
    }
}

#[test]
fn stats_give_nodes_per_depth() {
    let (_, summary, _) = solve_json(&["impuzzable", "--stats", "--count", "--threads", "1"]);
    let per_depth: Vec<u64> = summary["nodes_per_depth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(per_depth[0], 1, "one root");
    assert_eq!(per_depth.len(), 10, "depths 0 to 9 on a 3 x 3 board");
    assert_eq!(
        per_depth.iter().sum::<u64>(),
        summary["nodes"].as_u64().unwrap()
    );
    jigsolve()
        .args(["solve", "impuzzable", "--stats", "--count"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes per depth"));
}

#[test]
fn a_puzzle_without_solutions_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.toml");
    std::fs::write(
        &path,
        "rows = 1\ncols = 2\ntiles = [\"+1 +1 +1 +1\", \"+2 +2 +2 +2\"]\n",
    )
    .unwrap();
    let (solutions, summary, code) = solve_json(&[path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(solutions.is_empty());
    assert_eq!(counts(&summary), (0, 0, 0));
    assert_eq!(summary["complete"], true);
}

#[test]
fn limits_stop_early_with_exit_3() {
    let (_, summary, code) = solve_json(&[
        "data/edge/owen-set2/pieces_06x06.txt",
        "--node-limit",
        "1000",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 3);
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["stopped"], "node-limit");
    let (_, summary, code) =
        solve_json(&["data/edge/owen-set2/pieces_06x06.txt", "--time-limit", "0"]);
    assert_eq!(code, 3);
    assert_eq!(summary["stopped"], "time-limit");
}

#[test]
fn verify_accepts_solve_output_and_rejects_a_tampered_solution() {
    let dir = tempfile::tempdir().unwrap();
    let out = jigsolve()
        .args(["solve", "hunde-spiel", "--json"])
        .output()
        .unwrap();
    let good = dir.path().join("good.jsonl");
    std::fs::write(&good, &out.stdout).unwrap();
    jigsolve()
        .args(["verify", "hunde-spiel", good.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("ok: 2 solutions"));

    // Swap two cells of the first solution.
    let text = String::from_utf8(out.stdout).unwrap();
    let mut first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let cells = first["solution"]["cells"][0].as_array_mut().unwrap();
    cells.swap(0, 1);
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, format!("{first}\n")).unwrap();
    jigsolve()
        .args(["verify", "hunde-spiel", bad.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("bad.jsonl:1: not a solution"));
}

#[test]
fn list_and_show_describe_the_catalog() {
    jigsolve()
        .arg("list")
        .assert()
        .success()
        .stdout(predicate::str::contains("impuzzable"))
        .stdout(predicate::str::contains(
            "published counts: raw 16, distinct 8, unique 2",
        ));
    jigsolve()
        .args(["show", "impuzzable"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"-3 -2 +3 +1\""));
    jigsolve()
        .args(["show", "nosuch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no catalog puzzle named 'nosuch'"));
}

/// Writes `text` to a file and expects `solve` to fail with exit 2 and a
/// message containing `needle` (which names the file and line).
fn rejects(name: &str, text: &[u8], needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let assert = jigsolve()
        .args(["solve", path.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains(needle), "expected {needle:?} in {stderr:?}");
    assert!(
        stderr.contains(name),
        "the message names the file: {stderr:?}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

const GOOD_HEAD: &str = "family = \"edge\"\nrows = 2\ncols = 2\nmarks = [\"1\", \"2\"]\n";

#[test]
fn bad_files_get_clear_errors() {
    rejects(
        "three.toml",
        format!("{GOOD_HEAD}tiles = [\n  \"+1 +2 -1 -2\",\n  \"+1 +2 -1\",\n  \"+1 +1 +1 +1\",\n  \"-1 -1 -1 -1\",\n]\n").as_bytes(),
        "three.toml:7: tile 2 has 3 marks",
    );
    rejects(
        "unknown.toml",
        format!("{GOOD_HEAD}tiles = [\"+1 +2 -1 -2\", \"+1 +9 -1 -2\", \"+1 +1 +1 +1\", \"-1 -1 -1 -1\"]\n").as_bytes(),
        "unknown.toml:5: tile 2: unknown mark '+9'",
    );
    rejects(
        "nopolarity.toml",
        format!("{GOOD_HEAD}tiles = [\"+1 +2 -1 -2\", \"+1 2 -1 -2\", \"+1 +1 +1 +1\", \"-1 -1 -1 -1\"]\n").as_bytes(),
        "nopolarity.toml:5: tile 2: mark '2' has no polarity",
    );
    rejects(
        "few.toml",
        format!("{GOOD_HEAD}tiles = [\"+1 +2 -1 -2\", \"+1 +1 +1 +1\", \"-1 -1 -1 -1\"]\n")
            .as_bytes(),
        "few.toml:5: 3 tiles for a 2 x 2 board: it needs exactly 4 tiles",
    );
    rejects(
        "many.toml",
        format!("{GOOD_HEAD}tiles = [\"+1 +2 -1 -2\", \"+1 +1 +1 +1\", \"-1 -1 -1 -1\", \"+2 +2 +2 +2\", \"-2 -2 -2 -2\"]\n").as_bytes(),
        "5 tiles for a 2 x 2 board",
    );
    rejects(
        "hint.toml",
        format!("{GOOD_HEAD}tiles = [\"+1 +2 -1 -2\", \"+1 +1 +1 +1\", \"-1 -1 -1 -1\", \"+2 +2 +2 +2\"]\n\n[[hints]]\ntile = 1\nrow = 3\ncol = 1\n").as_bytes(),
        "hint.toml:7: hint 1 puts a tile at row 3, column 1, outside the 2 x 2 board",
    );
    rejects(
        "empty.toml",
        b"\n# nothing here\n\n",
        "empty.toml:1: the file is empty",
    );
    rejects(
        "binary.toml",
        b"rows = 2\n\x00\x01\x02\xff",
        "binary.toml:2: this is a binary file",
    );
    rejects(
        "latin1.toml",
        b"rows = 2\ncols = 2\nname = \"caf\xe9\"\n",
        "latin1.toml:3: this file is not UTF-8 text",
    );
    rejects("syntax.toml", b"rows = 2\ncols = = 2\n", "syntax.toml:2:");
    rejects(
        "matching.toml",
        b"rows = 1\ncols = 1\nmatching = \"same\"\ntiles = [\"+1 +1 +1 +1\"]\n",
        "matching.toml:3: unknown matching 'same'",
    );
    rejects(
        "wh.txt",
        b"2 2\n0 0 1 1\n0 1 1 0\n1 1 0\n1 0 0 1\n",
        "wh.txt:4: tile 3 has 3 marks",
    );
    rejects(
        "hints.txt",
        b"1\n0 5 0 0\n0 0 1 1\n0 1 1 0\n1 1 0 0\n1 0 0 1\n",
        "hints.txt:2: hint 1 puts a tile at row 1, column 6, outside",
    );
    rejects(
        "words.txt",
        b"2 2\n0 0 a b\n",
        "words.txt:2: expected a whole number, found 'a'",
    );
}

#[test]
fn the_border_count_must_fit_the_frame() {
    // Seven border sides where a 2 x 2 frame needs eight.
    rejects(
        "frame.toml",
        b"rows = 2\ncols = 2\nmatching = \"equal\"\nborder = \"0\"\ntiles = [\"0 0 1 1\", \"0 1 1 0\", \"1 1 0 0\", \"1 0 1 1\"]\n",
        "frame.toml:4: the border mark '0' appears 7 times, but the frame of a 2 x 2 board has 8 sides",
    );
}

#[test]
fn bad_options_are_errors_not_ignored() {
    jigsolve()
        .args(["solve", "impuzzable", "--order", "diagonal"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown scan order 'diagonal'"));
    jigsolve()
        .args(["solve", "impuzzable", "--format", "xml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown --format 'xml'"));
    jigsolve()
        .args(["solve", "no/such/file.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.toml: no such file"));
    jigsolve()
        .args(["solve", "impuzzable", "--limit", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit").and(predicate::str::contains("1 or more")));
}
