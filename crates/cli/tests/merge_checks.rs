//! `merge` takes no shard result on trust: a file edited by hand or
//! corrupted on the way is refused with the reason, and so is one whose
//! numbers contradict each other, even when it was re-sealed.

use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;
use common::jigsolve;

/// Runs both shards of a 2-way split of Das verflixte Hunde-Spiel.
fn two_shards(dir: &Path) -> Vec<PathBuf> {
    (0..2)
        .map(|i| {
            let file = dir.join(format!("r-{i}.json"));
            jigsolve()
                .args([
                    "solve",
                    "hunde-spiel",
                    "--count",
                    "--no-progress",
                    "--threads",
                    "1",
                ])
                .args(["--shard", &format!("{i}/2"), "--output"])
                .arg(&file)
                .output()
                .unwrap();
            assert!(file.exists(), "shard {i} wrote its result");
            file
        })
        .collect()
}

fn merge(files: &[PathBuf]) -> (i32, String, String) {
    let out = jigsolve().arg("merge").args(files).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn edit(file: &Path, change: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    change(&mut v);
    std::fs::write(file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

#[test]
fn untouched_results_merge() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path());
    let (code, out, err) = merge(&files);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 of 2 shards merged, all complete"), "{out}");
}

#[test]
fn an_edited_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path());
    edit(&files[1], |v| {
        let raw = v["counts"]["raw"].as_u64().unwrap();
        v["counts"]["raw"] = (raw + 24).into();
    });
    let (code, out, err) = merge(&files);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "nothing merged: {out}");
    assert!(
        err.contains("result 2 (shard 1) has been edited or corrupted"),
        "{err}"
    );
}

#[test]
fn complete_beside_a_stop_reason_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path());
    edit(&files[0], |v| v["stopped"] = "time-limit".into());
    let (code, _, err) = merge(&files);
    assert_eq!(code, 2);
    // The checksum catches it first; a file without one is refused too.
    assert!(err.contains("edited or corrupted"), "{err}");
    edit(&files[0], |v| {
        v.as_object_mut().unwrap().remove("checksum");
    });
    let (code, _, err) = merge(&files);
    assert_eq!(code, 2);
    assert!(err.contains("edited or corrupted"), "{err}");
}

#[test]
fn results_of_the_older_format_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path());
    edit(&files[0], |v| {
        v["format"] = "jigsolve-shard-result/1".into()
    });
    let (code, _, err) = merge(&files);
    assert_eq!(code, 2);
    assert!(
        err.contains("not a shard result of format jigsolve-shard-result/2 (found 'jigsolve-shard-result/1')"),
        "{err}"
    );
}
