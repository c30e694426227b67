//! Pictures of catalog puzzles and solutions: SVG snapshots (insta), PNG
//! size and content, and pictures read back pixel by pixel against the
//! solution they draw. Every solution drawn here first passes its family's
//! independent verifier.

use jigsolve_grid::verify::{PlacedRecord, SolutionRecord as GridSolution};
use jigsolve_render::png as raster;
use jigsolve_render::{edge, grid, palette, polygon};
use jigsolve_search::{run, Control, RunConfig};
use std::ops::ControlFlow;
use std::path::PathBuf;

fn catalog(path: &str) -> (String, String) {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../puzzles")
        .join(path);
    let text = std::fs::read_to_string(&full).unwrap();
    (text, full.display().to_string())
}

fn data(name: &str) -> serde_json::Value {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(full).unwrap()).unwrap()
}

fn edge_puzzle(name: &str) -> jigsolve_edge::Puzzle {
    let (text, label) = catalog(&format!("edge/{name}.toml"));
    jigsolve_edge::parse::parse(&text, &label, None).unwrap()
}

fn grid_puzzle(name: &str) -> jigsolve_grid::Puzzle {
    let (text, label) = catalog(&format!("grid/{name}.toml"));
    jigsolve_grid::parse::parse(&text, &label).unwrap().puzzle
}

fn polygon_puzzle(name: &str) -> jigsolve_polygon::Puzzle {
    let (text, label) = catalog(&format!("polygon/{name}.toml"));
    jigsolve_polygon::parse::parse(&text, &label).unwrap()
}

/// The first solution of a polyform puzzle found on one thread, verified.
fn first_grid_solution(puzzle: &jigsolve_grid::Puzzle) -> Vec<u16> {
    let prepared = jigsolve_grid::Prepared::new(puzzle, jigsolve_grid::Options::default());
    let mut found: Option<Vec<u16>> = None;
    run(
        || jigsolve_grid::Solver::new(&prepared),
        &RunConfig {
            threads: 1,
            shard: None,
            want_solutions: true,
        },
        &Control::new(),
        |s: &[u16], _| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        },
    )
    .unwrap();
    let copies = found.expect("the puzzle has a solution");
    jigsolve_grid::verify(puzzle, &copies).unwrap();
    copies
}

/// Atwood's Figure 3 (seed 004), as the catalog file's comment gives it;
/// his piece 10 is the second copy of piece 4.
fn atwood_figure_3(puzzle: &jigsolve_grid::Puzzle) -> Vec<u16> {
    let figure = [
        "4 4 4 4 2 2 2 2",
        "4 7 7 7 7 7 2 2",
        "4 7 3 3 3 6 5 5",
        "9 9 3 3 6 6 5 5",
        "1 9 9 8 6 10 0 5",
        "1 1 9 8 6 10 0 5",
        "11 8 8 8 6 10 0 5",
        "11 11 11 11 11 10 10 10",
    ];
    let mut placements: Vec<PlacedRecord> = Vec::new();
    for (y, row) in figure.iter().enumerate() {
        for (x, label) in row.split_whitespace().enumerate() {
            let (piece, copy) = if label == "10" { ("4", 2) } else { (label, 1) };
            let cell = vec![x as i32, y as i32];
            match placements
                .iter_mut()
                .find(|p| p.piece == piece && p.copy == copy)
            {
                Some(p) => p.cells.push(cell),
                None => placements.push(PlacedRecord {
                    piece: piece.to_string(),
                    copy,
                    cells: vec![cell],
                }),
            }
        }
    }
    let copies = GridSolution { placements }.copies(puzzle).unwrap();
    jigsolve_grid::verify(puzzle, &copies).unwrap();
    copies
}

fn hunde_spiel() -> (jigsolve_edge::Puzzle, Vec<jigsolve_edge::Placement>) {
    let puzzle = edge_puzzle("hunde-spiel");
    let record: jigsolve_edge::verify::GridRecord =
        serde_json::from_value(data("hunde-spiel.json")).unwrap();
    let placements = record.placements(&puzzle).unwrap();
    jigsolve_edge::verify(&puzzle, &placements).unwrap();
    (puzzle, placements)
}

fn stomachion() -> (
    jigsolve_polygon::Puzzle,
    Vec<jigsolve_polygon::Placement<jigsolve_polygon::Num>>,
) {
    let puzzle = polygon_puzzle("stomachion");
    let record: jigsolve_polygon::verify::SolutionRecord =
        serde_json::from_value(data("stomachion.json")).unwrap();
    let placements = record
        .placements::<jigsolve_polygon::Num>(&puzzle, |s| {
            s.parse::<jigsolve_polygon::Num>()
                .map_err(|e| e.to_string())
        })
        .unwrap();
    jigsolve_polygon::verify(&puzzle, &placements).unwrap();
    (puzzle, placements)
}

