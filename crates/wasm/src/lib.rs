//! jigsolve in the browser: the engines behind one narrow entry point.
//!
//! A request is a JSON object, the same the web server's API takes:
//!
//! | request | answer |
//! |---|---|
//! | `{"route": "catalog"}` | `{"puzzles": [{"name", "family", "title", "about", "expected"}, ...]}` |
//! | `{"route": "catalog", "name": N}` | `{"name", "text"}`: one catalog puzzle's file |
//! | `{"route": "puzzle", "text", "label"}` | `{"family", "name", "svg", "open_groups", "warnings"}` |
//! | `{"route": "search", "text", "label", "mode", "options", "shard": [I, N], "keep": K}` | `{"summary", "counts_mean"}`, the summary `solve --json` ends with |
//!
//! A search (mode `solve` or `count`, on one thread: a page runs shards of
//! one search on several Web Workers, `"shard": [I, N]`, and adds their
//! counts up as `jigsolve merge` does) hands out events while it runs:
//! `{"type": "progress", "nodes", "solutions", "seconds"}` as solutions
//! come, at most four times a second, and `{"type": "solution", "solution": ...}` for its
//! first `keep` solutions (the `solution` object of `solve --json`). An
//! error is `{"error": message}` naming the file and line.
//!
//! Compiled for `wasm32-unknown-unknown`, the crate exports
//! `jigsolve_alloc`, `jigsolve_free` and `jigsolve_request`, and imports
//! `env.jigsolve_event(ptr, len)` (each event's JSON) and
//! `env.jigsolve_now_ms()` (the search crate's clock); natively,
//! [`handle`] is the same function with the events passed to a closure.

use jigsolve_search::{Control, Shard, Weight};
use jigsolve_session::request::{mode_of, options_of, Mode};
use jigsolve_session::session::{Found, Job};
use jigsolve_session::{catalog, family, report, source::Source};
use serde_json::{json, Value};
use std::ops::ControlFlow;

/// The largest puzzle text a request may carry (as the server's limit).
pub const MAX_PUZZLE_BYTES: usize = 256 << 10;

/// Answers one request; `emit` receives each event of a search as JSON.
pub fn handle(request: &str, emit: &mut dyn FnMut(&str)) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|e| format!("the request is not JSON: {e}"))
        .and_then(|body| route(&body, emit));
    match answer {
        Ok(value) => value.to_string(),
        Err(message) => json!({ "error": message }).to_string(),
    }
}

fn route(body: &Value, emit: &mut dyn FnMut(&str)) -> Result<Value, String> {
    match body.get("route").and_then(Value::as_str) {
        Some("catalog") => match body.get("name").and_then(Value::as_str) {
            None => Ok(catalog_list()),
            Some(name) => catalog::find(name)
                .map(|e| json!({ "name": e.name, "text": e.text }))
                .ok_or_else(|| format!("no catalog puzzle is called '{name}'")),
        },
        Some("puzzle") => puzzle(body),
        Some("search") => search(body, emit),
        Some(other) => Err(format!(
            "unknown route '{other}': expected catalog, puzzle or search"
        )),
        None => Err("the request names no \"route\" (catalog, puzzle or search)".into()),
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

/// The shard of a request, `"shard": [I, N]`, or the whole tree.
fn shard_of(body: &Value) -> Result<Option<Shard>, String> {
    let Some(given) = body.get("shard").filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let pair = given
        .as_array()
        .filter(|a| a.len() == 2)
        .and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)));
    pair.and_then(|(i, n)| Shard::new(usize::try_from(i).ok()?, usize::try_from(n).ok()?))
        .map(Some)
        .ok_or_else(|| format!("\"shard\" must be [I, N] with 0 <= I < N, not {given}"))
}

