//! The heat map of a puzzle's open cells: how many solutions leave each
//! cell open (a calendar puzzle's dates).

use super::cells::{draw_cells, layer_captions, Drawn, Style};
use super::solution_frame;
use crate::palette::Fill;
use crate::svg::{text_width, Svg, MARGIN};
use jigsolve_grid::{Cell, Puzzle};
use std::collections::BTreeSet;

/// The board as a heat map: each cell that some solution may leave open
/// shaded by `count(name)` (how many solutions leave it open, by the
/// cell's name as [`Puzzle::cell_name`] gives it) and labelled with its
/// name and count; the other cells grey. A calendar puzzle's dates, from
/// the fewest solutions (light) to the most (dark).
pub fn heat_map_svg(
    puzzle: &Puzzle,
    count: &dyn Fn(&str) -> Option<u128>,
    caption: &str,
) -> String {
    let frame = solution_frame(puzzle);
    let names: Vec<String> = puzzle.board.iter().map(|s| puzzle.cell_name(s.0)).collect();
    let open: BTreeSet<Cell> = puzzle
        .pieces
        .iter()
        .filter_map(|p| p.open.as_ref())
        .flatten()
        .copied()
        .collect();
    let counts: Vec<Option<u128>> = puzzle
        .board
        .iter()
        .zip(&names)
        .map(|(s, name)| open.contains(&s.0).then(|| count(name).unwrap_or(0)))
        .collect();
    let most = counts.iter().flatten().copied().max().unwrap_or(0).max(1);
    let inner = frame.width().max(text_width(caption, 15.0)).max(240.0);
    let width = inner + 2.0 * MARGIN;
    let height = frame.origins[0].1 + frame.height() + MARGIN;
    let mut svg = Svg::new(width, height, caption);
    let cells: Vec<Drawn> = puzzle
        .board
        .iter()
        .enumerate()
        .map(|(b, &(cell, _))| Drawn {
            cell,
            group: b,
            colour: None,
            marked: false,
        })
        .collect();
    let fill = |b: usize| Fill {
        colour: match counts.get(b).copied().flatten() {
            None => "#d0d0d0".into(),
            Some(0) => "#ffffff".into(),
            // White to deep blue by the share of the most.
            Some(n) => {
                let t = (n as f64 / most as f64).sqrt();
                let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
                format!(
                    "#{:02x}{:02x}{:02x}",
                    mix(240.0, 90.0),
                    mix(246.0, 150.0),
                    mix(255.0, 215.0)
                )
            }
        },
        cue: None,
    };
    let label = |b: usize| {
        let n = counts.get(b).copied().flatten()?;
        Some(format!("{} {n}", names[b]))
    };
    svg.heading(caption, None);
    layer_captions(&mut svg, &frame);
    draw_cells(
        &mut svg,
        &frame,
        &cells,
        &Style {
            fill: &fill,
            label: &label,
            colours: 0,
            prefix: "h",
        },
    );
    svg.finish()
}
