//! `jigsolve best`: improvements as text and JSON, every score recounted by
//! `verify`, full scores where solutions exist, the same run from the same
//! seed, pictures, limits and signals, and bad input refused with exit 2.

mod common;

use common::{file, jigsolve, json_lines, root, succeeds};
use serde_json::Value;
use std::process::Stdio;
use std::time::Duration;

const OWEN6: &str = "data/edge/owen-set2/pieces_06x06.txt";

/// Runs `best` with `args` in the repository root; returns the exit code
/// and the JSON lines printed.
fn best_json(args: &[&str]) -> (i32, Vec<Value>) {
    let out = jigsolve()
        .current_dir(root())
        .arg("best")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    (out.status.code().unwrap(), json_lines(&out.stdout))
}

/// The scores of the improvement lines.
fn scores(lines: &[Value]) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l["type"] == "best")
        .map(|l| l["score"].as_u64().expect("an integer score"))
        .collect()
}

#[test]
fn a_solvable_puzzle_reaches_the_full_score_and_verify_recounts_every_board() {
    let (code, lines) = best_json(&[OWEN6, "--threads", "1", "--seed", "1", "--time-limit", "60"]);
    assert_eq!(code, 0, "a full score exits 0");
    let found = scores(&lines);
    assert!(found.windows(2).all(|w| w[0] < w[1]), "{found:?}");
    assert_eq!(found.last(), Some(&60));
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["score"], 60);
    assert_eq!(summary["max"], 60);
    assert_eq!(summary["end"], "full score");
    for line in lines.iter().filter(|l| l["type"] == "best") {
        for key in ["max", "nodes", "seconds", "seed", "board", "link"] {
            assert!(!line[key].is_null(), "{key} missing in {line}");
        }
    }
    // verify recounts every board and agrees with every claimed score.
    let saved = tempfile::NamedTempFile::new().unwrap();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(saved.path(), text).unwrap();
    let out = succeeds(
        jigsolve()
            .current_dir(root())
            .args(["verify", OWEN6])
            .arg(saved.path()),
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("{} boards", found.len())), "{said}");
    assert!(said.contains("60 of 60"), "{said}");
    // The link of the last board scores the same.
    let link = lines.iter().rev().find(|l| l["type"] == "best").unwrap()["link"]
        .as_str()
        .unwrap()
        .to_string();
    let out = succeeds(
        jigsolve()
            .current_dir(root())
            .args(["verify", OWEN6, &link]),
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("60 of 60"));
}

#[test]
fn the_clue_puzzles_of_six_by_six_reach_the_full_score() {
    // Eternity II's clue puzzles 1 and 3 (6 x 6, with published solutions):
    // the search completes a board, and verify recounts it.
    for clue in ["data/edge/heule/clue1.txt", "data/edge/heule/clue3.txt"] {
        let (code, lines) =
            best_json(&[clue, "--threads", "1", "--seed", "1", "--time-limit", "60"]);
        assert_eq!(code, 0, "{clue}: a full score exits 0");
        let summary = lines.last().unwrap();
        assert_eq!(summary["end"], "full score", "{clue}: {summary}");
        assert_eq!(summary["score"], 60, "{clue}: {summary}");
        let best = lines.iter().rev().find(|l| l["type"] == "best").unwrap();
        let saved = file(&format!("{best}\n"));
        let out = succeeds(
            jigsolve()
                .current_dir(root())
                .args(["verify", clue])
                .arg(saved.path()),
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("60 of 60"),
            "{clue}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn the_kept_best_boards_verify() {
    // Every board kept under data/best/ scores what it claims for the
    // catalog puzzle it names, recounted by verify.
    let dir = root().join("data/best");
    let mut kept = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let line: Value = serde_json::from_str(text.trim()).unwrap();
        let (puzzle, score) = (line["puzzle"].as_str().unwrap(), &line["score"]);
        let out = succeeds(
            jigsolve()
                .current_dir(root())
                .args(["verify", puzzle])
                .arg(&path),
        );
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.contains(&format!("{score} of {}", line["max"])),
            "{}: {said}",
            path.display()
        );
        kept += 1;
    }
    assert!(kept >= 1, "no board kept under {}", dir.display());
}

