//! The designer's commands: `generate` (planted puzzles, `--unique`,
//! `--add-hints`) and `hints` (the fewest hints that leave one solution).
//! Every planted solution goes through `verify`, every "unique" through a
//! full count, every hint set through a full count of the hinted file.

mod common;

use common::{assert_verified, complete_count, jigsolve, root, succeeds};
use serde_json::Value;
use std::path::Path;

/// The generator kinds the tests sweep, as `generate` arguments.
fn kinds() -> Vec<Vec<&'static str>> {
    [
        "edge --rows 3 --cols 3 --colours 3",
        "edge --rows 3 --cols 4 --colours 2 --no-border --matching complementary",
        "edge --rows 4 --cols 4 --colours 3 --frame-colours 2",
        "grid --size 5x4 --piece-size 3-5",
        "grid --size 3x3x2 --piece-size 3-4 --colouring checker",
        "grid --board pentomino-8x8-hole --piece-size 6-9 --one-sided 0.5",
        "grid --pieces soma",
        "polygon --pieces 4",
    ]
    .iter()
    .map(|k| k.split_whitespace().collect())
    .collect()
}

/// Runs `generate KIND --seed SEED -o DIR/puzzle.toml --solution DIR/s.jsonl`
/// plus `extra`; returns the exit code, the puzzle path and stdout.
fn generate(kind: &[&str], seed: u64, extra: &[&str], dir: &Path) -> (i32, String, String) {
    let puzzle = dir.join(format!("g-{}-{seed}.toml", kind.join("_")));
    let solution = dir.join(format!("g-{}-{seed}.jsonl", kind.join("_")));
    let out = jigsolve()
        .current_dir(root())
        .arg("generate")
        .args(kind)
        .args(["--seed", &seed.to_string(), "--no-progress", "-o"])
        .arg(&puzzle)
        .arg("--solution")
        .arg(&solution)
        .args(extra)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    if code == 0 {
        // The planted solution holds, checked by the independent verifier.
        assert_verified(puzzle.to_str().unwrap(), &solution);
    }
    (
        code,
        puzzle.to_string_lossy().into_owned(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn generated_puzzles_hold_their_planted_solution() {
    let dir = tempfile::tempdir().unwrap();
    for kind in kinds() {
        for seed in 1..=25 {
            let (code, puzzle, said) = generate(&kind, seed, &[], dir.path());
            assert_eq!(code, 0, "{kind:?} seed {seed}: {said}");
            let count = complete_count(&puzzle, &[]);
            assert!(
                count["raw"].as_u64().unwrap_or(1) >= 1,
                "{kind:?} seed {seed}: {count}"
            );
        }
    }
}

#[test]
fn the_same_seed_makes_the_same_puzzle() {
    let run = |seed: &str| {
        jigsolve()
            .args([
                "generate",
                "grid",
                "--size",
                "6x5",
                "--colouring",
                "checker",
                "--seed",
                seed,
            ])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("7"), run("7"));
    assert_ne!(run("7"), run("8"));
}

#[test]
fn unique_generated_puzzles_have_exactly_one_solution_by_full_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut confirmed = 0;
    // Kinds where unique puzzles are common (random colours pin the
    // polyominoes down; see BENCHMARKS.md for the edge counts by colours).
    let kinds: Vec<Vec<&str>> = [
        "edge --rows 3 --cols 3 --colours 3",
        "edge --rows 4 --cols 4 --colours 5",
        "edge --rows 4 --cols 4 --colours 3 --frame-colours 2",
        "grid --size 5x4 --piece-size 3-5 --colouring 3",
        "grid --size 6x6 --piece-size 4-6 --colouring 4",
        "grid --size 3x3x3 --piece-size 3-5 --colouring 3",
        "polygon --pieces 4",
    ]
    .iter()
    .map(|k| k.split_whitespace().collect())
    .collect();
    for kind in kinds {
        for seed in 1..=30 {
            let (code, puzzle, said) = generate(
                &kind,
                seed * 1000,
                &["--unique", "--tries", "40"],
                dir.path(),
            );
            match code {
                0 => {
                    let count = complete_count(&puzzle, &[]);
                    assert_eq!(count["unique"], 1, "{kind:?} seed {seed}: {said}\n{count}");
                    confirmed += 1;
                }
                1 => assert!(said.contains("no unique puzzle"), "{said}"),
                _ => panic!("{kind:?} seed {seed}: exit {code}: {said}"),
            }
        }
    }
    assert!(
        confirmed >= 180,
        "only {confirmed} unique puzzles generated"
    );
}

#[test]
fn add_hints_leaves_the_planted_solution_alone() {
    let dir = tempfile::tempdir().unwrap();
    let kinds = [
        vec!["edge", "--rows", "4", "--cols", "4", "--colours", "2"],
        vec!["grid", "--size", "6x4", "--piece-size", "2-4"],
    ];
    for kind in kinds {
        for seed in 1..=10 {
            let (code, puzzle, said) = generate(
                &kind,
                seed,
                &["--unique", "--add-hints", "--tries", "1", "--json"],
                dir.path(),
            );
            assert_eq!(code, 0, "{kind:?} seed {seed}: {said}");
            let count = complete_count(&puzzle, &["--no-symmetry"]);
            let text = std::fs::read_to_string(&puzzle).unwrap();
            let hinted = text.contains("[[hints]]") || text.contains("[[pin]]");
            if hinted {
                assert_eq!(count["distinct"], 1, "{kind:?} seed {seed}: {count}");
            } else {
                assert_eq!(
                    complete_count(&puzzle, &[])["unique"],
                    1,
                    "{kind:?} seed {seed}"
                );
            }
        }
    }
}

/// `hints PUZZLE --json -o FILE`: the report, and the full count of FILE
/// without symmetry (one distinct solution).
fn hints(puzzle: &str, dir: &Path) -> (Value, Value) {
    let file = dir.join("hinted.toml");
    let out = succeeds(
        jigsolve()
            .current_dir(root())
            .args(["hints", puzzle, "--json", "--no-progress", "-o"])
            .arg(&file),
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let count = complete_count(file.to_str().unwrap(), &["--no-symmetry"]);
    (report, count)
}

#[test]
fn hints_leave_exactly_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, fewest) in [
        ("scramble", 1),
        ("hunde-spiel", 1),
        ("data/edge/owen-set2/pieces_06x06.txt", 1),
        ("pentomino-3x20", 1),
        ("pentomino-5x12", 2),
    ] {
        let (report, count) = hints(puzzle, dir.path());
        assert_eq!(report["proven"], true, "{puzzle}: {report}");
        assert_eq!(report["count"], fewest, "{puzzle}: {report}");
        assert_eq!(count["distinct"], 1, "{puzzle}: {count}");
    }
    // Already unique up to symmetry: no hints, the file is the puzzle.
    let (report, count) = hints("impuzzable", dir.path());
    assert_eq!(report["count"], 0);
    assert_eq!(report["already_unique"], true);
    assert_eq!(count["distinct"], 4);
}

/// The edge tiles' TOML of a generated 3 x 3 puzzle with `hints` (row,
/// column, tile, rotation; from 1) appended.
fn with_edge_hints(text: &str, hints: &[(u64, u64, u64, u64)]) -> String {
    let mut t = text.to_string();
    for (row, col, tile, rotation) in hints {
        t.push_str(&format!(
            "\n[[hints]]\ntile = {tile}\nrow = {row}\ncol = {col}\nrotation = {rotation}\n"
        ));
    }
    t
}

#[test]
fn no_smaller_hint_set_works_by_brute_force() {
    // Few colours: many solutions, so several hints are needed. Every set
    // of one hint fewer, taken from the solution the hints pin, still
    // leaves more than one distinct solution.
    let dir = tempfile::tempdir().unwrap();
    let mut checked_sets = 0;
    for seed in 1..=6 {
        let (code, puzzle, said) = generate(
            &[
                "edge",
                "--rows",
                "3",
                "--cols",
                "3",
                "--colours",
                "2",
                "--no-border",
            ],
            seed,
            &[],
            dir.path(),
        );
        assert_eq!(code, 0, "{said}");
        let (report, count) = hints(&puzzle, dir.path());
        assert_eq!(count["distinct"], 1);
        let k = report["count"].as_u64().unwrap() as usize;
        if k == 0 {
            continue;
        }
        // The pinned solution: the one solution of the hinted file.
        let out = jigsolve()
            .args([
                "solve",
                dir.path().join("hinted.toml").to_str().unwrap(),
                "--json",
                "--no-progress",
            ])
            .output()
            .unwrap();
        let record = common::json_lines(&out.stdout)[0]["solution"].clone();
        let mut places = Vec::new();
        for (r, row) in record["cells"].as_array().unwrap().iter().enumerate() {
            for (c, cell) in row.as_array().unwrap().iter().enumerate() {
                places.push((
                    r as u64 + 1,
                    c as u64 + 1,
                    cell["tile"].as_u64().unwrap(),
                    cell["rotation"].as_u64().unwrap(),
                ));
            }
        }
        let text = std::fs::read_to_string(&puzzle).unwrap();
        // Every subset of k - 1 places.
        let n = places.len();
        for mask in 0u32..1 << n {
            if mask.count_ones() as usize != k - 1 {
                continue;
            }
            let chosen: Vec<_> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| places[i])
                .collect();
            let f = common::file(&with_edge_hints(&text, &chosen));
            let count = complete_count(f.path().to_str().unwrap(), &["--no-symmetry"]);
            assert!(
                count["distinct"].as_u64().unwrap() > 1,
                "seed {seed}: {chosen:?} already leave one solution"
            );
            checked_sets += 1;
        }
    }
    assert!(checked_sets > 0, "no puzzle needed a hint");
}

