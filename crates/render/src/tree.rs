//! The search tree as a picture: every recorded node a dot coloured by
//! what became of it, the path to each solution drawn thick, each folded
//! subtree a triangle, and what the search chose at each depth written at
//! the left.
//!
//! Layout: depth goes down, one row per level; the leaves of the recorded
//! tree (solutions, dead ends, duplicates and folded subtrees) take slots
//! from left to right in the engine's order, and an inner node sits midway
//! between its first and last child, so the picture reads like the search
//! runs: left to right, depth first. A folded subtree is a triangle whose
//! height and base grow with the logarithm of its node count (a subtree of
//! 10 nodes and one of 10 million must both fit), with the count written
//! under it when there is room.
//!
//! Readability for thousands of nodes comes from two rules. The trace
//! itself ([`jigsolve_search::trace`]) records whole levels only while
//! they fit a node budget and folds everything deeper, so the picture never
//! holds more nodes than the budget. And the slots narrow with the number
//! of leaves so that the picture stays at most [`MAX_WIDTH`] pixels wide;
//! dots shrink with them, and the colours still tell the outcomes apart.

use crate::svg::{num, text_width, Anchor, Svg, INK, MARGIN};
use jigsolve_search::trace::{Outcome, SearchTrace};
use jigsolve_search::Prune;
use std::fmt::Write;

/// The widest tree drawn, in pixels (without the labels and margins).
pub const MAX_WIDTH: f64 = 4000.0;

const INNER: &str = "#4477aa";
const SOLUTION: &str = "#228833";
const DEAD: &str = "#ee6677";
const DEAD_REGION: &str = "#aa3377";
const MARK: &str = "#ee7733";
const MEMO: &str = "#66ccee";
const DUPLICATE: &str = "#ccbb44";
const FOLDED: &str = "#dddddd";
const EDGE: &str = "#bbbbbb";
const GAP: f64 = 40.0;
const SLOT: f64 = 14.0;
const LABEL_FONT: f64 = 10.0;

/// What to write around the tree.
#[derive(Clone, Debug, Default)]
pub struct TreeCaption {
    /// The first line: the puzzle and what was searched.
    pub title: String,
    /// The second, smaller line (counts).
    pub subtitle: String,
    /// What the search chose at each depth: entry `d` is written at the
    /// row of depth `d + 1` (the placement that depth makes). May be empty.
    pub levels: Vec<String>,
}

/// A dead end's colour, class and legend text, by the rule that ended it.
fn dead_end_look(rule: Option<Prune>) -> (&'static str, &'static str, &'static str) {
    match rule {
        Some(Prune::DeadRegion) => (
            DEAD_REGION,
            "dead-end dead-region",
            "dead end: a dead region (a part left empty that no piece can fill)",
        ),
        Some(Prune::Mark) => (
            MARK,
            "dead-end mark",
            "dead end: every tile tried has a mismatched mark",
        ),
        Some(Prune::Memo) => (
            MEMO,
            "dead-end memo",
            "dead end: a region already found impossible (memo)",
        ),
        // A duplicate is drawn as such; a dead end never carries it.
        Some(Prune::Symmetry) | None => (DEAD, "dead-end", "dead end: nothing fits"),
    }
}

/// How tall a folded subtree's triangle is, and how wide its base, for a
/// slot width `unit`.
fn triangle(nodes: u64, unit: f64) -> (f64, f64) {
    let size = 1.0 + (nodes.max(1) as f64).log10();
    ((GAP * 0.3 * size).min(GAP * 3.0), unit * 0.8 * size)
}