/// The pictures the snapshots and PNG tests look at.
fn pictures() -> Vec<(&'static str, String)> {
    let hexiamonds = grid_puzzle("hexiamond-6x6");
    let hexiamond_solution = first_grid_solution(&hexiamonds);
    let (hunde, hunde_solution) = hunde_spiel();
    let atwood = grid_puzzle("atwood");
    let figure = atwood_figure_3(&atwood);
    let (stomachion, stomachion_solution) = stomachion();
    vec![
        (
            "edge_solution_hunde_spiel",
            edge::solution_svg(&hunde, &hunde_solution, "hunde-spiel: solution 1"),
        ),
        (
            "grid_solution_atwood_figure_3",
            grid::solution_svg(&atwood, &figure, "atwood: Figure 3"),
        ),
        (
            "polygon_solution_stomachion",
            polygon::solution_svg(&stomachion, &stomachion_solution, "stomachion: solution 1"),
        ),
        (
            "edge_puzzle_impuzzable",
            edge::puzzle_svg(&edge_puzzle("impuzzable")),
        ),
        ("grid_puzzle_soma", grid::puzzle_svg(&grid_puzzle("soma"))),
        (
            "grid_solution_hexiamond_6x6",
            grid::solution_svg(
                &hexiamonds,
                &hexiamond_solution,
                "hexiamond-6x6: solution 1",
            ),
        ),
        (
            "grid_puzzle_tetrahex_4x7_colours",
            grid::puzzle_svg(&grid_puzzle("tetrahex-4x7-colours")),
        ),
        (
            "polygon_puzzle_tangram_square",
            polygon::puzzle_svg(&polygon_puzzle("tangram-square")),
        ),
    ]
}

#[test]
fn svg_snapshots() {
    for (name, svg) in pictures() {
        insta::assert_snapshot!(name, svg);
    }
}

/// A decoded PNG: width, height and RGBA pixels.
struct Decoded {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Decoded {
    fn of(bytes: &[u8]) -> Decoded {
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        let rgba = match info.color_type {
            ::png::ColorType::Rgba => buf,
            ::png::ColorType::Rgb => buf
                .chunks(3)
                .flat_map(|c| [c[0], c[1], c[2], 255])
                .collect(),
            other => panic!("unexpected PNG colour type {other:?}"),
        };
        Decoded {
            width: info.width,
            height: info.height,
            rgba,
        }
    }

    fn pixel(&self, x: f64, y: f64) -> [u8; 4] {
        let (x, y) = (x.floor() as usize, y.floor() as usize);
        let i = (y * self.width as usize + x) * 4;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }
}

fn svg_size(svg: &str) -> (f64, f64) {
    let attr = |name: &str| -> f64 {
        let start = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let end = start + svg[start..].find('"').unwrap();
        svg[start..end].parse().unwrap()
    };
    (attr("width"), attr("height"))
}

#[test]
fn pngs_have_the_svgs_size_and_are_not_blank() {
    for (name, svg) in pictures() {
        let bytes = raster::png(&svg, raster::DEFAULT_SCALE).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name}");
        let image = Decoded::of(&bytes);
        let (w, h) = svg_size(&svg);
        let scale = raster::DEFAULT_SCALE as f64;
        assert_eq!(image.width as f64, (w * scale).ceil(), "{name}");
        assert_eq!(image.height as f64, (h * scale).ceil(), "{name}");
        assert!(image.width >= 400 && image.height >= 300, "{name}");
        let pixels: Vec<&[u8]> = image.rgba.chunks(4).collect();
        assert!(pixels.iter().all(|p| p[3] == 255), "{name}: not opaque");
        let inked = pixels
            .iter()
            .filter(|p| p[0] < 250 || p[1] < 250 || p[2] < 250)
            .count();
        let share = inked as f64 / pixels.len() as f64;
        assert!(
            share > 0.1,
            "{name}: only {share:.3} of the pixels are not white"
        );
        let mut colours: Vec<[u8; 3]> = pixels.iter().map(|p| [p[0], p[1], p[2]]).collect();
        colours.sort();
        colours.dedup();
        assert!(colours.len() > 20, "{name}: {} colours", colours.len());
        // Text is drawn (the embedded font): the caption's row has dark
        // pixels that are not outlines.
        let caption_dark = (16 * 2..28 * 2)
            .flat_map(|y| (16 * 2..200 * 2).map(move |x| (x, y)))
            .filter(|&(x, y)| image.pixel(x as f64, y as f64)[0] < 80)
            .count();
        assert!(
            caption_dark > 50,
            "{name}: no caption text ({caption_dark})"
        );
    }
}

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// The board cells whose centre pixel does not show the colour of the piece
/// that `copies` puts there.
fn wrong_cells(puzzle: &jigsolve_grid::Puzzle, drawn: &[u16], claimed: &[u16]) -> Vec<String> {
    let svg = grid::solution_svg(puzzle, drawn, "cell centres");
    let image = Decoded::of(&raster::png(&svg, raster::DEFAULT_SCALE).unwrap());
    let scale = raster::DEFAULT_SCALE as f64;
    let frame = grid::solution_frame(puzzle);
    let instances = puzzle.instances();
    let mut wrong = Vec::new();
    for (b, &(cell, _)) in puzzle.board.iter().enumerate() {
        let piece = instances[claimed[b] as usize].0;
        let want = rgb(&palette::piece_fill(piece).colour);
        // The centre of the cell, from the frame's corner of its layer; on
        // triangles and hexagons, whose labels sit in the middle and board
        // colours at the first corner, a point from the mean of the
        // polygon's corners two thirds of the way to its second corner.
        let (cx, cy) = if frame.plane.is_some() {
            let poly = frame.polygon(cell);
            let n = poly.len() as f64;
            let (mx, my) = (
                poly.iter().map(|p| p.0).sum::<f64>() / n,
                poly.iter().map(|p| p.1).sum::<f64>() / n,
            );
            (mx + (poly[1].0 - mx) * 0.65, my + (poly[1].1 - my) * 0.65)
        } else {
            let (ox, oy) = frame.origins[(cell[2] - frame.lo[2]) as usize];
            (
                ox + ((cell[0] - frame.lo[0]) as f64 + 0.5) * frame.cell,
                oy + ((cell[1] - frame.lo[1]) as f64 + 0.5) * frame.cell,
            )
        };
        let got = image.pixel(cx * scale, cy * scale);
        let close = (0..3).all(|k| (got[k] as i32 - want[k] as i32).abs() <= 3);
        if !close {
            wrong.push(format!(
                "{cell:?}: piece {} is {want:?}, the picture shows {got:?}",
                puzzle.pieces[piece].name
            ));
        }
    }
    wrong
}

