//! A reader that goes away (`jigsolve split ... | head -1`) ends every
//! command quietly: exit 0, nothing on standard error, no panic.

use std::process::{Command, Stdio};

mod common;
use common::root;

/// Runs jigsolve with its standard output a pipe whose reading end is
/// already closed, so its first write fails with EPIPE.
fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = os_pipe::pipe().unwrap();
    drop(reader);
    let out = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
        .current_dir(root())
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_ends_quietly_when_the_reader_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: usize| {
        let file = dir.path().join(format!("s{i}.json"));
        let status = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
            .args(["solve", "hunde-spiel", "--count", "--no-progress"])
            .args(["--shard", &format!("{i}/2"), "--output"])
            .arg(&file)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.code().is_some());
        file.to_str().unwrap().to_string()
    };
    let (s0, s1) = (shard(0), shard(1));
    let commands: Vec<Vec<&str>> = vec![
        vec!["list"],
        vec!["show", "bedlam"],
        vec!["split", "bedlam", "--shards", "1000"],
        vec!["split", "bedlam", "--shards", "4", "--json"],
        vec!["merge", &s0, &s1],
        vec!["merge", "--json", &s0, &s1],
        vec![
            "estimate",
            "impuzzable",
            "--probes",
            "100",
            "--measure",
            "0.05",
        ],
        vec!["solve", "pentomino-5x12", "--no-progress"],
        vec!["solve", "hunde-spiel", "--count", "--no-progress"],
        vec!["render", "impuzzable"],
        vec!["export", "--dlx", "soma"],
    ];
    for args in commands {
        let (code, stderr) = run_into_closed_pipe(&args);
        assert_eq!(code, Some(0), "jigsolve {args:?}: {stderr}");
        assert!(stderr.is_empty(), "jigsolve {args:?} printed: {stderr}");
    }
}
