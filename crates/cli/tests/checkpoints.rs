//! `solve --checkpoint`: counting runs killed with SIGKILL at random moments
//! and resumed until done give the counts of one uninterrupted run, in every
//! family; a listing run stopped and resumed lists every solution once; a
//! checkpoint of another puzzle, other options or a damaged one is refused.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{
    assert_verified, bin, complete_count, counts, jigsolve, last_json, merged, root, succeeds,
};

/// A small generator, so that the kill moments are random but repeatable.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Runs the count with a checkpoint, killing it with SIGKILL after a random
/// time, again and again until a run ends by itself; returns its summary and
/// the number of kills.
fn count_with_kills(
    puzzle: &str,
    threads: &str,
    file: &Path,
    seed: u64,
    max_ms: u64,
) -> (Value, u32) {
    let mut rng = Lcg(seed);
    let mut kills = 0;
    for attempt in 0..60u64 {
        let mut child = Command::new(bin())
            .current_dir(root())
            .args([
                "solve",
                puzzle,
                "--count",
                "--json",
                "--no-progress",
                "--threads",
                threads,
            ])
            .arg("--checkpoint")
            .arg(file)
            .args(["--checkpoint-every", "0.1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Later attempts wait longer, so that the loop ends however slow
        // the machine is.
        let wait = Duration::from_millis(100 + rng.below(max_ms) + attempt * 50);
        let started = Instant::now();
        let mut ended = None;
        while started.elapsed() < wait {
            if let Some(status) = child.try_wait().unwrap() {
                ended = Some(status);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        match ended {
            None => {
                child.kill().unwrap(); // SIGKILL: no chance to save
                child.wait().unwrap();
                kills += 1;
            }
            Some(status) => {
                let out = child.wait_with_output().unwrap();
                assert_eq!(
                    status.code(),
                    Some(0),
                    "{puzzle}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                return (last_json(&out), kills);
            }
        }
    }
    panic!("{puzzle}: not done after 60 runs");
}

#[test]
fn counts_killed_at_random_moments_and_resumed_match_one_run_in_every_family() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("data/edge/owen-set2/pieces_07x06.txt", "1", 500),
        ("bedlam", "2", 1200),
        ("stomachion", "2", 1200),
    ];
    for (i, (puzzle, threads, max_ms)) in cases.into_iter().enumerate() {
        let one = complete_count(puzzle, &["--threads", threads]);
        for seed in [1, 2] {
            let file = dir.path().join(format!("{i}-{seed}.checkpoint"));
            let (resumed, kills) = count_with_kills(puzzle, threads, &file, seed, max_ms);
            assert!(kills >= 2, "{puzzle}: only {kills} kills");
            assert_eq!(
                counts(&resumed),
                counts(&one),
                "{puzzle}, seed {seed}, {kills} kills"
            );
            assert_eq!(resumed["complete"], true);
            // Nodes add up too when no memo depends on what a process saw
            // before (the polygon engine's does).
            if puzzle != "stomachion" {
                assert_eq!(resumed["nodes"], one["nodes"], "{puzzle}");
            }
        }
    }
}

#[test]
fn a_listing_run_stopped_and_resumed_lists_every_solution_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("list.checkpoint");
    let mut lines = Vec::new();
    let mut full = String::new();
    let mut numbers = Vec::new();
    for run in 0.. {
        assert!(run < 100, "not done after 100 runs");
        let out = jigsolve()
            .current_dir(root())
            .args([
                "solve",
                "pentomino-6x10",
                "--json",
                "--no-progress",
                "--threads",
                "2",
            ])
            .args(["--node-limit", "60000", "--checkpoint"])
            .arg(&file)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            if v.get("solution").is_some() {
                numbers.push(v["index"].as_u64().unwrap());
                lines.push(v["solution"].to_string());
                full.push_str(line);
                full.push('\n');
            }
        }
        match out.status.code() {
            Some(0) => break,
            Some(3) => continue,
            other => panic!("{other:?}: {}", String::from_utf8_lossy(&out.stderr)),
        }
    }
    let listed = lines.len();
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), listed, "a solution was listed twice");
    assert_eq!(listed, 2339);
    // Numbered on from run to run.
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=2339).collect::<Vec<u64>>());
    // Every listed solution goes through the independent verifier.
    let solutions = dir.path().join("all.jsonl");
    std::fs::write(&solutions, full).unwrap();
    assert_verified("pentomino-6x10", &solutions);
}

