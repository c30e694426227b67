//! Where two solutions differ: a mark over the cells, tiles or pieces that
//! differ, and two solution pictures side by side with a legend line that
//! says what the mark means.
//!
//! Which cells or pieces differ is the caller's to say (it depends on what
//! a family calls the same); the family renderers take that set and draw
//! the mark with [`outline`] or [`rect`]. The mark is a dashed dark line
//! over a white one: a dashed box inside a polyform cell or around an edge
//! tile's number, a dashed outline along a polygon piece. It shows on every
//! fill and in grey print, needs no colour to be told apart, and is no
//! pattern a picture uses for anything else (hatching means a flipped
//! polygon piece, dots and squares are palette cues). Every mark is one
//! group `<g class="differs">`, so a program can count the marks.

use crate::legend::{Legend, Swatch};
use crate::svg::{num, side_by_side, Svg, INK, MARGIN};
use std::fmt::Write;

/// The class of every mark's group.
pub const CLASS: &str = "differs";

/// Marks the closed outline through `points` with a dashed line `width`
/// pixels thick.
pub fn outline(svg: &mut Svg, points: &[(f64, f64)], width: f64) {
    dashed(svg, points, width, &format!(r#" class="{CLASS}""#));
}

/// Marks the rectangle with its top-left corner at `(x, y)`, `w` x `h`.
pub fn rect(svg: &mut Svg, (x, y): (f64, f64), w: f64, h: f64, width: f64) {
    outline(svg, &corners((x, y), w, h), width);
}

/// The legend's swatch: the mark as a box, in a group of no class (it
/// marks nothing).
pub(crate) fn swatch(svg: &mut Svg, (x, y): (f64, f64), size: f64) {
    dashed(svg, &corners((x, y), size, size), 2.0, "");
}

fn corners((x, y): (f64, f64), w: f64, h: f64) -> [(f64, f64); 4] {
    [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
}

/// The mark's two lines along the outline, in a group with `attrs`.
fn dashed(svg: &mut Svg, points: &[(f64, f64)], width: f64, attrs: &str) {
    let Some(((x0, y0), rest)) = points.split_first() else {
        return;
    };
    let mut d = format!("M{} {}", num(*x0), num(*y0));
    for (x, y) in rest {
        let _ = write!(d, "L{} {}", num(*x), num(*y));
    }
    d.push('Z');
    // A white line under the dashes: they show on dark fills (an edge
    // tile's frame, a thick piece boundary) as well as on pale ones.
    svg.raw(&format!(
        r##"<g{attrs}><path d="{d}" fill="none" stroke="#ffffff" stroke-width="{}" stroke-linejoin="round"/><path d="{d}" fill="none" stroke="{INK}" stroke-width="{}" stroke-dasharray="{} {}" stroke-linejoin="round"/></g>"##,
        num(width + 2.0),
        num(width),
        num(width * 2.0),
        num(width * 1.5),
    ));
}

/// Two solution pictures side by side (each drawn with its differences
/// marked), and under them a legend line: the mark and `note`, which says
/// what it means. `title` is the document's title.
pub fn pair(left: Svg, right: Svg, title: &str, note: &str) -> String {
    let mut svg = side_by_side(left, right, title);
    let mut legend = Legend::new();
    legend.add(Swatch::Differs, note);
    let inner = (svg.width() - 2.0 * MARGIN).max(legend.min_width());
    let top = svg.height();
    svg.enlarge(inner + 2.0 * MARGIN, top + legend.height(inner) + MARGIN);
    legend.draw(&mut svg, MARGIN, top, inner);
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_one_group_of_a_white_and_a_dashed_line() {
        let mut svg = Svg::new(20.0, 20.0, "t");
        rect(&mut svg, (1.0, 2.0), 10.0, 5.0, 2.0);
        outline(&mut svg, &[], 2.0);
        let out = svg.finish();
        assert_eq!(out.matches(r#"<g class="differs">"#).count(), 1);
        assert!(out.contains(r#"d="M1 2L11 2L11 7L1 7Z""#), "{out}");
        assert!(out.contains(r#"stroke-dasharray="4 3""#), "{out}");
    }

    #[test]
    fn a_pair_puts_the_pictures_side_by_side_with_a_legend_line() {
        let mut left = Svg::new(100.0, 80.0, "left");
        left.def(r#"<pattern id="p-dots">A</pattern>"#);
        left.rect(0.0, 0.0, 5.0, 5.0, r#"fill="url(#p-dots)""#);
        let mut right = Svg::new(120.0, 60.0, "right");
        // The same definition is kept once; another under the same id is
        // renamed for the right-hand picture.
        right.def(r#"<pattern id="p-dots">B</pattern>"#);
        right.def(r#"<pattern id="p-squares">C</pattern>"#);
        right.rect(0.0, 0.0, 5.0, 5.0, r#"fill="url(#p-dots)""#);
        let out = pair(left, right, "both", "dashed: differs");
        assert!(out.contains(r#"width="220""#), "{out}");
        assert_eq!(out.matches(r#"<g class="solution""#).count(), 2);
        assert!(out.contains(r#"translate(100 0)"#), "{out}");
        assert!(out.contains(r#"<pattern id="p-dots">A</pattern>"#));
        assert!(out.contains(r#"<pattern id="p-dots-right">B</pattern>"#));
        assert!(out.contains(r#"fill="url(#p-dots-right)""#));
        assert_eq!(out.matches("p-squares").count(), 1);
        assert!(out.contains(">dashed: differs</text>"), "{out}");
        // The legend's swatch is drawn like a mark but marks nothing.
        assert_eq!(out.matches(r#"<g class="differs">"#).count(), 0);
        assert!(out.contains(r#"stroke-dasharray="4 3""#), "{out}");
    }
}
