//! Pictures of puzzles and solutions: text for the terminal, SVG and PNG.
//!
//! Rendering knows every family; no family knows rendering. Each family
//! module takes a puzzle and a solution as the family's library represents
//! them and returns text or an SVG document as a string, so the command-line
//! tool decides where it goes:
//!
//! - [`edge`]: tiles as squares with a half-disc per side mark (colour per
//!   mark, solid or hollow for the two halves of a complementary pair), the
//!   border mark drawn as the frame;
//! - [`grid`]: polyform boards with each piece in its colour, dark outlines
//!   between pieces, board colours as cell corners, solids layer by layer;
//! - [`polygon`]: the region with each piece in its colour, flipped pieces
//!   hatched.
//!
//! Every picture has a caption and a legend naming the pieces (or marks).
//! Colours come from palettes that stay apart for colour-blind viewers, with
//! patterns as a second cue past the palette's size ([`palette`]). The SVG
//! is written as text by [`svg`]; [`mod@png`] rasterises that same SVG with
//! `resvg` and an embedded font.
//!
//! The search tree of a puzzle, as [`jigsolve_search::trace`] records it,
//! is drawn by [`mod@tree`]: nodes coloured by outcome, paths to solutions
//! highlighted, deep subtrees folded into triangles.
//!
//! Two solutions of one puzzle can be drawn side by side with the cells,
//! tiles or pieces where they differ marked ([`differ`]): each family's
//! solution picture takes the set to mark.

#![warn(missing_docs)]

pub mod differ;
pub mod edge;
pub mod grid;
pub mod legend;
pub mod palette;
pub mod png;
pub mod polygon;
pub mod svg;
pub mod tree;