#[test]
fn a_claimed_score_the_recount_does_not_give_fails_verify() {
    let (_, lines) = best_json(&[OWEN6, "--threads", "1", "--seed", "2", "--time-limit", "60"]);
    let mut last = lines
        .iter()
        .rev()
        .find(|l| l["type"] == "best")
        .unwrap()
        .clone();
    last["score"] = Value::from(59);
    let f = file(&format!("{last}\n"));
    jigsolve()
        .current_dir(root())
        .args(["verify", OWEN6])
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("claims score 59, but 60"));
}

#[test]
fn the_same_seed_with_one_thread_gives_the_same_improvements() {
    let run = || {
        let (code, lines) = best_json(&[
            "eternity2",
            "--threads",
            "1",
            "--seed",
            "42",
            "--node-limit",
            "3000000",
            "--restart-nodes",
            "400000",
        ]);
        assert_eq!(code, 3, "a node limit exits 3");
        assert_eq!(lines.last().unwrap()["end"], "node-limit");
        lines
            .into_iter()
            .filter(|l| l["type"] == "best")
            .map(|l| (l["score"].clone(), l["board"].clone(), l["restart"].clone()))
            .collect::<Vec<_>>()
    };
    let first = run();
    assert!(first.len() > 5);
    assert_eq!(first, run());
}

#[test]
fn text_output_shows_improvements_the_board_and_the_link() {
    let out = jigsolve()
        .current_dir(root())
        .args([
            "best",
            "eternity2",
            "--threads",
            "1",
            "--seed",
            "3",
            "--node-limit",
            "1000000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().next().unwrap().starts_with("score "), "{text}");
    assert!(text.contains("/480  nodes "));
    assert!(
        text.contains("#139 r0"),
        "the starter piece is on the board"
    );
    assert!(
        text.contains("https://e2.bucas.name/#puzzle=eternity2&board_w=16&board_h=16&board_edges=")
    );
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("best ") && last.contains("of 480 inner edges") && last.contains("seed 3"),
        "{last}"
    );
}

#[test]
fn pictures_of_a_partial_board() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, png) = (dir.path().join("b.svg"), dir.path().join("b.png"));
    let (code, lines) = best_json(&[
        "eternity2",
        "--threads",
        "1",
        "--node-limit",
        "20000",
        "--seed",
        "1",
        "--svg",
        svg.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 3);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is XML");
    assert!(text.contains("best board"));
    // One tile drawn per filled cell of the best board; empty cells (a
    // dead end's completion usually fills them all) are left blank.
    let best = lines.iter().rev().find(|l| l["type"] == "best").unwrap();
    let filled = best["board"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|cell| !cell.is_null())
        .count();
    let tiles = doc
        .descendants()
        .filter(|n| n.has_tag_name("title") && n.text().is_some_and(|t| t.contains("turned")))
        .count();
    assert_eq!(tiles, filled);
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
}

