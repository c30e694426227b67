//! jigsolve in the browser: the engines behind one narrow entry point.
//!
//! A request is a JSON object, the same the web server's API takes:
//!
//! | request | answer |
//! |---|---|
//! | `{"route": "catalog"}` | `{"puzzles": [{"name", "family", "title", "about", "expected"}, ...]}` |
//! | `{"route": "catalog", "name": N}` | `{"name", "label", "text"}`: one catalog puzzle's file and its path |
//! | `{"route": "puzzle", "text", "label"}` | `{"family", "name", "svg", "open_groups", "warnings"}` |
//! | `{"route": "search", "text", "label", "mode", "options", "shard": [I, N], "keep": K, "seed": S}` | see below |
//! | `{"route": "picture", "text", "label", "solution", "index", "weight"}` | `{"svg"}`: a kept solution drawn |
//! | `{"route": "picture", "text", "label", "best": line}` | `{"svg"}`: a best board drawn |
//! | `{"route": "heat-map", "text", "label", "goals": [...], "complete"}` | `{"svg"}`: goal lines (shards added up) as a heat map |
//!
//! A search runs on the caller's one thread; a page runs one per Web Worker
//! and adds their answers up (`"shard": [I, N]` as `jigsolve merge` adds
//! shard results; a best-board search per worker with its own `seed`).
//! Modes and answers, as the server's search outcome has them:
//! `solve` and `count` answer `{"summary", "counts_mean"}` (the summary
//! `solve --json` ends with); `by-open` `{"summary", "goals", "heat_map"}`;
//! `best` `{"summary"}` (the best board came as events); `tree` `{"tree",
//! "naive", "svg"}`. While it runs a search hands out events: `{"type":
//! "progress", "nodes", "solutions", "seconds", "fraction"}` at most four
//! times a second, `{"type": "solution", "solution", "weight"}` for its
//! first `keep` solutions (the `solution` object of `solve --json`), and
//! `{"type": "best", "line"}` for each better board (its line of `best
//! --json`). An error is `{"error": message}` naming the file and line.
//!
//! Compiled for `wasm32-unknown-unknown`, the crate exports
//! `jigsolve_alloc`, `jigsolve_free` and `jigsolve_request`, and imports
//! `env.jigsolve_event(ptr, len)` (each event's JSON) and
//! `env.jigsolve_now_ms()` (the search crate's clock); natively,
//! [`handle`] is the same function with the events passed to a closure.

mod search;

use jigsolve_session::{catalog, family, source::Source};
use serde_json::{json, Value};
use std::sync::Arc;

/// The largest puzzle text a request may carry (as the server's limit).
pub const MAX_PUZZLE_BYTES: usize = 256 << 10;

/// Where a search's events go, each as its JSON text. Shared with the
/// search's heartbeat, which runs inside the search.
pub type Emit = Arc<dyn Fn(&str) + Send + Sync>;

/// Answers one request; `emit` receives each event of a search as JSON.
pub fn handle(request: &str, emit: &Emit) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|e| format!("the request is not JSON: {e}"))
        .and_then(|body| route(&body, emit));
    match answer {
        Ok(value) => value.to_string(),
        Err(message) => json!({ "error": message }).to_string(),
    }
}

fn route(body: &Value, emit: &Emit) -> Result<Value, String> {
    match body.get("route").and_then(Value::as_str) {
        Some("catalog") => match body.get("name").and_then(Value::as_str) {
            None => Ok(catalog_list()),
            Some(name) => catalog::find(name)
                .map(|e| json!({ "name": e.name, "label": e.path, "text": e.text }))
                .ok_or_else(|| format!("no catalog puzzle is called '{name}'")),
        },
        Some("puzzle") => puzzle(body),
        Some("search") => search::search(body, emit),
        Some("picture") => picture(body),
        Some("heat-map") => heat_map(body),
        Some(other) => Err(format!(
            "unknown route '{other}': expected catalog, puzzle, search, picture or heat-map"
        )),
        None => Err(
            "the request names no \"route\" (catalog, puzzle, search, picture or heat-map)".into(),
        ),
    }
}

fn catalog_list() -> Value {
    let puzzles: Vec<Value> = catalog::ENTRIES.iter().map(catalog::entry_json).collect();
    json!({ "puzzles": puzzles })
}

