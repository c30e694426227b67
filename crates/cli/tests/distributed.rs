//! Every core, many machines, clean stops: counts that do not depend on the
//! number of threads or shards, GNU parallel as the engine that runs shards,
//! a killed shard that merge reports and a re-run that completes, and
//! Knuth's estimator against trees of known size.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

mod common;
use common::{bin, counts, jigsolve, merged, root, succeeds};

/// The JSON summary of `solve --count --json` with extra arguments.
fn summary(puzzle: &str, extra: &[&str], cwd: &Path) -> Value {
    let out = jigsolve()
        .current_dir(cwd)
        .args(["solve", puzzle, "--count", "--json", "--no-progress"])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no output for {puzzle} {extra:?}: {text}"));
    serde_json::from_str(last).unwrap()
}

/// Puzzles of every family that solve in well under a second.
const PUZZLES: [&str; 6] = [
    "hunde-spiel",
    "data/edge/owen-set2/pieces_06x06.txt",
    "pentomino-5x12",
    "soma",
    "tangram-square",
    "tangram-t",
];

#[test]
fn counts_do_not_depend_on_the_number_of_threads() {
    let root = root();
    for puzzle in PUZZLES {
        let one = summary(puzzle, &["--threads", "1"], &root);
        assert_eq!(one["complete"], true, "{puzzle}");
        for threads in ["2", "8"] {
            let many = summary(puzzle, &["--threads", threads], &root);
            assert_eq!(
                counts(&many),
                counts(&one),
                "{puzzle} with {threads} threads"
            );
            assert_eq!(many["complete"], true);
            assert_eq!(
                many["threads"].as_u64().unwrap(),
                threads.parse::<u64>().unwrap()
            );
        }
    }
}

/// Runs every shard of an `n`-way split and merges; returns the merge JSON.
fn run_shards(puzzle: &str, n: usize, dir: &Path) -> Value {
    let mut files = Vec::new();
    for i in 0..n {
        let file = dir.join(format!("r-{i}-of-{n}.json"));
        let s = summary(
            puzzle,
            &[
                "--threads",
                "1",
                "--shard",
                &format!("{i}/{n}"),
                "--output",
                file.to_str().unwrap(),
            ],
            &root(),
        );
        assert_eq!(s["complete"], true, "{puzzle} shard {i}/{n}");
        files.push(file);
    }
    merged(&files)
}

#[test]
fn shards_add_up_to_the_whole_search() {
    let dir = tempfile::tempdir().unwrap();
    for puzzle in PUZZLES {
        let whole = summary(puzzle, &["--threads", "1"], &root());
        // 1; a few; and, for the small trees, more shards than the tree has
        // subtrees at the cut, so that most shards are empty.
        let many = if ["hunde-spiel", "tangram-square"].contains(&puzzle) {
            300
        } else {
            11
        };
        for n in [1, 2, 3, 7, many] {
            let merged = run_shards(puzzle, n, dir.path());
            assert_eq!(merged["complete"], true);
            assert_eq!(counts(&merged), counts(&whole), "{puzzle} in {n} shards");
            // Node counts add up too, except with the polygon engine's memo
            // of impossible regions, whose hits depend on what each process
            // explored before.
            if !puzzle.starts_with("tangram") {
                assert_eq!(
                    merged["nodes"], whole["nodes"],
                    "{puzzle} in {n} shards: nodes add up too"
                );
            }
        }
    }
}

#[test]
fn gnu_parallel_runs_the_shards_of_a_split() {
    assert!(
        std::process::Command::new("parallel").arg("--version").output().is_ok(),
        "GNU parallel is not installed: run `bash scripts/setup.sh` (the README's test command does)"
    );
    let dir = tempfile::tempdir().unwrap();
    let puzzle = root().join("data/edge/owen-set2/pieces_06x06.txt");
    let plan = jigsolve()
        .args(["split", puzzle.to_str().unwrap(), "--shards", "6"])
        .output()
        .unwrap();
    assert!(plan.status.success());
    let commands: String = String::from_utf8(plan.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        // The plan names the installed binary; the test runs this build's.
        .map(|l| {
            l.replacen("jigsolve ", &format!("{} ", bin().display()), 1)
                + " --no-progress >/dev/null\n"
        })
        .collect();
    assert_eq!(commands.lines().count(), 6);
    let status = std::process::Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "2"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(commands.as_bytes())?;
            child.wait()
        })
        .unwrap();
    assert!(status.success(), "a shard failed under GNU parallel");
    let results: Vec<PathBuf> = (0..6)
        .map(|i| dir.path().join(format!("pieces_06x06.shard-{i}-of-6.json")))
        .collect();
    let out = succeeds(jigsolve().arg("merge").args(&results).arg("--json"));
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["raw"], 160);
    assert_eq!(merged["unique"], 40);
}

