//! `jigsolve merge` of best-board runs: the best board of all kept with its
//! seed, shard and file, every board recounted against the puzzle, and
//! files of other puzzles, edited scores, broken lines and count results
//! refused with the file and line (exit 2).

mod common;

use common::{jigsolve, json_lines, root};
use serde_json::Value;
use std::path::{Path, PathBuf};

const OWEN6: &str = "data/edge/owen-set2/pieces_06x06.txt";

/// Runs `best PUZZLE --json` as shard `i` of `n` for a few nodes and saves
/// its output in `dir`.
fn run(dir: &Path, puzzle: &str, i: usize, n: usize, nodes: &str) -> PathBuf {
    let out = jigsolve()
        .current_dir(root())
        .args(["best", puzzle, "--json", "--threads", "1", "--seed", "5"])
        .args(["--node-limit", nodes, "--shard", &format!("{i}/{n}")])
        .output()
        .unwrap();
    let file = dir.join(format!("run-{i}.jsonl"));
    std::fs::write(&file, &out.stdout).unwrap();
    file
}

fn merge(files: &[PathBuf], extra: &[&str]) -> (i32, String, String) {
    let out = jigsolve()
        .current_dir(root())
        .arg("merge")
        .args(extra)
        .args(files)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The summary line of a run's file.
fn summary(file: &Path) -> Value {
    json_lines(&std::fs::read(file).unwrap())
        .into_iter()
        .find(|l| l["type"] == "summary")
        .expect("a summary line")
}

#[test]
fn the_best_board_of_all_runs_is_kept_with_its_seed_and_shard() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = (0..3)
        .map(|i| run(dir.path(), "eternity2", i, 3, "300000"))
        .collect();
    let scores: Vec<u64> = files
        .iter()
        .map(|f| summary(f)["score"].as_u64().unwrap())
        .collect();
    let top = *scores.iter().max().unwrap();
    let first = scores.iter().position(|&s| s == top).unwrap();
    let (code, out, err) = merge(&files, &["--json"]);
    assert_eq!(code, 0, "{err}");
    let merged = json_lines(out.as_bytes());
    assert_eq!(merged.len(), 1, "{out}");
    let best = &merged[0];
    assert_eq!(best["type"], "best");
    assert_eq!(best["score"].as_u64(), Some(top));
    assert_eq!(best["shard"], format!("{first}/3"));
    assert_eq!(best["file"], files[first].display().to_string());
    assert_eq!(best["seed"], 5);
    assert_eq!(best["runs"].as_array().unwrap().len(), 3);
    let nodes: u64 = files
        .iter()
        .map(|f| summary(f)["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(best["total_nodes"].as_u64(), Some(nodes));
    // The merged line is a best board like any other: verify recounts it,
    // and it merges again.
    let saved = dir.path().join("merged.jsonl");
    std::fs::write(&saved, &out).unwrap();
    let check = jigsolve()
        .current_dir(root())
        .args(["verify", "eternity2"])
        .arg(&saved)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0));
    assert!(String::from_utf8(check.stdout)
        .unwrap()
        .contains(&format!("the best has {top} of 480")));
    let (code, text, err) = merge(&[saved, files[0].clone()], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.starts_with(&format!(
            "eternity2: the best of 2 runs: {top} of 480 inner edges match"
        )),
        "{text}"
    );
    assert!(
        text.contains("https://e2.bucas.name/#puzzle=eternity2"),
        "{text}"
    );
}

#[test]
fn a_puzzle_file_outside_the_catalog_is_named_with_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let files = vec![
        run(dir.path(), OWEN6, 0, 2, "2000000"),
        run(dir.path(), OWEN6, 1, 2, "2000000"),
    ];
    let (code, _, err) = merge(&files, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("not a catalog puzzle: give its file with --puzzle FILE"),
        "{err}"
    );
    let (code, out, err) = merge(&files, &["--puzzle", OWEN6]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the best of 2 runs"), "{out}");
    // Another puzzle's file is refused by its hash.
    let (code, _, err) = merge(&files, &["--puzzle", "eternity2"]);
    assert_eq!(code, 2);
    assert!(err.contains("(another puzzle, or an edited file)"), "{err}");
}

