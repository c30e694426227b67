//! A puzzle read from a file or the catalog, of any family, as the commands
//! see it: what they ask of it (a session, a verifier, pictures) without
//! knowing its family. The families implement [`Loaded`]; the commands use
//! it; neither imports the other.

use crate::engine::EngineOptions;
use crate::error::{Error, Result};
use crate::session::Session;
use crate::source::Family;
use serde_json::Value;

/// One place of a solution that could be given as a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintChoice {
    /// Equal for two solutions exactly when they agree at this place.
    pub key: String,
    /// For people: "tile 5 at row 2, column 3, turned once", "piece F on ...".
    pub label: String,
}

/// A puzzle read from a file or the catalog, of any family.
pub trait Loaded {
    /// Its family.
    fn family(&self) -> Family;

    /// Its name.
    fn name(&self) -> &str;

    /// What reading it found odd but allowed (same-shape pieces, a piece
    /// that fits nowhere), one message each, naming the file's lines.
    fn warnings(&self) -> &[String] {
        &[]
    }

    /// The puzzle prepared for searching with the tree-shaping `options`
    /// (checked first with [`check_engine_options`]).
    fn session(&self, options: &EngineOptions) -> Result<Box<dyn Session + '_>>;

    /// Checks one solution record (the `solution` object of a JSON line).
    fn verify(&self, record: &Value) -> Result<(), String>;

    /// The puzzle as an SVG picture: the pieces laid apart, the board or region.
    fn puzzle_svg(&self) -> String;

    /// One solution record (the `solution` object of a JSON line), checked
    /// like [`Loaded::verify`] does, as an SVG picture under `caption`.
    fn solution_svg(&self, record: &Value, caption: &str) -> Result<String, String>;

    /// The places of a solution record that could be given as hints (a tile
    /// at its cell, a piece on its cells), leaving out those the puzzle
    /// already pins. Two solutions share a choice's key exactly when they
    /// put the same thing (identical pieces merged) in the same place.
    fn hint_choices(&self, record: &Value) -> Result<Vec<HintChoice>> {
        let _ = record;
        self.check_takes_hints()?;
        Err(Error::Bug(format!(
            "{} takes no hints (it says it does)",
            self.name()
        )))
    }

    /// Whether the family has hints: pinned tiles or pieces.
    fn takes_hints(&self) -> bool {
        false
    }

    /// An error unless the family has hints.
    fn check_takes_hints(&self) -> Result<()> {
        if self.takes_hints() {
            return Ok(());
        }
        Err(Error::input(format!(
            "{} is a {} puzzle, and hints (pinned pieces) exist for edge matching and polyforms only",
            self.name(),
            self.family().as_str()
        )))
    }

    /// A copy of the puzzle with the choices `chosen` (indices into
    /// [`Loaded::hint_choices`] of `record`) added as hints.
    fn with_hints(&self, record: &Value, chosen: &[usize]) -> Result<Box<dyn Loaded>> {
        let _ = (record, chosen);
        Err(Error::input(format!("{} takes no hints", self.name())))
    }

    /// Scores a best board (a line of `best --json`: its `board` and, when
    /// given, the `score` it claims) independently: every tile at most once,
    /// hints honoured, the matching inner edges recounted. Returns the score
    /// and the most possible; a board that does not fit the puzzle is an
    /// input error.
    fn score_board(&self, record: &Value) -> Result<(u32, u32)> {
        let _ = record;
        Err(Error::input(format!(
            "{}: best boards exist for edge-matching puzzles only",
            self.name()
        )))
    }

    /// Scores the board of a viewer link (`board_edges`) like
    /// [`Loaded::score_board`].
    fn score_link(&self, link: &str) -> Result<(u32, u32)> {
        let _ = link;
        Err(Error::input(format!(
            "{}: viewer links exist for edge-matching puzzles only",
            self.name()
        )))
    }

    /// The puzzle as a file in its family's TOML format, under `comments`.
    fn to_toml(&self, comments: &[String]) -> String;

    /// The open groups of a puzzle that leaves cells open (a calendar's
    /// month and day), each with the names of its cells; empty otherwise.
    fn open_groups(&self) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }

    /// A copy of the puzzle that leaves exactly the cells named `cells`
    /// open, one for each cell an open group leaves open (`--open`).
    fn with_open(&self, cells: &[String]) -> Result<Box<dyn Loaded>> {
        let _ = cells;
        Err(Error::input(format!(
            "{} leaves no cells open: --open is for puzzles with [[open]] groups",
            self.name()
        )))
    }

    /// The board with a count on each cell (how many solutions leave it
    /// open, by cell name), as an SVG heat map under `caption`; `None` for
    /// a puzzle that leaves no cells open.
    fn heat_map_svg(
        &self,
        counts: &std::collections::HashMap<String, u128>,
        caption: &str,
    ) -> Option<String> {
        let _ = (counts, caption);
        None
    }

    /// Two solution records of the puzzle as the engine `options` shape it
    /// (`--flip` lets a polygon piece flip), each checked like
    /// [`Loaded::verify`] does, as one SVG picture titled `title`: side by
    /// side under `captions`, with the cells, tiles or pieces where they
    /// differ marked in both, as the family counts a difference, and a
    /// legend line that says what the mark means.
    fn pair_svg(
        &self,
        options: &EngineOptions,
        records: [&Value; 2],
        captions: [&str; 2],
        title: &str,
    ) -> Result<String, String>;

    /// The puzzle in Knuth's DLX format (`jigsolve export --dlx`), for
    /// families that are exact-cover problems; with `break_symmetry` its
    /// solutions are the unique ones.
    fn export_dlx(&self, _break_symmetry: bool) -> Result<String> {
        Err(Error::input(format!(
            "export --dlx applies to polyform (grid) puzzles only, and {} is not one",
            self.name()
        )))
    }
}

/// Rejects engine options that do not apply to the puzzle's family, so
/// that nothing a user asked for is silently dropped.
pub fn check_engine_options(puzzle: &dyn Loaded, engine: &EngineOptions) -> Result<()> {
    let family = puzzle.family();
    reject_option(
        puzzle.name(),
        "--order",
        engine.order.is_some() && family != Family::Edge,
        "edge-matching",
    )?;
    reject_option(
        puzzle.name(),
        "--engine",
        engine.engine_choice.is_some() && family != Family::Grid,
        "polyform (grid)",
    )?;
    reject_option(
        puzzle.name(),
        if engine.flip { "--flip" } else { "--no-flip" },
        (engine.flip || engine.no_flip) && family != Family::Polygon,
        "polygon",
    )?;
    reject_option(
        puzzle.name(),
        "--approximate",
        engine.approximate && family != Family::Polygon,
        "polygon",
    )
}

/// Rejects a family-specific option given to a puzzle of another family.
fn reject_option(name: &str, option: &str, given: bool, family: &str) -> Result<()> {
    if given {
        return Err(Error::input(format!(
            "{option} applies to {family} puzzles only, and {name} is not one"
        )));
    }
    Ok(())
}

/// What the web page shows of a puzzle just read: its family, name,
/// picture (SVG), open groups (`[{"name", "cells"}]`) and warnings.
pub fn read_json(puzzle: &dyn Loaded) -> Value {
    serde_json::json!({
        "family": puzzle.family().as_str(),
        "name": puzzle.name(),
        "svg": puzzle.puzzle_svg(),
        "open_groups": puzzle
            .open_groups()
            .into_iter()
            .map(|(name, cells)| serde_json::json!({"name": name, "cells": cells}))
            .collect::<Vec<_>>(),
        "warnings": puzzle.warnings(),
    })
}
