//! The reading of coordinate lists (`[[x, y], ...]`, `"(x,y)..."` or a
//! digit per coordinate) and of colour names.

use super::art::Ctx;
use super::ParseError;
use super::Problem;
use crate::lattice::{Cell, Lattice};
use crate::model::Site;
use toml::Value;

impl Ctx<'_> {
    /// Reads a coordinate list whose value starts at byte `at`.
    pub(super) fn coordinates(
        &self,
        value: &Value,
        at: usize,
        what: &str,
    ) -> Result<Vec<Site>, ParseError> {
        let dim = self.lattice.dim();
        let bad = |why: String| {
            self.err(
                self.line(at),
                Problem::Cells {
                    what: what.into(),
                    why,
                },
            )
        };
        let cell = |coords: &[i64]| -> Result<Cell, ParseError> {
            if coords.len() != dim {
                let hint = match self.lattice {
                    Lattice::Square if coords.len() == 3 => {
                        "; add lattice = \"cube\" for a solid puzzle"
                    }
                    Lattice::Hexagon => " (axial [q, r])",
                    Lattice::Triangle => {
                        " ([x, y, z] with z = 0 for a triangle pointing down, 1 for one pointing up)"
                    }
                    _ => "",
                };
                return Err(bad(format!(
                    "a cell has {} coordinates, but the {} lattice needs {dim}{hint}",
                    coords.len(),
                    self.lattice
                )));
            }
            let mut c = [0i32; 3];
            for (k, &v) in coords.iter().enumerate() {
                c[k] = i32::try_from(v)
                    .ok()
                    .filter(|v| v.abs() < 1 << 20)
                    .ok_or_else(|| bad(format!("coordinate {v} is out of range")))?;
            }
            Ok(c)
        };
        match value {
            Value::Array(items) => {
                let mut sites = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let Value::Array(parts) = item else {
                        return Err(bad(format!(
                            "cell {} is {item}; write each cell as [x, y] or [x, y, z], optionally with a colour: [x, y, \"b\"]",
                            i + 1
                        )));
                    };
                    let mut coords = Vec::new();
                    let mut colour = None;
                    for (k, p) in parts.iter().enumerate() {
                        match p {
                            Value::Integer(v) => coords.push(*v),
                            Value::String(s) if k + 1 == parts.len() => {
                                colour = Some(self.colour(s, at, what)?)
                            }
                            other => {
                                return Err(bad(format!(
                                    "cell {}: {other} is not a coordinate",
                                    i + 1
                                )))
                            }
                        }
                    }
                    sites.push((cell(&coords)?, colour));
                }
                Ok(sites)
            }
            Value::String(s) => {
                let mut sites = Vec::new();
                if s.contains('(') {
                    let mut rest = s.as_str();
                    while let Some(open) = rest.find('(') {
                        if !rest[..open].trim().is_empty() {
                            return Err(bad(format!(
                                "unexpected '{}' between cells",
                                rest[..open].trim()
                            )));
                        }
                        let close = rest[open..]
                            .find(')')
                            .ok_or_else(|| bad("a '(' without its ')'".into()))?;
                        let inner = &rest[open + 1..open + close];
                        let coords: Result<Vec<i64>, _> =
                            inner.split(',').map(|t| t.trim().parse::<i64>()).collect();
                        let coords = coords.map_err(|_| {
                            bad(format!(
                                "'({inner})' is not a cell: write (x,y) with whole numbers"
                            ))
                        })?;
                        sites.push((cell(&coords)?, None));
                        rest = &rest[open + close + 1..];
                    }
                    if !rest.trim().is_empty() {
                        return Err(bad(format!("unexpected '{}' after the cells", rest.trim())));
                    }
                } else {
                    for token in s.split_whitespace() {
                        let coords: Option<Vec<i64>> = token
                            .chars()
                            .map(|c| c.to_digit(10).map(i64::from))
                            .collect();
                        let coords = coords.ok_or_else(|| {
                            bad(format!(
                                "'{token}' is not a cell: write one digit per coordinate (\"120\" is x=1, y=2, z=0) or (x,y) pairs"
                            ))
                        })?;
                        sites.push((cell(&coords)?, None));
                    }
                }
                Ok(sites)
            }
            _ => Err(bad(
                "cells must be a list of [x, y] cells or a string of cells".into(),
            )),
        }
    }

    fn colour(&self, name: &str, at: usize, what: &str) -> Result<u8, ParseError> {
        self.colours
            .iter()
            .position(|k| k == name)
            .map(|k| k as u8)
            .ok_or_else(|| {
                self.err(
                    self.line(at),
                    Problem::Cells {
                        what: what.into(),
                        why: if self.colours.is_empty() {
                            format!("colour \"{name}\" but the puzzle declares no colours = [...]")
                        } else {
                            format!(
                                "\"{name}\" is not a colour (the colours are {})",
                                self.colours.join(", ")
                            )
                        },
                    },
                )
            })
    }
}
