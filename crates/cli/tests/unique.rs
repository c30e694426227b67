//! `jigsolve unique`: every answer is confirmed by a full count, every
//! solution it shows goes through the independent verifier, and it stops
//! long before a full count would. Its pictures mark as many cells, tiles
//! or pieces as differ between the two solutions of its JSON, counted here
//! from the JSON alone.

use serde_json::Value;

mod common;
use common::{assert_verified, complete_count, jigsolve, last_json, root};

fn unique(puzzle: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let out = jigsolve()
        .current_dir(root())
        .args(["unique", puzzle, "--json", "--no-progress"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), last_json(&out))
}

/// Passes the solutions shown to `verify`.
fn verify(puzzle: &str, answer: &Value) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shown.jsonl");
    let lines: String = answer["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}\n",
                serde_json::json!({"type": "solution", "solution": s["solution"]})
            )
        })
        .collect();
    std::fs::write(&file, lines).unwrap();
    assert_verified(puzzle, &file);
}

#[test]
fn answers_agree_with_a_full_count_in_every_family() {
    for puzzle in [
        "impuzzable",
        "hunde-spiel",
        "pentomino-3x20",
        "soma",
        "atwood",
        "tangram-square",
        "tangram-t",
    ] {
        let whole = complete_count(puzzle, &[]);
        let unique_count = whole["unique"].as_u64().unwrap();
        for threads in ["1", "2"] {
            let (code, answer) = unique(puzzle, &["--threads", threads]);
            let expected = match unique_count {
                0 => ("none", 1),
                1 => ("unique", 0),
                _ => ("several", 4),
            };
            assert_eq!(
                answer["answer"], expected.0,
                "{puzzle}: {unique_count} unique"
            );
            assert_eq!(code, Some(expected.1), "{puzzle}");
            let shown = answer["solutions"].as_array().unwrap().len();
            assert_eq!(shown as u64, unique_count.min(2), "{puzzle}");
            verify(puzzle, &answer);
        }
    }
}

#[test]
fn a_puzzle_without_solution_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("none.toml");
    // Three cells in an L, and a straight piece of three.
    std::fs::write(
        &file,
        "family = \"grid\"\nboard = \"\"\"\n##\n#.\n\"\"\"\n[[piece]]\nname = \"I\"\nshape = \"###\"\n",
    )
    .unwrap();
    let (code, answer) = unique(file.to_str().unwrap(), &[]);
    assert_eq!(code, Some(1));
    assert_eq!(answer["answer"], "none");
    assert_eq!(answer["complete"], true);
}

#[test]
fn it_stops_at_the_second_solution() {
    // 2,339 unique solutions: the answer needs a small part of the tree.
    let whole = complete_count("pentomino-6x10", &[]);
    let (code, answer) = unique("pentomino-6x10", &["--threads", "1"]);
    assert_eq!(code, Some(4));
    let (part, all) = (
        answer["nodes"].as_u64().unwrap(),
        whole["nodes"].as_u64().unwrap(),
    );
    assert!(part * 100 < all, "{part} of {all} nodes");
}

#[test]
fn a_limit_leaves_the_answer_unknown() {
    let (code, answer) = unique("bedlam", &["--time-limit", "0"]);
    assert_eq!(code, Some(3));
    assert_eq!(answer["answer"], "unknown");
}

#[test]
fn the_text_shows_two_solutions_side_by_side_with_differences_marked() {
    let out = jigsolve()
        .args([
            "unique",
            "pentomino-3x20",
            "--threads",
            "1",
            "--no-progress",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("pentomino-3x20: several: at least two solutions"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("first") && lines[1].ends_with("second"),
        "{text}"
    );
    // A row of each solution, then the marks under the letters that differ.
    let row = lines[2];
    let (left, right) = row.split_once("   |   ").unwrap();
    assert_eq!(left.trim_end().len(), 20);
    assert_eq!(right.len(), 20);
    let marks = lines[3];
    for (j, (a, b)) in left.chars().zip(right.chars()).enumerate() {
        let marked = marks.chars().nth(j) == Some('^');
        assert_eq!(marked, a != b, "column {j}: {text}");
    }
}

/// `unique PUZZLE --json` with `extra`, run from the repository root: the
/// exit code, the answer, and standard error.
fn unique_with(puzzle: &str, extra: &[&std::ffi::OsStr]) -> (Option<i32>, Value, String) {
    let out = jigsolve()
        .current_dir(root())
        .args([
            "unique",
            puzzle,
            "--json",
            "--no-progress",
            "--threads",
            "1",
        ])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), last_json(&out), stderr)
}