#[test]
fn sigterm_stops_with_the_best_so_far_and_exit_130() {
    let child = std::process::Command::new(common::bin())
        .current_dir(root())
        .args([
            "best",
            "eternity2",
            "--threads",
            "1",
            "--json",
            "--time-limit",
            "60",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let lines = json_lines(&out.stdout);
    let summary = lines.last().unwrap();
    assert_eq!(summary["end"], "cancelled");
    assert_eq!(summary["score"], *scores(&lines).last().unwrap());
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    // A board saved for Eternity II is not a board of Owen's 6 x 6.
    let (_, lines) = best_json(&[
        "eternity2",
        "--threads",
        "1",
        "--node-limit",
        "10000",
        "--seed",
        "1",
    ]);
    let board = lines.iter().find(|l| l["type"] == "best").unwrap();
    let f = file(&format!("{board}\n"));
    jigsolve()
        .current_dir(root())
        .args(["verify", OWEN6])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("16 rows, but the puzzle has 6"));
    // A link for another size.
    jigsolve()
        .current_dir(root())
        .args(["verify", OWEN6, board["link"].as_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("16 x 16 board"));
    // A tile the puzzle does not have.
    let mut bad = board.clone();
    bad["board"][0][0] = serde_json::json!({"tile": 257, "rotation": 0});
    let f = file(&format!("{bad}\n"));
    jigsolve()
        .current_dir(root())
        .args(["verify", "eternity2"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("there is no tile 257"));
    // A hint on a tile that does not exist.
    let f = file(
        "rows = 1\ncols = 2\ntiles = [\"+1 +2 -1 +3\", \"-4 -1 +4 -2\"]\n[[hints]]\ntile = 3\nrow = 1\ncol = 1\n",
    );
    jigsolve()
        .arg("best")
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("names tile 3"));
    // A polyform puzzle, and options out of range.
    jigsolve()
        .args(["best", "pentomino-6x10"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("edge-matching puzzles only"));
    jigsolve()
        .args(["best", "eternity2", "--breaks-after", "300"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("breaks after depth 300"));
    jigsolve()
        .args(["best", "eternity2", "--restart-nodes", "0"])
        .assert()
        .code(2);
    jigsolve()
        .args(["best", "eternity2", "--order", "spiral"])
        .assert()
        .code(2);
    jigsolve()
        .args(["best", "eternity2", "--polish", "some"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not a number of points or 'off'"));
    jigsolve()
        .args(["best", "eternity2", "--reassign", "often"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not a number of rounds or 'off'"));
    jigsolve()
        .args(["best", "eternity2", "--reassign", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("at least 1, or 'off'"));
    for bad in ["0", "soon"] {
        jigsolve()
            .args(["best", "eternity2", "--stall-nodes", bad])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "is not a positive number of nodes or 'off'",
            ));
    }
    jigsolve()
        .args(["best", "eternity2", "--frame-breaks", "maybe"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("expected on or off"));
    jigsolve()
        .args(["best", "eternity2", "--pin-breaks", "maybe"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("expected auto, on or off"));
    // Quota colours the puzzle does not have, or its border mark.
    jigsolve()
        .args(["best", "eternity2", "--quota-colours", "13,99"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("has no colour '99'"));
    jigsolve()
        .args(["best", "eternity2", "--quota-colours", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'0' is the border mark"));
}

#[test]
fn shards_take_their_own_seed_streams() {
    let run = |shard: &str| {
        let (code, lines) = best_json(&[
            "eternity2",
            "--threads",
            "1",
            "--seed",
            "8",
            "--node-limit",
            "1000000",
            "--shard",
            shard,
        ]);
        assert_eq!(code, 3);
        assert_eq!(lines.last().unwrap()["shard"], shard);
        lines
            .into_iter()
            .filter(|l| l["type"] == "best")
            .map(|l| l["board"].clone())
            .collect::<Vec<_>>()
    };
    let zero = run("0/2");
    assert_eq!(zero, run("0/2"), "a shard's run is reproducible");
    assert_ne!(zero, run("1/2"), "another shard, other early choices");
    jigsolve()
        .args(["best", "eternity2", "--shard", "2/2"])
        .assert()
        .code(2);
}

/// A 64 x 64 board of about 4,096 marks (issue 43: `best` spent 14 s and
/// 6.5 GB preparing a list per pair of marks, then polled its time limit
/// once in 5.7 s): under a 2 GB memory cap it runs and stops at its time
/// limit.
#[cfg(unix)]
#[test]
fn best_on_a_board_of_many_marks_keeps_its_memory_and_time_limit() {
    let (rows, cols, marks) = (64usize, 64usize, 4095u64);
    let mut seed = 7u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % marks + 1
    };
    let right: Vec<Vec<u64>> = (0..rows)
        .map(|_| (0..cols).map(|_| next()).collect())
        .collect();
    let down: Vec<Vec<u64>> = (0..rows)
        .map(|_| (0..cols).map(|_| next()).collect())
        .collect();
    let mut text = format!(
        "family = \"edge\"\nname = \"many-marks\"\nrows = {rows}\ncols = {cols}\nmatching = \"equal\"\ntiles = [\n"
    );
    for r in 0..rows {
        for c in 0..cols {
            let top = if r == 0 { 0 } else { down[r - 1][c] };
            let bottom = if r == rows - 1 { 0 } else { down[r][c] };
            let left = if c == 0 { 0 } else { right[r][c - 1] };
            let east = if c == cols - 1 { 0 } else { right[r][c] };
            text.push_str(&format!("  \"{top} {east} {bottom} {left}\",\n"));
        }
    }
    text.push_str("]\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.toml");
    std::fs::write(&path, text).unwrap();
    let started = std::time::Instant::now();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2000000 && exec '{}' best '{}' --time-limit 2 --threads 1 --seed 1",
            assert_cmd::cargo::cargo_bin("jigsolve").display(),
            path.display()
        ))
        .output()
        .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(took < std::time::Duration::from_secs(4), "took {took:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("inner edges"), "{text}");
}

/// `render --solution` draws a line of `best --json` as its board (issue
/// 43: "missing field `cells`").
#[test]
fn render_draws_a_best_board_line() {
    let out = succeeds(jigsolve().args([
        "best",
        "scramble",
        "--json",
        "--threads",
        "1",
        "--seed",
        "1",
        "--node-limit",
        "5000",
    ]));
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("best.jsonl");
    std::fs::write(&lines, &out.stdout).unwrap();
    let svg = dir.path().join("best.svg");
    let drawn = jigsolve()
        .args(["render", "scramble", "--solution"])
        .arg(&lines)
        .arg("--svg")
        .arg(&svg)
        .output()
        .unwrap();
    assert_eq!(
        drawn.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.contains("best board, score"),
        "{}",
        &text[..200.min(text.len())]
    );
}

/// `--stats`: how the restarts ended, one count per restart, the best of
/// them no better than the best board, in the summary and in words.
#[test]
fn stats_say_how_the_restarts_ended() {
    let args = [
        OWEN6,
        "--threads",
        "1",
        "--seed",
        "3",
        "--node-limit",
        "3000000",
        "--restart-nodes",
        "200000",
        "--stats",
    ];
    let (code, lines) = best_json(&args);
    assert!(code == 0 || code == 3, "exit {code}");
    let summary = lines.last().unwrap();
    let ended = &summary["restarts_ended"];
    let counted = |key: &str| -> Vec<(u64, u64)> {
        ended[key]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.parse().unwrap(), v.as_u64().unwrap()))
            .collect()
    };
    let by_score = counted("by_score");
    let by_depth = counted("by_depth");
    let restarts = summary["restarts"].as_u64().unwrap();
    assert!(restarts > 1, "{summary}");
    assert_eq!(by_score.iter().map(|p| p.1).sum::<u64>(), restarts);
    assert_eq!(by_depth.iter().map(|p| p.1).sum::<u64>(), restarts);
    let top = by_score.iter().map(|p| p.0).max().unwrap();
    assert!(top <= summary["score"].as_u64().unwrap(), "{summary}");
    let positions = ended["positions"].as_u64().unwrap();
    assert_eq!(positions, 36, "a 6 x 6 board, no pin");
    assert!(by_depth.iter().all(|p| p.0 <= positions));

    // The same run (one thread, the same seed) in words.
    let out = jigsolve()
        .current_dir(root())
        .arg("best")
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "restarts' best scores ({restarts} restarts): lowest"
        )),
        "{text}"
    );
    assert!(text.contains("positions filled at most, of 36"), "{text}");
}
