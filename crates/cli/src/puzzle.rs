//! A puzzle read from a file or the catalog, of any family, as the commands
//! see it: what they ask of it (a session, a verifier, pictures) without
//! knowing its family. The families implement [`Loaded`]; the commands use
//! it; neither imports the other.

use crate::options::EngineArgs;
use crate::session::Session;
use crate::source::{Family, InputError};
use anyhow::{bail, Result};
use serde_json::Value;

/// A puzzle read from a file or the catalog, of any family.
pub trait Loaded {
    /// Its family.
    fn family(&self) -> Family;

    /// Its name.
    fn name(&self) -> &str;

    /// The puzzle prepared for searching with the tree-shaping `options`
    /// (checked first with [`check_engine_options`]).
    fn session(&self, options: &EngineArgs) -> Result<Box<dyn Session + '_>>;

    /// Checks one solution record (the `solution` object of a JSON line).
    fn verify(&self, record: &Value) -> Result<(), String>;

    /// The puzzle as an SVG picture: the pieces laid apart, the board or region.
    fn puzzle_svg(&self) -> String;

    /// One solution record (the `solution` object of a JSON line), checked
    /// like [`Loaded::verify`] does, as an SVG picture under `caption`.
    fn solution_svg(&self, record: &Value, caption: &str) -> Result<String, String>;

    /// Two solution records of the puzzle as the engine `options` shape it
    /// (`--flip` lets a polygon piece flip), each checked like
    /// [`Loaded::verify`] does, as one SVG picture titled `title`: side by
    /// side under `captions`, with the cells, tiles or pieces where they
    /// differ marked in both, as the family counts a difference, and a
    /// legend line that says what the mark means.
    fn pair_svg(
        &self,
        options: &EngineArgs,
        records: [&Value; 2],
        captions: [&str; 2],
        title: &str,
    ) -> Result<String, String>;

    /// The puzzle in Knuth's DLX format (`jigsolve export --dlx`), for
    /// families that are exact-cover problems.
    fn export_dlx(&self) -> Result<String> {
        bail!(InputError(format!(
            "export --dlx applies to polyform (grid) puzzles only, and {} is not one",
            self.name()
        )))
    }
}

/// Rejects engine options that do not apply to the puzzle's family, so
/// that nothing a user asked for is silently dropped.
pub fn check_engine_options(puzzle: &dyn Loaded, engine: &EngineArgs) -> Result<()> {
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
        bail!(InputError(format!(
            "{option} applies to {family} puzzles only, and {name} is not one"
        )));
    }
    Ok(())
}
