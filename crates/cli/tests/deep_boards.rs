//! Boards that take tens of thousands of pieces make the engines recurse
//! that deep; the search threads must have the stack for it (a 2 MiB
//! default thread stack overflowed and aborted the whole process).

use assert_cmd::Command;

/// A 128 x 256 board for 16,384 dominoes: every placement goes one level
/// deeper, so the first descent alone is 16,384 levels.
fn domino_board() -> String {
    let mut s = String::from("family = \"grid\"\nname = \"dominoes\"\nboard = \"\"\"\n");
    for _ in 0..128 {
        s.push_str(&"#".repeat(256));
        s.push('\n');
    }
    s.push_str("\"\"\"\n[[piece]]\nname = \"D\"\ncopies = 16384\nshape = \"DD\"\n");
    s
}

#[test]
fn a_search_sixteen_thousand_pieces_deep_runs_on_worker_threads() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dominoes.toml");
    std::fs::write(&file, domino_board()).unwrap();
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .arg("solve")
        .arg(&file)
        .args(["--count", "--json", "--no-progress", "--threads", "2"])
        .args(["--node-limit", "20000"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(3),
        "stopped by the node limit: {stderr}"
    );
    assert!(!stderr.contains("overflow"), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["stopped"], "node-limit");
    assert!(summary["nodes"].as_u64().unwrap() >= 20_000);
}

/// A 256 x 256 board less one cell for 65,535 one-cell pieces (the most
/// copies a puzzle may have): the search is 65,535 levels deep.
fn monomino_board() -> String {
    let mut s = String::from("family = \"grid\"\nname = \"monos\"\nboard = \"\"\"\n");
    for row in 0..256 {
        s.push_str(&"#".repeat(if row == 255 { 255 } else { 256 }));
        s.push('\n');
    }
    s.push_str("\"\"\"\n[[piece]]\nname = \"m\"\ncopies = 65535\nshape = \"#\"\n");
    s
}

#[test]
fn a_one_thread_search_sixty_five_thousand_pieces_deep_completes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("monos.toml");
    std::fs::write(&file, monomino_board()).unwrap();
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .arg("solve")
        .arg(&file)
        .args(["--count", "--json", "--no-progress", "--threads", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    // One way to fill the board with identical pieces.
    assert_eq!(summary["distinct"], 1);
    assert_eq!(summary["complete"], true);
}

#[test]
fn on_a_big_board_the_engine_polls_by_work_done_not_only_by_nodes() {
    // One choice of the dancing-links engine scans the 32,768 cells of this
    // board, and it polled the control every 4,096 nodes: a quarter of a
    // second and more past a time limit or Ctrl-C. Stopped at its first poll
    // (a node limit of 1), it must have visited far fewer nodes than that.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dominoes.toml");
    std::fs::write(&file, domino_board()).unwrap();
    for threads in ["1", "2"] {
        let out = Command::cargo_bin("jigsolve")
            .unwrap()
            .arg("solve")
            .arg(&file)
            .args(["--count", "--json", "--no-progress", "--threads", threads])
            .args(["--node-limit", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3));
        let stdout = String::from_utf8(out.stdout).unwrap();
        let summary: serde_json::Value =
            serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert_eq!(summary["stopped"], "node-limit");
        let nodes = summary["nodes"].as_u64().unwrap();
        assert!(
            nodes < 1_000,
            "{threads} threads: {nodes} nodes before the first poll"
        );
    }
}

#[test]
fn ten_thousand_pieces_of_one_shape_make_one_warning() {
    let mut s = String::from("family = \"grid\"\nname = \"cells\"\nboard = \"\"\"\n");
    for _ in 0..100 {
        s.push_str(&"#".repeat(100));
        s.push('\n');
    }
    s.push_str("\"\"\"\n");
    for i in 0..10_000 {
        s.push_str(&format!("[[piece]]\nname = \"p{i}\"\nshape = \"#\"\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cells.toml");
    std::fs::write(&file, s).unwrap();
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .arg("solve")
        .arg(&file)
        .args(["--count", "--no-progress", "--time-limit", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    // The second piece's line: 4 lines of header, 100 of board, 1 closing,
    // then 3 lines per piece.
    assert!(
        warnings[0].contains(
            "cells.toml:108: pieces 'p0', 'p1', 'p2', 'p3', 'p4' and 9995 more are the same shape"
        ),
        "{stderr}"
    );
    assert!(warnings[0].contains("copies = 10000"), "{stderr}");
}