#[test]
fn design_commands_refuse_bad_requests() {
    let dir = tempfile::tempdir().unwrap();
    let fails = |args: &[&str], says: &str| {
        let out = jigsolve().current_dir(root()).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    };
    fails(
        &["hints", "tangram-square"],
        "hints (pinned pieces) exist for edge matching and polyforms only",
    );
    fails(&["generate", "grid"], "--size");
    fails(&["generate", "grid", "--size", "0x3"], "not W x H");
    // More holes than the board can lose is refused, not kept at 0.6.
    fails(
        &["generate", "grid", "--size", "5x5", "--holes", "1.0"],
        "'1.0' is not a share from 0 to 0.6",
    );
    // Over the board limit: a message, not a panic (issue 43).
    fails(
        &["generate", "grid", "--size", "41x41x41"],
        "--size 41x41x41 has 68921 cells; a board has at most 65536",
    );
    fails(
        &["generate", "grid", "--size", "4x4", "--piece-size", "5-2"],
        "MIN-MAX",
    );
    fails(&["generate", "edge", "--rows", "3"], "--cols");
    fails(
        &[
            "generate",
            "edge",
            "--rows",
            "3",
            "--cols",
            "3",
            "--add-hints",
        ],
        "--unique",
    );
    fails(
        &["generate", "grid", "--board", "no-such-puzzle"],
        "no such file",
    );
    fails(
        &["generate", "grid", "--board", "impuzzable"],
        "impuzzable.toml: generate grid takes a polyform puzzle's board, and this is an edge-matching puzzle",
    );
    fails(
        &["generate", "grid", "--board", "stomachion"],
        "this is a polygon puzzle",
    );
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, "x").unwrap();
    let inside = blocked.join("p.toml");
    fails(
        &["generate", "polygon", "-o", inside.to_str().unwrap()],
        "cannot write the puzzle",
    );
    fails(
        &["hints", "scramble", "-o", inside.to_str().unwrap()],
        "cannot write the puzzle",
    );
}

