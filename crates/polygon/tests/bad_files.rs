//! Bad files give clear errors naming the file and line, never a panic.

use jigsolve_polygon::parse::parse;

fn error(text: &str) -> String {
    match parse(text, "bad.toml") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const SQUARE_PIECES: &str = r#"
[[pieces]]
vertices = "(0,0) (1,0) (1,1) (0,1)"
copies = 4
"#;

#[test]
fn self_intersecting_polygon() {
    let e = error(&format!(
        "family = \"polygon\"\nregion = \"(0,0) (2,2) (2,0) (0,2)\"\n{SQUARE_PIECES}"
    ));
    assert!(e.starts_with("bad.toml:2: "), "{e}");
    assert!(
        e.contains("not a simple polygon") && e.contains("crosses"),
        "{e}"
    );
}

#[test]
fn zero_area() {
    let e = error(&format!(
        "family = \"polygon\"\nregion = \"(0,0) (2,0) (2,2) (0,2)\"\n[[pieces]]\nvertices = \"(0,0) (1,1) (2,2)\"\n{SQUARE_PIECES}"
    ));
    assert!(e.starts_with("bad.toml:4: "), "{e}");
    assert!(e.contains("fewer than 3") || e.contains("zero"), "{e}");
}

#[test]
fn unparsable_number() {
    let e = error(
        "family = \"polygon\"\nregion = \"(0,0) (2,0) (2,2) (0,2)\"\n\n[[pieces]]\nvertices = \"(0,0) (1,0) (1,x) (0,1)\"\ncopies = 4\n",
    );
    assert!(e.starts_with("bad.toml:5: "), "{e}");
    assert!(e.contains("'1,x'") || e.contains("'x'"), "{e}");
    let e = error(
        "region = \"(0,0) (2,0) (2,2) (0, 1/0)\"\n[[pieces]]\nvertices = [[0,0],[1,0],[0,1]]\n",
    );
    assert!(
        e.starts_with("bad.toml:1: ") && e.contains("division by zero"),
        "{e}"
    );
}

#[test]
fn area_mismatch() {
    let e = error(&format!(
        "family = \"polygon\"\nregion = \"(0,0) (3,0) (3,2) (0,2)\"\n{SQUARE_PIECES}"
    ));
    assert!(e.starts_with("bad.toml:2: "), "{e}");
    assert!(
        e.contains("total area is 4") && e.contains("region's is 6"),
        "{e}"
    );
}

#[test]
fn other_mistakes() {
    for (text, line, words) in [
        ("", 1, "empty"),
        ("region = \"(0,0) (1,0)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n", 1, "fewer than 3"),
        ("family = \"edge\"\nregion = \"(0,0) (1,0) (0,1)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n", 1, "not a polygon"),
        ("region = \"(0,0) (1,0) (0,1)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\ncopies = 0\n", 4, "copies"),
        ("region = \"(0,0) (1,0) (0,1)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) 0,1)\"\n", 3, "vertex"),
        ("region = [\"(0,0) (2,0) (2,2) (0,2)\", \"(1,1) (3,1) (3,3) (1,3)\"]\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n", 1, "overlap"),
        ("region = \"(0,0) (1,0) (0,1)\"\nbogus = 3\n", 2, "unknown field"),
    ] {
        let e = error(text);
        assert!(e.starts_with(&format!("bad.toml:{line}: ")), "{e}");
        assert!(e.contains(words), "{e}");
    }
}

#[test]
fn inexact_side_lengths_fall_back_to_floating_point() {
    let text = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/polygon/approx/kite-halves.toml"),
    )
    .unwrap();
    let puzzle = parse(&text, "kite-halves.toml").unwrap();
    let r = jigsolve_polygon::solve_all(&puzzle, Default::default());
    assert!(r.approximate);
    assert_eq!((r.raw, r.distinct, r.unique), (2, 1, 1));
}

#[test]
fn numbers_nested_ten_thousand_deep_are_refused_not_a_stack_overflow() {
    for deep in [
        format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000)),
        format!("{}1", "-".repeat(10_000)),
        format!("sqrt{}2{}", "(".repeat(10_000), ")".repeat(10_000)),
    ] {
        let e = error(&format!(
            "family = \"polygon\"\nregion = \"(0,0) ({deep},0) (0,1)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n"
        ));
        assert!(e.starts_with("bad.toml:2: "), "{e}");
        assert!(e.contains("nested more than 64 deep"), "{e}");
    }
    // Within the limit is fine.
    let ok = format!("{}1{}", "(".repeat(20), ")".repeat(20));
    parse(
        &format!("family = \"polygon\"\nregion = \"(0,0) ({ok},0) (0,1)\"\n[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n"),
        "ok.toml",
    )
    .unwrap();
}

#[test]
fn coordinates_too_fine_for_exact_arithmetic_are_refused_as_such() {
    let t = "1/99999999999999999999";
    let e = error(&format!(
        "family = \"polygon\"\nregion = \"(0,0) ({t},0) (0,{t})\"\n[[pieces]]\nvertices = \"(0,0) ({t},0) (0,{t})\"\n"
    ));
    assert!(e.starts_with("bad.toml:2: "), "{e}");
    assert!(e.contains("cannot be judged exactly"), "{e}");
    assert!(!e.contains("not a simple polygon"), "{e}");
    // A unit 10^15 times finer than the file's is still judged exactly.
    let t = "1/1000000000000000";
    parse(
        &format!("family = \"polygon\"\nregion = \"(0,0) ({t},0) (0,{t})\"\n[[pieces]]\nvertices = \"(0,0) ({t},0) (0,{t})\"\n"),
        "fine.toml",
    )
    .unwrap();
}

#[test]
fn polygons_have_at_most_a_thousand_corners() {
    let ring = |n: usize| {
        (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                format!("({},{})", (1e6 * a.cos()).round(), (1e6 * a.sin()).round())
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let big = ring(5000);
    let e = error(&format!(
        "family = \"polygon\"\nregion = \"{big}\"\n[[pieces]]\nvertices = \"{big}\"\n"
    ));
    assert!(e.starts_with("bad.toml:2: "), "{e}");
    assert!(
        e.contains("has 5000 corners; at most 1000 are supported"),
        "{e}"
    );
}

#[test]
fn messages_speak_of_the_puzzle_not_of_the_reader_types() {
    let piece = "[[pieces]]\nvertices = \"(0,0) (1,0) (0,1)\"\n";
    let e = error(&format!("family = \"polygon\"\nregion = 5\n{piece}"));
    assert!(
        e.starts_with("bad.toml:2: this value has the wrong form: a region is its corners"),
        "{e}"
    );
    assert!(!e.contains("untagged"), "{e}");
    let region = "region = \"(0,0) (1,0) (0,1)\"\n";
    let e = error(&format!(
        "family = \"polygon\"\n{region}{piece}copies = nan\n"
    ));
    assert_eq!(e, "bad.toml:5: expected a whole number, found nan");
    let e = error(&format!(
        "family = \"polygon\"\n{region}{piece}copies = 1001\n"
    ));
    assert_eq!(e, "bad.toml:5: copies must be 1 to 1000 (found 1001)");
}
