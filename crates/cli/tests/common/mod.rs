//! What the command-line tests share: the binary, the repository root,
//! puzzle files written on the fly and the JSON the binary prints. Each
//! test file uses some of these.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// The `jigsolve` binary under test, as a command to configure.
pub fn jigsolve() -> Command {
    Command::cargo_bin("jigsolve").expect("the binary is built")
}

/// The path of the `jigsolve` binary under test.
pub fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("jigsolve")
}

/// The repository's root (where `../shared`-free catalog paths and the
/// `puzzles/` files are found).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A temporary `.toml` puzzle file with `text`.
pub fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

/// Every line of `out` as JSON.
pub fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

/// The last line of a command's standard output as JSON (a summary).
pub fn last_json(out: &std::process::Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_else(|| {
        panic!(
            "no output; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    serde_json::from_str(last).unwrap()
}

/// Runs `cmd`, which must exit with code 0 (its standard error is shown
/// when it does not), and returns what it printed.
pub fn succeeds(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `cmd`, which must exit with code 2 (bad input), and returns its
/// standard error.
pub fn refuses(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    err
}

/// Asserts that `solve` refuses a puzzle file holding `text` with exit code
/// 2, a message that starts with the file's path followed by `want` (so
/// `want` begins with `:LINE:`), and no panic.
pub fn assert_rejected(text: &str, want: &str) {
    let f = file(text);
    let path = f.path().display().to_string();
    jigsolve()
        .arg("solve")
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!("{path}{want}")))
        .stderr(predicates::prelude::PredicateBooleanExt::not(
            predicates::str::contains("panicked"),
        ));
}

/// The raw, distinct and unique counts of a summary, to compare runs.
pub fn counts(v: &Value) -> [Value; 3] {
    [v["raw"].clone(), v["distinct"].clone(), v["unique"].clone()]
}

/// The summary of `solve PUZZLE --count --json` with `options`, run from
/// the repository root; the search must have reached the end.
pub fn complete_count(puzzle: &str, options: &[&str]) -> Value {
    let out = jigsolve()
        .current_dir(root())
        .args(["solve", puzzle, "--count", "--json", "--no-progress"])
        .args(options)
        .output()
        .unwrap();
    let v = last_json(&out);
    assert_eq!(v["complete"], true, "{puzzle} {options:?}: {v}");
    v
}

/// The JSON of `merge --json FILES`, which must succeed.
pub fn merged(files: &[PathBuf]) -> Value {
    let out = succeeds(jigsolve().arg("merge").arg("--json").args(files));
    last_json(&out)
}

/// Checks the solutions in `file` with `verify PUZZLE FILE`, run from the
/// repository root: every one must hold.
pub fn assert_verified(puzzle: &str, file: &std::path::Path) {
    let out = jigsolve()
        .current_dir(root())
        .args(["verify", puzzle])
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{puzzle}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `n` with its digits grouped by threes, as the binary prints counts
/// (1,203).
pub fn grouped(n: u64) -> String {
    n.to_string()
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(",")
}
