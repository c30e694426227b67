//! `jigsolve unique`: every answer is confirmed by a full count, every
//! solution it shows goes through the independent verifier, and it stops
//! long before a full count would.

use serde_json::Value;

mod common;
use common::{assert_verified, complete_count, jigsolve, last_json, root};

fn unique(puzzle: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let out = jigsolve()
        .current_dir(root())
        .args(["unique", puzzle, "--json", "--no-progress"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), last_json(&out))
}

/// Passes the solutions shown to `verify`.
fn verify(puzzle: &str, answer: &Value) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shown.jsonl");
    let lines: String = answer["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}\n",
                serde_json::json!({"type": "solution", "solution": s["solution"]})
            )
        })
        .collect();
    std::fs::write(&file, lines).unwrap();
    assert_verified(puzzle, &file);
}

#[test]
fn answers_agree_with_a_full_count_in_every_family() {
    for puzzle in [
        "impuzzable",
        "hunde-spiel",
        "pentomino-3x20",
        "soma",
        "atwood",
        "tangram-square",
        "tangram-t",
    ] {
        let whole = complete_count(puzzle, &[]);
        let unique_count = whole["unique"].as_u64().unwrap();
        for threads in ["1", "2"] {
            let (code, answer) = unique(puzzle, &["--threads", threads]);
            let expected = match unique_count {
                0 => ("none", 1),
                1 => ("unique", 0),
                _ => ("several", 4),
            };
            assert_eq!(
                answer["answer"], expected.0,
                "{puzzle}: {unique_count} unique"
            );
            assert_eq!(code, Some(expected.1), "{puzzle}");
            let shown = answer["solutions"].as_array().unwrap().len();
            assert_eq!(shown as u64, unique_count.min(2), "{puzzle}");
            verify(puzzle, &answer);
        }
    }
}

#[test]
fn a_puzzle_without_solution_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("none.toml");
    // Three cells in an L, and a straight piece of three.
    std::fs::write(
        &file,
        "family = \"grid\"\nboard = \"\"\"\n##\n#.\n\"\"\"\n[[piece]]\nname = \"I\"\nshape = \"###\"\n",
    )
    .unwrap();
    let (code, answer) = unique(file.to_str().unwrap(), &[]);
    assert_eq!(code, Some(1));
    assert_eq!(answer["answer"], "none");
    assert_eq!(answer["complete"], true);
}

#[test]
fn it_stops_at_the_second_solution() {
    // 2,339 unique solutions: the answer needs a small part of the tree.
    let whole = complete_count("pentomino-6x10", &[]);
    let (code, answer) = unique("pentomino-6x10", &["--threads", "1"]);
    assert_eq!(code, Some(4));
    let (part, all) = (
        answer["nodes"].as_u64().unwrap(),
        whole["nodes"].as_u64().unwrap(),
    );
    assert!(part * 100 < all, "{part} of {all} nodes");
}

#[test]
fn a_limit_leaves_the_answer_unknown() {
    let (code, answer) = unique("bedlam", &["--time-limit", "0"]);
    assert_eq!(code, Some(3));
    assert_eq!(answer["answer"], "unknown");
}

#[test]
fn the_text_shows_two_solutions_side_by_side_with_differences_marked() {
    let out = jigsolve()
        .args([
            "unique",
            "pentomino-3x20",
            "--threads",
            "1",
            "--no-progress",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("pentomino-3x20: several: at least two solutions"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("first") && lines[1].ends_with("second"),
        "{text}"
    );
    // A row of each solution, then the marks under the letters that differ.
    let row = lines[2];
    let (left, right) = row.split_once("   |   ").unwrap();
    assert_eq!(left.trim_end().len(), 20);
    assert_eq!(right.len(), 20);
    let marks = lines[3];
    for (j, (a, b)) in left.chars().zip(right.chars()).enumerate() {
        let marked = marks.chars().nth(j) == Some('^');
        assert_eq!(marked, a != b, "column {j}: {text}");
    }
}
