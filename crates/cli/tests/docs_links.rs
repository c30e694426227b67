//! The documentation holds together: every relative link and image of
//! README.md, BENCHMARKS.md and docs/**/*.md names a file that exists and,
//! with a `#anchor`, a heading of that Markdown file (GitHub's anchors); the
//! README stays a front door; docs/commands.md names every subcommand.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md, BENCHMARKS.md and every Markdown file under docs/.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("BENCHMARKS.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files
}

fn is_fence(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    line.len() - trimmed.len() <= 3 && (trimmed.starts_with("```") || trimmed.starts_with("~~~"))
}

/// The lines outside fenced code blocks, numbered from 1.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_fence(line) {
            fenced = !fenced;
        } else if !fenced {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// GitHub's anchor of a heading: lower case, each space a `-`, punctuation
/// (backticks too) dropped but for `-` and `_`.
fn slug(heading: &str) -> String {
    let keep = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let lower = heading.trim().to_lowercase();
    lower
        .chars()
        .filter(|&c| keep(c) || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings; a repeated heading gets
/// `-1`, `-2`, ... as on GitHub.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = HashSet::new();
    for (_, line) in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with([' ', '\t']) {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#'));
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.insert(match *count {
            0 => base,
            n => format!("{base}-{n}"),
        });
        *count += 1;
    }
    anchors
}

/// The targets of the links and images `[text](target)` of a line, code
/// spans left out.
fn link_targets(line: &str) -> Vec<String> {
    let outside_code: String = line.split('`').step_by(2).collect();
    let mut targets = Vec::new();
    let mut rest = outside_code.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let end = after
            .find(|c: char| c == ')' || c.is_whitespace())
            .unwrap_or(after.len());
        targets.push(after[..end].to_string());
        rest = &after[end..];
    }
    targets
}

/// Why a link of `file` to `target` is dead, if it is.
fn dead(
    file: &Path,
    target: &str,
    headings: &mut HashMap<PathBuf, HashSet<String>>,
) -> Option<String> {
    let (path, anchor) = target
        .split_once('#')
        .map_or((target, None), |(p, a)| (p, Some(a)));
    let linked = match path {
        "" => file.to_path_buf(),
        path => file.parent().unwrap().join(path),
    };
    if !linked.exists() {
        return Some("no such file".into());
    }
    let anchor = anchor?;
    if linked.extension().and_then(|e| e.to_str()) != Some("md") {
        return Some("an anchor into a file that is not Markdown".into());
    }
    let known = headings
        .entry(linked.canonicalize().unwrap())
        .or_insert_with(|| anchors(&fs::read_to_string(&linked).unwrap_or_default()));
    (!known.contains(anchor)).then(|| format!("no heading has the anchor #{anchor}"))
}

#[test]
fn every_link_and_image_of_the_docs_resolves() {
    let mut headings = HashMap::new();
    let (mut dead_links, mut checked) = (Vec::new(), 0);
    for file in markdown_files() {
        let name = format!("{}", file.strip_prefix(root()).unwrap_or(&file).display());
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (number, line) in prose(&text) {
            for target in link_targets(line) {
                let scheme = target.split_once(':').map(|(scheme, _)| scheme);
                if matches!(scheme, Some("http" | "https" | "mailto")) {
                    continue;
                }
                checked += 1;
                if let Some(why) = dead(&file, &target, &mut headings) {
                    dead_links.push(format!("{name}:{number}: {target}: {why}"));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links: is the parser broken?");
    assert!(
        dead_links.is_empty(),
        "{} of {checked} links are dead:\n{}",
        dead_links.len(),
        dead_links.join("\n")
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 300,
        "README.md has {lines} lines: the reference belongs in docs/"
    );
    let first_puzzle = readme
        .lines()
        .position(|l| l.starts_with('#') && l.to_lowercase().contains("first puzzle"));
    assert!(
        first_puzzle.is_some_and(|i| i < 150),
        "how to write a first puzzle must start within the README's first 150 lines: {first_puzzle:?}"
    );
}

#[test]
fn the_commands_reference_names_every_subcommand() {
    let bin = assert_cmd::cargo::cargo_bin("jigsolve");
    let out = Command::new(bin).arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let listed = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1);
    let names: Vec<&str> = listed
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ")) // not a wrapped line
        .filter_map(|l| l.split_whitespace().next().filter(|name| *name != "help"))
        .collect();
    assert!(names.len() >= 15, "{help}");
    let commands = fs::read_to_string(root().join("docs/commands.md")).unwrap();
    let missing: Vec<&&str> = names
        .iter()
        .filter(|name| !commands.contains(&format!("jigsolve {name}")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/commands.md never says `jigsolve NAME` for {missing:?}"
    );
}