#[test]
fn each_cell_centre_shows_the_colour_of_its_piece() {
    let atwood = grid_puzzle("atwood");
    let pentomino = grid_puzzle("pentomino-6x10");
    let soma = grid_puzzle("soma");
    let hexiamonds = grid_puzzle("hexiamond-6x6");
    let polyhexes = grid_puzzle("polyhex-hexagon");
    let tetrahexes = grid_puzzle("tetrahex-4x7-colours");
    let cases = [
        (&atwood, atwood_figure_3(&atwood)),
        (&pentomino, first_grid_solution(&pentomino)),
        (&soma, first_grid_solution(&soma)),
        (&hexiamonds, first_grid_solution(&hexiamonds)),
        (&polyhexes, first_grid_solution(&polyhexes)),
        (&tetrahexes, first_grid_solution(&tetrahexes)),
    ];
    for (puzzle, copies) in &cases {
        let wrong = wrong_cells(puzzle, copies, copies);
        assert!(wrong.is_empty(), "{}: {wrong:#?}", puzzle.name);
    }
    // The check can fail: against a solution with two pieces swapped, the
    // cells of those pieces show the wrong colours.
    let (puzzle, copies) = (&pentomino, &cases[1].1);
    let instances = puzzle.instances();
    let colour = |c: u16| palette::piece_fill(instances[c as usize].0).colour;
    let a = copies[0];
    let b = *copies.iter().find(|&&c| colour(c) != colour(a)).unwrap();
    let swapped: Vec<u16> = copies
        .iter()
        .map(|&c| {
            if c == a {
                b
            } else if c == b {
                a
            } else {
                c
            }
        })
        .collect();
    let wrong = wrong_cells(puzzle, copies, &swapped);
    assert_eq!(wrong.len(), 10, "{wrong:#?}");
}

