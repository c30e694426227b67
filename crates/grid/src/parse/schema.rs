//! The tables of a puzzle file as serde reads them: unknown keys are
//! refused, and every value keeps its place in the file (`Spanned`) so that
//! a message can name its line.

use serde::Deserialize;
use toml::{Spanned, Value};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TomlPuzzle {
    pub(super) family: Option<Spanned<String>>,
    pub(super) name: Option<String>,
    #[allow(dead_code)]
    pub(super) title: Option<String>,
    #[allow(dead_code)]
    pub(super) about: Option<String>,
    #[allow(dead_code)]
    pub(super) source: Option<String>,
    pub(super) lattice: Option<Spanned<String>>,
    pub(super) sides: Option<Spanned<String>>,
    pub(super) optional: Option<bool>,
    #[serde(alias = "colors")]
    pub(super) colours: Option<Spanned<Vec<String>>>,
    pub(super) board: Spanned<Value>,
    #[serde(rename = "piece", default)]
    pub(super) pieces: Vec<Spanned<TomlPiece>>,
    #[serde(rename = "pin", default)]
    pub(super) pins: Vec<Spanned<TomlPin>>,
    #[serde(rename = "open", default)]
    pub(super) open: Vec<Spanned<TomlOpen>>,
    pub(super) holes: Option<Spanned<i64>>,
    #[allow(dead_code)]
    pub(super) expected: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TomlOpen {
    pub(super) name: Spanned<String>,
    pub(super) cells: Spanned<Value>,
    pub(super) count: Option<Spanned<i64>>,
    pub(super) labels: Option<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TomlPiece {
    pub(super) name: Spanned<String>,
    pub(super) shape: Option<Spanned<Value>>,
    pub(super) cells: Option<Spanned<Value>>,
    pub(super) copies: Option<Spanned<Value>>,
    pub(super) optional: Option<bool>,
    pub(super) sides: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TomlPin {
    pub(super) piece: Spanned<String>,
    pub(super) cells: Spanned<Value>,
}
