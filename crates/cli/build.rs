//! Embeds every puzzle under `puzzles/<family>/*.toml` into the binary: the
//! catalog name is the file stem, the family the folder.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut entries = Vec::new();
    if let Ok(families) = std::fs::read_dir(&root) {
        for family in families.flatten() {
            let fam_path = family.path();
            if !fam_path.is_dir() {
                continue;
            }
            println!("cargo:rerun-if-changed={}", fam_path.display());
            let fam = family.file_name().to_string_lossy().to_string();
            for file in std::fs::read_dir(&fam_path)
                .expect("read puzzles folder")
                .flatten()
            {
                let path = file.path();
                if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                    continue;
                }
                println!("cargo:rerun-if-changed={}", path.display());
                let name = path.file_stem().unwrap().to_string_lossy().to_string();
                let rel = format!("puzzles/{fam}/{}", file.file_name().to_string_lossy());
                entries.push((name, fam.clone(), rel, path.canonicalize().unwrap()));
            }
        }
    }
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