/// The groups of an SVG document with class `class`.
fn groups(svg: &roxmltree::Document, class: &str) -> usize {
    svg.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
        .count()
}

/// The differing cells or pieces of the two solutions of `answer`, counted
/// from the JSON alone, in both halves of the picture together.
fn differing(puzzle: &str, answer: &Value) -> usize {
    let [a, b] = [0, 1].map(|i| &answer["solutions"][i]["solution"]);
    match puzzle {
        // Polyforms: the letter grid (every layer of a solid), letter by
        // letter; both halves mark the same cells.
        "pentomino-3x20" | "soma" => {
            fn letters(v: &Value, out: &mut Vec<char>) {
                match v {
                    Value::String(s) => out.extend(s.chars()),
                    Value::Array(a) => a.iter().for_each(|v| letters(v, out)),
                    _ => panic!("not a letter grid: {v}"),
                }
            }
            let (mut x, mut y) = (Vec::new(), Vec::new());
            letters(&a["grid"], &mut x);
            letters(&b["grid"], &mut y);
            assert_eq!(x.len(), y.len());
            2 * x.iter().zip(&y).filter(|(p, q)| p != q).count()
        }
        // Edge matching: the tile's marks turned by its rotation, read
        // from the puzzle file.
        "hunde-spiel" => {
            let text =
                std::fs::read_to_string(root().join("puzzles/edge/hunde-spiel.toml")).unwrap();
            let file: toml::Value = toml::from_str(&text).unwrap();
            let tiles: Vec<Vec<&str>> = file["tiles"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().split_whitespace().collect())
                .collect();
            let seen = |cell: &Value| -> Vec<&str> {
                let sides = &tiles[cell["tile"].as_u64().unwrap() as usize - 1];
                let r = cell["rotation"].as_u64().unwrap() as usize;
                // Turned clockwise: the top shows what was on the left.
                (0..4).map(|s| sides[(s + 4 - r) % 4]).collect()
            };
            let cells = |s: &Value| -> Vec<Value> {
                s["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|row| row.as_array().unwrap().clone())
                    .collect()
            };
            let (x, y) = (cells(a), cells(b));
            2 * x.iter().zip(&y).filter(|(p, q)| seen(p) != seen(q)).count()
        }
        // Polygons: pieces whose set of corners no piece of the other
        // solution has, in each solution.
        _ => {
            let outlines = |s: &Value| -> Vec<std::collections::BTreeSet<String>> {
                s["pieces"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        p["vertices"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.to_string())
                            .collect()
                    })
                    .collect()
            };
            let (x, y) = (outlines(a), outlines(b));
            let alone = |mine: &[std::collections::BTreeSet<String>],
                         theirs: &[std::collections::BTreeSet<String>]| {
                mine.iter().filter(|o| !theirs.contains(o)).count()
            };
            alone(&x, &y) + alone(&y, &x)
        }
    }
}

#[test]
fn pictures_mark_as_many_places_as_differ_in_every_family() {
    let dir = tempfile::tempdir().unwrap();
    for puzzle in ["pentomino-3x20", "soma", "hunde-spiel", "tangram-t"] {
        let file = dir.path().join(format!("{puzzle}.svg"));
        // --json and --svg together: the answer on standard output, the
        // picture in the file.
        let (code, answer, _) = unique_with(puzzle, &["--svg".as_ref(), file.as_os_str()]);
        assert_eq!(code, Some(4), "{puzzle}");
        assert_eq!(answer["answer"], "several");
        let text = std::fs::read_to_string(&file).unwrap();
        let svg = roxmltree::Document::parse(&text).unwrap();
        assert_eq!(groups(&svg, "solution"), 2, "{puzzle}");
        let expected = differing(puzzle, &answer);
        assert!(expected > 0, "{puzzle}: the two solutions differ");
        assert_eq!(groups(&svg, "differs"), expected, "{puzzle}");
        assert!(
            text.contains(&format!("{puzzle}: first solution")),
            "{puzzle}"
        );
        assert!(
            text.contains(&format!("{puzzle}: second solution")),
            "{puzzle}"
        );
        // The legend line says what the mark means.
        assert!(
            text.contains(">dashed ") && text.contains("the other solution"),
            "{puzzle}"
        );
    }
}

