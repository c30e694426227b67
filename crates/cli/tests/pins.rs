//! Pinned pieces on the command line: counts checked against a filter of
//! the unpinned puzzle's full listing, listed solutions verified, and bad
//! pins reported with file and line.

mod common;
use common::{
    assert_rejected, assert_verified, file, jigsolve, json_lines, last_json, root, succeeds,
};
use predicates::prelude::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// The catalog's 6 x 10 pentomino file without its `[expected]` counts
/// (they are those of the unpinned puzzle), followed by `pins`.
fn pentominoes_with(pins: &str) -> String {
    let text = std::fs::read_to_string(root().join("puzzles/grid/pentomino-6x10.toml")).unwrap();
    let body = text.split("[expected]").next().unwrap();
    format!("{body}\n{pins}")
}

/// Every distinct solution of the unpinned 6 x 10 puzzle, as JSON solutions.
fn full_listing() -> Vec<Value> {
    let out = succeeds(jigsolve().current_dir(root()).args([
        "solve",
        "pentomino-6x10",
        "--no-symmetry",
        "--json",
        "--no-progress",
    ]));
    let lines = json_lines(&out.stdout);
    let solutions: Vec<Value> = lines
        .into_iter()
        .filter(|v| v["type"] == "solution")
        .map(|v| v["solution"].clone())
        .collect();
    assert_eq!(solutions.len(), 9356);
    solutions
}