/// The request's puzzle text and the name its messages use.
fn source_of(body: &Value) -> Result<Source, String> {
    let text = body
        .get("text")
        .and_then(Value::as_str)
        .ok_or("the request has no puzzle \"text\"")?;
    if text.len() > MAX_PUZZLE_BYTES {
        return Err(format!(
            "the puzzle is {} KiB; at most {} KiB are read",
            text.len() >> 10,
            MAX_PUZZLE_BYTES >> 10
        ));
    }
    let label = body
        .get("label")
        .and_then(Value::as_str)
        .unwrap_or("puzzle.toml");
    Ok(Source {
        label: label.to_string(),
        text: text.to_string(),
    })
}

fn puzzle(body: &Value) -> Result<Value, String> {
    let source = source_of(body)?;
    let p = family::load(&source, None).map_err(|e| e.to_string())?;
    Ok(jigsolve_session::puzzle::read_json(p.as_ref()))
}

/// A kept solution or a best board drawn, as the server draws them.
fn picture(body: &Value) -> Result<Value, String> {
    let source = source_of(body)?;
    if let Some(line) = body.get("best") {
        let puzzle =
            family::load_edge(&source, None, "the best-board search").map_err(|e| e.to_string())?;
        let svg = jigsolve_session::best::board_svg(&puzzle, line)?;
        return Ok(json!({ "svg": svg }));
    }
    let record = body
        .get("solution")
        .ok_or("a picture request needs a \"solution\" or a \"best\" board")?;
    let puzzle = family::load(&source, None).map_err(|e| e.to_string())?;
    puzzle.verify(record)?;
    let index = body.get("index").and_then(Value::as_u64).unwrap_or(1);
    let weight = &body["weight"];
    let count = |key: &str| weight[key].to_string().parse::<u128>().unwrap_or(1);
    let weight = jigsolve_search::Weight {
        raw: count("raw"),
        distinct: count("distinct"),
        unique: count("unique"),
    };
    let caption = jigsolve_session::report::solution_caption(puzzle.name(), index, weight);
    Ok(json!({ "svg": puzzle.solution_svg(record, &caption)? }))
}

/// The heat map of goal lines added up over shards.
fn heat_map(body: &Value) -> Result<Value, String> {
    let source = source_of(body)?;
    let puzzle = family::load(&source, None).map_err(|e| e.to_string())?;
    let goals = body
        .get("goals")
        .and_then(Value::as_array)
        .ok_or("a heat-map request needs \"goals\", lines as by-open answers them")?;
    let complete = body
        .get("complete")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let svg = jigsolve_session::goals::heat_map_of_lines(puzzle.as_ref(), goals, complete)
        .map_err(|e| e.to_string())?;
    Ok(json!({ "svg": svg }))
}

#[cfg(target_arch = "wasm32")]
mod exports {
    //! The WebAssembly interface: memory handed to the page, one request
    //! at a time, events through an imported function.

    #[link(wasm_import_module = "env")]
    extern "C" {
        fn jigsolve_event(ptr: *const u8, len: usize);
    }

    /// Memory for a request of `len` bytes, written by the page.
    #[no_mangle]
    pub extern "C" fn jigsolve_alloc(len: usize) -> *mut u8 {
        Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>()
    }

    /// Gives back memory from [`jigsolve_alloc`] or an answer.
    ///
    /// # Safety
    /// `ptr` and `len` must come from one of them, given back once.
    #[no_mangle]
    pub unsafe extern "C" fn jigsolve_free(ptr: *mut u8, len: usize) {
        // SAFETY: the caller hands back a boxed slice of `len` bytes made
        // here (see the function's contract).
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
    }

    /// Answers the request of `len` bytes at `ptr` (taken back here); the
    /// answer's address in the low 32 bits and its length in the high 32,
    /// to be read and given back with [`jigsolve_free`].
    ///
    /// # Safety
    /// `ptr` must come from `jigsolve_alloc(len)` with the request written
    /// into it.
    #[no_mangle]
    pub unsafe extern "C" fn jigsolve_request(ptr: *mut u8, len: usize) -> u64 {
        // SAFETY: see the function's contract.
        let bytes = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
        let request = String::from_utf8_lossy(&bytes);
        let emit: super::Emit = std::sync::Arc::new(|event: &str| {
            // SAFETY: the host reads `len` bytes at `ptr` before returning.
            unsafe { jigsolve_event(event.as_ptr(), event.len()) }
        });
        let answer = super::handle(&request, &emit);
        let answer = answer.into_bytes().into_boxed_slice();
        let len = answer.len();
        let ptr = Box::into_raw(answer).cast::<u8>();
        (ptr as u64) | ((len as u64) << 32)
    }
}

#[cfg(test)]
mod tests;
