//! `split` forwards every option that shapes the search tree into the shard
//! commands it prints, and running those commands then `merge` gives the
//! totals of one whole run with the same option. (It once dropped `--flip`,
//! `--no-flip`, `--engine` and `--approximate`, so the shards solved another
//! puzzle than the one asked for.)

use serde_json::Value;
use std::path::Path;

mod common;
use common::{complete_count as whole, counts, jigsolve, last_json, merged, root, succeeds};

/// Splits with `options`, checks every printed command carries them, runs
/// the commands in `dir` and merges the results.
fn split_run_merge(puzzle: &str, options: &[&str], shards: usize, dir: &Path) -> Value {
    let out = succeeds(
        jigsolve()
            .current_dir(root())
            .args(["split", puzzle, "--json", "--shards", &shards.to_string()])
            .args(options),
    );
    let plan = last_json(&out);
    let commands = plan["commands"].as_array().unwrap();
    assert_eq!(commands.len(), shards);
    let mut files = Vec::new();
    for command in commands {
        let words: Vec<&str> = command.as_str().unwrap().split_whitespace().collect();
        assert_eq!(words[0], "jigsolve");
        for option in options {
            assert!(
                words.contains(option),
                "split {puzzle} {options:?} printed a shard command without {option}: {command}"
            );
        }
        let output = words[words.iter().position(|w| *w == "--output").unwrap() + 1];
        files.push(dir.join(output));
        // Run as printed, in the results directory (the puzzle is a catalog
        // name or an absolute path).
        let out = jigsolve()
            .current_dir(dir)
            .args(&words[1..])
            .args(["--no-progress", "--threads", "1"])
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    merged(&files)
}

/// Every option that shapes the tree, with a puzzle of its family that is
/// solved in well under a second.
const CASES: [(&str, &[&str]); 9] = [
    ("hunde-spiel", &["--no-symmetry"]),
    ("hunde-spiel", &["--order", "frame"]),
    (
        "data/edge/owen-set2/pieces_06x06.txt",
        &["--format", "wh", "--order", "spiral"],
    ),
    ("pentomino-5x12", &["--engine", "dlx"]),
    ("soma", &["--engine", "bitboard-first"]),
    ("soma", &["--no-symmetry"]),
    ("tangram-t", &["--no-flip"]),
    ("tangram-square", &["--flip"]),
    ("tangram-square", &["--approximate"]),
];

#[test]
fn split_forwards_every_option_that_shapes_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, options) in CASES {
        let absolute = root().join(puzzle);
        let puzzle = if puzzle.starts_with("data/") {
            absolute.to_str().unwrap()
        } else {
            puzzle
        };
        let one = whole(puzzle, options);
        let merged = split_run_merge(puzzle, options, 3, dir.path());
        assert_eq!(merged["complete"], true, "{puzzle} {options:?}");
        assert_eq!(counts(&merged), counts(&one), "{puzzle} {options:?}");
        assert_eq!(merged["split"], one["split"], "{puzzle} {options:?}");
    }
}

#[test]
fn the_flip_options_change_the_counts_so_forwarding_them_matters() {
    // Without this, the test above could pass with the options dropped.
    assert_ne!(
        counts(&whole("tangram-t", &["--no-flip"])),
        counts(&whole("tangram-t", &[]))
    );
    assert_ne!(
        whole("pentomino-5x12", &["--engine", "dlx"])["split"],
        whole("pentomino-5x12", &[])["split"]
    );
}

#[test]
fn merge_refuses_shards_run_with_different_options() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, options) in [(0, &["--engine", "dlx"][..]), (1, &[][..])] {
        let file = dir.path().join(format!("r-{i}.json"));
        jigsolve()
            .current_dir(root())
            .args(["solve", "pentomino-5x12", "--count", "--no-progress"])
            .args(["--shard", &format!("{i}/2"), "--output"])
            .arg(&file)
            .args(options)
            .output()
            .unwrap();
        files.push(file);
    }
    let out = jigsolve().arg("merge").args(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("results of different splits cannot be merged"),
        "{err}"
    );
}

#[test]
fn a_shard_run_says_its_counts_are_one_shares() {
    let dir = tempfile::tempdir().unwrap();
    let run = |json: bool| {
        let mut cmd = jigsolve();
        cmd.current_dir(dir.path())
            .args(["solve", "pentomino-5x12", "--count", "--no-progress"])
            .args(["--shard", "3/16"]);
        if json {
            cmd.arg("--json");
        }
        cmd.output().unwrap()
    };
    let text = String::from_utf8(run(false).stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("pentomino-5x12: shard 3 of 16 (numbered from 0) searched to the end"),
        "{text}"
    );
    assert!(first.contains("this shard's share only"), "{text}");
    assert!(!text.contains("complete search"), "{text}");
    let summary = last_json(&run(true));
    assert_eq!(summary["shard"]["index"], 3);
    assert_eq!(summary["shard"]["count"], 16);
    assert!(summary["shard"]["counts_are"]
        .as_str()
        .unwrap()
        .contains("share of shard 3 of 16"));
    let whole = whole("pentomino-5x12", &[]);
    assert!(whole.get("shard").is_none(), "{whole}");
    assert!(summary["raw"].as_u64().unwrap() < whole["raw"].as_u64().unwrap());
}

