//! Embeds every puzzle under `puzzles/<family>/*.toml` into the binary: the
//! catalog name is the file stem, the family the folder.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles");
    println!("cargo:rerun-if-changed={}", root.display());
    // A folder that cannot be read must stop the build: a binary with an
    // empty catalog builds and links, and only fails when a user asks for a
    // puzzle by name.
    let families = read_dir(&root);
    let mut entries = Vec::new();
    for family in families {
        let fam_path = family.path();
        if !fam_path.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", fam_path.display());
        let fam = family.file_name().to_string_lossy().to_string();
        for file in read_dir(&fam_path) {
            let path = file.path();
            if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            let name = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            let rel = format!("puzzles/{fam}/{}", file.file_name().to_string_lossy());
            let abs = path
                .canonicalize()
                .unwrap_or_else(|e| panic!("the catalog puzzle {}: {e}", path.display()));
            entries.push((name, fam.clone(), rel, abs));
        }
    }
    assert!(
        !entries.is_empty(),
        "no puzzle found under {}: the catalog would be empty",
        root.display()
    );
    entries.sort();
    let mut out = String::from("/// Every puzzle shipped inside the binary, sorted by name.\npub static ENTRIES: &[Entry] = &[\n");
    for (name, fam, rel, abs) in entries {
        writeln!(
            out,
            "    Entry {{ name: {name:?}, family: {fam:?}, path: {rel:?}, text: include_str!({abs:?}) }},"
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalog.rs");
    std::fs::write(dest, out).expect("write catalog");
}

/// The entries of the catalog folder `dir`, or a build error naming it.
fn read_dir(dir: &Path) -> Vec<std::fs::DirEntry> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read the catalog folder {}: {e}", dir.display()));
    entries
        .map(|entry| {
            entry.unwrap_or_else(|e| {
                panic!(
                    "cannot read an entry of the catalog folder {}: {e}",
                    dir.display()
                )
            })
        })
        .collect()
}