/// A placement of a solution: piece name and sorted cells.
fn placement(solution: &Value, piece: &str) -> (String, Vec<Vec<i64>>) {
    let p = solution["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["piece"] == piece)
        .unwrap();
    let mut cells: Vec<Vec<i64>> = serde_json::from_value(p["cells"].clone()).unwrap();
    cells.sort();
    (piece.to_string(), cells)
}

fn has(solution: &Value, pin: &(String, Vec<Vec<i64>>)) -> bool {
    placement(solution, &pin.0) == *pin
}

fn pin_table(pin: &(String, Vec<Vec<i64>>)) -> String {
    format!(
        "[[pin]]\npiece = \"{}\"\ncells = {}\n",
        pin.0,
        serde_json::to_string(&pin.1).unwrap()
    )
}

/// The place of `piece` shared by the most solutions; ties go to the
/// smallest cells, so the choice does not depend on the listing's order.
fn most_shared_placement(all: &[Value], piece: &str) -> (String, Vec<Vec<i64>>) {
    let mut tally: std::collections::BTreeMap<Vec<Vec<i64>>, usize> = Default::default();
    for s in all {
        *tally.entry(placement(s, piece).1).or_default() += 1;
    }
    let (cells, _) = tally
        .into_iter()
        .max_by(|(a, m), (b, n)| m.cmp(n).then_with(|| b.cmp(a)))
        .unwrap();
    (piece.to_string(), cells)
}

/// The letter grid mirrored left to right and/or top to bottom.
fn moved(grid: &[String], flip_x: bool, flip_y: bool) -> Vec<String> {
    let mut rows: Vec<String> = grid
        .iter()
        .map(|r| {
            if flip_x {
                r.chars().rev().collect()
            } else {
                r.clone()
            }
        })
        .collect();
    if flip_y {
        rows.reverse();
    }
    rows
}

#[test]
fn pentominoes_6x10_with_one_pin_count_the_solutions_that_have_it() {
    let all = full_listing();
    // The pin: the place of the L, and of the X, that most solutions share.
    // Chosen from the listing's content, not its order: the listing comes
    // from several threads, so its order changes from run to run, and a
    // place picked by position was once kept by a single solution.
    for piece in ["L", "X"] {
        let pin = most_shared_placement(&all, piece);
        let kept: Vec<&Value> = all.iter().filter(|s| has(s, &pin)).collect();
        // Unique: the rectangle's four motions that keep the pin, applied
        // to the letter grids.
        let mirror = |c: &Vec<i64>, fx: bool, fy: bool| {
            vec![
                if fx { 9 - c[0] } else { c[0] },
                if fy { 5 - c[1] } else { c[1] },
            ]
        };
        let motions: Vec<(bool, bool)> =
            [(false, false), (true, false), (false, true), (true, true)]
                .into_iter()
                .filter(|&(fx, fy)| {
                    let mut image: Vec<Vec<i64>> =
                        pin.1.iter().map(|c| mirror(c, fx, fy)).collect();
                    image.sort();
                    image == pin.1
                })
                .collect();
        let orbits: BTreeSet<Vec<String>> = kept
            .iter()
            .map(|s| {
                let grid: Vec<String> = serde_json::from_value(s["grid"].clone()).unwrap();
                motions
                    .iter()
                    .map(|&(fx, fy)| moved(&grid, fx, fy))
                    .min()
                    .unwrap()
            })
            .collect();
        let f = file(&pentominoes_with(&pin_table(&pin)));
        for engine in ["auto", "dlx"] {
            let out = jigsolve()
                .args([
                    "solve",
                    "--count",
                    "--json",
                    "--no-progress",
                    "--engine",
                    engine,
                ])
                .arg(f.path())
                .output()
                .unwrap();
            let v = last_json(&out);
            assert_eq!(v["complete"], true);
            let n = kept.len() as u64;
            assert!(n > 1, "{piece}: a pin kept only {n} solutions");
            assert_eq!(v["raw"], n, "{piece} {engine}: {v}");
            assert_eq!(v["distinct"], n, "{piece} {engine}: {v}");
            assert_eq!(v["unique"], orbits.len() as u64, "{piece} {engine}: {v}");
        }
        // The listed solutions have the pinned piece and verify.
        let out = jigsolve()
            .args(["solve", "--json", "--no-progress", "--no-symmetry"])
            .arg(f.path())
            .output()
            .unwrap();
        let listed: Vec<Value> = json_lines(&out.stdout)
            .into_iter()
            .filter(|v| v["type"] == "solution")
            .collect();
        assert_eq!(listed.len(), kept.len());
        assert!(listed.iter().all(|v| has(&v["solution"], &pin)));
        let saved = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(saved.path(), &out.stdout).unwrap();
        assert_verified(&f.path().display().to_string(), saved.path());
    }
}

#[test]
fn pinning_all_twelve_pieces_of_a_solution_leaves_only_it() {
    let out = jigsolve()
        .current_dir(root())
        .args([
            "solve",
            "pentomino-6x10",
            "--json",
            "--limit",
            "1",
            "--no-progress",
        ])
        .output()
        .unwrap();
    let first = json_lines(&out.stdout)
        .into_iter()
        .find(|v| v["type"] == "solution")
        .unwrap();
    let pins: String = "FILNPTUVWXYZ"
        .chars()
        .map(|p| pin_table(&placement(&first["solution"], &p.to_string())))
        .collect();
    let f = file(&pentominoes_with(&pins));
    let out = jigsolve()
        .args(["solve", "--count", "--json", "--no-progress"])
        .arg(f.path())
        .output()
        .unwrap();
    let v = last_json(&out);
    assert_eq!(
        [&v["raw"], &v["distinct"], &v["unique"]],
        [&Value::from(1), &Value::from(1), &Value::from(1)],
        "{v}"
    );
}

#[test]
fn a_pinned_solution_that_breaks_its_pin_does_not_verify() {
    // The puzzle pins X where solution 1 has it; a solution of the
    // unpinned puzzle with X elsewhere is rejected.
    let out = jigsolve()
        .current_dir(root())
        .args([
            "solve",
            "pentomino-6x10",
            "--json",
            "--limit",
            "2",
            "--no-progress",
            "--no-symmetry",
        ])
        .output()
        .unwrap();
    let sols: Vec<Value> = json_lines(&out.stdout)
        .into_iter()
        .filter(|v| v["type"] == "solution")
        .collect();
    let pin = placement(&sols[0]["solution"], "X");
    let other = sols
        .iter()
        .find(|s| !has(&s["solution"], &pin))
        .expect("two first solutions with X apart");
    let f = file(&pentominoes_with(&pin_table(&pin)));
    let saved = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(saved.path(), format!("{other}\n")).unwrap();
    jigsolve()
        .arg("verify")
        .arg(f.path())
        .arg(saved.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("piece 'X' is pinned on"));
}

#[test]
fn bad_pins_name_file_and_line_and_exit_2() {
    let base = "family = \"grid\"\nboard = \"\"\"\n####\n####\n\"\"\"\n[[piece]]\nname = \"L\"\nshape = \"\"\"\n###\n#..\n\"\"\"\nsides = \"one\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncopies = 2\n";
    // The pins start on line 17.
    let cases = [
        ("[[pin]]\npiece = \"Q\"\ncells = [[0,0],[1,0]]\n", ":18: pin of piece 'Q': the puzzle has no piece called 'Q'"),
        ("[[pin]]\npiece = \"D\"\ncells = [[3,1],[4,1]]\n", ":17: the pin of piece 'D' covers (4,1), which is not a board cell"),
        ("[[pin]]\npiece = \"D\"\ncells = [[0,0],[1,1]]\n", ":17: the cells pinned for piece 'D' are not that piece turned or turned over"),
        // The mirror image of the one-sided L.
        ("[[pin]]\npiece = \"L\"\ncells = [[0,0],[1,0],[2,0],[2,1]]\n", ":17: the cells pinned for piece 'L' are not that piece turned (it is one-sided"),
        ("[[pin]]\npiece = \"L\"\ncells = [[0,0],[1,0],[2,0],[0,1]]\n[[pin]]\npiece = \"D\"\ncells = [[0,1],[1,1]]\n", ":20: the pins of 'L' and 'D' both cover (0,1)"),
        ("[[pin]]\npiece = \"D\"\ncells = [[0,1],[1,1]]\n[[pin]]\npiece = \"D\"\ncells = [[2,1],[3,1]]\n[[pin]]\npiece = \"D\"\ncells = [[1,0],[2,0]]\n", ":23: piece 'D' is pinned 3 times, but it has only 2 copies"),
        ("[[pin]]\npiece = \"D\"\ncells = [[0,0],[1]]\n", ":19: the pin of piece 'D': a cell has 1 coordinates"),
        ("[[pin]]\npiece = \"D\"\nshape = \"##\"\n", ":19: unknown field `shape`"),
    ];
    for (pins, want) in cases {
        assert_rejected(&format!("{base}{pins}"), want);
    }
    // Colours: a pin whose coloured cell would lie on the other colour.
    let coloured = "family = \"grid\"\ncolours = [\"b\", \"w\"]\nboard = \"bw\"\n[[piece]]\nname = \"M\"\nshape = \"b\"\n[[piece]]\nname = \"N\"\nshape = \"w\"\n[[pin]]\npiece = \"M\"\ncells = [[1,0]]\n";
    assert_rejected(
        coloured,
        ":10: the cells pinned for piece 'M' have its shape, but a coloured cell",
    );
}

#[test]
fn the_dlx_export_keeps_only_the_pin_on_pinned_cells() {
    let text = "family = \"grid\"\nboard = { size = [4, 2] }\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncopies = 4\n[[pin]]\npiece = \"D\"\ncells = [[0,0],[1,0]]\n";
    let f = file(text);
    let out = succeeds(jigsolve().args(["export", "--dlx"]).arg(f.path()));
    let text = String::from_utf8_lossy(&out.stdout);
    // Options are the lines after the item line; cell (x, y) is named "xy".
    let options: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('|'))
        .skip(1)
        .collect();
    let on = |cell: &str| {
        options
            .iter()
            .filter(|l| l.split(' ').any(|i| i == cell))
            .count()
    };
    assert_eq!(on("00"), 1, "{text}");
    assert_eq!(on("10"), 1, "{text}");
    assert!(on("21") > 1, "{text}");
    assert!(text.contains("pinned"), "{text}");
}