fn search(body: &Value, emit: &mut dyn FnMut(&str)) -> Result<Value, String> {
    let mode = mode_of(body)?;
    if !matches!(mode, Mode::Solve | Mode::Count | Mode::ByOpen) {
        return Err(format!(
            "mode {} does not run in the browser yet: solve, count and by-open do",
            mode.as_str()
        ));
    }
    let options = options_of(body, mode, 1, "one thread a worker")?;
    let shard = shard_of(body)?;
    let keep = body.get("keep").and_then(Value::as_u64).unwrap_or(1000);
    let source = source_of(body)?;
    if mode == Mode::ByOpen {
        return by_open(&source, &options.engine, shard);
    }
    let mut puzzle = family::load(&source, None).map_err(|e| e.to_string())?;
    if let Some(open) = &options.open {
        puzzle = puzzle
            .with_open(&jigsolve_session::request::open_names(open))
            .map_err(|e| e.to_string())?;
    }
    jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), &options.engine)
        .map_err(|e| e.to_string())?;
    let session = puzzle.session(&options.engine).map_err(|e| e.to_string())?;
    let job = Job {
        threads: 1,
        shard,
        // Progress is sent from the solutions' callback: the search runs on
        // the worker's only thread.
        want_solutions: true,
        // Randomized restarts race on threads of their own, which a worker
        // has not: the first solution comes from the tree walked in order.
        first_solutions_only: false,
    };
    let described = session.described(&job);
    let control = Control::new().with_progress();
    let started = jigsolve_search::clock::Instant::now();
    let mut last_progress = 0.0;
    let mut listed = 0u64;
    let mut found = |found: &dyn Found, _weight: Weight| {
        listed += 1;
        if listed <= keep {
            emit(&json!({"type": "solution", "solution": found.json()}).to_string());
        }
        let seconds = started.elapsed().as_secs_f64();
        if seconds - last_progress >= 0.25 {
            last_progress = seconds;
            emit(
                &json!({
                    "type": "progress",
                    "nodes": control.nodes(),
                    "solutions": listed,
                    "seconds": seconds,
                })
                .to_string(),
            );
        }
        match mode {
            Mode::Solve => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    };
    let ran = session.run(&job, &control, &mut found).map_err(|e| {
        format!("the search tree was cut at a path that does not exist (a bug): {e}")
    })?;
    let summary = report::summary_json(&ran.report, &described, shard, false);
    Ok(json!({
        "summary": summary,
        "counts_mean": {
            "raw": described.raw_means,
            "distinct": described.distinct_means,
            "unique": described.unique_means,
            "listed": described.listed_means,
        },
        "error": ran.fault,
    }))
}