/// The picture of a recorded search tree.
pub fn tree_svg(trace: &SearchTrace, caption: &TreeCaption) -> String {
    let kids = trace.children();
    let n = trace.nodes.len();
    // Leaf slots, left to right in depth-first order.
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(kids[i].iter().rev());
    }
    let leaf_width = |i: usize, unit: f64| match trace.nodes[i].outcome {
        Outcome::Folded { nodes, .. } => triangle(nodes, unit).1.max(unit),
        _ => unit,
    };
    let leaves: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| kids[i].is_empty())
        .collect();
    let wanted: f64 = leaves.iter().map(|&i| leaf_width(i, SLOT)).sum();
    let unit = if wanted > MAX_WIDTH {
        (SLOT * MAX_WIDTH / wanted).max(1.0)
    } else {
        SLOT
    };
    let radius = (unit * 0.3).clamp(0.6, 4.0);

    let label_texts: Vec<String> = (0..trace.levels.len())
        .map(|d| match d {
            0 => "0: empty".to_string(),
            _ => match caption.levels.get(d - 1) {
                Some(l) => format!("{d}: {l}"),
                None => format!("{d}"),
            },
        })
        .collect();
    let label_w = label_texts
        .iter()
        .map(|t| text_width(t, LABEL_FONT))
        .fold(0.0, f64::max)
        + 12.0;
    let left = MARGIN + label_w;
    let top = MARGIN + 56.0;

    let mut x = vec![0.0; n];
    let mut cursor = left;
    for &i in &leaves {
        let w = leaf_width(i, unit);
        x[i] = cursor + w / 2.0;
        cursor += w;
    }
    for &i in order.iter().rev() {
        if let (Some(&a), Some(&b)) = (kids[i].first(), kids[i].last()) {
            x[i] = (x[a] + x[b]) / 2.0;
        }
    }
    let y = |d: usize| top + d as f64 * GAP;
    let deepest = trace.levels.len().saturating_sub(1);
    let below = trace
        .nodes
        .iter()
        .map(|nd| match nd.outcome {
            Outcome::Folded { nodes, .. } => triangle(nodes, unit).0 + 14.0,
            _ => radius,
        })
        .fold(0.0, f64::max);
    let legend_y = y(deepest) + below + 24.0;
    let width = (cursor + MARGIN).max(MARGIN * 2.0 + 640.0);
    // One dead-end entry per rule that ended a drawn dead end (the plain
    // one when there are none, so the colours are always explained).
    let mut dead_looks: Vec<(&str, &str)> = [
        None,
        Some(Prune::DeadRegion),
        Some(Prune::Mark),
        Some(Prune::Memo),
    ]
    .into_iter()
    .filter(|&rule| {
        trace
            .nodes
            .iter()
            .any(|n| n.outcome == Outcome::DeadEnd && n.cut_by == rule)
    })
    .map(|rule| {
        let (fill, _, text) = dead_end_look(rule);
        (fill, text)
    })
    .collect();
    if dead_looks.is_empty() {
        dead_looks.push((DEAD, "dead end: no piece extends it"));
    }
    let mut entries: Vec<(&str, &str)> = vec![
        (INNER, "inner node"),
        (SOLUTION, "solution (thick line: the path to it)"),
    ];
    entries.extend(dead_looks);
    entries.extend([
        (DUPLICATE, "rejected by symmetry"),
        (FOLDED, "folded subtree: size grows with log10 of its nodes"),
    ]);
    // The legend wraps at the picture's width: (x, y, colour, text).
    let mut legend: Vec<(f64, f64, &str, &str)> = Vec::new();
    let (mut lx, mut ly) = (MARGIN, legend_y);
    for (colour, name) in entries {
        let w = 14.0 + text_width(name, 11.0) + 16.0;
        if lx > MARGIN && lx + w > width - MARGIN {
            (lx, ly) = (MARGIN, ly + 18.0);
        }
        legend.push((lx, ly, colour, name));
        lx += w;
    }
    let height = ly + 30.0 + MARGIN;
    let mut svg = Svg::new(width, height, &caption.title);
    svg.heading(&caption.title, Some(&caption.subtitle));

    // Level rows and their labels.
    let grey = r##"fill="#555555""##;
    for (d, t) in label_texts.iter().enumerate() {
        svg.text(MARGIN, y(d) + 3.5, LABEL_FONT, Anchor::Start, grey, t);
        svg.path(
            &format!("M{} {}H{}", num(left - 6.0), num(y(d)), num(cursor)),
            r##"stroke="#f0f0f0" stroke-width="1""##,
        );
    }

    // Edges: plain ones in one path, those on a path to a solution in another.
    let (mut plain, mut lit) = (String::new(), String::new());
    for (i, nd) in trace.nodes.iter().enumerate() {
        if let Some(p) = nd.parent {
            let d = if nd.leads_to_solution {
                &mut lit
            } else {
                &mut plain
            };
            let _ = write!(
                d,
                "M{} {}L{} {}",
                num(x[p]),
                num(y(nd.depth - 1)),
                num(x[i]),
                num(y(nd.depth))
            );
        }
    }
    let thin = (unit * 0.08).clamp(0.3, 1.0);
    svg.path(
        &plain,
        &format!(
            r#"stroke="{EDGE}" stroke-width="{}" fill="none""#,
            num(thin)
        ),
    );
    svg.path(
        &lit,
        &format!(
            r#"stroke="{SOLUTION}" stroke-width="{}" fill="none" class="solution-path""#,
            num(thin * 3.0)
        ),
    );

    // Nodes.
    for (i, nd) in trace.nodes.iter().enumerate() {
        let (cx, cy) = (x[i], y(nd.depth));
        match nd.outcome {
            Outcome::Folded { nodes, solutions } => {
                let (h, b) = triangle(nodes, unit);
                let stroke = if solutions > 0 { SOLUTION } else { "#888888" };
                svg.begin_group(&format!(
                    "folded subtree at depth {}: {nodes} nodes, {solutions} solutions",
                    nd.depth
                ));
                svg.polygon(
                    &[(cx, cy), (cx + b / 2.0, cy + h), (cx - b / 2.0, cy + h)],
                    &format!(
                        r#"fill="{FOLDED}" stroke="{stroke}" stroke-width="{}" class="folded""#,
                        num(if solutions > 0 { 1.5 } else { 0.6 })
                    ),
                );
                let label = count_label(nodes);
                if text_width(&label, 8.0) <= b {
                    svg.text(
                        cx,
                        cy + h + 10.0,
                        8.0,
                        Anchor::Middle,
                        r##"fill="#555555""##,
                        &label,
                    );
                }
                svg.end_group();
            }
            outcome => {
                let (fill, class) = match outcome {
                    Outcome::Inner => (INNER, "inner"),
                    Outcome::Solution => (SOLUTION, "solution"),
                    Outcome::Duplicate => (DUPLICATE, "duplicate"),
                    _ => {
                        let (fill, class, _) = dead_end_look(nd.cut_by);
                        (fill, class)
                    }
                };
                let r = if matches!(outcome, Outcome::Solution) {
                    radius * 1.5
                } else {
                    radius
                };
                svg.circle(cx, cy, r, &format!(r#"fill="{fill}" class="{class}""#));
            }
        }
    }

    // Legend.
    for &(lx, ly, colour, name) in &legend {
        if colour == FOLDED {
            svg.polygon(
                &[(lx + 5.0, ly - 9.0), (lx + 10.0, ly + 1.0), (lx, ly + 1.0)],
                &format!(r##"fill="{FOLDED}" stroke="#888888" stroke-width="0.6""##),
            );
        } else {
            svg.circle(lx + 5.0, ly - 4.0, 4.5, &format!(r#"fill="{colour}""#));
        }
        let ink = format!(r#"fill="{INK}""#);
        svg.text(lx + 14.0, ly, 11.0, Anchor::Start, &ink, name);
    }
    svg.finish()
}

/// A node count in a few characters: 950, 12k, 3.4M, 7.1G.
fn count_label(n: u64) -> String {
    let f = n as f64;
    if n < 1000 {
        n.to_string()
    } else if n < 1_000_000 {
        format!("{}k", short(f / 1e3))
    } else if n < 1_000_000_000 {
        format!("{}M", short(f / 1e6))
    } else {
        format!("{}G", short(f / 1e9))
    }
}

fn short(v: f64) -> String {
    if v < 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_short() {
        assert_eq!(count_label(950), "950");
        assert_eq!(count_label(12_345), "12k");
        assert_eq!(count_label(3_400_000), "3.4M");
        assert_eq!(count_label(7_100_000_000), "7.1G");
    }

    #[test]
    fn triangles_grow_with_the_logarithm() {
        let (h1, b1) = triangle(10, 10.0);
        let (h2, b2) = triangle(1000, 10.0);
        assert!(h2 > h1 && b2 > b1);
        assert!((b2 / b1 - 2.0).abs() < 1e-9);
    }
}