/// Every file under `dir`, as paths relative to it.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found
}

/// A puzzle's `name` comes from its file, which may come from a stranger.
/// Names with shell syntax, quotes, line breaks, `../`, absolute paths or
/// a leading `-` reach no shell and no path outside the working folder:
/// `split`'s printed commands, run by `sh` as the recipes of docs/distributed.md do, run
/// nothing else and write their results in the folder; so do the default
/// file names of `solve --shard`, `hints` and `solve --svg`. (Issue 43:
/// `split` printed the name unquoted, and `hints` and `--shard` wrote
/// `../` and absolute names where they pointed.)
#[test]
fn names_from_files_reach_no_shell_and_no_path_outside() {
    let catalog =
        String::from_utf8(succeeds(jigsolve().args(["show", "impuzzable"])).stdout).unwrap();
    let bin_dir = common::bin().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for name in [
        "$(touch pwned)",
        "`touch pwned`",
        "a; touch pwned",
        "it's \"quoted\"",
        "line\ntouch pwned",
        "../../escaped",
        "/tmp/jigsolve-absolute-name",
        "-rf",
        "",
    ] {
        let work = tempfile::tempdir().unwrap();
        let inside = work.path().join("a").join("b");
        std::fs::create_dir_all(&inside).unwrap();
        let text = catalog.replace(
            "name = \"impuzzable\"",
            &format!("name = {}", serde_json::to_string(name).unwrap()),
        );
        assert_ne!(text, catalog);
        let puzzle = tempfile::tempdir().unwrap();
        let puzzle_file = puzzle.path().join("p.toml");
        std::fs::write(&puzzle_file, text).unwrap();
        let puzzle_arg = puzzle_file.to_str().unwrap();

        let out = succeeds(
            jigsolve()
                .current_dir(&inside)
                .args(["split", puzzle_arg, "--shards", "2"]),
        );
        let printed = String::from_utf8(out.stdout).unwrap();
        let commands: Vec<&str> = printed.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(commands.len(), 2, "{name:?}: {printed}");
        for command in &commands {
            let status = std::process::Command::new("sh")
                .args(["-c", command])
                .current_dir(&inside)
                .env("PATH", &path)
                .status()
                .unwrap();
            // 1: a shard whose share holds no solution.
            assert!(
                matches!(status.code(), Some(0 | 1)),
                "{name:?}: {command}: {status}"
            );
        }
        let out = succeeds(
            jigsolve()
                .current_dir(&inside)
                .args(["split", puzzle_arg, "--shards", "2", "--json"]),
        );
        let plan = last_json(&out);
        for (i, command) in plan["commands"].as_array().unwrap().iter().enumerate() {
            assert_eq!(command.as_str().unwrap(), commands[i], "{name:?}");
        }
        let shard = jigsolve()
            .current_dir(&inside)
            .args(["solve", puzzle_arg, "--count", "--shard", "1/3"])
            .output()
            .unwrap();
        assert!(matches!(shard.status.code(), Some(0 | 1)), "{name:?}");
        succeeds(jigsolve().current_dir(&inside).args(["hints", puzzle_arg]));
        succeeds(
            jigsolve()
                .current_dir(&inside)
                .args(["solve", puzzle_arg, "--limit", "1", "--svg", "pictures"]),
        );
        // Everything written is in the folder the commands ran in, and no
        // command ran.
        let files = files_under(work.path());
        assert_eq!(files.len(), 5, "{name:?}: {files:?}");
        for file in &files {
            assert!(file.starts_with("a/b"), "{name:?} wrote {file:?}");
            let base = file.file_name().unwrap().to_str().unwrap();
            assert!(!base.starts_with(['-', '.']), "{name:?} wrote {file:?}");
            assert_ne!(base, "pwned", "{name:?} ran a command");
        }
        assert!(!Path::new("/tmp/jigsolve-absolute-name-hints.toml").exists());
    }
    // One shard is one shard.
    let out = succeeds(jigsolve().args(["split", "impuzzable", "--shards", "1"]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("# impuzzable: 1 shard;"), "{text}");
    // A name that is not UTF-8 never becomes a file name: the file is refused.
    let puzzle = tempfile::tempdir().unwrap();
    let puzzle_file = puzzle.path().join("p.toml");
    let mut bytes = catalog
        .replace("name = \"impuzzable\"", "name = \"bad\u{1}\"")
        .into_bytes();
    let at = bytes.iter().position(|&b| b == 1).unwrap();
    bytes[at] = 0xff;
    std::fs::write(&puzzle_file, bytes).unwrap();
    let work = tempfile::tempdir().unwrap();
    for args in [
        vec!["split", "--shards", "2"],
        vec!["hints"],
        vec!["solve", "--count", "--shard", "0/2"],
    ] {
        let out = jigsolve()
            .current_dir(work.path())
            .args(&args)
            .arg(&puzzle_file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("p.toml"), "{args:?}: {err}");
    }
    assert!(files_under(work.path()).is_empty());
}