/// Every goal of a puzzle that leaves cells open counted in one search, as
/// `solve --by-open` counts them: the summary, a line per goal (as `solve
/// --by-open --json` prints them) and the heat map as SVG (of this shard's
/// counts when the request is a shard).
fn by_open(
    source: &Source,
    engine: &jigsolve_session::engine::EngineOptions,
    shard: Option<Shard>,
) -> Result<Value, String> {
    use jigsolve_session::goals;
    let puzzle = family::load(source, None).map_err(|e| e.to_string())?;
    jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), engine)
        .map_err(|e| e.to_string())?;
    let groups = goals::goal_groups(puzzle.as_ref(), "mode by-open").map_err(|e| e.to_string())?;
    let session = puzzle
        .session(&goals::goal_engine(engine))
        .map_err(|e| e.to_string())?;
    let job = Job {
        threads: 1,
        shard,
        want_solutions: false,
        first_solutions_only: false,
    };
    let described = session.described(&job);
    let control = Control::new().with_progress();
    let goals::Counted {
        ran, goals, empty, ..
    } = goals::count_goals(session.as_ref(), &groups, 1, shard, 0, &control)
        .map_err(|e| e.to_string())?;
    let heat_map =
        goals::heat_map(puzzle.as_ref(), &ran.report, &goals).map_err(|e| e.to_string())?;
    let mut summary = report::summary_json(&ran.report, &described, shard, false);
    summary["goals"] = json!({"with_solutions": goals.len(), "without": empty.len()});
    let lines: Vec<Value> = goals
        .iter()
        .chain(&empty)
        .map(|g| goals::goal_json(g, &[]))
        .collect();
    Ok(json!({
        "summary": summary,
        "goals": lines,
        "heat_map": heat_map,
        "error": ran.fault,
    }))
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
        let answer = super::handle(&request, &mut |event: &str| {
            // SAFETY: the host reads `len` bytes at `ptr` before returning.
            unsafe { jigsolve_event(event.as_ptr(), event.len()) }
        });
        let answer = answer.into_bytes().into_boxed_slice();
        let len = answer.len();
        let ptr = Box::into_raw(answer).cast::<u8>();
        (ptr as u64) | ((len as u64) << 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(body: Value) -> (Value, Vec<Value>) {
        let mut events = Vec::new();
        let answer = handle(&body.to_string(), &mut |e| {
            events.push(serde_json::from_str(e).unwrap());
        });
        (serde_json::from_str(&answer).unwrap(), events)
    }

    #[test]
    fn shards_of_a_count_add_up_to_the_published_count_and_their_solutions_verify() {
        let entry = catalog::find("pentomino-6x10").unwrap();
        let puzzle = family::load(
            &Source {
                label: entry.name.into(),
                text: entry.text.into(),
            },
            None,
        )
        .unwrap();
        let mut unique = 0;
        let mut seen = 0;
        for i in 0..3 {
            let (answer, events) = request(json!({
                "route": "search", "mode": "count", "text": entry.text,
                "label": entry.name, "shard": [i, 3], "keep": 50
            }));
            unique += answer["summary"]["unique"].as_u64().unwrap();
            for e in events.iter().filter(|e| e["type"] == "solution") {
                puzzle.verify(&e["solution"]).unwrap();
                seen += 1;
            }
        }
        assert_eq!(unique, 2339, "pentominoes 6 x 10, unique solutions");
        assert_eq!(seen, 150, "50 kept solutions a shard");
    }

    #[test]
    fn every_date_of_a_calendar_is_counted_in_one_request() {
        let entry = catalog::find("a-puzzle-a-day").unwrap();
        let (answer, _) = request(json!({
            "route": "search", "mode": "by-open", "text": entry.text, "label": entry.name
        }));
        let goals = answer["goals"].as_array().unwrap();
        let with: Vec<&Value> = goals
            .iter()
            .filter(|g| g["counts"]["distinct"] != 0)
            .collect();
        // Every month-day pair has a solution (Feb 30 too: the frame does
        // not know the calendar), 25,061 in all.
        assert_eq!(with.len(), 372, "{}", answer["summary"]);
        let total: u64 = with
            .iter()
            .map(|g| g["counts"]["distinct"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 25_061);
        assert_eq!(answer["summary"]["distinct"], 25_061);
        assert!(answer["heat_map"].as_str().unwrap().starts_with("<svg"));
    }

    #[test]
    fn bad_requests_are_errors_that_say_what_is_wrong() {
        let (answer, _) = request(
            json!({"route": "search", "mode": "count", "text": "board = 7\n", "label": "bad.toml"}),
        );
        assert!(
            answer["error"].as_str().unwrap().contains("bad.toml"),
            "{answer}"
        );
        let (answer, _) = request(json!({"route": "search", "mode": "best", "text": "x"}));
        assert!(
            answer["error"].as_str().unwrap().contains("mode best"),
            "{answer}"
        );
        let (answer, _) = request(json!({"route": "nowhere"}));
        assert!(
            answer["error"].as_str().unwrap().contains("unknown route"),
            "{answer}"
        );
        let (answer, _) =
            request(json!({"route": "search", "mode": "count", "text": "x", "shard": [3, 3]}));
        assert!(
            answer["error"].as_str().unwrap().contains("shard"),
            "{answer}"
        );
        let (answer, _) = request(json!({"route": "catalog"}));
        assert!(answer["puzzles"].as_array().unwrap().len() > 20, "{answer}");
    }
}