/// Starts shard `i` of `n` of a puzzle whose shards take about a second,
/// lets it run `after`, then sends it `signal`.
fn start_and_signal(i: usize, n: usize, file: &Path, signal: &str, after: Duration) -> Option<i32> {
    let puzzle = root().join("data/edge/owen-set2/pieces_07x06.txt");
    let mut child = std::process::Command::new(bin())
        .args([
            "solve",
            puzzle.to_str().unwrap(),
            "--count",
            "--threads",
            "1",
            "--no-progress",
        ])
        .args([
            "--shard",
            &format!("{i}/{n}"),
            "--output",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the shard finished before it could be stopped"
    );
    let killed = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait().unwrap().code()
}

fn merge_json(files: &[PathBuf]) -> (i32, Value) {
    let out = jigsolve()
        .arg("merge")
        .args(files)
        .arg("--json")
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
    )
}

#[test]
fn a_killed_shard_is_reported_and_a_rerun_completes_the_merge() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = (0..2)
        .map(|i| dir.path().join(format!("s{i}.json")))
        .collect();
    let puzzle = "data/edge/owen-set2/pieces_07x06.txt";
    let shard0 = summary(
        puzzle,
        &[
            "--threads",
            "1",
            "--shard",
            "0/2",
            "--output",
            files[0].to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(shard0["complete"], true);

    // SIGKILL: no chance to write anything; merge says the shard is missing.
    start_and_signal(1, 2, &files[1], "-KILL", Duration::from_millis(150));
    assert!(!files[1].exists(), "a killed shard leaves no result");
    let present = [files[0].clone()];
    let (code, merged) = merge_json(&present);
    assert_eq!(code, 1);
    assert_eq!(merged["missing"], serde_json::json!([1]));
    assert_eq!(merged["complete"], false);

    // SIGTERM: the shard stops, writes what it found marked incomplete,
    // and exits non-zero; merge says it is incomplete.
    let code = start_and_signal(1, 2, &files[1], "-TERM", Duration::from_millis(400));
    assert_eq!(code, Some(130), "SIGTERM exits with 130");
    let partial: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    assert_eq!(partial["complete"], false);
    assert_eq!(partial["stopped"], "cancelled");
    let (code, merged) = merge_json(&files);
    assert_eq!(code, 1);
    assert_eq!(merged["incomplete"], serde_json::json!([1]));

    // Re-running just that shard completes the merge.
    let rerun = summary(
        puzzle,
        &[
            "--threads",
            "1",
            "--shard",
            "1/2",
            "--output",
            files[1].to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(rerun["complete"], true);
    let (code, merged) = merge_json(&files);
    assert_eq!(code, 0);
    assert_eq!(merged["raw"], 26);
    assert_eq!(merged["unique"], 13);
}

#[test]
fn merge_refuses_results_that_do_not_belong_together() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    summary(
        "impuzzable",
        &["--shard", "0/2", "--output", a.to_str().unwrap()],
        &root(),
    );
    summary(
        "scramble",
        &["--shard", "1/2", "--output", b.to_str().unwrap()],
        &root(),
    );
    let out = jigsolve().arg("merge").args([&a, &b]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("results of different puzzles cannot be merged"),
        "{err}"
    );
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}\n").unwrap();
    let out = jigsolve().arg("merge").arg(&junk).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("junk.json:1: not a shard result"));
    jigsolve()
        .args(["solve", "impuzzable", "--shard", "2/2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "shard 2 does not exist; with 2 shards they are 0 to 1",
        ));
}

#[test]
fn the_estimator_is_within_a_factor_of_two_of_known_tree_sizes() {
    // The docs promise: with 10,000 probes the node estimate is within a
    // factor of 2 of the true size on these puzzles.
    for puzzle in [
        "data/edge/owen-set2/pieces_06x06.txt",
        "data/edge/owen-set2/pieces_07x06.txt",
        "pentomino-6x10",
        "hunde-spiel",
    ] {
        let exact = summary(puzzle, &["--threads", "1"], &root())["nodes"]
            .as_f64()
            .unwrap();
        let out = jigsolve()
            .current_dir(root())
            .args([
                "estimate",
                puzzle,
                "--probes",
                "10000",
                "--json",
                "--measure",
                "0",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let est: Value = serde_json::from_slice(&out.stdout).unwrap();
        let nodes = est["nodes"].as_f64().unwrap();
        let ratio = nodes / exact;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{puzzle}: estimated {nodes}, exact {exact}"
        );
    }
}
