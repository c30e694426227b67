//! The search shown: `solve --stats` (the naive space with its formula,
//! checked against brute-force counts; nodes per depth that add up) and
//! `jigsolve tree` (counts per depth equal to the engines' own for every
//! engine, folded subtrees that keep the counts, pictures read back, and
//! bad input refused with exit code 2).

use predicates::prelude::*;
use serde_json::Value;
use std::collections::BTreeSet;

mod common;
use common::{file, jigsolve, last_json};

fn stats(puzzle: &str, options: &[&str]) -> Value {
    stats_on(puzzle, options, "1")
}

fn stats_on(puzzle: &str, options: &[&str], threads: &str) -> Value {
    let out = jigsolve()
        .args([
            "solve",
            puzzle,
            "--count",
            "--stats",
            "--json",
            "--threads",
            threads,
        ])
        .args(options)
        .output()
        .unwrap();
    assert!(
        out.status.code() == Some(0),
        "{puzzle} {options:?}: {out:?}"
    );
    last_json(&out)
}

fn tree_json(puzzle: &str, options: &[&str]) -> Value {
    let out = jigsolve()
        .args(["tree", puzzle, "--json"])
        .args(options)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{puzzle} {options:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// Every engine: the summary's nodes per depth add up to its nodes, and the
/// tree recorded node by node (whole, and with deep levels folded) has the
/// same nodes at every depth and the same solutions.
#[test]
fn per_depth_counts_add_up_for_every_engine() {
    let cases: &[(&str, &[&str])] = &[
        ("impuzzable", &["--order", "spiral"]),
        ("impuzzable", &["--order", "rows"]),
        ("hunde-spiel", &["--order", "frame"]),
        ("hunde-spiel", &["--no-symmetry"]),
        ("pentomino-3x20", &["--engine", "bitboard"]),
        ("pentomino-3x20", &["--engine", "bitboard-first"]),
        ("pentomino-3x20", &["--engine", "bitboard-mrv"]),
        ("pentomino-3x20", &["--engine", "dlx"]),
        ("soma", &[]),
        ("tangram-square", &[]),
        ("tangram-t", &["--approximate"]),
    ];
    for (puzzle, options) in cases {
        let summary = stats(puzzle, options);
        let per_depth = numbers(&summary["nodes_per_depth"]);
        let nodes = summary["nodes"].as_u64().unwrap();
        assert_eq!(per_depth.iter().sum::<u64>(), nodes, "{puzzle} {options:?}");
        for budget in ["100000", "40"] {
            let mut args = options.to_vec();
            args.extend(["--max-nodes", budget]);
            let t = tree_json(puzzle, &args);
            let depths: Vec<u64> = t["depths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["nodes"].as_u64().unwrap())
                .collect();
            let what = format!("{puzzle} {options:?} --max-nodes {budget}");
            assert_eq!(
                depths.iter().sum::<u64>(),
                t["nodes"].as_u64().unwrap(),
                "{what}"
            );
            assert_eq!(t["solutions"], summary["listed"], "{what}");
            assert!(t["complete"].as_bool().unwrap());
            if summary["family"] == "polygon" {
                // Recorded levels do not see the polygon engine's memo of
                // dead regions, which can only make them larger.
                assert!(depths.len() == per_depth.len(), "{what}");
                assert!(depths.iter().zip(&per_depth).all(|(t, s)| t >= s), "{what}");
            } else {
                assert_eq!(depths, per_depth, "{what}");
            }
            // Recorded nodes per depth add up to what the levels say.
            let recorded: u64 = t["depths"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|d| d["recorded"].as_u64())
                .sum();
            assert_eq!(recorded, t["recorded"].as_u64().unwrap(), "{what}");
            if budget == "40" {
                assert!(recorded <= 40, "{what}");
            }
        }
    }
}

/// Brute force over every map from the cells of a 2 x 2 board to (tile,
/// rotation) pairs, keeping those that use each free tile once and agree
/// with the hints.
fn brute_force_arrangements(tiles: usize, hints: &[(usize, usize, usize)]) -> u64 {
    let cells = 4;
    let mut count = 0;
    let choices = (tiles * 4) as u64;
    for code in 0..choices.pow(cells as u32) {
        let mut c = code;
        let mut used = BTreeSet::new();
        let mut ok = true;
        for cell in 0..cells {
            let (tile, rot) = ((c % choices) as usize / 4, (c % choices) as usize % 4);
            c /= choices;
            ok &= used.insert(tile);
            for &(h_tile, h_cell, h_rot) in hints {
                if h_cell == cell {
                    ok &= tile == h_tile && rot == h_rot;
                }
                if h_tile == tile && h_cell != cell {
                    ok = false;
                }
            }
        }
        count += ok as u64;
    }
    count
}

#[test]
fn the_naive_space_of_a_2x2_tile_puzzle_is_counted_by_brute_force() {
    let plain = file("rows = 2\ncols = 2\ntiles = [\"+1 +2 -1 -2\", \"+2 +1 -2 -1\", \"-1 +1 +2 -2\", \"+1 -2 -2 +1\"]\n");
    let path = plain.path().to_str().unwrap();
    let summary = stats(path, &[]);
    let naive = &summary["naive_space"];
    assert_eq!(naive["formula"], "4! x 4^4");
    assert_eq!(
        naive["exact"].as_u64().unwrap(),
        brute_force_arrangements(4, &[])
    );
    assert_eq!(naive["exact"].as_u64().unwrap(), 6144);
    let share = summary["pruned_share"].as_f64().unwrap();
    let nodes = summary["nodes"].as_f64().unwrap();
    assert!((share - (1.0 - nodes / 6144.0)).abs() < 1e-12);
    // One hint fixes tile 1 at row 1, column 1, unturned.
    let hinted = file("rows = 2\ncols = 2\ntiles = [\"+1 +2 -1 -2\", \"+2 +1 -2 -1\", \"-1 +1 +2 -2\", \"+1 -2 -2 +1\"]\n[[hints]]\ntile = 1\nrow = 1\ncol = 1\nrotation = 0\n");
    let out = jigsolve()
        .args([
            "solve",
            hinted.path().to_str().unwrap(),
            "--count",
            "--stats",
            "--json",
        ])
        .output()
        .unwrap();
    let summary = last_json(&out);
    assert_eq!(summary["naive_space"]["formula"], "3! x 4^3");
    assert_eq!(
        summary["naive_space"]["exact"].as_u64().unwrap(),
        brute_force_arrangements(4, &[(0, 0, 0)])
    );
}

/// The distinct cell sets a piece covers on a `w` x `h` board, found by
/// turning and flipping its cells and sliding them everywhere.
fn placements(shape: &[(i32, i32)], w: i32, h: i32) -> usize {
    let mut seen = BTreeSet::new();
    for flip in [false, true] {
        for turn in 0..4 {
            let moved: Vec<(i32, i32)> = shape
                .iter()
                .map(|&(x, y)| {
                    let (mut x, mut y) = if flip { (-x, y) } else { (x, y) };
                    for _ in 0..turn {
                        (x, y) = (-y, x);
                    }
                    (x, y)
                })
                .collect();
            for dx in -10..10 {
                for dy in -10..10 {
                    let mut cells: Vec<(i32, i32)> =
                        moved.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
                    if cells
                        .iter()
                        .all(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y))
                    {
                        cells.sort();
                        seen.insert(cells);
                    }
                }
            }
        }
    }
    seen.len()
}

#[test]
fn the_naive_space_of_a_tiny_polyform_board_is_counted_by_brute_force() {
    // A 4 x 2 board, an L tromino, two copies of a domino and a monomino.
    let puzzle = file("family = \"grid\"\nname = \"tiny\"\nboard = \"\"\"\n####\n####\n\"\"\"\n[[piece]]\nname = \"L\"\nshape = \"\"\"\nL.\nLL\n\"\"\"\n[[piece]]\nname = \"D\"\nshape = \"DD\"\ncopies = 2\n[[piece]]\nname = \"M\"\nshape = \"M\"\n");
    let out = jigsolve()
        .args([
            "solve",
            puzzle.path().to_str().unwrap(),
            "--count",
            "--stats",
            "--json",
        ])
        .output()
        .unwrap();
    let summary = last_json(&out);
    let l = placements(&[(0, 0), (0, 1), (1, 1)], 4, 2);
    let d = placements(&[(0, 0), (1, 0)], 4, 2);
    let m = placements(&[(0, 0)], 4, 2);
    assert_eq!((l, d, m), (12, 10, 8));
    let naive = &summary["naive_space"];
    assert_eq!(naive["formula"], format!("L:{l} x D:{d}^2 x M:{m}"));
    assert_eq!(naive["exact"].as_u64().unwrap(), (l * d * d * m) as u64);
    assert!(summary["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn stats_state_the_naive_space_in_text_with_its_formula() {
    jigsolve()
        .args(["solve", "impuzzable", "--count", "--stats"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "naive space  9! x 4^9 = 95,126,814,720",
        ))
        .stdout(predicate::str::contains("pruned       all but 1 in 10^7.9"));
}

#[test]
fn a_large_naive_space_keeps_its_logarithm() {
    let out = jigsolve()
        .args([
            "solve",
            "bedlam",
            "--count",
            "--stats",
            "--json",
            "--node-limit",
            "1000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let naive = last_json(&out)["naive_space"].clone();
    let log10 = naive["log10"].as_f64().unwrap();
    match naive["exact"].as_f64() {
        Some(v) => assert!((v.log10() - log10).abs() < 1e-6),
        None => assert!(log10 > 38.0, "{naive}"),
    }
}

#[test]
fn depth_folds_the_levels_below_it() {
    let whole = stats("pentomino-3x20", &[]);
    let t = tree_json("pentomino-3x20", &["--depth", "3"]);
    let depths = t["depths"].as_array().unwrap();
    let recorded: Vec<&Value> = depths
        .iter()
        .filter(|d| d.get("recorded").is_some())
        .collect();
    assert_eq!(recorded.len(), 4, "depths 0 to 3 recorded");
    assert!(recorded[3]["folded"].as_u64().unwrap() > 0);
    assert_eq!(t["nodes"], whole["nodes"]);
    let per_depth: Vec<u64> = depths
        .iter()
        .map(|d| d["nodes"].as_u64().unwrap())
        .collect();
    assert_eq!(per_depth, numbers(&whole["nodes_per_depth"]));
}

#[test]
fn folded_subtrees_keep_what_the_engine_cut_short() {
    // Below depth 1 the tangram's tree is searched by the polygon engine
    // itself, memo and dead-region tests included: its cut nodes per depth
    // are those `solve --stats` counts.
    let whole = stats("tangram-square", &[]);
    let t = tree_json("tangram-square", &["--depth", "1"]);
    let depths = t["depths"].as_array().unwrap();
    for (rule, counts) in whole["pruned_per_depth"].as_object().unwrap() {
        let from_tree: Vec<u64> = depths
            .iter()
            .map(|d| d["pruned"][rule].as_u64().unwrap_or(0))
            .collect();
        let mut want = numbers(counts);
        want.resize(from_tree.len(), 0);
        assert_eq!(from_tree, want, "{rule}");
    }
    let memo: u64 = numbers(&whole["pruned_per_depth"]["memo"]).iter().sum();
    assert!(memo > 0, "the tangram's search hits its memo");
}

fn svg_doc(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap()
}

fn count_class(doc: &roxmltree::Document<'_>, tag: &str, class: &str) -> usize {
    doc.descendants()
        .filter(|n| n.has_tag_name(tag) && n.attribute("class") == Some(class))
        .count()
}

#[test]
fn the_picture_has_a_shape_per_recorded_node_and_marks_the_solutions() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, options) in [
        ("hunde-spiel", &[][..]),
        ("pentomino-3x20", &["--max-nodes", "500"][..]),
        ("tangram-square", &[][..]),
    ] {
        let svg = dir.path().join(format!("{puzzle}.svg"));
        let t = tree_json(puzzle, options);
        jigsolve()
            .args(["tree", puzzle, "--svg"])
            .arg(&svg)
            .args(options)
            .assert()
            .code(0);
        let text = std::fs::read_to_string(&svg).unwrap();
        let doc = svg_doc(&text);
        let depths = t["depths"].as_array().unwrap();
        let sum = |key: &str| -> usize {
            depths.iter().filter_map(|d| d[key].as_u64()).sum::<u64>() as usize
        };
        let solutions = count_class(&doc, "circle", "solution");
        let folded = count_class(&doc, "polygon", "folded");
        // Dead ends are classed `dead-end` and the rule that ended them.
        let dead_by = |rule: Option<&str>| -> usize {
            doc.descendants()
                .filter(|n| n.has_tag_name("circle"))
                .filter_map(|n| n.attribute("class"))
                .filter(|c| {
                    let mut words = c.split(' ');
                    words.next() == Some("dead-end") && words.next() == rule
                })
                .count()
        };
        let dead: usize = [None, Some("dead-region"), Some("mark"), Some("memo")]
            .into_iter()
            .map(dead_by)
            .sum();
        let shapes = solutions
            + folded
            + count_class(&doc, "circle", "inner")
            + dead
            + count_class(&doc, "circle", "duplicate");
        assert_eq!(shapes, t["recorded"].as_u64().unwrap() as usize, "{puzzle}");
        assert_eq!(solutions, sum("solutions"), "{puzzle}");
        assert_eq!(folded, sum("folded"), "{puzzle}");
        assert_eq!(dead, sum("dead_ends"), "{puzzle}");
        // The picture's dead ends by rule are the JSON's.
        for (rule, class) in [
            ("nothing-fits", None),
            ("dead-region", Some("dead-region")),
            ("mark", Some("mark")),
            ("memo", Some("memo")),
        ] {
            let json: u64 = depths
                .iter()
                .filter_map(|d| d["dead_ends_by_rule"][rule].as_u64())
                .sum();
            assert_eq!(dead_by(class) as u64, json, "{puzzle} {rule}");
        }
        assert_eq!(count_class(&doc, "path", "solution-path"), 1, "{puzzle}");
        assert!(text.contains(&format!("{puzzle}: the search tree")));
    }
}

#[test]
fn the_png_is_the_svg_at_twice_the_size_with_solutions_in_green() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, png) = (dir.path().join("t.svg"), dir.path().join("t.png"));
    // Both pictures from one command, as `solve` and `best` allow.
    jigsolve()
        .args(["tree", "impuzzable", "--svg"])
        .arg(&svg)
        .arg("--png")
        .arg(&png)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = svg_doc(&text);
    let root = doc.root_element();
    let w: f64 = root.attribute("width").unwrap().parse().unwrap();
    let h: f64 = root.attribute("height").unwrap().parse().unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width as f64, info.height as f64), (w * 2.0, h * 2.0));
    let channels = info.color_type.samples();
    // The one solution's dot is green in the PNG.
    let dot = doc
        .descendants()
        .find(|n| n.has_tag_name("circle") && n.attribute("class") == Some("solution"))
        .unwrap();
    let cx: f64 = dot.attribute("cx").unwrap().parse().unwrap();
    let cy: f64 = dot.attribute("cy").unwrap().parse().unwrap();
    let i = ((cy * 2.0) as usize * info.width as usize + (cx * 2.0) as usize) * channels;
    assert_eq!(&buf[i..i + 3], &[0x22, 0x88, 0x33]);
}