/// A decoded PNG: width, height and its pixels as RGBA.
fn decoded(bytes: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let pixels = match info.color_type {
        png::ColorType::Rgba => buf.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect(),
        png::ColorType::Rgb => buf.chunks(3).map(|c| [c[0], c[1], c[2], 255]).collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    (info.width, info.height, pixels)
}

#[test]
fn the_png_is_the_svg_drawn_at_twice_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let (svg_file, png_file) = (dir.path().join("p.svg"), dir.path().join("p.png"));
    let (code, _, _) = unique_with(
        "pentomino-3x20",
        &[
            "--svg".as_ref(),
            svg_file.as_os_str(),
            "--png".as_ref(),
            png_file.as_os_str(),
        ],
    );
    assert_eq!(code, Some(4));
    let text = std::fs::read_to_string(&svg_file).unwrap();
    let svg = roxmltree::Document::parse(&text).unwrap();
    let size = |name: &str| -> f64 { svg.root_element().attribute(name).unwrap().parse().unwrap() };
    let (width, height, pixels) = decoded(&std::fs::read(&png_file).unwrap());
    assert_eq!(f64::from(width), (size("width") * 2.0).ceil());
    assert_eq!(f64::from(height), (size("height") * 2.0).ceil());
    let inked = pixels
        .iter()
        .filter(|p| p[0] < 250 || p[1] < 250 || p[2] < 250)
        .count();
    assert!(
        inked * 10 > pixels.len(),
        "{inked} of {} pixels not white",
        pixels.len()
    );
    let mut colours: Vec<[u8; 4]> = pixels.clone();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 20, "{} colours", colours.len());
}

#[test]
fn a_unique_puzzle_gives_the_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.svg");
    let (code, answer, _) = unique_with("impuzzable", &["--svg".as_ref(), file.as_os_str()]);
    assert_eq!((code, answer["answer"].as_str()), (Some(0), Some("unique")));
    let text = std::fs::read_to_string(&file).unwrap();
    let svg = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(groups(&svg, "solution"), 0);
    assert_eq!(groups(&svg, "differs"), 0);
    assert!(
        text.contains("impuzzable: unique: exactly one solution"),
        "{text}"
    );
}

#[test]
fn nothing_to_draw_is_said_and_no_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("none.toml");
    std::fs::write(
        &puzzle,
        "family = \"grid\"\nboard = \"\"\"\n##\n#.\n\"\"\"\n[[piece]]\nname = \"I\"\nshape = \"###\"\n",
    )
    .unwrap();
    let file = dir.path().join("none.svg");
    let (code, answer, stderr) = unique_with(
        puzzle.to_str().unwrap(),
        &["--svg".as_ref(), file.as_os_str()],
    );
    assert_eq!((code, answer["answer"].as_str()), (Some(1), Some("none")));
    assert!(!file.exists());
    assert!(
        stderr.contains(&format!(
            "no picture written (--svg {}): the puzzle has no solution",
            file.display()
        )),
        "{stderr}"
    );
    let png = dir.path().join("unknown.png");
    let (code, answer, stderr) = unique_with(
        "bedlam",
        &[
            "--time-limit".as_ref(),
            "0".as_ref(),
            "--png".as_ref(),
            png.as_os_str(),
        ],
    );
    assert_eq!(
        (code, answer["answer"].as_str()),
        (Some(3), Some("unknown"))
    );
    assert!(!png.exists());
    assert!(stderr.contains("the answer is unknown"), "{stderr}");
}

#[test]
fn a_path_that_cannot_be_written_is_an_error_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let taken = dir.path().join("taken");
    std::fs::write(&taken, "x").unwrap();
    let cases = [
        (
            "--svg",
            dir.path().to_path_buf(),
            "is a directory; --svg names the file",
        ),
        ("--png", taken.join("p.png"), "is not a directory"),
        (
            "--svg",
            dir.path().join("missing/p.svg"),
            "there is no directory",
        ),
    ];
    for (option, path, message) in cases {
        let out = jigsolve()
            .args(["unique", "pentomino-3x20", "--no-progress", option])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{option} {}: {stderr}",
            path.display()
        );
        assert!(stderr.contains(&path.display().to_string()), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        // The search did not run: no answer.
        assert!(out.stdout.is_empty());
    }
}
