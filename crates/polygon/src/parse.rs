//! Reading polygonal jigsaws from TOML.
//!
//! ```toml
//! family = "polygon"
//! name = "tangram-square"
//! flip = true                        # puzzle-wide default (default: true)
//! region = "(0,0) (4,0) (4,4) (0,4)" # or a list of such strings: several polygons
//!
//! [[pieces]]
//! name = "S"
//! vertices = "(0,0) (1,0) (0,1)"     # or [[0, 0], [1, 0], [0, 1]]
//! copies = 2                         # default 1
//! flip = false                       # overrides the puzzle-wide default
//! ```
//!
//! Coordinates are exact: integers, fractions (`1/2`), decimals (`0.25`,
//! read as 1/4), square roots (`sqrt2`, `sqrt(5)`, `√3`) and their sums and
//! products (`2*sqrt2`, `1/2 + sqrt3/2`). Either orientation is accepted.

use crate::geom::Pt;
use crate::model::{ModelError, Piece, Puzzle, Where};
use crate::num::Num;
use serde::Deserialize;
use toml::Spanned;

/// What is wrong with a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// Nothing but blanks and comments.
    #[error("the file is empty: it has no puzzle in it")]
    Empty,
    /// TOML syntax or a field of the wrong type.
    #[error("{0}")]
    Syntax(String),
    /// A coordinate that does not parse.
    #[error("{0}")]
    Number(String),
    /// A vertex list that does not parse.
    #[error("{0}")]
    Vertices(String),
    /// The family key names another family.
    #[error("family = \"{0}\" is not a polygon puzzle")]
    Family(String),
    /// A bad copies count.
    #[error("copies must be 1 to {MAX_COPIES} (found {0})")]
    Copies(i64),
    /// A consistency problem of the puzzle itself.
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// A problem and where it is: `file:line: problem`.
pub type ParseError = jigsolve_search::Located<Problem>;

pub use jigsolve_search::line_of;

/// What the reader's untagged choices accept, for messages.
const UNTAGGED_FORMS: &[(&str, &str)] = &[
    (
        "Region",
        "a region is its corners as text, \"(x,y) (x,y) ...\", a list of [x, y] pairs, or a list of such polygons",
    ),
    (
        "Verts",
        "corners are written as text, \"(x,y) (x,y) ...\", or as a list of [x, y] pairs",
    ),
    (
        "Coord",
        "a coordinate is a number or text such as \"1/2\" or \"2sqrt2\"",
    ),
];

/// The most copies of one piece.
pub const MAX_COPIES: i64 = 1_000;