#[test]
fn pictures_of_generated_and_hinted_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let png = dir.path().join("p.png");
    succeeds(
        jigsolve()
            .args(["generate", "grid", "--size", "5x4", "--no-progress", "-o"])
            .arg(dir.path().join("p.toml"))
            .arg("--svg")
            .arg(&svg)
            .arg("--png")
            .arg(&png),
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    roxmltree::Document::parse(&text).expect("the SVG is XML");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert!(reader.info().width > 50 && reader.info().height > 50);
    // The hinted Scramble Squares: the picture shows its one hint in place.
    let hinted = dir.path().join("h.svg");
    succeeds(
        jigsolve()
            .args(["hints", "scramble", "--no-progress", "-o"])
            .arg(dir.path().join("h.toml"))
            .arg("--svg")
            .arg(&hinted),
    );
    let text = std::fs::read_to_string(&hinted).unwrap();
    roxmltree::Document::parse(&text).expect("the SVG is XML");
    assert_eq!(text.matches("hint: ").count(), 1, "{text}");
}

/// The files a command will write are checked before it searches (issue
/// 43): one that cannot be written, two options naming one file, or an
/// output naming the puzzle the command reads are refused at once, with
/// the path, before any search (which could have lost what it found).
#[test]
fn outputs_are_checked_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, "x").unwrap();
    let unwritable = blocked.join("out.toml");
    let same = dir.path().join("same");
    let puzzle = dir.path().join("p.toml");
    std::fs::copy(root().join("puzzles/edge/hunde-spiel.toml"), &puzzle).unwrap();
    let p = puzzle.to_str().unwrap();
    let s = same.to_str().unwrap();
    let refused = |args: &[&str], says: &[&str]| {
        let out = jigsolve()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        for s in says {
            assert!(err.contains(s), "{args:?}: {err}");
        }
        assert!(
            out.stdout.is_empty(),
            "{args:?} searched: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    };
    refused(
        &["hints", p, "-o", unwritable.to_str().unwrap()],
        &[
            "out.toml",
            "cannot write the puzzle with its hints",
            "before the search",
        ],
    );
    refused(
        &["hints", p, "--svg", unwritable.to_str().unwrap()],
        &["cannot write the picture"],
    );
    refused(
        &["hints", p, "-o", s, "--svg", s],
        &["-o and --svg name the same file"],
    );
    refused(
        &["hints", p, "-o", p],
        &["-o names the puzzle", "destroy it"],
    );
    // The same file by another name.
    let other_name = format!(
        "{}/../{}/p.toml",
        dir.path().display(),
        dir.path().file_name().unwrap().to_str().unwrap()
    );
    refused(&["hints", p, "-o", &other_name], &["names the puzzle"]);
    refused(
        &[
            "generate",
            "grid",
            "--size",
            "4x4",
            "-o",
            s,
            "--solution",
            s,
        ],
        &["-o and --solution name the same file"],
    );
    refused(
        &[
            "solve",
            p,
            "--count",
            "--checkpoint",
            s,
            "--shard",
            "0/2",
            "--output",
            s,
        ],
        &["--checkpoint and --output name the same file"],
    );
    refused(
        &["solve", p, "--count", "--checkpoint", p],
        &["--checkpoint names the puzzle"],
    );
    refused(
        &[
            "solve",
            p,
            "--count",
            "--shard",
            "0/2",
            "--output",
            unwritable.to_str().unwrap(),
        ],
        &["cannot write the shard's result"],
    );
    // Nothing was written, and the puzzle is intact.
    assert!(!same.exists());
    assert_eq!(
        std::fs::read(&puzzle).unwrap(),
        std::fs::read(root().join("puzzles/edge/hunde-spiel.toml")).unwrap()
    );
    // hints prints what it found, then writes.
    let out = jigsolve()
        .current_dir(dir.path())
        .args(["hints", p, "-o", "h.toml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("written to h.toml"), "{text}");
    assert!(dir.path().join("h.toml").exists());
}

/// `generate polygon --unique` tries the next seed when exact arithmetic
/// overflows while checking a try (issue 43: it stopped and advised
/// `--approximate`, an option `generate` does not take).
#[test]
fn an_overflowing_try_is_followed_by_the_next_seed() {
    let dir = tempfile::tempdir().unwrap();
    let out = jigsolve()
        .current_dir(dir.path())
        .args([
            "generate", "polygon", "--pieces", "12", "--unique", "--seed", "1",
        ])
        .args(["--tries", "5", "-o", "p.toml"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("seed 1: exact arithmetic overflowed"), "{err}");
    assert!(!err.contains("--approximate"), "{err}");
    assert!(text.contains(": unique ("), "{text}");
    let check = jigsolve()
        .current_dir(dir.path())
        .args(["unique", "p.toml"])
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// `--time-limit` bounds generating itself: cutting a 40 x 40 x 40 box and
/// reading it back took minutes past a limit of 5 s (issue 43).
#[test]
fn the_time_limit_bounds_generating() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let out = jigsolve()
        .current_dir(dir.path())
        .args([
            "generate",
            "grid",
            "--size",
            "40x40x40",
            "--time-limit",
            "2",
        ])
        .args(["-o", "big.toml"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("stopped by the time limit (2 s)"), "{err}");
    assert!(took < std::time::Duration::from_secs(4), "took {took:?}");
}
