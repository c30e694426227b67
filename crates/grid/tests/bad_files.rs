//! Bad files give an error naming the file, the line and the problem, and
//! nothing a file says can make the library panic.

mod common;
use common::*;
use jigsolve_grid::{parse, EngineChoice, Options, Prepared, Problem, Solver};
use jigsolve_search::{run, Control, RunConfig};
use proptest::prelude::*;
use std::ops::ControlFlow;

/// (file text, line of the error, words the message must contain)
const CASES: &[(&str, usize, &str)] = &[
    ("", 1, "empty"),
    ("# just a comment\n", 1, "empty"),
    ("family = \"grid\"\nboard = \"##\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\nsize = 3\n", 6, "unknown field"),
    ("family = \"edge\"\nboard = \"##\"\n", 1, "not a polyform"),
    ("lattice = \"hex\"\nboard = \"##\"\n", 1, "unknown lattice"),
    ("board = \"##\"\nsides = \"three\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\n", 2, "unknown sides"),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\nshape = \"#*\"\n", 4, "unexpected character '*'"),
    ("board = \"\"\"\n##\n#\n\"\"\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\n", 5, "cover 2 cells, but the board has 3"),
    ("board = \"###\"\n[[piece]]\nname = \"D\"\nshape = \"#.#\"\n[[piece]]\nname = \"E\"\nshape = \"#\"\n", 2, "not connected"),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\n", 2, "exactly one of shape"),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\ncells = \"(0,0)(1,0\"\n", 4, "without its ')'"),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\ncells = [[0,0,0],[1,0,0]]\n", 4, "add lattice = \"cube\""),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\ncells = \"0a 10\"\n", 4, "not a cell"),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\ncopies = -1\nshape = \"##\"\n", 4, "number of copies"),
    ("board = \"####\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\n", 5, "two pieces are called 'D'"),
    ("colours = [\"b\", \"w\"]\nboard = \"bw\"\n[[piece]]\nname = \"D\"\nshape = \"bq\"\n", 5, "'q' is not a colour"),
    ("colours = [\"bb\"]\nboard = \"##\"\n", 1, "one letter"),
    ("board = { size = [0, 3] }\n", 1, "size"),
    ("board = { size = [3, 3], shape = 1 }\n", 1, "unknown board key"),
    ("board = 7\n", 1, "board must be"),
    ("lattice = \"cube\"\nboard = { size = [2, 2] }\n", 2, "three positive"),
    ("board = { size = [2000, 2000] }\n[[piece]]\nname = \"D\"\nshape = \"#\"\n", 1, "2^20"),
    ("board = { size = [300, 300] }\n[[piece]]\nname = \"D\"\nshape = \"#\"\ncopies = 60000\n", 1, "at most 65536"),
    ("board = \"##\"\n[[piece]]\nname = \"D\"\ncopies = 0\nshape = \"##\"\n", 2, "copies = 0"),
    ("board = \"##\"\n[[piece]\nname = \"D\"\n", 2, ""),
];

#[test]
fn bad_files_name_their_line_and_problem() {
    for &(text, line, words) in CASES {
        let e = parse::parse(text, "bad.toml").expect_err(text);
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("bad.toml:{line}: ")),
            "{text:?} gave {msg}"
        );
        assert!(msg.contains(words), "{text:?} gave {msg}");
    }
}

#[test]
fn a_piece_beyond_the_stated_limit_is_refused() {
    // docs/limits.md: 4,096 cells per piece. A 65 x 64 block has 4,160.
    let row = "#".repeat(65);
    let art = vec![row.as_str(); 64].join("\n");
    let text = format!(
        "board = {{ size = [100, 100] }}\n[[piece]]\nname = \"Big\"\nshape = \"\"\"\n{art}\n\"\"\"\n"
    );
    let msg = parse::parse(&text, "big.toml").unwrap_err().to_string();
    assert!(
        msg.starts_with("big.toml:2: ") && msg.contains("piece 'Big' has 4160 cells; at most 4096"),
        "{msg}"
    );
}

#[test]
fn congruent_pieces_are_reported_and_merged() {
    let text = "board = \"####\"\n[[piece]]\nname = \"A\"\nshape = \"##\"\n[[piece]]\nname = \"B\"\nshape = \"\"\"\n#\n#\n\"\"\"\n";
    let parsed = parse::parse(text, "t.toml").unwrap();
    let problem = Problem::new(&parsed.puzzle);
    assert_eq!(problem.types.len(), 1);
    assert_eq!(problem.types[0].hi, 2);
    let warnings: Vec<String> = problem
        .warnings
        .iter()
        .map(|w| parsed.warning_text(w))
        .collect();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].starts_with("t.toml:5: pieces 'A' and 'B' are the same shape"),
        "{}",
        warnings[0]
    );
    assert!(warnings[0].contains("copies = 2"), "{}", warnings[0]);
    // Two dominoes in a row: one distinct solution, which every symmetry of
    // the strip keeps; two raw (the copies told apart).
    let report = count(&parsed.puzzle, options(EngineChoice::Auto, true));
    assert_eq!(counts(&report), (2, 1, 1));
}

/// Mutations of a valid file: drop a line, repeat one, or change a byte.
fn mutate(text: &str, kind: u8, at: usize, byte: u8) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let i = at % lines.len().max(1);
    match kind % 3 {
        0 => lines
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .map(|(_, l)| *l)
            .collect::<Vec<_>>()
            .join("\n"),
        1 => {
            let mut v = lines.clone();
            v.insert(i, lines[i]);
            v.join("\n")
        }
        _ => {
            let mut b = text.as_bytes().to_vec();
            let j = at % b.len().max(1);
            b[j] = b" #.,[]{}=\"'0123456789-abXY\n"[byte as usize % 27];
            String::from_utf8_lossy(&b).into_owned()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn no_file_makes_the_library_panic(which in 0usize..4, kind in any::<u8>(), at in any::<usize>(), byte in any::<u8>()) {
        let files = ["puzzles/grid/atwood.toml", "puzzles/grid/soma.toml", "puzzles/grid/pentomino-3x20.toml", "puzzles/grid/bedlam.toml"];
        let text = jigsolve_search::testkit::workspace_file(files[which]);
        let bad = mutate(&text, kind, at, byte);
        if let Ok(parsed) = parse::parse(&bad, "m.toml") {
            // Whatever parses must prepare and search without panicking.
            let prep = Prepared::new(&parsed.puzzle, Options { engine: EngineChoice::Auto, symmetry: true, region_cap: None, portable: false, any_layout: false, tried: false });
            let _ = run(
                || Solver::new(&prep),
                &RunConfig::default(),
                &Control::new().with_node_limit(20_000),
                |s: &[u16], _| {
                    jigsolve_grid::verify(&parsed.puzzle, s).expect("every solution verifies");
                    ControlFlow::Continue(())
                },
            );
        }
    }
}
