//! The command line is one way: `main` -> commands -> families -> sessions
//! -> the search. No module of `src` refers to a module that refers back
//! to it, directly or through others (seven files once imported each other
//! in a circle), and the same holds in the crates the binary shares with
//! the web server (`jigsolve-session`, `jigsolve-serve`). The graph is read
//! from the source: every `crate::...` path and every `mod` child, file by
//! file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module name of a source file: `family/edge.rs` -> `family::edge`,
/// `family/mod.rs` -> `family`, `main.rs` or `lib.rs` -> `crate`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "main" || p == "lib")
    {
        parts.pop();
    }
    if parts.is_empty() {
        "crate".into()
    } else {
        parts.join("::")
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its `#[cfg(test)]` module and comments
/// (tests may reach anywhere; comments may name anything).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths named after `crate::` in `code`, braces expanded one level:
/// `crate::{a, b::c}` gives `a` and `b::c`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        // `$crate::` in a macro refers to the macro's own module.
        let macro_crate = i > 0 && rest.as_bytes()[i - 1] == b'$';
        rest = &rest[i + "crate::".len()..];
        if macro_crate {
            continue;
        }
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            for part in inner[..end].split(',') {
                paths.push(path_words(part.trim()));
            }
        } else {
            paths.push(path_words(rest));
        }
    }
    paths
}

fn path_words(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect::<String>()
        .trim_end_matches(':')
        .to_string()
}

/// The longest module among `modules` that `path` starts with.
fn target(path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let words: Vec<&str> = path.split("::").collect();
    (1..=words.len())
        .rev()
        .map(|n| words[..n].join("::"))
        .find(|m| modules.contains(m))
}

/// The module graph of `src`: module -> modules it refers to.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let mut to = BTreeSet::new();
        for path in crate_paths(&code) {
            if let Some(t) = target(&path, &modules) {
                to.insert(t);
            }
        }
        // A parent reaches its children through `mod` and their names.
        for m in &modules {
            let child = m
                .strip_prefix(&format!("{from}::"))
                .or_else(|| (from == "crate").then_some(m.as_str()));
            if let Some(child) = child.filter(|c| !c.contains("::")) {
                if code.contains(&format!("{child}::")) || code.contains(&format!("mod {child};")) {
                    to.insert(m.clone());
                }
            }
        }
        to.remove(&from);
        edges.insert(from, to);
    }
    edges
}

/// A cycle of the graph, if it has one.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = stack.iter().position(|s| s == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(next, edges, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(c) = visit(node, edges, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}

/// Fails with the circle when `edges` has one.
fn assert_no_circle(crate_name: &str, edges: &BTreeMap<String, BTreeSet<String>>) {
    if let Some(cycle) = find_cycle(edges) {
        panic!(
            "modules of {crate_name} import each other in a circle: {}",
            cycle.join(" -> ")
        );
    }
}

/// The `src` folder of the workspace crate in `crates/<folder>`.
fn crate_src(folder: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(folder)
        .join("src")
}

#[test]
fn no_module_of_the_command_line_imports_one_that_imports_it_back() {
    let edges = graph(&crate_src("cli"));
    // The graph was read: the way down is there.
    assert!(edges["crate"].contains("commands"), "{edges:#?}");
    assert!(edges["commands::solve"].contains("printer"), "{edges:#?}");
    assert!(edges["commands"].contains("commands::solve"), "{edges:#?}");
    assert_no_circle("the command line", &edges);
}

#[test]
fn no_module_of_the_session_crate_imports_one_that_imports_it_back() {
    let edges = graph(&crate_src("session"));
    assert!(edges["crate"].contains("family"), "{edges:#?}");
    assert!(edges["family::edge"].contains("session"), "{edges:#?}");
    assert!(edges["family"].contains("family::edge"), "{edges:#?}");
    assert!(edges["goals"].contains("checkpoint"), "{edges:#?}");
    assert_no_circle("jigsolve-session", &edges);
}

#[test]
fn no_module_of_the_server_imports_one_that_imports_it_back() {
    let edges = graph(&crate_src("serve"));
    assert!(edges["crate"].contains("api"), "{edges:#?}");
    assert!(edges["api"].contains("searches"), "{edges:#?}");
    assert!(edges["api::search"].contains("searches"), "{edges:#?}");
    // The server reaches the command line's work only through the session
    // crate: nothing of the binary is a module here.
    assert!(!edges.contains_key("commands"), "{edges:#?}");
    assert_no_circle("jigsolve-serve", &edges);
}

#[test]
fn the_check_finds_a_circle_when_there_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("family")).unwrap();
    std::fs::write(src.join("main.rs"), "mod family;\nmod solve;\n").unwrap();
    std::fs::write(
        src.join("solve.rs"),
        "use crate::family::Loaded;\npub fn run() {}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("family/mod.rs"),
        "mod edge;\npub trait Loaded {}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("family/edge.rs"),
        "use crate::{solve::run, source};\n",
    )
    .unwrap();
    let cycle = find_cycle(&graph(src)).expect("a circle");
    assert!(cycle.contains(&"solve".to_string()), "{cycle:?}");
    assert!(cycle.contains(&"family::edge".to_string()), "{cycle:?}");
}