#[test]
fn sigterm_saves_the_checkpoint_before_the_process_ends() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("term.checkpoint");
    let mut child = Command::new(bin())
        .current_dir(root())
        .args([
            "solve",
            "bedlam",
            "--count",
            "--no-progress",
            "--threads",
            "2",
        ])
        .arg("--checkpoint")
        .arg(&file)
        // No save on the clock before the signal.
        .args(["--checkpoint-every", "600"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(saved["finished"].as_str().unwrap().contains('-'), "{saved}");
    // And the next run resumes from it.
    let out = jigsolve()
        .current_dir(root())
        .args([
            "solve",
            "bedlam",
            "--count",
            "--json",
            "--no-progress",
            "--threads",
            "2",
        ])
        .arg("--checkpoint")
        .arg(&file)
        .output()
        .unwrap();
    let v = last_json(&out);
    assert_eq!(v["raw"], 460464);
    assert_eq!(v["unique"], 19186);
    assert!(
        v["checkpoint"].as_str().unwrap().contains("resumed with"),
        "{v}"
    );
}

/// Starts a checkpointed count of hunde-spiel and returns the file.
fn checkpoint_of_hunde_spiel(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("hunde.checkpoint");
    succeeds(
        jigsolve()
            .current_dir(root())
            .args([
                "solve",
                "hunde-spiel",
                "--count",
                "--no-progress",
                "--checkpoint",
            ])
            .arg(&file),
    );
    file
}

fn refused(args: &[&str], file: &Path) -> String {
    let out = jigsolve()
        .current_dir(root())
        .args(args)
        .args(["--count", "--no-progress", "--checkpoint"])
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_checkpoint_of_something_else_or_a_damaged_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = checkpoint_of_hunde_spiel(dir.path());
    let err = refused(&["solve", "impuzzable"], &file);
    assert!(err.contains("a checkpoint of another puzzle"), "{err}");
    let err = refused(&["solve", "hunde-spiel", "--no-symmetry"], &file);
    assert!(err.contains("made with other options"), "{err}");
    let err = refused(&["solve", "hunde-spiel", "--shard", "0/2"], &file);
    assert!(
        err.contains("a checkpoint of the whole search, this run is shard 0/2"),
        "{err}"
    );

    let text = std::fs::read_to_string(&file).unwrap();
    // An edited count.
    let edited = text.replacen("\"raw\":\"16\"", "\"raw\":\"17\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    let err = refused(&["solve", "hunde-spiel"], &file);
    assert!(err.contains("the checksum does not match"), "{err}");
    // A truncated file.
    std::fs::write(&file, &text[..text.len() / 2]).unwrap();
    let err = refused(&["solve", "hunde-spiel"], &file);
    assert!(
        err.contains("not a jigsolve checkpoint, or a damaged one"),
        "{err}"
    );
    assert!(err.contains("hunde.checkpoint"), "{err}");
    // Restored, it is read again.
    std::fs::write(&file, &text).unwrap();
    let out = jigsolve()
        .current_dir(root())
        .args([
            "solve",
            "hunde-spiel",
            "--count",
            "--json",
            "--no-progress",
            "--checkpoint",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(last_json(&out)["raw"], 16);
}

#[test]
fn checkpoint_every_goes_with_checkpoint() {
    let out = jigsolve()
        .args(["solve", "hunde-spiel", "--count", "--checkpoint-every", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it goes with --checkpoint"));
}

#[test]
fn a_resumed_shard_merges_like_any_other() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shard.checkpoint");
    let mut results = Vec::new();
    for index in 0..2 {
        let output = dir.path().join(format!("r{index}.json"));
        for run in 0.. {
            assert!(run < 100);
            let mut cmd = jigsolve();
            cmd.current_dir(root())
                .args([
                    "solve",
                    "pentomino-6x10",
                    "--count",
                    "--no-progress",
                    "--threads",
                    "2",
                ])
                .args(["--shard", &format!("{index}/2"), "--output"])
                .arg(&output);
            if index == 0 {
                // Shard 0 stopped by a node limit again and again, resumed.
                cmd.args(["--node-limit", "50000", "--checkpoint"])
                    .arg(&file);
            }
            let status = cmd.output().unwrap().status.code();
            if status == Some(0) {
                assert!(index == 1 || run > 2, "shard 0 ended after {run} stops");
                break;
            }
            assert_eq!(status, Some(3));
        }
        results.push(output);
    }
    let merged = merged(&results);
    assert_eq!(
        counts(&merged),
        counts(&complete_count("pentomino-6x10", &["--threads", "1"]))
    );
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_an_error_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no/such/folder/x.checkpoint");
    let out = jigsolve()
        .current_dir(root())
        .args([
            "solve",
            "bedlam",
            "--count",
            "--no-progress",
            "--checkpoint",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write the checkpoint"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
}

/// The `--stats` counts of a run stopped by the node limit again and again
/// and resumed from its checkpoint until done: every per-depth count (the
/// nodes, those cut short, the placements tried and rejected) equals one
/// uninterrupted run's.
#[test]
fn stats_counts_survive_stops_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str], &str, &str); 3] = [
        ("data/edge/owen-set2/pieces_05x05.txt", &[], "1", "4000"),
        ("pentomino-6x10", &[], "2", "150000"),
        ("pentomino-3x20", &["--engine", "dlx"], "1", "2000"),
    ];
    let fields = [
        "nodes_per_depth",
        "pruned_per_depth",
        "tried_per_depth",
        "rejected_per_depth",
    ];
    for (i, (puzzle, engine, threads, limit)) in cases.into_iter().enumerate() {
        let stats = ["--count", "--stats", "--json", "--no-progress"];
        let one = last_json(&succeeds(
            jigsolve()
                .current_dir(root())
                .args(["solve", puzzle, "--threads", threads])
                .args(engine)
                .args(stats),
        ));
        assert!(one["tried_per_depth"].is_array(), "{puzzle}: {one}");
        let file = dir.path().join(format!("{i}.checkpoint"));
        let mut stops = 0;
        let resumed = loop {
            let out = jigsolve()
                .current_dir(root())
                .args(["solve", puzzle, "--threads", threads, "--node-limit", limit])
                .args(engine)
                .args(stats)
                .arg("--checkpoint")
                .arg(&file)
                .output()
                .unwrap();
            match out.status.code() {
                Some(3) => stops += 1,
                Some(0) => break last_json(&out),
                other => panic!("{puzzle}: exit {other:?}: {out:?}"),
            }
            assert!(stops < 200, "{puzzle}: not done");
        };
        assert!(stops >= 2, "{puzzle}: only {stops} stops");
        assert_eq!(resumed["complete"], true);
        for field in fields {
            assert_eq!(resumed[field], one[field], "{puzzle} {field}");
        }
    }
}

/// A checkpoint written before the placements tried were saved (this one
/// by the version before them, of a finished Hunde-Spiel count) is still
/// read: the run resumes from it, and leaves out the tried and rejected
/// counts it could only give for part of the search.
#[test]
fn a_checkpoint_from_before_the_tried_counts_is_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.checkpoint");
    std::fs::write(
        &file,
        r#"{"format":"jigsolve-checkpoint/1","family":"edge","puzzle":"hunde-spiel","puzzle_hash":"6c270c46bceb6f22fc19f400b813ec1f","split":"order=spiral symmetry=on","shard":"","subtrees":2,"finished":"0-1","raw":"16","distinct":"8","unique":"2","found":2,"nodes":[1,29,98,294,150,331,122,127,22,2],"handed_out":[],"delivered":0,"seconds":0.020225658,"checksum":"c60a8ceb46a5b486fa4869bc7190d074aa08d28227325dcb0f8ae08a2f5d9246"}
"#,
    )
    .unwrap();
    let v = last_json(&succeeds(
        jigsolve()
            .current_dir(root())
            .args(["solve", "hunde-spiel", "--count", "--stats", "--json"])
            .args(["--no-progress", "--checkpoint"])
            .arg(&file),
    ));
    assert_eq!(v["unique"], 2);
    assert_eq!(
        v["nodes_per_depth"],
        serde_json::json!([1, 29, 98, 294, 150, 331, 122, 127, 22, 2])
    );
    assert!(v.get("tried_per_depth").is_none(), "{v}");
    assert!(
        v["checkpoint"].as_str().unwrap().contains("resumed with"),
        "{v}"
    );
}
