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