#[derive(Deserialize)]
#[serde(untagged)]
enum Coord {
    Int(i64),
    Float(f64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Verts {
    Text(String),
    List(Vec<[Coord; 2]>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Region {
    One(Verts),
    Many(Vec<Verts>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPiece {
    name: Option<String>,
    vertices: Spanned<Verts>,
    copies: Option<Spanned<i64>>,
    flip: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlPuzzle {
    family: Option<String>,
    name: Option<String>,
    #[allow(dead_code)]
    title: Option<String>,
    #[allow(dead_code)]
    about: Option<String>,
    #[allow(dead_code)]
    source: Option<String>,
    flip: Option<bool>,
    region: Spanned<Region>,
    pieces: Spanned<Vec<Spanned<TomlPiece>>>,
    #[allow(dead_code)]
    expected: Option<toml::Table>,
}

/// Reads the vertex list `v` whose text starts at `line`; errors give the
/// line of the offending vertex.
fn vertices(v: &Verts, line: usize) -> Result<Vec<Pt<Num>>, (usize, Problem)> {
    let coord = |c: &Coord, line: usize| -> Result<Num, (usize, Problem)> {
        let text = match c {
            Coord::Int(i) => return Ok(Num::int(*i)),
            Coord::Float(f) => format!("{f}"),
            Coord::Text(s) => s.clone(),
        };
        text.parse::<Num>()
            .map_err(|e| (line, Problem::Number(e.to_string())))
    };
    match v {
        Verts::List(list) => list
            .iter()
            .map(|[x, y]| Ok(Pt::new(coord(x, line)?, coord(y, line)?)))
            .collect(),
        Verts::Text(s) => {
            let mut out = Vec::new();
            let mut rest = s.as_str();
            let mut offset = 0usize;
            loop {
                let trimmed = rest.trim_start();
                offset += rest.len() - trimmed.len();
                rest = trimmed;
                if rest.is_empty() {
                    break;
                }
                let here = line + s[..offset].matches('\n').count();
                if !rest.starts_with('(') {
                    return Err((
                        here,
                        Problem::Vertices(format!(
                            "expected a vertex '(x, y)' at '{}'",
                            rest.chars().take(12).collect::<String>()
                        )),
                    ));
                }
                // Find the matching ')'.
                let mut depth = 0;
                let mut end = None;
                for (i, ch) in rest.char_indices() {
                    match ch {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(i);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    return Err((
                        here,
                        Problem::Vertices("a vertex '(x, y)' is missing its ')'".into()),
                    ));
                };
                let inner = &rest[1..end];
                let parts: Vec<&str> = inner.split(',').collect();
                if parts.len() != 2 {
                    return Err((
                        here,
                        Problem::Vertices(format!(
                            "'({inner})' is not a vertex: write (x, y) with one comma"
                        )),
                    ));
                }
                let num = |t: &str| {
                    t.trim()
                        .parse::<Num>()
                        .map_err(|e| (here, Problem::Number(e.to_string())))
                };
                out.push(Pt::new(num(parts[0])?, num(parts[1])?));
                offset += end + 1;
                rest = &rest[end + 1..];
                // Optional separators between vertices.
                let t = rest.trim_start();
                if let Some(r) = t.strip_prefix(',') {
                    offset += rest.len() - r.len();
                    rest = r;
                }
            }
            Ok(out)
        }
    }
}

fn file_stem(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    base.split('.').next().unwrap_or(base).to_string()
}

/// Reads a puzzle. `file` names the source in error messages.
pub fn parse(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    parse_with(text, file, None)
}

/// Reads a puzzle; `flip` overrides every piece's flip rule when given.
pub fn parse_with(text: &str, file: &str, flip: Option<bool>) -> Result<Puzzle, ParseError> {
    let err = |line: usize, problem: Problem| ParseError {
        file: file.to_string(),
        line,
        problem,
    };
    if jigsolve_search::is_blank(text) {
        return Err(err(1, Problem::Empty));
    }
    let doc: TomlPuzzle = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
        err(
            line,
            Problem::Syntax(jigsolve_search::plain_toml_message(
                e.message(),
                UNTAGGED_FORMS,
            )),
        )
    })?;
    if let Some(f) = &doc.family {
        if f != "polygon" {
            return Err(err(1, Problem::Family(f.clone())));
        }
    }
    let lines = jigsolve_search::LineIndex::new(text);
    let at = |s: std::ops::Range<usize>| lines.line(s.start);
    let region_line = at(doc.region.span());
    let mut region = Vec::new();
    let mut region_lines = Vec::new();
    match doc.region.get_ref() {
        Region::One(v) => {
            region.push(vertices(v, region_line).map_err(|(l, p)| err(l, p))?);
            region_lines.push(region_line);
        }
        Region::Many(list) => {
            // (Spans do not survive an untagged enum: each polygon is
            // reported at the line where its text starts, found by search.)
            let mut from = doc.region.span().start;
            for v in list {
                let line = match v {
                    Verts::Text(t) => match text[from..].find(t.as_str()) {
                        Some(k) => {
                            from += k;
                            line_of(text, from)
                        }
                        None => region_line,
                    },
                    Verts::List(_) => region_line,
                };
                region.push(vertices(v, line).map_err(|(l, p)| err(l, p))?);
                region_lines.push(line);
            }
        }
    }
    let default_flip = doc.flip.unwrap_or(true);
    let mut pieces = Vec::new();
    let mut piece_lines = Vec::new();
    for (i, p) in doc.pieces.get_ref().iter().enumerate() {
        let line = at(p.span());
        let p = p.get_ref();
        let vline = at(p.vertices.span());
        let v = vertices(p.vertices.get_ref(), vline).map_err(|(l, p)| err(l, p))?;
        let copies = match &p.copies {
            None => 1,
            Some(c) => {
                let n = *c.get_ref();
                if !(1..=MAX_COPIES).contains(&n) {
                    return Err(err(at(c.span()), Problem::Copies(n)));
                }
                n as usize
            }
        };
        let base = p.name.clone().unwrap_or_else(|| format!("{}", i + 1));
        for k in 0..copies {
            let name = if copies > 1 {
                format!("{base}#{}", k + 1)
            } else {
                base.clone()
            };
            pieces.push(Piece {
                name,
                vertices: v.clone(),
                flip: flip.or(p.flip).unwrap_or(default_flip),
                line,
            });
            piece_lines.push(vline);
        }
    }
    let name = doc.name.clone().unwrap_or_else(|| file_stem(file));
    let pieces_line = at(doc.pieces.span());
    Puzzle::new(name, region, pieces).map_err(|(w, e)| {
        let line = match (&w, &e) {
            (_, ModelError::Area { .. }) => region_line,
            (Where::Region(i), _) => region_lines.get(*i).copied().unwrap_or(region_line),
            (Where::Piece(i), _) => piece_lines.get(*i).copied().unwrap_or(pieces_line),
            (Where::Puzzle, _) => pieces_line,
        };
        err(line, Problem::Model(e))
    })
}
