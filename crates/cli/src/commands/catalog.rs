//! `jigsolve list` and `jigsolve show`: the puzzles shipped inside the
//! binary, with their published counts, and the file of one of them.

use crate::catalog;
use crate::exit;
use crate::source::InputError;
use anyhow::{anyhow, Result};
use std::io::Write;

/// Lists the catalog.
pub fn list() -> Result<u8> {
    let mut out = std::io::stdout().lock();
    let w = catalog::ENTRIES
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0)
        .max(16);
    for entry in catalog::ENTRIES {
        let title = catalog::field(entry, "title").unwrap_or_default();
        let about = catalog::field(entry, "about").unwrap_or_default();
        writeln!(out, "{:<w$} {:<8} {title}", entry.name, entry.family)?;
        if !about.is_empty() {
            writeln!(out, "{:<w$} {:<8} {about}", "", "")?;
        }
        if let Some(expected) = catalog::expected(entry) {
            writeln!(out, "{:<w$} {:<8} published counts: {expected}", "", "")?;
        }
    }
    Ok(exit::FOUND)
}

/// Prints the file of catalog puzzle `name`.
pub fn show(name: &str) -> Result<u8> {
    let entry = catalog::find(name).ok_or_else(|| {
        let names: Vec<&str> = catalog::ENTRIES.iter().map(|e| e.name).collect();
        anyhow!(InputError(format!(
            "no catalog puzzle named '{name}' (the catalog has: {})",
            names.join(", ")
        )))
    })?;
    exit::out!("{}", entry.text);
    Ok(exit::FOUND)
}
