//! Pictures of search trees: an SVG snapshot of a small folded tree, and a
//! tree of thousands of nodes that stays within the width and rasterises.

use jigsolve_render::png as raster;
use jigsolve_render::tree::{tree_svg, TreeCaption, MAX_WIDTH};
use jigsolve_search::trace::{trace, Outcome, SearchTrace, TraceLimits};
use jigsolve_search::{Branch, Control};
use std::path::PathBuf;
use std::sync::Arc;

fn catalog(path: &str) -> (String, String) {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../puzzles")
        .join(path);
    let text = std::fs::read_to_string(&full).unwrap();
    (text, full.display().to_string())
}

fn hunde_spiel(nodes: usize) -> SearchTrace {
    let (text, label) = catalog("edge/hunde-spiel.toml");
    let puzzle = jigsolve_edge::parse::parse(&text, &label, None).unwrap();
    let prep = Arc::new(jigsolve_edge::Prepared::new(
        &puzzle,
        jigsolve_edge::Options::default(),
    ));
    let limits = TraceLimits { depth: None, nodes };
    trace(
        &mut jigsolve_edge::Solver::new(prep),
        limits,
        &Control::new(),
    )
    .unwrap()
}

fn pentominoes(nodes: usize) -> SearchTrace {
    let (text, label) = catalog("grid/pentomino-3x20.toml");
    let puzzle = jigsolve_grid::parse::parse(&text, &label).unwrap().puzzle;
    let prep = jigsolve_grid::Prepared::new(&puzzle, jigsolve_grid::Options::default());
    let limits = TraceLimits { depth: None, nodes };
    trace(
        &mut jigsolve_grid::Solver::new(&prep),
        limits,
        &Control::new(),
    )
    .unwrap()
}

fn tangram(nodes: usize) -> SearchTrace {
    let (text, label) = catalog("polygon/tangram-square.toml");
    let puzzle = jigsolve_polygon::parse::parse(&text, &label).unwrap();
    let prep = Arc::new(
        jigsolve_polygon::Prepared::<jigsolve_polygon::Approx>::new(
            &puzzle,
            jigsolve_polygon::Options::default(),
        )
        .unwrap(),
    );
    let limits = TraceLimits {
        depth: Some(3),
        nodes,
    };
    trace(
        &mut jigsolve_polygon::Solver::new(prep),
        limits,
        &Control::new(),
    )
    .unwrap()
}

/// The corner the first node of each depth fills, as the picture's label.
fn first_corners(t: &SearchTrace) -> Vec<String> {
    let mut labels = Vec::new();
    for n in &t.nodes {
        if let Some(Branch::Corner(x, y)) = n.branch {
            if labels.len() == n.depth {
                labels.push(format!("corner ({x:.2}, {y:.2})"));
            }
        }
    }
    labels
}

#[test]
fn a_polygon_tree_labels_the_corner_of_each_level() {
    let t = tangram(1000);
    let labels = first_corners(&t);
    assert_eq!(labels.len(), 4, "{labels:?}");
    let caption = TreeCaption {
        title: "tangram-square: the search tree".into(),
        subtitle: "three levels, the rest folded".into(),
        levels: labels.clone(),
    };
    let svg = tree_svg(&t, &caption);
    for (d, l) in labels.iter().enumerate().take(3) {
        assert!(svg.contains(&format!(">{}: {l}<", d + 1)), "{l}");
    }
    insta::assert_snapshot!("tree_tangram_square_corners", svg);
}

#[test]
fn a_small_folded_tree_snapshot() {
    let t = hunde_spiel(150);
    assert!(t
        .nodes
        .iter()
        .any(|n| matches!(n.outcome, Outcome::Folded { solutions, .. } if solutions > 0)));
    let caption = TreeCaption {
        title: "hunde-spiel: the search tree".into(),
        subtitle: "folded below 150 nodes".into(),
        levels: vec!["row 2, column 2".into(), "row 2, column 3".into()],
    };
    insta::assert_snapshot!("tree_hunde_spiel_150", tree_svg(&t, &caption));
}

#[test]
fn thousands_of_nodes_stay_within_the_width_and_rasterise() {
    let t = pentominoes(3000);
    // 1,934 nodes since the check of the last two pieces (2,230 before).
    assert!(t.nodes.len() > 1500, "{}", t.nodes.len());
    let svg = tree_svg(&t, &TreeCaption::default());
    let width: f64 = {
        let start = svg.find(" width=\"").unwrap() + 8;
        let end = start + svg[start..].find('"').unwrap();
        svg[start..end].parse().unwrap()
    };
    // The tree itself, plus margins and the depth labels.
    assert!(width <= MAX_WIDTH + 200.0, "{width}");
    let png = raster::png(&svg, raster::DEFAULT_SCALE).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Every recorded node is drawn once.
    let shapes = svg.matches("<circle").count() - 4 + svg.matches("class=\"folded\"").count();
    assert_eq!(shapes, t.nodes.len());
}
