//! What `solve` prints, chosen once before the search starts, as ripgrep
//! chooses its printer: text or JSON Lines, solutions listed or only
//! counted, and pictures of each listed solution on top of either. The
//! search pushes each solution into the printer and never asks how it is
//! shown.

use crate::pictures::Pictures;
use crate::report::{summary_json, summary_text, weight_json};
use crate::session::{Described, Found};
use anyhow::{Context, Result};
use jigsolve_search::{Report, Shard, Weight};
use serde_json::{json, Map, Value};
use std::io::Write;

/// Receives the solutions of one search, then its summary.
pub trait Printer {
    /// Listed solution number `index` (from 1) with its weight.
    fn solution(&mut self, index: u64, found: &dyn Found, weight: Weight) -> Result<()>;

    /// The summary after the search (`shard` when it searched one share;
    /// `stats` adds the nodes per depth).
    fn summary(&mut self, report: &Report, shard: Option<Shard>, stats: bool) -> Result<()>;
}

/// How solutions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A heading line and the family's text picture per solution, then the
    /// summary as a table.
    Text,
    /// One JSON object per line per solution, then a summary object.
    Json,
}

/// The printer for these choices, writing to `out`: solutions are listed
/// unless `count_only`, and drawn into `pictures` when any are wanted.
pub fn choose<'a, W: Write + 'a>(
    style: Style,
    count_only: bool,
    pictures: &'a Pictures,
    described: &'a Described,
    out: W,
) -> Box<dyn Printer + 'a> {
    let printer: Box<dyn Printer + 'a> = Box::new(Stream {
        style,
        list: !count_only,
        described,
        out,
    });
    if pictures.wanted() {
        Box::new(Drawing {
            inner: printer,
            pictures,
            described,
        })
    } else {
        printer
    }
}

/// Text or JSON Lines on a stream.
struct Stream<'a, W: Write> {
    style: Style,
    list: bool,
    described: &'a Described,
    out: W,
}

impl<W: Write> Printer for Stream<'_, W> {
    fn solution(&mut self, index: u64, found: &dyn Found, weight: Weight) -> Result<()> {
        if !self.list {
            return Ok(());
        }
        let written = match self.style {
            Style::Json => {
                let mut line = Map::new();
                line.insert("type".into(), json!("solution"));
                line.insert("family".into(), json!(self.described.family.as_str()));
                line.insert("puzzle".into(), json!(self.described.puzzle));
                line.insert("index".into(), json!(index));
                line.insert("weight".into(), weight_json(weight));
                line.insert("solution".into(), found.json());
                writeln!(self.out, "{}", Value::Object(line))
            }
            Style::Text => writeln!(
                self.out,
                "solution {index} (stands for {} raw, {} distinct)\n{}",
                weight.raw,
                weight.distinct,
                found.text()
            ),
        };
        written.context("cannot write to standard output")
    }

    fn summary(&mut self, report: &Report, shard: Option<Shard>, stats: bool) -> Result<()> {
        let summary = match self.style {
            Style::Json => summary_json(report, self.described, shard, stats).to_string() + "\n",
            Style::Text => summary_text(report, self.described, shard, stats),
        };
        self.out
            .write_all(summary.as_bytes())
            .and_then(|_| self.out.flush())
            .context("cannot write to standard output")
    }
}

/// Another printer, plus a picture of each listed solution.
struct Drawing<'a> {
    inner: Box<dyn Printer + 'a>,
    pictures: &'a Pictures,
    described: &'a Described,
}

impl Printer for Drawing<'_> {
    fn solution(&mut self, index: u64, found: &dyn Found, weight: Weight) -> Result<()> {
        self.inner.solution(index, found, weight)?;
        let caption = format!(
            "{}: solution {index} (stands for {} raw, {} distinct)",
            self.described.puzzle, weight.raw, weight.distinct
        );
        self.pictures
            .write(&self.described.puzzle, index, &found.svg(&caption))
    }

    fn summary(&mut self, report: &Report, shard: Option<Shard>, stats: bool) -> Result<()> {
        self.inner.summary(report, shard, stats)
    }
}
