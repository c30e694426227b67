//! Pictures on the command line: `solve --svg DIR` / `--png DIR` (one file
//! per listed solution) and `jigsolve render` (the puzzle, or one solution
//! from a file of `solve --json` output). The drawing is
//! `jigsolve_render`'s; this module only decides where pictures go and
//! turns every file-system problem into a message that names the path.

use crate::source::{self, InputError};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::Value;
use std::io::Write;
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

/// A puzzle name made safe as a file name: letters, digits, `-`, `_` and
/// `.` kept, anything else `_`.
pub fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("puzzle{s}")
    } else {
        s
    }
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

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| {
        anyhow!(InputError(format!(
            "{}: cannot write the picture: {}",
            path.display(),
            io_reason(&e)
        )))
    })
}

/// An I/O error in words, without the "(os error N)" tail.
fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// `jigsolve render` options.
#[derive(Args, Clone, Debug)]
pub struct RenderArgs {
    /// The puzzle: a file or a catalog name.
    pub puzzle: String,
    /// Draw a solution from FILE (the JSON Lines of `solve --json`, or one solution object; `-` reads standard input) instead of the puzzle.
    #[arg(long, value_name = "FILE")]
    pub solution: Option<String>,
    /// With --solution: draw the N-th solution of the file (default: the first).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub index: Option<u64>,
    /// Write the SVG picture to FILE (`-`: standard output). Without --svg or --png the SVG goes to standard output.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write a PNG picture (twice the SVG's size) to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// The puzzle file's format (see `solve --format`).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
}

/// `jigsolve render`: the puzzle, or one solution of a file, as SVG or PNG.
pub fn render_command(args: &RenderArgs) -> Result<u8> {
    if args.index.is_some() && args.solution.is_none() {
        bail!(InputError(
            "--index picks a solution of the --solution file: it goes with --solution".into()
        ));
    }
    let source = source::read(&args.puzzle)?;
    let puzzle = crate::family::load(&source, args.format.as_deref())?;
    let svg = match &args.solution {
        None => puzzle.puzzle_svg(),
        Some(file) => {
            let wanted = args.index.unwrap_or(1);
            let (line, record, index) = pick_solution(file, wanted)?;
            let caption = format!("{}: solution {index}", puzzle.name());
            puzzle.solution_svg(&record, &caption).map_err(|why| {
                anyhow!(InputError(format!(
                    "{file}:{line}: not a solution of {}: {why}",
                    source.label
                )))
            })?
        }
    };
    let mut to_stdout: Vec<u8> = Vec::new();
    if let Some(path) = &args.svg {
        output(path, svg.as_bytes(), &mut to_stdout)?;
    }
    if let Some(path) = &args.png {
        let png = jigsolve_render::png::png(&svg, jigsolve_render::png::DEFAULT_SCALE)
            .with_context(|| format!("{}: cannot draw the picture", path.display()))?;
        output(path, &png, &mut to_stdout)?;
    }
    if args.svg.is_none() && args.png.is_none() {
        to_stdout.extend_from_slice(svg.as_bytes());
    }
    if !to_stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        out.write_all(&to_stdout)?;
        out.flush()?;
    }
    Ok(crate::exit::FOUND)
}

/// Writes `bytes` to `path`, or keeps them for standard output when `path`
/// is `-`.
fn output(path: &Path, bytes: &[u8], stdout: &mut Vec<u8>) -> Result<()> {
    if path.as_os_str() == "-" {
        if !stdout.is_empty() {
            bail!(InputError(
                "only one of --svg and --png can write to standard output (-)".into()
            ));
        }
        stdout.extend_from_slice(bytes);
        return Ok(());
    }
    if path.is_dir() {
        bail!(InputError(format!(
            "{}: is a directory; `render` writes one picture to a file (`solve --svg DIR` writes one per solution)",
            path.display()
        )));
    }
    write_file(path, bytes)
}

/// The `wanted`-th solution record (from 1) of `file`: its line, the
/// solution object, and the index it was listed with (its `index` field,
/// else `wanted`).
fn pick_solution(file: &str, wanted: u64) -> Result<(usize, Value, u64)> {
    let text = source::read_solutions_text(file)?;
    let mut seen = 0u64;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|e| anyhow!(InputError(format!("{file}:{line_no}: not JSON: {e}"))))?;
        let record = match value.get("type").and_then(Value::as_str) {
            Some("summary") => continue,
            Some("solution") => value.get("solution").cloned().ok_or_else(|| {
                anyhow!(InputError(format!(
                    "{file}:{line_no}: a solution line without a \"solution\" object"
                )))
            })?,
            _ => value
                .get("solution")
                .cloned()
                .unwrap_or_else(|| value.clone()),
        };
        seen += 1;
        if seen == wanted {
            let index = value.get("index").and_then(Value::as_u64).unwrap_or(wanted);
            return Ok((line_no, record, index));
        }
    }
    if seen == 0 {
        bail!(InputError(format!("{file}: no solution in the file")));
    }
    bail!(InputError(format!(
        "{file}: has {seen} solution{}; --index {wanted} asks for solution {wanted}",
        if seen == 1 { "" } else { "s" }
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_file_stems() {
        assert_eq!(file_stem("pentomino-6x10"), "pentomino-6x10");
        assert_eq!(file_stem("a/b c"), "a_b_c");
        assert_eq!(file_stem(""), "puzzle");
        assert_eq!(file_stem(".hidden"), "puzzle.hidden");
    }
}
