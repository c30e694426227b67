//! PNG pictures: the SVG of a picture rasterised by `resvg`, in the
//! library, with no external program.
//!
//! Text is drawn with a font embedded in this crate (a subset of DejaVu Sans,
//! `fonts/DejaVuSans-subset.ttf`, licence in `fonts/LICENSE`): the same font
//! on every machine, including a fresh CI machine with no fonts at all, and
//! so the same pixels. System fonts are never loaded. Characters the subset
//! lacks (it has Latin-1, Latin Extended-A, Greek, dashes, quotes, arrows and
//! a few signs) are left out of the PNG; the SVG keeps them.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The embedded font.
pub const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-subset.ttf");

/// The family name of the embedded font.
pub const FONT_NAME: &str = "DejaVu Sans";

/// How many PNG pixels a picture's unit (an SVG pixel) becomes by default.
pub const DEFAULT_SCALE: f32 = 2.0;

/// The largest PNG drawn, in pixels (width times height).
pub const MAX_PIXELS: u64 = 64 << 20;

/// Why a picture could not be made into a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG could not be read (a bug: the pictures are made here).
    #[error("the SVG picture could not be read: {0}")]
    Svg(#[from] usvg::Error),
    /// The picture is empty or too large to draw.
    #[error(
        "the picture would be {width} x {height} pixels; at most {max} pixels in all are drawn"
    )]
    Size {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
        /// The limit.
        max: u64,
    },
    /// The scale is not a positive number.
    #[error("the scale must be a positive number (got {0})")]
    Scale(f32),
    /// Encoding failed.
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        // Every generic family is the one font there is.
        db.set_sans_serif_family(FONT_NAME);
        db.set_serif_family(FONT_NAME);
        db.set_monospace_family(FONT_NAME);
        db.set_cursive_family(FONT_NAME);
        db.set_fantasy_family(FONT_NAME);
        Arc::new(db)
    })
    .clone()
}

/// Draws `svg` at `scale` PNG pixels per SVG pixel, on white.
pub fn pixmap(svg: &str, scale: f32) -> Result<tiny_skia::Pixmap, PngError> {
    if !(scale > 0.0 && scale.is_finite()) {
        return Err(PngError::Scale(scale));
    }
    let options = usvg::Options {
        font_family: FONT_NAME.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let width = (size.width() * scale).ceil() as u64;
    let height = (size.height() * scale).ceil() as u64;
    let too_big = PngError::Size {
        width,
        height,
        max: MAX_PIXELS,
    };
    if width == 0 || height == 0 || width * height > MAX_PIXELS {
        return Err(too_big);
    }
    let mut pixmap = tiny_skia::Pixmap::new(width as u32, height as u32).ok_or(too_big)?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// The PNG file of `svg` drawn at `scale`.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    pixmap(svg, scale)?
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// The PNG file of `svg` drawn at `scale`, or at the largest smaller scale
/// whose picture stays within [`MAX_PIXELS`] (a search tree of a hundred
/// thousand nodes is wider than that at twice its size); with the scale
/// used. Pictures too big even at a sixteenth of their size are an error.
pub fn png_within(svg: &str, scale: f32) -> Result<(Vec<u8>, f32), PngError> {
    match png(svg, scale) {
        Err(PngError::Size { width, height, .. }) if width > 0 && height > 0 => {
            let fit = scale * ((MAX_PIXELS as f64 / (width * height) as f64).sqrt() as f32) * 0.99;
            if fit < scale / 16.0 {
                return Err(PngError::Size {
                    width,
                    height,
                    max: MAX_PIXELS,
                });
            }
            Ok((png(svg, fit)?, fit))
        }
        other => other.map(|bytes| (bytes, scale)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_too_big_is_drawn_smaller_within_the_limit() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="2000"><rect width="20000" height="2000" fill="red"/></svg>"#;
        assert!(matches!(png(svg, 2.0), Err(PngError::Size { .. })));
        let (bytes, scale) = png_within(svg, 2.0).unwrap();
        assert!(scale < 2.0 && scale > 0.5, "{scale}");
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let info = decoder.read_info().unwrap().info().clone();
        assert!((info.width as u64) * (info.height as u64) <= MAX_PIXELS);
        let tiny = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"/>"#;
        assert_eq!(png_within(tiny, 2.0).unwrap().1, 2.0);
    }

    #[test]
    fn text_is_drawn_with_the_embedded_font() {
        // Black text on white: some pixels must be dark. Without a font
        // usvg drops the text and the picture stays white.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><text x="2" y="15" font-size="14" font-family="sans-serif" fill="#000">Hello</text></svg>"##;
        let pm = pixmap(svg, 1.0).unwrap();
        let dark = pm.pixels().iter().filter(|p| p.red() < 100).count();
        assert!(dark > 20, "only {dark} dark pixels");
    }

    #[test]
    fn bad_scales_and_sizes_are_errors() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
        assert!(matches!(pixmap(svg, 0.0), Err(PngError::Scale(_))));
        assert!(matches!(pixmap(svg, f32::NAN), Err(PngError::Scale(_))));
        let huge = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>"#;
        assert!(matches!(pixmap(huge, 1.0), Err(PngError::Size { .. })));
        assert!(matches!(pixmap("<not svg", 1.0), Err(PngError::Svg(_))));
    }
}
