//! The DLX export, solved by an independent exact-cover solver (the `dlx`
//! crate from crates.io, Knuth's Algorithm M, which reads DLX3's
//! multiplicities), gives the distinct counts; the export with the board's
//! symmetry broken gives the unique counts, or is refused.

mod common;
use common::*;
use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
use dlx::{OptOrder, Solver, Spec};
use jigsolve_grid::generate::{planted, Colouring};
use jigsolve_grid::{export, EngineChoice, Lattice, Problem, Puzzle};

/// Solutions of the exported text, counted by the `dlx` crate.
fn dlx_count(text: &str) -> u128 {
    let spec = Spec::new(text, false).expect("the export is valid DLX text");
    let mut problem = dlx::m::Problem::from_spec(&spec, OptOrder::Seq).expect("valid items");
    let mut solver = Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut n = 0;
    while solver.next_solution(&mut chooser) {
        n += 1;
    }
    n
}

/// Checks the export against our counts; returns whether the export with
/// symmetry broken was possible (and then checked).
fn check(puzzle: &Puzzle) -> bool {
    let problem = Problem::new(puzzle);
    let text = export::dlx(&problem);
    let (_, distinct, unique) = counts(&count(puzzle, options(EngineChoice::Auto, true)));
    assert_eq!(dlx_count(&text), distinct, "{}", puzzle.name);
    match export::dlx_unique(&problem) {
        Ok(text) => {
            assert_eq!(dlx_count(&text), unique, "{} unique", puzzle.name);
            problem.group.len() > 1
        }
        Err(_) => false,
    }
}

#[test]
fn exports_with_symmetry_broken_count_the_unique_solutions_or_are_refused() {
    for path in [
        "puzzles/grid/hexiamond-6x6.toml",
        "puzzles/grid/pentomino-3x20.toml",
        "puzzles/grid/tetrahex-4x7.toml",
    ] {
        assert!(check(&load(path)), "{path} was refused");
    }
    // Every Soma piece with one copy has a placement a symmetry of the cube
    // maps to itself, so no exact-cover file can break its symmetry.
    let soma = Problem::new(&load("puzzles/grid/soma.toml"));
    let err = export::dlx_unique(&soma).unwrap_err();
    assert!(err.to_string().contains("48 symmetries"), "{err}");
}

#[test]
fn catalog_exports_count_the_distinct_solutions() {
    for path in [
        "puzzles/grid/pentomino-3x20.toml",
        "puzzles/grid/soma.toml",
        "puzzles/grid/atwood.toml",
        "puzzles/grid/hexiamond-4x9.toml",
        "puzzles/grid/hexiamond-6x6-sides.toml",
        "puzzles/grid/tetrahex-4x7.toml",
        "puzzles/grid/tetrahex-4x7-colours.toml",
    ] {
        check(&load(path));
    }
}

#[test]
fn the_export_is_knuths_format() {
    let text = export::dlx(&Problem::new(&load("puzzles/grid/atwood.toml")));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('|')).collect();
    let items: Vec<&str> = lines[0].split_whitespace().collect();
    // 64 cells, then the pieces: 4 has two copies (DLX3's multiplicity);
    // pieces 10 and 11 would clash with cell names and are renamed.
    assert_eq!(items.len(), 64 + 11);
    assert!(items.contains(&"2|4"), "{}", lines[0]);
    assert!(items.iter().all(|i| i.len() <= 8));
    assert!(text.contains("| item p11 is piece 11"), "{text}");
    // Each option: 3 to 7 cells and one piece.
    assert!(lines[1..]
        .iter()
        .all(|o| (4..=8).contains(&o.split_whitespace().count())));
}

#[test]
fn random_exports_agree_including_optional_pieces_and_copies() {
    let mut broken = 0;
    for seed in 0..12u64 {
        let spec = jigsolve_grid::generate::Spec {
            lattice: if seed % 3 == 0 {
                Lattice::Cube
            } else {
                Lattice::Square
            },
            size: [4, 3, 2],
            holes: 0.1,
            min_piece: 2,
            max_piece: 4,
            colouring: if seed % 2 == 0 {
                Colouring::Checker
            } else {
                Colouring::None
            },
            one_sided: 0.5,
        };
        let (puzzle, _) = planted(spec, seed);
        let mut pieces = puzzle.pieces.clone();
        // An optional single cell (a secondary item) and up to two optional
        // dominoes (a multiplicity 0:2).
        for (name, cells, copies) in [
            ("m", vec![[0, 0, 0]], 1u32),
            ("d", vec![[0, 0, 0], [1, 0, 0]], 2),
        ] {
            pieces.push(jigsolve_grid::Piece {
                name: name.into(),
                shape: cells.into_iter().map(|c| (c, None)).collect(),
                copies,
                optional: true,
                least: 0,
                open: None,
                sides: jigsolve_grid::Sides::Two,
            });
        }
        let puzzle = Puzzle::new(
            puzzle.name,
            puzzle.lattice,
            puzzle.colours,
            puzzle.board,
            pieces,
        )
        .unwrap();
        broken += check(&puzzle) as u32;
    }
    assert!(
        broken >= 2,
        "only {broken} symmetric random boards were broken"
    );
}
