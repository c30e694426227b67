//! A small SVG writer: shapes and text appended as text, numbers written
//! with at most two decimals so that the same picture always gives the same
//! bytes (the snapshot tests rely on that).

use std::fmt::Write;

/// The font pictures ask for. PNG pictures are drawn with the embedded
/// subset of DejaVu Sans whatever this says (see [`crate::png`]); an SVG
/// viewer uses DejaVu Sans when it has it, else a sans-serif font of its own.
pub const FONT_FAMILY: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// The colour of outlines and text.
pub const INK: &str = "#222222";

/// The margin around every picture, in pixels.
pub const MARGIN: f64 = 16.0;

/// An SVG document being built.
#[derive(Debug, Clone)]
pub struct Svg {
    width: f64,
    height: f64,
    title: String,
    /// One definition per entry, in order.
    defs: Vec<String>,
    body: String,
}

/// A number as SVG text: rounded to two decimals, without trailing zeros.
pub fn num(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    // Avoid "-0".
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Text with the characters XML reserves escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A rough width of `text` at `size` in DejaVu Sans (about 0.58 em per
/// character, a little more than its average), for laying out legends,
/// captions and labels.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.58
}

/// How text is anchored at its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The point is the left end of the baseline.
    Start,
    /// The point is the middle of the baseline.
    Middle,
}

impl Svg {
    /// An empty picture of `width` x `height` pixels with a white background
    /// and a title (shown by viewers as the document's name).
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        Svg {
            width: width.ceil(),
            height: height.ceil(),
            title: title.to_string(),
            defs: Vec::new(),
            body: String::new(),
        }
    }

    /// The width in pixels.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// The height in pixels.
    pub fn height(&self) -> f64 {
        self.height
    }

    /// Adds a definition (a pattern) to `<defs>`.
    pub fn def(&mut self, element: &str) {
        self.defs.push(element.to_string());
    }

    /// Makes the picture at least `width` x `height` pixels (room for more
    /// below or to the right of what is drawn).
    pub fn enlarge(&mut self, width: f64, height: f64) {
        self.width = self.width.max(width.ceil());
        self.height = self.height.max(height.ceil());
    }

    /// Appends an element as written.
    pub fn raw(&mut self, element: &str) {
        self.body.push_str(element);
        self.body.push('\n');
    }

    /// A rectangle with the given attributes (`fill="..."`, ...).
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    /// A closed polygon.
    pub fn polygon(&mut self, points: &[(f64, f64)], attrs: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" {attrs}/>"#,
            pts.join(" ")
        );
    }

    /// A path with data `d`.
    pub fn path(&mut self, d: &str, attrs: &str) {
        if d.is_empty() {
            return;
        }
        let _ = writeln!(self.body, r#"<path d="{d}" {attrs}/>"#);
    }

    /// A circle.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, attrs: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{}" cy="{}" r="{}" {attrs}/>"#,
            num(cx),
            num(cy),
            num(r)
        );
    }

    /// A line of text at `(x, y)` (the baseline), `size` pixels high.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: Anchor, attrs: &str, text: &str) {
        let anchor = match anchor {
            Anchor::Start => "",
            Anchor::Middle => r#" text-anchor="middle""#,
        };
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{}"{anchor} {attrs}>{}</text>"#,
            num(x),
            num(y),
            num(size),
            escape(text)
        );
    }

    /// The picture's heading at the top-left margin: a caption and, below
    /// it, an optional smaller grey line (the matching rule, the numbers).
    pub fn heading(&mut self, caption: &str, subtitle: Option<&str>) {
        let ink = format!(r#"fill="{INK}""#);
        self.text(MARGIN, MARGIN + 15.0, 15.0, Anchor::Start, &ink, caption);
        if let Some(subtitle) = subtitle {
            let grey = r##"fill="#555555""##;
            self.text(MARGIN, MARGIN + 32.0, 11.0, Anchor::Start, grey, subtitle);
        }
    }

    /// Opens a group with a tooltip (`<title>`): viewers show it when the
    /// pointer rests on the group's shapes. Close it with [`Svg::end_group`].
    pub fn begin_group(&mut self, tooltip: &str) {
        let _ = writeln!(self.body, "<g><title>{}</title>", escape(tooltip));
    }

    /// Closes the group opened last.
    pub fn end_group(&mut self) {
        self.body.push_str("</g>\n");
    }

    /// The document.
    pub fn finish(self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">"#,
            w = num(self.width),
            h = num(self.height)
        );
        let _ = writeln!(out, "<title>{}</title>", escape(&self.title));
        if !self.defs.is_empty() {
            out.push_str("<defs>\n");
            for def in &self.defs {
                out.push_str(def);
                out.push('\n');
            }
            out.push_str("</defs>\n");
        }
        let _ = writeln!(
            out,
            r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
        );
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
    }
}

