//! `jigsolve render`: the puzzle, or one solution from a file of `solve
//! --json` output, as SVG or PNG, to files or standard output.

use crate::family;
use crate::options::RenderArgs;
use crate::pictures::write_file;
use crate::solutions::{records, Record};
use crate::source::{self, InputError};
use anyhow::{anyhow, bail, Context, Result};
use std::io::Write;
use std::path::Path;

/// `jigsolve render`: the puzzle, or one solution of a file, as SVG or PNG.
pub fn render_command(args: &RenderArgs) -> Result<u8> {
    if args.index.is_some() && args.solution.is_none() {
        bail!(InputError(
            "--index picks a solution of the --solution file: it goes with --solution".into()
        ));
    }
    let source = source::read(&args.puzzle)?;
    let puzzle = family::load(&source, args.format.as_deref())?;
    let svg = match &args.solution {
        None => puzzle.puzzle_svg(),
        Some(file) => {
            let wanted = args.index.unwrap_or(1);
            let record = pick_solution(file, wanted)?;
            let caption = format!(
                "{}: solution {}",
                puzzle.name(),
                record.index.unwrap_or(wanted)
            );
            puzzle
                .solution_svg(&record.solution, &caption)
                .map_err(|why| {
                    anyhow!(InputError(format!(
                        "{file}:{}: not a solution of {}: {why}",
                        record.line, source.label
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

/// The `wanted`-th solution record (from 1) of `file`.
fn pick_solution(file: &str, wanted: u64) -> Result<Record> {
    let text = source::read_solutions_text(file)?;
    let mut seen = 0u64;
    for record in records(&text, file) {
        let record = record?;
        seen += 1;
        if seen == wanted {
            return Ok(record);
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
