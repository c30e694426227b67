//! Puzzles with a planted solution, for tests and benchmarks.
//!
//! Colour a random board's edges, cut it into tiles, turn and shuffle them:
//! the result has at least the planted solution, so a solver that misses it
//! is wrong (the varisat trick).

use crate::model::Placement;
use crate::model::{Marks, Matching, Polarity, Puzzle, Tile};
use jigsolve_search::estimate::SplitMix64;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Colours on inner edges (at least 1).
    pub colours: usize,
    /// Colours on the edges that run along the frame between two frame
    /// tiles, Eternity II style (named `f1`, `f2`, ...); 0 uses the inner
    /// colours there too. Only used with a border.
    pub frame_colours: usize,
    /// Put a border mark on the frame (else frame sides get random colours).
    pub border: bool,
    /// Complementary matching (each inner edge gets a random polarity) or equal.
    pub matching: Matching,
}

/// A puzzle and a solution planted in it (row-major placements).
pub fn planted(spec: Spec, seed: u64) -> (Puzzle, Vec<Placement>) {
    let mut rng = SplitMix64::new(seed);
    let (rows, cols) = (spec.rows, spec.cols);
    let colours = spec.colours.max(1) as u32;
    // Mark names: colour c with polarity, or plain; "0" is the border.
    let frame_colours = if spec.border {
        spec.frame_colours as u32
    } else {
        0
    };
    let base = |c: u32| {
        if c < colours {
            format!("{}", c + 1)
        } else {
            format!("f{}", c - colours + 1)
        }
    };
    let name = |c: u32, plus: bool| match spec.matching {
        Matching::Equal => base(c),
        Matching::Complementary => format!("{}{}", if plus { '+' } else { '-' }, base(c)),
    };
    // horizontal edges: (rows+1) x cols, vertical: rows x (cols+1); each holds
    // (colour, polarity of the side above / left of it).
    // An edge along the frame joins two frame tiles and lies on the ring:
    // a horizontal edge in the first or last column, a vertical one in the
    // first or last row (never the outer sides, which face the border).
    let pick = |rng: &mut SplitMix64, on_frame: bool| {
        let colour = if on_frame && frame_colours > 0 {
            colours + rng.below(frame_colours)
        } else {
            rng.below(colours)
        };
        (colour, rng.below(2) == 0)
    };
    let h: Vec<(u32, bool)> = (0..(rows + 1) * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            pick(&mut rng, r > 0 && r < rows && (c == 0 || c + 1 == cols))
        })
        .collect();
    let v: Vec<(u32, bool)> = (0..rows * (cols + 1))
        .map(|i| {
            let (r, c) = (i / (cols + 1), i % (cols + 1));
            pick(&mut rng, c > 0 && c < cols && (r == 0 || r + 1 == rows))
        })
        .collect();
    let mut raw: Vec<[String; 4]> = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let top = h[r * cols + c];
            let bottom = h[(r + 1) * cols + c];
            let left = v[r * (cols + 1) + c];
            let right = v[r * (cols + 1) + c + 1];
            let frame = |on: bool, s: String| {
                if spec.border && on {
                    "0".to_string()
                } else {
                    s
                }
            };
            raw.push([
                frame(r == 0, name(top.0, !top.1)),
                frame(c + 1 == cols, name(right.0, right.1)),
                frame(r + 1 == rows, name(bottom.0, bottom.1)),
                frame(c == 0, name(left.0, !left.1)),
            ]);
        }
    }
    let mut specs: Vec<(String, String, Option<Polarity>)> = Vec::new();
    if spec.border {
        specs.push(("0".into(), "0".into(), None));
    }
    for t in &raw {
        for m in t {
            if m == "0" && spec.border {
                continue;
            }
            let (base, pol) = match spec.matching {
                Matching::Equal => (m.clone(), None),
                Matching::Complementary => {
                    let p = if m.starts_with('+') {
                        Polarity::Plus
                    } else {
                        Polarity::Minus
                    };
                    (m[1..].to_string(), Some(p))
                }
            };
            specs.push((m.clone(), base, pol));
        }
    }
    let marks = Marks::build(spec.matching, &specs);
    // Turn each tile by a random rotation and shuffle the list.
    let mut order: Vec<usize> = (0..rows * cols).collect();
    rng.shuffle(&mut order);
    let mut tiles = vec![Tile { sides: [0; 4] }; rows * cols];
    let mut solution = vec![
        Placement {
            tile: 0,
            rotation: 0
        };
        rows * cols
    ];
    for (cell, &slot) in order.iter().enumerate() {
        let placed = Tile {
            sides: std::array::from_fn(|s| marks.id(&raw[cell][s]).expect("interned")),
        };
        let turn = rng.below(4) as u8;
        // The listed tile is the placed one turned back by `turn`.
        tiles[slot] = Tile {
            sides: placed.rotated((4 - turn) % 4),
        };
        solution[cell] = Placement {
            tile: slot as u16,
            rotation: turn,
        };
    }
    let border = spec.border.then(|| marks.id("0")).flatten();
    let puzzle = Puzzle::new(
        format!("planted-{rows}x{cols}-{seed}"),
        rows,
        cols,
        spec.matching,
        marks,
        border,
        tiles,
        Vec::new(),
    )
    .expect("a cut-up board is a consistent puzzle");
    (puzzle, solution)
}