#[test]
fn bad_and_mismatched_files_are_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = run(dir.path(), "eternity2", 0, 2, "200000");
    let text = std::fs::read_to_string(&good).unwrap();

    // A claimed score the recount does not give, on line 2.
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let claimed = lines[1]["score"].as_u64().unwrap();
    lines[1]["score"] = (claimed + 1).into();
    let edited = dir.path().join("edited.jsonl");
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&edited, body).unwrap();
    let (code, out, err) = merge(&[good.clone(), edited.clone()], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty());
    assert!(
        err.contains(&format!(
            "edited.jsonl:2: the board claims score {}, but {claimed} of its 480 inner edges match",
            claimed + 1
        )),
        "{err}"
    );

    // A broken line.
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(
        &broken,
        format!("{}{{oops\n", text.lines().next().unwrap().to_owned() + "\n"),
    )
    .unwrap();
    let (code, _, err) = merge(&[good.clone(), broken], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("broken.jsonl:2: not JSON"), "{err}");

    // Another puzzle (the same tiles with the clue pieces pinned).
    let dir2 = tempfile::tempdir().unwrap();
    let clues = run(dir2.path(), "eternity2-clues", 1, 2, "200000");
    let (code, _, err) = merge(&[good.clone(), clues], &[]);
    assert_eq!(code, 2);
    assert!(err.contains(":1: a board of eternity2-clues"), "{err}");
    assert!(
        err.contains("runs of different puzzles cannot be merged"),
        "{err}"
    );

    // A shard count result among best boards.
    let count = dir.path().join("count.json");
    jigsolve()
        .current_dir(root())
        .args([
            "solve",
            "hunde-spiel",
            "--count",
            "--no-progress",
            "--threads",
            "1",
        ])
        .args(["--shard", "0/2", "--output"])
        .arg(&count)
        .output()
        .unwrap();
    assert!(count.exists(), "the shard wrote its result");
    let (code, _, err) = merge(&[good.clone(), count], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("count.json: a shard's count result, but")
            && err.contains("cannot be merged together"),
        "{err}"
    );
    // A broken file beside a best file is not taken for a count result.
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, "{\"type\": \"be\n").unwrap();
    let (code, _, err) = merge(&[good.clone(), broken], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("broken.jsonl:1: not a file of `best --json`")
            && !err.contains("count result"),
        "{err}"
    );

    // A file without a best board.
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, format!("{}\n", summary(&good))).unwrap();
    let (code, _, err) = merge(&[good, empty], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("empty.jsonl: no best board in the file"),
        "{err}"
    );
}

/// The same run given twice is refused (its nodes and time would count
/// twice), by any name; a run killed while writing, whose last line is
/// unfinished, still gives the boards before it (issue 43).
#[test]
fn a_run_given_twice_is_refused_and_an_unfinished_last_line_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), OWEN6, 0, 2, "20000");
    let b = run(dir.path(), OWEN6, 1, 2, "20000");
    let again = dir.path().join(".").join("run-0.jsonl");
    let (code, _, err) = merge(&[a.clone(), b.clone(), again], &["--puzzle", OWEN6]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("given twice"), "{err}");

    // Killed while writing: its summary line half written, no line break.
    let text = std::fs::read_to_string(&b).unwrap();
    let cut = text.trim_end().len() - 10;
    let killed = dir.path().join("killed.jsonl");
    std::fs::write(&killed, &text[..cut]).unwrap();
    let (code, out, err) = merge(&[a.clone(), killed], &["--puzzle", OWEN6]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("unfinished last line"), "{err}");
    assert!(out.contains("best"), "{out}");
    // A broken line that is not the last, or one ended by a line break, is
    // still an error naming the file and line.
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, format!("{}\n", &text[..cut])).unwrap();
    let (code, _, err) = merge(&[a, broken], &["--puzzle", OWEN6]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("broken.jsonl:") && err.contains("not JSON"),
        "{err}"
    );
}
