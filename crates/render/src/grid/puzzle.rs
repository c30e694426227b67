//! The picture of a puzzle itself: the board with its colours, pinned
//! pieces and named cells, and each piece laid apart under it.

use super::cells::{draw_cells, layer_captions, Drawn, Style};
use super::{legend, piece_fill, solution_frame, Frame};
use crate::palette::{self, Cue, Fill};
use crate::svg::{text_width, Anchor, Svg, INK, MARGIN};
use jigsolve_grid::{Cell, Puzzle};
use std::collections::{BTreeSet, HashMap};

/// The first group number of [`puzzle_svg`]'s named board cells (one
/// group per cell, after the pins').
const LABELLED: usize = 1 << 24;

/// A picture of the puzzle itself: the board (with its colours and its
/// pinned pieces in place), and under it each piece as the file gives it,
/// in its colour, named, laid apart.
pub fn puzzle_svg(puzzle: &Puzzle) -> String {
    let board_frame = solution_frame(puzzle);
    let s = board_frame.cell;
    let caption = format!(
        "{}: {} board cells, {} pieces",
        puzzle.name,
        puzzle.board.len(),
        puzzle
            .pieces
            .iter()
            .filter(|p| p.open.is_none())
            .map(|p| p.copies as usize)
            .sum::<usize>()
    );
    let legend = legend(puzzle);
    let inner_min = board_frame
        .width()
        .max(legend.min_width())
        .max(text_width(&caption, 15.0))
        .max(240.0);
    // The pieces, a little smaller than the board's cells, in rows as wide
    // as the board or 560 pixels; a solid piece's layers side by side, half
    // a cell apart, with small captions over them.
    let ps = ((s * 0.75 / 2.0).floor() * 2.0).max(10.0);
    let piece_frames: Vec<Frame> = puzzle
        .pieces
        .iter()
        .map(|p| {
            Frame::of(
                puzzle.lattice,
                p.shape.iter().map(|c| c.0),
                ps,
                (0.0, 0.0),
                0.5,
            )
        })
        .collect();
    let solid_pieces = piece_frames.iter().any(|f| f.size[2] > 1);
    let over = if solid_pieces { 14.0 } else { 0.0 };
    let gap = ps;
    let name_height = 16.0;
    let row_limit = inner_min.max(560.0);
    let mut placed = Vec::new();
    let (mut x, mut y, mut row_h) = (0.0f64, 0.0f64, 0.0f64);
    let mut widest: f64 = 0.0;
    for (f, p) in piece_frames.iter().zip(&puzzle.pieces) {
        // Cells left open are shown on the board, by name.
        if p.open.is_some() {
            placed.push((0.0, 0.0));
            continue;
        }
        let w = f.width().max(text_width(&p.name, 12.0) + 24.0);
        if x > 0.0 && x + w > row_limit {
            x = 0.0;
            y += row_h + gap;
            row_h = 0.0;
        }
        placed.push((x, y));
        x += w + gap;
        widest = widest.max(x - gap);
        row_h = row_h.max(over + f.height() + name_height);
    }
    let inner = inner_min.max(widest);
    let pieces_top = board_frame.origins[0].1 + board_frame.height() + s;
    let pieces_height = y + row_h;
    let legend_top = pieces_top + pieces_height + 14.0;
    let height = legend_top + legend.height(inner) + MARGIN;
    let mut svg = Svg::new(inner + 2.0 * MARGIN, height, &caption);
    let prefix = "p";
    let cues: BTreeSet<Cue> = (0..puzzle.pieces.len())
        .filter_map(|i| piece_fill(i).cue)
        .collect();
    for def in palette::pattern_defs(
        prefix,
        &cues.into_iter().collect::<Vec<_>>(),
        ps / 2.0,
        (0.0, 0.0),
    ) {
        svg.def(&def);
    }
    svg.heading(&caption, None);
    layer_captions(&mut svg, &board_frame);
    // Pinned pieces lie on the board in their colour, named and outlined
    // (a group per pin, so thick lines run round each); the rest of the
    // board is group 0.
    let pinned: HashMap<Cell, usize> = puzzle
        .pins
        .iter()
        .enumerate()
        .flat_map(|(i, pin)| pin.cells.iter().map(move |&c| (c, i + 1)))
        .collect();
    // A named cell (a calendar's date) is a group of its own, labelled.
    let named = |b: usize| LABELLED + b;
    let board: Vec<Drawn> = puzzle
        .board
        .iter()
        .enumerate()
        .map(|(b, &(cell, colour))| Drawn {
            cell,
            group: match pinned.get(&cell) {
                Some(&g) => g,
                None if puzzle
                    .labels
                    .binary_search_by(|(c, _)| c.cmp(&cell))
                    .is_ok() =>
                {
                    named(b)
                }
                None => 0,
            },
            colour,
            marked: false,
        })
        .collect();
    let pin_piece = |g: usize| {
        g.checked_sub(1)
            .and_then(|i| puzzle.pins.get(i))
            .map(|pin| pin.piece)
    };
    let board_fill = |g: usize| match pin_piece(g) {
        Some(p) => piece_fill(p),
        None => Fill {
            colour: "#f4f4f4".into(),
            cue: None,
        },
    };
    let pin_label = |g: usize| match g.checked_sub(LABELLED) {
        Some(b) => puzzle.board.get(b).map(|s| puzzle.cell_name(s.0)),
        None => pin_piece(g)
            .and_then(|p| puzzle.pieces.get(p))
            .map(|p| p.name.clone()),
    };
    let no_label = |_| None;
    let colours = puzzle.colours.len();
    draw_cells(
        &mut svg,
        &board_frame,
        &board,
        &Style {
            fill: &board_fill,
            label: &pin_label,
            colours,
            prefix,
        },
    );
    for (i, (p, (px, py))) in puzzle.pieces.iter().zip(placed).enumerate() {
        if p.open.is_some() {
            continue;
        }
        let f = &piece_frames[i];
        let frame = Frame::of(
            puzzle.lattice,
            p.shape.iter().map(|c| c.0),
            ps,
            (MARGIN + px, pieces_top + py + over),
            0.5,
        );
        if frame.size[2] > 1 {
            for (z, &(lx, ly)) in frame.origins.iter().enumerate() {
                // The layer's extent, so a lone cube shows where it sits.
                svg.rect(
                    lx,
                    ly,
                    frame.size[0] as f64 * ps,
                    frame.height(),
                    r##"fill="none" stroke="#bbbbbb" stroke-width="1" stroke-dasharray="3 2""##,
                );
                svg.text(
                    lx + frame.size[0] as f64 * ps / 2.0,
                    ly - 4.0,
                    9.0,
                    Anchor::Middle,
                    r##"fill="#555555""##,
                    &format!("z = {}", frame.lo[2] + z as i32),
                );
            }
        }
        let cells: Vec<Drawn> = p
            .shape
            .iter()
            .map(|&(cell, colour)| Drawn {
                cell,
                group: i,
                colour,
                marked: false,
            })
            .collect();
        let fill = |g: usize| piece_fill(g);
        draw_cells(
            &mut svg,
            &frame,
            &cells,
            &Style {
                fill: &fill,
                label: &no_label,
                colours,
                prefix,
            },
        );
        let mut name = p.name.clone();
        if p.copies > 1 {
            name.push_str(&format!(" \u{d7}{}", p.copies));
        }
        svg.text(
            MARGIN + px + f.width() / 2.0,
            pieces_top + py + over + f.height() + 13.0,
            12.0,
            Anchor::Middle,
            &format!(r#"fill="{INK}""#),
            &name,
        );
    }
    legend.draw(&mut svg, MARGIN, legend_top, inner);
    svg.finish()
}