/// The polyform and polygon engines choose the cell or corner anew at every
/// node; each level of the table, the JSON and the picture names the
/// commonest choice of the recorded nodes above it, and the PNG shows it.
#[test]
fn polyform_and_polygon_levels_name_the_cell_or_corner_chosen() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, first, prefix) in [
        ("pentomino-3x20", "piece X", "cell ("),
        ("tangram-square", "corner (2, 4)", "corner ("),
    ] {
        let t = tree_json(puzzle, &["--depth", "3"]);
        let chosen: Vec<String> = t["depths"].as_array().unwrap()[1..=4]
            .iter()
            .map(|d| d["chosen"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(chosen[0], first, "{puzzle}");
        for c in &chosen[1..] {
            assert!(c.starts_with(prefix), "{puzzle}: {c}");
        }
        // Below the root several nodes choose; the label says how many.
        assert!(chosen[2].contains(" nodes, "), "{puzzle}: {}", chosen[2]);
        let (svg, png) = (dir.path().join("t.svg"), dir.path().join("t.png"));
        for (flag, path) in [("--svg", &svg), ("--png", &png)] {
            jigsolve()
                .args(["tree", puzzle, "--depth", "3", flag])
                .arg(path)
                .assert()
                .code(0);
        }
        let text = std::fs::read_to_string(&svg).unwrap();
        let doc = svg_doc(&text);
        let labels: Vec<roxmltree::Node<'_, '_>> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter(|n| {
                chosen
                    .iter()
                    .enumerate()
                    .any(|(d, c)| n.text() == Some(&format!("{}: {c}", d + 1)))
            })
            .collect();
        // Rows 1 to 3 are drawn (row 4 is folded into triangles).
        assert_eq!(labels.len(), 3, "{puzzle}");
        // The PNG (twice the size) has ink where the first label starts.
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let x: f64 = labels[0].attribute("x").unwrap().parse().unwrap();
        let y: f64 = labels[0].attribute("y").unwrap().parse().unwrap();
        let inked = (0..40).any(|dx| {
            (0..16).any(|dy| {
                let (px, py) = ((x * 2.0) as usize + dx, (y * 2.0) as usize - dy);
                let i = (py * info.width as usize + px) * channels;
                buf[i] < 0x80
            })
        });
        assert!(inked, "{puzzle}: no label drawn in the PNG");
    }
}

#[test]
fn a_tree_of_thousands_of_nodes_stays_within_the_width() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("big.svg");
    let t = tree_json("pentomino-3x20", &["--max-nodes", "5000"]);
    // 1,934 nodes since the check of the last two pieces (2,230 before).
    assert!(t["recorded"].as_u64().unwrap() > 1500, "{t}");
    jigsolve()
        .args(["tree", "pentomino-3x20", "--max-nodes", "5000", "--svg"])
        .arg(&svg)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&svg).unwrap();
    let w: f64 = svg_doc(&text)
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    assert!(w <= 4000.0 + 400.0, "{w}");
}