/// Two pictures side by side in one, `left` at the top-left corner and
/// `right` just right of it, each in a group `<g class="solution">` moved
/// into place, under the document title `title`. The result is as wide as
/// both and as high as the higher; [`Svg::enlarge`] makes room for more.
///
/// Both pictures keep their own definitions. Pictures of one puzzle define
/// the same patterns under the same ids, so a definition both have is kept
/// once; an id the two use for different definitions is renamed in the
/// right-hand picture, so that each picture still fills with its own.
pub fn side_by_side(left: Svg, right: Svg, title: &str) -> Svg {
    let mut out = Svg::new(
        left.width + right.width,
        left.height.max(right.height),
        title,
    );
    let mut right_body = right.body;
    out.defs = left.defs;
    for def in right.defs {
        if out.defs.contains(&def) {
            continue;
        }
        match def_id(&def) {
            Some(id) if out.defs.iter().any(|d| def_id(d) == Some(id)) => {
                let renamed = format!("{id}-right");
                right_body =
                    right_body.replace(&format!("url(#{id})"), &format!("url(#{renamed})"));
                out.defs.push(def.replacen(
                    &format!(r#"id="{id}""#),
                    &format!(r#"id="{renamed}""#),
                    1,
                ));
            }
            _ => out.defs.push(def),
        }
    }
    let _ = writeln!(out.body, r#"<g class="solution">"#);
    out.body.push_str(&left.body);
    out.body.push_str("</g>\n");
    let _ = writeln!(
        out.body,
        r#"<g class="solution" transform="translate({} 0)">"#,
        num(left.width)
    );
    out.body.push_str(&right_body);
    out.body.push_str("</g>\n");
    out
}

/// The `id` attribute of a definition.
fn def_id(def: &str) -> Option<&str> {
    let start = def.find(r#" id=""#)? + 5;
    let len = def[start..].find('"')?;
    Some(&def[start..start + len])
}

/// Path data for straight segments, one `M x y L x y` per segment.
#[derive(Debug, Default, Clone)]
pub struct Segments(String);

impl Segments {
    /// No segments.
    pub fn new() -> Segments {
        Segments(String::new())
    }

    /// Adds the segment from `a` to `b`.
    pub fn add(&mut self, a: (f64, f64), b: (f64, f64)) {
        let _ = write!(
            self.0,
            "M{} {}L{} {}",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1)
        );
    }

    /// The path data.
    pub fn data(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-1.256), "-1.26");
    }

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0, "a<b & \"c\"");
        svg.text(1.0, 2.0, 3.0, Anchor::Middle, "", "x<y>&z");
        let out = svg.finish();
        assert!(out.contains("<title>a&lt;b &amp; &quot;c&quot;</title>"));
        assert!(out.contains(">x&lt;y&gt;&amp;z</text>"));
        assert!(out.starts_with("<svg "));
        assert!(out.ends_with("</svg>\n"));
    }
}
