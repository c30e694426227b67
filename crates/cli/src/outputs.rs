//! The files a command will write, checked before it searches: each can be
//! written, no two name the same file, and none is a file the command
//! reads (the puzzle, a checkpoint it resumes from). A long search that
//! ends in "cannot write" loses what it found; two outputs that name one
//! file lose one of them while the report says both were written; an
//! output over the puzzle destroys the input.

use crate::pictures::io_reason;
use crate::source::InputError;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// One file a command will write: the option that names it, and its path
/// (`-`, standard output, is no file and is skipped).
pub struct Output<'a> {
    /// The option, as the user wrote it (`-o`, `--svg`, ...).
    pub option: &'a str,
    /// The path.
    pub path: &'a Path,
    /// What is written there, for messages ("the puzzle", "the picture").
    pub what: &'a str,
}

/// Checks `outputs` against each other and against `inputs` (option or
/// role, path), then that each can be written: its folder exists and takes
/// a new file, and it is not a folder itself. Nothing is created or left
/// behind.
pub fn check(outputs: &[Output<'_>], inputs: &[(&str, &Path)]) -> Result<()> {
    let files: Vec<(&Output<'_>, PathBuf)> = outputs
        .iter()
        .filter(|o| o.path.as_os_str() != "-")
        .map(|o| (o, same_file_key(o.path)))
        .collect();
    for (i, (a, key_a)) in files.iter().enumerate() {
        for (b, key_b) in &files[i + 1..] {
            if key_a == key_b {
                bail!(InputError(format!(
                    "{}: {} and {} name the same file; give each its own",
                    a.path.display(),
                    a.option,
                    b.option
                )));
            }
        }
        for (role, input) in inputs {
            if *key_a == same_file_key(input) {
                bail!(InputError(format!(
                    "{}: {} names {role}, which this command reads; writing {} there would \
                     destroy it",
                    a.path.display(),
                    a.option,
                    a.what
                )));
            }
        }
    }
    for (o, _) in &files {
        writable(o)?;
    }
    Ok(())
}

/// A path as a key that two names of one file share: its folder resolved
/// (symbolic links, `..`) when that folder exists, and its file name.
fn same_file_key(path: &Path) -> PathBuf {
    if let Ok(resolved) = path.canonicalize() {
        return resolved;
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (folder.canonicalize(), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// Whether `o` can be written, tried by creating a new file beside it and
/// removing it again (the only test that asks the file system itself:
/// permissions, read-only mounts, a folder that does not exist).
fn writable(o: &Output<'_>) -> Result<()> {
    let shown = o.path.display();
    if o.path.is_dir() {
        bail!(InputError(format!(
            "{shown}: is a folder; {} names the file to write {} to",
            o.option, o.what
        )));
    }
    let folder = match o.path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let probe = folder.join(format!(".jigsolve-write-check-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => bail!(InputError(format!(
            "{shown}: cannot write {} there ({}): checked before the search, so that nothing \
             it finds is lost",
            o.what,
            io_reason(&e)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_names_of_one_file_are_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("x.toml");
        let b = dir.path().join("sub/../x.toml");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(same_file_key(&a), same_file_key(&b));
        assert_ne!(same_file_key(&a), same_file_key(&dir.path().join("y.toml")));
    }
}