#[test]
fn matched_edge_marks_show_one_colour_half_solid_half_hollow() {
    let (puzzle, placements) = hunde_spiel();
    let svg = edge::solution_svg(&puzzle, &placements, "joins");
    let image = Decoded::of(&raster::png(&svg, raster::DEFAULT_SCALE).unwrap());
    let s = raster::DEFAULT_SCALE as f64;
    let layout = edge::layout(&puzzle);
    let t = layout.tile;
    let background = [0xf7, 0xf7, 0xf7];
    let rgb3 = |p: [u8; 4]| [p[0], p[1], p[2]];
    let mut joins = 0;
    for r in 0..puzzle.rows {
        for c in 0..puzzle.cols {
            // The join to the right and the one below.
            for (dr, dc) in [(0, 1), (1, 0)] {
                if r + dr >= puzzle.rows || c + dc >= puzzle.cols {
                    continue;
                }
                let (x0, y0) = (
                    layout.origin.0 + c as f64 * t,
                    layout.origin.1 + r as f64 * t,
                );
                // The midpoint of the shared side, and the unit step across it.
                let (mx, my, ux, uy) = if dc == 1 {
                    (x0 + t, y0 + t / 2.0, 1.0, 0.0)
                } else {
                    (x0 + t / 2.0, y0 + t, 0.0, 1.0)
                };
                let at = |d: f64| rgb3(image.pixel((mx + ux * d) * s, (my + uy * d) * s));
                // Far into each half-disc (inside the ring of a hollow one):
                // the same colour on both sides, not the tile's.
                let (a, b) = (at(-0.16 * t), at(0.16 * t));
                assert_eq!(a, b, "row {r}, column {c}, step ({dr}, {dc})");
                assert_ne!(a, background);
                // Near the side: one half solid (its colour), the other
                // hollow (the tile shows through).
                let (a, b) = (at(-0.05 * t), at(0.05 * t));
                assert!(
                    (a == background) != (b == background),
                    "row {r}, column {c}, step ({dr}, {dc}): {a:?} {b:?}"
                );
                joins += 1;
            }
        }
    }
    assert_eq!(joins, 12);
}

#[test]
fn flipped_pieces_are_hatched_and_every_piece_is_named() {
    let (puzzle, placements) = stomachion();
    let svg = polygon::solution_svg(&puzzle, &placements, "stomachion");
    let flipped = placements.iter().filter(|p| p.flipped).count();
    assert!(flipped > 0);
    assert_eq!(svg.matches("url(#q-hatch)").count(), flipped);
    for p in &puzzle.pieces {
        assert!(svg.contains(&format!(">{}</text>", p.name)), "{}", p.name);
    }
    let atwood = grid_puzzle("atwood");
    let svg = grid::solution_svg(&atwood, &atwood_figure_3(&atwood), "atwood");
    for p in &atwood.pieces {
        assert!(svg.contains(&format!(">{}</text>", p.name)), "{}", p.name);
    }
    assert!(svg.contains(">board colour b</text>") && svg.contains(">board colour w</text>"));
}

#[test]
fn differences_are_marked_in_both_halves_of_a_pair() {
    let soma = grid_puzzle("soma");
    let copies = first_grid_solution(&soma);
    // A cell in each layer of the cube.
    let marked = [0, 13, 26];
    let half = |caption: &str| grid::solution_picture(&soma, &copies, caption, &marked);
    let (left, right) = (half("first"), half("second"));
    let left_width = left.width();
    let svg = jigsolve_render::differ::pair(left, right, "soma: two", "dashed: differs");
    assert_eq!(svg.matches(r#"<g class="differs">"#).count(), 6);
    assert_eq!(svg.matches(r#"<g class="solution""#).count(), 2);
    // The marks leave the middle of a cell to its piece, in both halves.
    let image = Decoded::of(&raster::png(&svg, raster::DEFAULT_SCALE).unwrap());
    let (w, h) = svg_size(&svg);
    let scale = raster::DEFAULT_SCALE as f64;
    assert_eq!(image.width as f64, (w * scale).ceil());
    assert_eq!(image.height as f64, (h * scale).ceil());
    let frame = grid::solution_frame(&soma);
    let instances = soma.instances();
    for &b in &marked {
        let want = rgb(&palette::piece_fill(instances[copies[b] as usize].0).colour);
        let (cx, cy) = frame.centre(soma.board[b].0);
        for dx in [0.0, left_width] {
            let got = image.pixel((cx + dx) * scale, (cy + frame.cell * 0.2) * scale);
            assert!(
                (0..3).all(|k| (got[k] as i32 - want[k] as i32).abs() <= 3),
                "cell {b}: {got:?} for {want:?}"
            );
        }
    }
    // Nothing marked, nothing drawn: the plain picture is the same.
    assert_eq!(
        grid::solution_picture(&soma, &copies, "x", &[]).finish(),
        grid::solution_svg(&soma, &copies, "x")
    );

    let (hunde, tiles) = hunde_spiel();
    let svg = edge::solution_picture(&hunde, &tiles, "first", &[1, 2]).finish();
    assert_eq!(svg.matches(r#"<g class="differs">"#).count(), 2);
    let (stomachion, pieces) = stomachion();
    let svg = polygon::solution_picture(&stomachion, &pieces, "first", &[0, 3, 99]).finish();
    // An index past the placements marks nothing.
    assert_eq!(svg.matches(r#"<g class="differs">"#).count(), 2);
}