#[test]
fn bad_tree_options_exit_2_with_a_message() {
    jigsolve()
        .args(["tree", "impuzzable", "--depth", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--depth"));
    jigsolve()
        .args(["tree", "impuzzable", "--max-nodes", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1 to 100000 nodes"));
    jigsolve()
        .args(["tree", "impuzzable", "--svg", "/nonexistent-dir/t.svg"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent-dir"));
    jigsolve()
        .args(["tree", "impuzzable", "--engine", "dlx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--engine applies to polyform"));
    jigsolve().args(["tree", "no-such-puzzle"]).assert().code(2);
}

/// The nodes a rule cut short are nodes of their depth: never more than
/// the depth has. Symmetric copies are complete assemblies, so they lie at
/// the deepest level, and `tree` (which walks the same tree for the edge
/// engine) finds as many of them.
#[test]
fn pruned_counts_are_nodes_of_their_depth() {
    // Four identical tiles: no tile can break the board's symmetry, so each
    // complete assembly is checked against its images and copies rejected.
    let identical = file("rows = 2\ncols = 2\nmatching = \"equal\"\ntiles = [\"1 2 2 1\", \"1 2 2 1\", \"1 2 2 1\", \"1 2 2 1\"]\n");
    let identical = identical.path().to_str().unwrap().to_string();
    let summary = stats(&identical, &[]);
    assert_eq!(
        summary["pruned_per_depth"]["symmetry"],
        serde_json::json!([0, 0, 0, 0, 10])
    );
    for (puzzle, options) in [
        ("tangram-square", &[][..]),
        ("stomachion", &[][..]),
        ("hunde-spiel", &["--order", "rows"][..]),
        (identical.as_str(), &[][..]),
    ] {
        let summary = stats(puzzle, options);
        let per_depth = numbers(&summary["nodes_per_depth"]);
        let pruned = summary["pruned_per_depth"].as_object().unwrap();
        for (rule, counts) in pruned {
            let counts = numbers(counts);
            assert!(counts.len() <= per_depth.len(), "{puzzle} {rule}");
            for (d, (&c, &n)) in counts.iter().zip(&per_depth).enumerate() {
                assert!(c <= n, "{puzzle} {rule} at depth {d}: {c} of {n}");
            }
            if rule == "symmetry" {
                assert!(counts[..counts.len() - 1].iter().all(|&c| c == 0));
            }
        }
        if summary["family"] == "polygon" {
            assert!(pruned.contains_key("dead-region"), "{puzzle}: {pruned:?}");
            assert!(pruned.contains_key("memo"), "{puzzle}: {pruned:?}");
        }
        if summary["family"] == "edge" {
            let t = tree_json(puzzle, options);
            let duplicates: u64 = t["depths"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|d| d["duplicates"].as_u64())
                .sum();
            let counted: u64 = pruned
                .get("symmetry")
                .map_or(0, |c| numbers(c).iter().sum());
            assert_eq!(duplicates, counted, "{puzzle}");
        }
    }
}

/// `tried` and `rejected` as JSON: the placements tried per depth and, of
/// them, the rejected ones per depth summed over the rules.
fn tried_and_rejected(summary: &Value, what: &str) -> (Vec<u64>, Vec<u64>) {
    let tried = numbers(&summary["tried_per_depth"]);
    let mut rejected = vec![0; tried.len()];
    for (rule, counts) in summary["rejected_per_depth"].as_object().unwrap() {
        assert!(
            ["dead-region", "mark"].contains(&rule.as_str()),
            "{what}: {rule}"
        );
        let counts = numbers(counts);
        assert!(counts.len() <= tried.len(), "{what} {rule}");
        for (r, c) in rejected.iter_mut().zip(counts) {
            *r += c;
        }
    }
    (tried, rejected)
}

/// A placement tried at a node is either a child (a node one depth down)
/// or rejected by a rule: for every engine that counts what it tries, on
/// one thread and on several (where the nodes above the cut are counted
/// apart), the placements tried at depth d are the nodes at depth d + 1
/// and the rejections at d, and a rejection is never a node.
#[test]
fn placements_tried_are_children_or_rejected_for_every_engine() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("impuzzable", &["--order", "spiral"], "mark"),
        ("impuzzable", &["--order", "rows"], "mark"),
        ("hunde-spiel", &["--order", "frame"], "mark"),
        ("hunde-spiel", &["--no-symmetry"], "mark"),
        ("scramble", &[], "mark"),
        ("pentomino-3x20", &["--engine", "bitboard"], "dead-region"),
        (
            "pentomino-3x20",
            &["--engine", "bitboard-first"],
            "dead-region",
        ),
        (
            "pentomino-3x20",
            &["--engine", "bitboard-mrv"],
            "dead-region",
        ),
        ("pentomino-3x20", &["--engine", "dlx"], ""),
        ("soma", &[], "dead-region"),
        ("hexiamond-4x9", &[], "dead-region"),
    ];
    for &(puzzle, options, rule) in cases {
        let one = stats(puzzle, options);
        for threads in ["1", "2"] {
            let summary = stats_on(puzzle, options, threads);
            let what = format!("{puzzle} {options:?} --threads {threads}");
            let nodes = numbers(&summary["nodes_per_depth"]);
            let (tried, rejected) = tried_and_rejected(&summary, &what);
            assert!(tried.len() < nodes.len(), "{what}");
            for d in 0..nodes.len() {
                let t = tried.get(d).copied().unwrap_or(0);
                let r = rejected.get(d).copied().unwrap_or(0);
                let below = nodes.get(d + 1).copied().unwrap_or(0);
                assert_eq!(t, below + r, "{what} at depth {d}");
            }
            // `tree` counts the same, recorded levels and folded subtrees
            // alike.
            if threads == "1" {
                let t = tree_json(puzzle, &[options, &["--max-nodes", "40"][..]].concat());
                let depths = t["depths"].as_array().unwrap();
                for (d, &n) in tried.iter().enumerate() {
                    assert_eq!(depths[d]["tried"].as_u64(), Some(n), "{what} tree at {d}");
                    let r: u64 = depths[d]["rejected"]
                        .as_object()
                        .unwrap()
                        .values()
                        .map(|v| v.as_u64().unwrap())
                        .sum();
                    assert_eq!(r, rejected[d], "{what} tree at {d}");
                }
            }
            // The same tree on any number of threads.
            assert_eq!(summary["tried_per_depth"], one["tried_per_depth"], "{what}");
            assert_eq!(
                summary["rejected_per_depth"], one["rejected_per_depth"],
                "{what}"
            );
            let rules = summary["rejected_per_depth"].as_object().unwrap();
            if rule.is_empty() {
                assert!(rules.is_empty(), "{what}: {rules:?}");
            } else {
                assert!(rules.contains_key(rule), "{what}: {rules:?}");
            }
        }
    }
    // The polygon engine does not count what it tries: no fields.
    let summary = stats("tangram-square", &[]);
    assert!(summary.get("tried_per_depth").is_none());
}

/// The candidates of an edge-matching cell, brute force: a 2 x 2 board
/// filled in rows, with two identical tiles (one type: its placements are
/// tried once) and a tile that looks the same turned half way (two
/// distinct rotations). At each node every tile type with a copy left is
/// tried in each of its distinct rotations; those whose marks do not match
/// a neighbour are rejected, the rest are children.
#[test]
fn edge_rejections_are_counted_by_brute_force_on_a_2x2_board() {
    let tiles = [
        ["+1", "+2", "-1", "-2"],
        ["-2", "+1", "+2", "-1"], // the first, turned: the same type
        ["+1", "-1", "+1", "-1"], // two distinct rotations
        ["-1", "+2", "+2", "-2"],
    ];
    let text = format!(
        "rows = 2\ncols = 2\ntiles = [{}]\n",
        tiles
            .iter()
            .map(|t| format!("\"{}\"", t.join(" ")))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let puzzle = file(&text);
    let path = puzzle.path().to_str().unwrap().to_string();
    let summary = stats(&path, &["--order", "rows", "--no-symmetry"]);

    // Types: tiles equal up to rotation; their distinct rotations.
    let turn = |t: [&'static str; 4], r: usize| -> [&'static str; 4] {
        std::array::from_fn(|s| t[(s + 4 - r) % 4])
    };
    let mut types: Vec<(Vec<[&str; 4]>, usize)> = Vec::new();
    for t in tiles {
        let rots: BTreeSet<[&str; 4]> = (0..4).map(|r| turn(t, r)).collect();
        match types.iter_mut().find(|(r, _)| r.contains(&t)) {
            Some((_, copies)) => *copies += 1,
            None => types.push((rots.into_iter().collect(), 1)),
        }
    }
    assert_eq!(types.len(), 3);
    let fits = |a: &str, b: &str| a.len() == 2 && a[1..] == b[1..] && a[..1] != b[..1];
    // Cells 0 1 / 2 3; sides top, right, bottom, left.
    fn walk(
        placed: &mut Vec<[&'static str; 4]>,
        left: &mut Vec<usize>,
        types: &[(Vec<[&'static str; 4]>, usize)],
        fits: &dyn Fn(&str, &str) -> bool,
        tried: &mut [u64],
        children: &mut [u64],
        dead: &mut [[u64; 4]; 2],
    ) {
        let cell = placed.len();
        if cell == 4 {
            return;
        }
        let (tried_before, children_before) = (tried[cell], children[cell]);
        for ty in 0..types.len() {
            if left[ty] == 0 {
                continue;
            }
            for &rot in &types[ty].0 {
                tried[cell] += 1;
                let west_ok = cell % 2 == 0 || fits(placed[cell - 1][1], rot[3]);
                let north_ok = cell < 2 || fits(placed[cell - 2][2], rot[0]);
                if west_ok && north_ok {
                    children[cell] += 1;
                    placed.push(rot);
                    left[ty] -= 1;
                    walk(placed, left, types, fits, tried, children, dead);
                    left[ty] += 1;
                    placed.pop();
                }
            }
        }
        // A dead end: every tile tried mismatched, or there was none to try.
        if children[cell] == children_before {
            let rule = if tried[cell] > tried_before { 0 } else { 1 };
            dead[rule][cell] += 1;
        }
    }
    let (mut tried, mut children) = ([0u64; 4], [0u64; 4]);
    let mut dead = [[0u64; 4]; 2];
    let mut left: Vec<usize> = types.iter().map(|t| t.1).collect();
    walk(
        &mut Vec::new(),
        &mut left,
        &types,
        &fits,
        &mut tried,
        &mut children,
        &mut dead,
    );
    // Profiles leave out the depths past the last count.
    let trim = |v: &[u64]| {
        let end = v.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
        v[..end].to_vec()
    };
    let rejected: Vec<u64> = tried.iter().zip(&children).map(|(t, c)| t - c).collect();
    assert_eq!(numbers(&summary["tried_per_depth"]), trim(&tried));
    assert_eq!(
        numbers(&summary["rejected_per_depth"]["mark"]),
        trim(&rejected)
    );
    assert!(rejected.iter().filter(|&&r| r > 0).count() >= 2);
    assert!(children[3] > 0, "the puzzle has solutions");
    assert_eq!(
        numbers(&summary["nodes_per_depth"])[1..],
        children[..],
        "the children are the nodes one depth down"
    );
    // The whole tree drawn node by node: its dead ends by what ended them.
    let t = tree_json(&path, &["--order", "rows", "--no-symmetry"]);
    let by_rule = |rule: &str| -> Vec<u64> {
        (0..4)
            .map(|d| {
                t["depths"][d]["dead_ends_by_rule"][rule]
                    .as_u64()
                    .unwrap_or(0)
            })
            .collect()
    };
    assert_eq!(by_rule("mark"), dead[0].to_vec());
    assert_eq!(by_rule("nothing-fits"), dead[1].to_vec());
    assert!(dead[0].iter().sum::<u64>() > 0);
}

/// Every recorded dead end says what ended it, and the kinds add up: on a
/// polyform board the dead-region rule and boards where nothing fits; on a
/// polygon puzzle drawn whole, the dead regions the engine itself counts
/// as cut short at each depth.
#[test]
fn recorded_dead_ends_say_what_ended_them() {
    let kinds = |d: &Value| -> Vec<(String, u64)> {
        d["dead_ends_by_rule"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                    .collect()
            })
            .unwrap_or_default()
    };
    for (puzzle, options, want) in [
        ("pentomino-3x20", &["--depth", "4"][..], "dead-region"),
        (
            "tangram-square",
            &["--max-nodes", "100000"][..],
            "dead-region",
        ),
        ("impuzzable", &[][..], "mark"),
    ] {
        let t = tree_json(puzzle, options);
        let mut seen = 0;
        for d in t["depths"].as_array().unwrap() {
            let Some(dead) = d["dead_ends"].as_u64() else {
                continue;
            };
            let by_kind = kinds(d);
            assert_eq!(
                by_kind.iter().map(|(_, n)| n).sum::<u64>(),
                dead,
                "{puzzle} depth {}",
                d["depth"]
            );
            seen += by_kind
                .iter()
                .filter(|(k, _)| k == want)
                .map(|(_, n)| n)
                .sum::<u64>();
            if puzzle == "tangram-square" {
                // Drawn whole: no folded subtree adds to the pruned counts.
                assert_eq!(
                    d["pruned"]["dead-region"].as_u64().unwrap_or(0),
                    by_kind
                        .iter()
                        .find(|(k, _)| k == "dead-region")
                        .map_or(0, |(_, n)| *n),
                    "{puzzle} depth {}",
                    d["depth"]
                );
            }
        }
        assert!(seen > 0, "{puzzle}: no dead end ended by {want}");
    }
}

/// `--time-limit` bounds the recording of the tree, not only the folded
/// subtrees' searches, and Ctrl-C or SIGTERM stop it as the other
/// commands stop: what was recorded is printed, with exit code 3 or 130
/// (issue 43: `tree eternity2 --max-nodes 100000 --time-limit 3` ran 67 s,
/// and a signal killed it with no output).
#[cfg(unix)]
#[test]
fn tree_limits_and_signals_stop_the_recording() {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    let out = jigsolve()
        .args([
            "tree",
            "eternity2",
            "--max-nodes",
            "100000",
            "--time-limit",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < Duration::from_secs(6), "took {took:?}");
    let t = last_json(&out);
    assert_eq!(t["complete"], false, "{}", t["complete"]);
    assert!(t["recorded"].as_u64().unwrap() > 1000, "{}", t["recorded"]);
    for signal in ["-INT", "-TERM"] {
        let child = std::process::Command::new(common::bin())
            .args(["tree", "eternity2", "--max-nodes", "100000"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let sent = Instant::now();
        std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            sent.elapsed() < Duration::from_secs(3),
            "{signal}: {:?}",
            sent.elapsed()
        );
        assert_eq!(
            out.status.code(),
            Some(130),
            "{signal}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("eternity2: search tree"), "{signal}: {text}");
    }
}

/// A tree too wide for a PNG at twice its size is drawn smaller, within
/// the pixel limit, and says so (issue 43: the limit was met only after
/// the search, and the picture was refused).
#[test]
fn a_wide_tree_png_is_drawn_smaller() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("tree.png");
    let out = jigsolve()
        .args(["tree", "pentomino-6x10", "--max-nodes", "100000", "--png"])
        .arg(&png)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("pixels a unit instead of 2 to stay within 67108864 pixels"),
        "{err}"
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let info = decoder.read_info().unwrap().info().clone();
    assert!(u64::from(info.width) * u64::from(info.height) <= 64 << 20);
    assert!(info.width > 10_000, "{} wide", info.width);
}
