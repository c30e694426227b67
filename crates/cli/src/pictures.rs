//! Where pictures go: the directories of `solve --svg DIR` / `--png DIR`
//! (one file per listed solution), the files of `unique --svg FILE` /
//! `--png FILE` and those of `jigsolve render`. The drawing is
//! `jigsolve_render`'s; this module only places the files and turns every
//! file-system problem into a message that names the path.

use crate::source::InputError;
use crate::text::file_stem;
use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};

/// Where `solve` writes pictures of the solutions it lists.
#[derive(Clone, Debug, Default)]
pub struct Pictures {
    /// The directory for SVG files.
    pub svg: Option<PathBuf>,
    /// The directory for PNG files.
    pub png: Option<PathBuf>,
}

impl Pictures {
    /// True when a picture of each solution is wanted.
    pub fn wanted(&self) -> bool {
        self.svg.is_some() || self.png.is_some()
    }

    /// Creates the directories (if missing) and checks that files can be
    /// written in them, before the search starts.
    pub fn prepare(&self) -> Result<()> {
        for (option, dir) in self.dirs() {
            prepare_dir(option, dir)?;
        }
        Ok(())
    }

    fn dirs(&self) -> impl Iterator<Item = (&'static str, &PathBuf)> {
        [("--svg", self.svg.as_ref()), ("--png", self.png.as_ref())]
            .into_iter()
            .filter_map(|(o, d)| d.map(|d| (o, d)))
    }

    /// Writes the picture of listed solution `index` of puzzle `name`:
    /// `NAME-0001.svg` and/or `NAME-0001.png`.
    pub fn write(&self, name: &str, index: u64, svg: &str) -> Result<()> {
        let stem = format!("{}-{index:04}", file_stem(name));
        if let Some(dir) = &self.svg {
            let path = dir.join(format!("{stem}.svg"));
            write_file(&path, svg.as_bytes())?;
        }
        if let Some(dir) = &self.png {
            let path = dir.join(format!("{stem}.png"));
            let png = jigsolve_render::png::png(svg, jigsolve_render::png::DEFAULT_SCALE)
                .with_context(|| format!("{}: cannot draw the picture", path.display()))?;
            write_file(&path, &png)?;
        }
        Ok(())
    }
}

/// Where a command that draws one picture writes it: `unique --svg FILE`
/// and `--png FILE` (either or both).
#[derive(Clone, Debug, Default)]
pub struct PictureFiles {
    /// The SVG file.
    pub svg: Option<PathBuf>,
    /// The PNG file.
    pub png: Option<PathBuf>,
}

impl PictureFiles {
    /// True when a picture is wanted.
    pub fn wanted(&self) -> bool {
        self.svg.is_some() || self.png.is_some()
    }

    /// The files asked for, with their options.
    pub fn files(&self) -> impl Iterator<Item = (&'static str, &PathBuf)> {
        [("--svg", self.svg.as_ref()), ("--png", self.png.as_ref())]
            .into_iter()
            .filter_map(|(o, f)| f.map(|f| (o, f)))
    }

    /// Checks, before the search starts, that each file can be written: not
    /// a directory, in a directory that exists and takes new files. Nothing
    /// is created: no picture is written when there is nothing to draw.
    pub fn prepare(&self) -> Result<()> {
        for (option, file) in self.files() {
            prepare_file(option, file)?;
        }
        Ok(())
    }

    /// Writes `svg` to the SVG file and its PNG to the PNG file.
    pub fn write(&self, svg: &str) -> Result<()> {
        if let Some(path) = &self.svg {
            write_file(path, svg.as_bytes())?;
        }
        if let Some(path) = &self.png {
            let (png, scale) =
                jigsolve_render::png::png_within(svg, jigsolve_render::png::DEFAULT_SCALE)
                    .with_context(|| format!("{}: cannot draw the picture", path.display()))?;
            if scale < jigsolve_render::png::DEFAULT_SCALE {
                eprintln!(
                    "{}: drawn at {:.2} pixels a unit instead of {} to stay within {} pixels",
                    path.display(),
                    scale,
                    jigsolve_render::png::DEFAULT_SCALE,
                    jigsolve_render::png::MAX_PIXELS
                );
            }
            write_file(path, &png)?;
        }
        Ok(())
    }
}

/// Makes sure a picture file can be written at `file`.
fn prepare_file(option: &str, file: &Path) -> Result<()> {
    let shown = file.display();
    if file.as_os_str() == "-" {
        bail!(InputError(format!(
            "{option} -: the answer goes to standard output; {option} names a file to write the picture to"
        )));
    }
    if file.is_dir() {
        bail!(InputError(format!(
            "{shown}: is a directory; {option} names the file to write the picture to"
        )));
    }
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        let why = if dir.exists() {
            format!("{} is not a directory", dir.display())
        } else {
            format!("there is no directory {}", dir.display())
        };
        bail!(InputError(format!(
            "{shown}: cannot write the picture ({option}): {why}"
        )));
    }
    // Permissions alone do not tell (root, read-only mounts, ACLs): try.
    let probe = dir.join(format!(".jigsolve-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| {
            anyhow!(InputError(format!(
                "{shown}: cannot write the picture ({option}): {}",
                io_reason(&e)
            )))
        })
}

/// Makes sure `dir` is a directory files can be written in.
fn prepare_dir(option: &str, dir: &Path) -> Result<()> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        bail!(InputError(format!(
            "{shown}: exists and is not a directory; {option} names a directory to write the pictures in"
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        anyhow!(InputError(format!(
            "{shown}: cannot create the directory for {option}: {}",
            io_reason(&e)
        )))
    })?;
    // Permissions alone do not tell (root, read-only mounts, ACLs): try.
    let probe = dir.join(format!(".jigsolve-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| {
            anyhow!(InputError(format!(
                "{shown}: cannot write files in this directory ({option}): {}",
                io_reason(&e)
            )))
        })
}

/// Writes one picture as SVG to `svg` and as PNG to `png`, each if given.
pub fn write_svg_png(picture: &str, svg: Option<&Path>, png: Option<&Path>) -> Result<()> {
    if let Some(path) = svg {
        write_file(path, picture.as_bytes())?;
    }
    if let Some(path) = png {
        let bytes = jigsolve_render::png::png(picture, jigsolve_render::png::DEFAULT_SCALE)
            .with_context(|| format!("{}: cannot draw the picture", path.display()))?;
        write_file(path, &bytes)?;
    }
    Ok(())
}

/// Writes a picture file, with a message naming the path on failure.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_output(path, bytes, "the picture")
}

/// Writes `what` (a picture, a puzzle, a solution) to a file, with a message
/// naming the path on failure.
pub fn write_output(path: &Path, bytes: &[u8], what: &str) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| {
        anyhow!(InputError(format!(
            "{}: cannot write {what}: {}",
            path.display(),
            io_reason(&e)
        )))
    })
}

/// An I/O error in words, without the "(os error N)" tail.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
