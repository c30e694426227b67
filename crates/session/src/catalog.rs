//! The puzzles shipped inside the binary (generated from `puzzles/`).

/// One catalog puzzle.
#[derive(Debug)]
pub struct Entry {
    /// The name users type: the file stem.
    pub name: &'static str,
    /// The family folder: `edge`, `grid` or `polygon`.
    pub family: &'static str,
    /// The file in the repository.
    pub path: &'static str,
    /// The file's text.
    pub text: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// The catalog puzzle called `name`.
pub fn find(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.name == name)
}

/// A TOML string value from the catalog file (title, about, source).
pub fn field(entry: &Entry, key: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(entry.text).ok()?;
    table.get(key)?.as_str().map(str::to_string)
}

/// The published counts in the file's `[expected]` table, as text.
pub fn expected(entry: &Entry) -> Option<String> {
    let table: toml::Table = toml::from_str(entry.text).ok()?;
    let exp = table.get("expected")?.as_table()?;
    let mut parts = Vec::new();
    for key in ["raw", "distinct", "unique"] {
        if let Some(v) = exp.get(key).and_then(|v| v.as_integer()) {
            parts.push(format!("{key} {v}"));
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// One catalog entry as the web page lists it: name, family, title, about
/// and the published counts.
pub fn entry_json(entry: &Entry) -> serde_json::Value {
    serde_json::json!({
        "name": entry.name,
        "family": entry.family,
        "title": field(entry, "title"),
        "about": field(entry, "about"),
        "expected": expected(entry),
    })
}
