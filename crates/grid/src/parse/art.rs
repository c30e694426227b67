//! The context the readers of cells share, and the reading of ASCII art:
//! boards and pieces drawn a character a cell (the module doc of `parse`
//! shows the art of each lattice).

use super::{ParseError, Problem};
use crate::lattice::{Cell, Lattice};
use crate::model::Site;
use jigsolve_search::LineIndex;
use toml::Value;

/// What reading cells needs: the file (for the lines of messages), the
/// lattice and the declared colours.
pub(super) struct Ctx<'a> {
    pub(super) text: &'a str,
    pub(super) lines: &'a LineIndex,
    pub(super) file: &'a str,
    pub(super) lattice: Lattice,
    pub(super) colours: Vec<String>,
    /// While the board's art is read: each cell drawn with a letter or
    /// digit, for open groups named by a letter.
    pub(super) letters: std::cell::RefCell<Option<Vec<(Cell, char)>>>,
}

impl Ctx<'_> {
    pub(super) fn err(&self, line: usize, problem: Problem) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            problem,
        }
    }

    pub(super) fn line(&self, at: usize) -> usize {
        self.lines.line(at)
    }

    /// Reads art (one string, or a list of layer strings on the cube
    /// lattice) whose value starts at byte `at`.
    pub(super) fn art(
        &self,
        value: &Value,
        at: usize,
        what: &str,
    ) -> Result<Vec<Site>, ParseError> {
        let layers: Vec<&str> = match value {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) if a.iter().all(|v| v.is_str()) && !a.is_empty() => {
                a.iter().filter_map(Value::as_str).collect()
            }
            _ => return Err(self.err(
                self.line(at),
                Problem::Cells {
                    what: what.into(),
                    why: "art must be a string, or a list of strings (layers) on the cube lattice"
                        .into(),
                },
            )),
        };
        if layers.len() > 1 && self.lattice != Lattice::Cube {
            return Err(self.err(
                self.line(at),
                Problem::Cells {
                    what: what.into(),
                    why: format!(
                        "{} layers of art on the {} lattice; add lattice = \"cube\" for a solid puzzle",
                        layers.len(),
                        self.lattice
                    ),
                },
            ));
        }
        let starts = string_starts(&self.text[at.min(self.text.len())..]);
        let mut sites = Vec::new();
        // Hexagon art only: the column parity of cells (see above); other
        // lattices keep 0.
        let mut parity: Option<i32> = (self.lattice != Lattice::Hexagon).then_some(0);
        for (z, layer) in layers.iter().enumerate() {
            // The file line of the layer's first content line.
            let first_line = match starts.get(z) {
                Some(&(off, multi)) => self.line(at + off) + multi as usize,
                None => self.line(at),
            };
            let lines: Vec<&str> = layer.lines().collect();
            let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
            let last = lines
                .iter()
                .rposition(|l| !l.trim().is_empty())
                .map_or(0, |i| i + 1);
            // On triangles a column's parity is the direction of its
            // triangle, so every column counts, leading blanks included.
            let indent = lines[first..last.max(first)]
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .filter(|_| self.lattice != Lattice::Triangle)
                .unwrap_or(0);
            for (y, l) in lines.iter().enumerate().take(last).skip(first) {
                let line = first_line + y;
                let row = l.get(indent..).unwrap_or("").trim_end();
                let art_line = (y - first) as i32;
                for (x, ch) in row.chars().enumerate() {
                    let colour = match ch {
                        '.' | ' ' => continue,
                        '#' => None,
                        c if c.is_alphanumeric() => {
                            if self.colours.is_empty() {
                                None
                            } else {
                                match self
                                    .colours
                                    .iter()
                                    .position(|k| k.chars().eq(std::iter::once(c)))
                                {
                                    Some(k) => Some(k as u8),
                                    None => {
                                        return Err(self.err(
                                            line,
                                            Problem::UnknownColour {
                                                what: what.into(),
                                                ch: c,
                                                known: self.colours.join(", "),
                                            },
                                        ))
                                    }
                                }
                            }
                        }
                        c => {
                            return Err(self.err(
                                line,
                                Problem::ArtCharacter {
                                    what: what.into(),
                                    ch: c,
                                },
                            ))
                        }
                    };
                    let cell = match self.lattice {
                        Lattice::Cube => [x as i32, art_line, z as i32],
                        plane => {
                            // Hexagons take the column parity of the first
                            // cell drawn, so that art may start a line
                            // anywhere; a cell of the other parity sits
                            // between two hexagons.
                            let col = x as i32 - *parity.get_or_insert((x as i32 + art_line) & 1);
                            match plane.art_cell(col, art_line) {
                                Some(c) => c,
                                None => {
                                    return Err(self.err(
                                        line,
                                        Problem::BetweenHexagons {
                                            what: what.into(),
                                            ch,
                                            col: x + 1,
                                        },
                                    ))
                                }
                            }
                        }
                    };
                    if ch.is_alphanumeric() {
                        if let Some(letters) = self.letters.borrow_mut().as_mut() {
                            letters.push((cell, ch));
                        }
                    }
                    sites.push((cell, colour));
                }
            }
        }
        Ok(sites)
    }
}

/// The byte offsets (within `raw`) of the string literals in a TOML value,
/// in order, each with whether it is a multi-line string whose first line
/// break is trimmed (so its content starts on the next line).
fn string_starts(raw: &str) -> Vec<(usize, bool)> {
    let b = raw.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b']' | b'}' => {
                depth -= 1;
                i += 1;
                if depth <= 0 {
                    break;
                }
            }
            q @ (b'"' | b'\'') => {
                let triple = b.len() >= i + 3 && b[i + 1] == q && b[i + 2] == q;
                let start = i;
                if triple {
                    let after = i + 3;
                    let trimmed =
                        raw[after..].starts_with('\n') || raw[after..].starts_with("\r\n");
                    out.push((start, trimmed));
                    let delim = if q == b'"' { "\"\"\"" } else { "'''" };
                    i = raw[after..].find(delim).map_or(b.len(), |k| after + k + 3);
                } else {
                    out.push((start, false));
                    i += 1;
                    while i < b.len() && b[i] != q {
                        if q == b'"' && b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 0 => break,
            b'\n' if depth == 0 && !out.is_empty() => break,
            _ => i += 1,
        }
    }
    out
}

pub(super) fn is_art(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(a) => !a.is_empty() && a.iter().all(Value::is_str),
        _ => false,
    }
}
