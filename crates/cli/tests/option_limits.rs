//! Numeric options have stated limits and are refused beyond them with a
//! message naming the option and the limit, exit 2, never a panic or an
//! allocation the machine cannot make.

use assert_cmd::Command;

fn refused(args: &[&str], message: &str) {
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "jigsolve {args:?}: {stderr}");
    assert!(stderr.contains(message), "jigsolve {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn seconds_beyond_a_year_or_not_numbers_are_refused() {
    refused(
        &["solve", "impuzzable", "--count", "--time-limit", "1e30"],
        "1e30 seconds is more than a year; at most 31536000 (365 days) are accepted",
    );
    refused(
        &["estimate", "impuzzable", "--measure", "1e30"],
        "invalid value '1e30' for '--measure <SECONDS>'",
    );
    for bad in ["NaN", "inf", "-1", "soon"] {
        refused(
            &["solve", "impuzzable", "--count", "--time-limit", bad],
            "is not a number of seconds",
        );
    }
}

#[test]
fn shard_and_thread_counts_have_limits() {
    refused(
        &["split", "impuzzable", "--shards", "1000000000"],
        "1000000000 is not in 1..=100000",
    );
    refused(
        &["solve", "impuzzable", "--count", "--shard", "0/1000000000"],
        "at most 100000 shards are supported",
    );
    refused(
        &["solve", "impuzzable", "--count", "--threads", "100000"],
        "at most 1024 are supported",
    );
}

#[test]
fn the_largest_accepted_values_work() {
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .args(["solve", "hunde-spiel", "--count", "--no-progress"])
        .args(["--time-limit", "31536000", "--threads", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn endless_inputs_are_refused_at_their_size_limit() {
    refused(
        &["solve", "/dev/zero", "--count"],
        "/dev/zero: larger than 64 MiB, the most jigsolve reads here",
    );
    // `merge` reads best-board files too, which grow with every
    // improvement; a shard result is then held to its own 16 MiB (one
    // counted by goal holds each goal's counts).
    refused(
        &["merge", "/dev/zero"],
        "/dev/zero: larger than 256 MiB, the most jigsolve reads here",
    );
    let big = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(big.path(), " ".repeat(17 << 20)).unwrap();
    let path = big.path().to_str().unwrap();
    refused(
        &["merge", path],
        "larger than a shard result can be (16777216 bytes at most)",
    );
    refused(
        &["verify", "impuzzable", "/dev/zero"],
        "/dev/zero: larger than 256 MiB, the most jigsolve reads here",
    );
    refused(
        &["render", "impuzzable", "--solution", "/dev/zero"],
        "/dev/zero: larger than 256 MiB, the most jigsolve reads here",
    );
}

/// Under a per-process memory cap (as cluster schedulers set) the system
/// refuses some of 16 search threads, each reserving 256 MiB of stack: the
/// search runs on those it could make, says so, and counts right (issue
/// 43: it panicked "could not create a search thread").
#[cfg(unix)]
#[test]
fn threads_the_system_refuses_are_fewer_threads_not_a_panic() {
    let bin = assert_cmd::cargo::cargo_bin("jigsolve");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 3000000 && exec '{}' solve pentomino-6x10 --count --threads 16 --no-progress",
            bin.display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("the system refused some search threads"),
        "{err}"
    );
    assert!(err.contains("of the 16 asked for ran the search"), "{err}");
    assert!(text.contains("raw      9,356"), "{text}");
}

/// Under a cap so tight that not one search thread can be made, `solve`
/// and `unique` say so and that `--threads 1` works (exit 2; they
/// panicked "could not create a search thread", issue 43), and
/// `--threads 1` under the same cap counts right on the command's thread.
#[cfg(unix)]
#[test]
fn no_search_thread_at_all_is_an_error_message_not_a_panic() {
    let bin = assert_cmd::cargo::cargo_bin("jigsolve");
    let capped = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 450000 && exec '{}' {args}",
                bin.display()
            ))
            .output()
            .unwrap()
    };
    for args in [
        "solve pentomino-6x10 --count --threads 2 --no-progress",
        "unique pentomino-6x10 --threads 4",
    ] {
        let out = capped(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {err}");
        assert!(
            err.contains("could not create any of the") && err.contains("--threads 1"),
            "{args}: {err}"
        );
        assert!(!err.contains("panicked"), "{args}: {err}");
    }
    let out = capped("solve pentomino-6x10 --count --threads 1 --no-progress");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("raw      9,356"));
}

/// `--time-limit` bounds the preparation too: on a strip of 4,096 tiles
/// the random probes that choose the scan order took 13 s, past a limit of
/// 3 (issue 43). They now stop at the limit and the orders probed decide.
#[test]
fn the_time_limit_bounds_the_choice_of_order() {
    let mut seed = 1u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % 4000 + 1
    };
    let cols = 4096;
    let marks: Vec<u64> = (0..=cols).map(|_| next()).collect();
    let mut text = format!(
        "family = \"edge\"\nname = \"strip\"\nrows = 1\ncols = {cols}\nmatching = \"equal\"\ntiles = [\n"
    );
    for c in 0..cols {
        let left = if c == 0 { 0 } else { marks[c] };
        let right = if c == cols - 1 { 0 } else { marks[c + 1] };
        text.push_str(&format!("  \"0 {right} 0 {left}\",\n"));
    }
    text.push_str("]\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("strip.toml");
    std::fs::write(&path, text).unwrap();
    let started = std::time::Instant::now();
    let out = Command::cargo_bin("jigsolve")
        .unwrap()
        .args([
            "solve",
            path.to_str().unwrap(),
            "--count",
            "--time-limit",
            "2",
        ])
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(took < std::time::Duration::from_secs(4), "took {took:?}");
}
