//! The routes of `jigsolve serve`: the page's three files and the JSON API.
//!
//! | route | answer |
//! |---|---|
//! | `GET /`, `/app.js`, `/backends.js`, `/style.css` | the page |
//! | `GET /api/status` | searches running (and the threads they use), waiting and kept; the limits |
//! | `GET /api/catalog`, `GET /api/catalog/NAME` | the catalog; one puzzle's file |
//! | `POST /api/puzzle` `{text, label}` | the puzzle read as `solve` reads it: family, name, picture (SVG) and what `solve` warns of, or the error with its line |
//! | `POST /api/puzzle/png` `{text, label}` | the puzzle's picture as PNG |
//! | `POST /api/search` `{text, label, mode, options}` | starts a search (`solve`: the first solution; `count`: all; `best`: the best board of an edge puzzle; `tree`: the search tree, as `jigsolve tree`) with the command line's engine options and a thread count (`tree`: depth and nodes drawn); its id |
//! | `GET /api/search/ID/events` | Server-Sent Events: `progress`, then `done`; closing it cancels and forgets the search |
//! | `POST /api/search/ID/stop` | cancels the search |
//! | `GET /api/search/ID/solution/N?format=svg\|png\|json` | kept solution N |
//! | `GET /api/search/ID/best?format=svg\|png\|json` | a best-board search's best board so far |
//! | `GET /api/search/ID/tree?format=svg\|png\|json` | a tree search's tree: its picture, or what `tree --json` prints |
//! | `GET /api/search/ID/solutions` | the kept solutions and the summary as JSON Lines |
//!
//! Errors are `{"error": message, "line": N}` with a 4xx status (5xx for
//! a bug or a full server).

// An error here is the request's whole answer, made once per request:
// its size does not matter.
#![allow(clippy::result_large_err)]

use crate::searches::{Registry, Search};
use crate::{MAX_BODY_BYTES, MAX_PUZZLE_BYTES};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use jigsolve_session::catalog;
use jigsolve_session::family;
use jigsolve_session::source::Source;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

mod guard;
mod search;

use guard::guard;
use search::{best_board, events, search_of, search_tree, solution, solutions, start, stop};

const INDEX_HTML: &str = include_str!("../page/index.html");
const APP_JS: &str = include_str!("../page/app.js");
const BACKENDS_JS: &str = include_str!("../page/backends.js");
const STYLE_CSS: &str = include_str!("../page/style.css");

/// How often a running search's progress is sent.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The server's shared state.
struct App {
    registry: Arc<Registry>,
    /// Listening on a loopback address: only requests naming a loopback
    /// host are answered (a page elsewhere cannot rebind its name to us).
    loopback: bool,
}

type Shared = State<Arc<App>>;

/// The whole application.
pub fn router(registry: Arc<Registry>, loopback: bool) -> Router {
    let app = Arc::new(App { registry, loopback });
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/backends.js",
            get(|| async { asset("text/javascript; charset=utf-8", BACKENDS_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/status", get(status))
        .route("/api/catalog", get(catalog_list))
        .route("/api/catalog/{name}", get(catalog_one))
        .route("/api/puzzle", post(puzzle))
        .route("/api/puzzle/png", post(puzzle_png))
        .route("/api/search", post(start))
        .route("/api/search/{id}/events", get(events))
        .route("/api/search/{id}/stop", post(stop))
        .route("/api/search/{id}/solution/{n}", get(solution))
        .route("/api/search/{id}/solutions", get(solutions))
        .route("/api/search/{id}/best", get(best_board))
        .route("/api/search/{id}/tree", get(search_tree))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or API route".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), guard))
        .with_state(app)
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

fn ok(value: Value) -> Response {
    json_response(StatusCode::OK, &value)
}

fn error(status: StatusCode, message: String) -> Response {
    json_response(status, &json!({ "error": message }))
}

/// A puzzle's error as the command line says it, with the line it names
/// (the message starts `LABEL:LINE:`).
fn input_error(label: &str, message: String) -> Response {
    let line = message
        .strip_prefix(label)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|rest| rest.split_once(':'))
        .and_then(|(n, _)| n.parse::<u64>().ok());
    json_response(
        StatusCode::UNPROCESSABLE_ENTITY,
        &json!({ "error": message, "line": line }),
    )
}

/// What runs off the runtime's thread, in two pools with their own turns:
/// reading a puzzle (milliseconds) and drawing a PNG (Eternity II's takes a
/// third of a second). Past a pool's turns and waiting places a request is
/// refused at once (503). A client that goes away does not take its work
/// back (HTTP/1 tells only when the answer is written), so this is what
/// bounds the work that a thousand abandoned requests leave.
#[derive(Clone, Copy)]
enum Pool {
    /// Reading puzzles (and their SVG): 16 at once, 1,024 waiting (the
    /// most connections the server takes).
    Reading,
    /// Drawing PNG pictures: 4 at once, 32 waiting.
    Drawing,
}

impl Pool {
    /// The pool's turns, how many may wait, and how many wait.
    fn slots(
        self,
    ) -> &'static (
        Arc<tokio::sync::Semaphore>,
        usize,
        std::sync::atomic::AtomicUsize,
    ) {
        type Slots = (
            Arc<tokio::sync::Semaphore>,
            usize,
            std::sync::atomic::AtomicUsize,
        );
        static READING: std::sync::OnceLock<Slots> = std::sync::OnceLock::new();
        static DRAWING: std::sync::OnceLock<Slots> = std::sync::OnceLock::new();
        let (cell, at_once, waiting) = match self {
            Pool::Reading => (&READING, 16, super::MAX_CONNECTIONS),
            Pool::Drawing => (&DRAWING, 4, 32),
        };
        cell.get_or_init(|| {
            (
                Arc::new(tokio::sync::Semaphore::new(at_once)),
                waiting,
                std::sync::atomic::AtomicUsize::new(0),
            )
        })
    }
}

/// Runs `work` on a blocking thread when its turn in `pool` comes (more
/// than the pool lets wait are refused with 503); a panic there is an
/// error answer.
async fn blocking<T: Send + 'static>(
    pool: Pool,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    use std::sync::atomic::Ordering;
    let (slots, most_waiting, waiting) = pool.slots();
    let permit = match Arc::clone(slots).try_acquire_owned() {
        Ok(permit) => permit,
        Err(_) => {
            // Counted while it waits, however the wait ends.
            struct Waiting(&'static std::sync::atomic::AtomicUsize);
            impl Drop for Waiting {
                fn drop(&mut self) {
                    self.0.fetch_sub(1, Ordering::SeqCst);
                }
            }
            let before = waiting.fetch_add(1, Ordering::SeqCst);
            let _waiting = Waiting(waiting);
            if before >= *most_waiting {
                return Err(error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server is busy {} ({most_waiting} more wait); try again",
                        match pool {
                            Pool::Reading => "reading puzzles",
                            Pool::Drawing => "drawing pictures",
                        }
                    ),
                ));
            }
            Arc::clone(slots).acquire_owned().await.map_err(|_| {
                error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is stopping".into(),
                )
            })?
        }
    };
    tokio::task::spawn_blocking(move || {
        let _turn = permit;
        work()
    })
    .await
    .map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "jigsolve failed on this request (a bug); the server goes on".into(),
        )
    })
}

/// A puzzle sent by the page: its text and the name its messages use.
struct Sent {
    text: String,
    label: String,
    body: Value,
}

/// Reads `{text, label}` from a request body.
fn sent(body: &Bytes) -> Result<Sent, Response> {
    let body: Value = serde_json::from_slice(body).map_err(|e| {
        error(
            StatusCode::BAD_REQUEST,
            format!("the request is not the JSON the page sends: {e}"),
        )
    })?;
    let Some(text) = body.get("text").and_then(Value::as_str) else {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "the request has no puzzle: expected {\"text\": \"...\"}".into(),
        ));
    };
    if text.len() > MAX_PUZZLE_BYTES {
        return Err(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the puzzle is {} KiB, larger than {} KiB, the most the server takes",
                text.len() >> 10,
                MAX_PUZZLE_BYTES >> 10
            ),
        ));
    }
    let label: String = body
        .get("label")
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(100)
        .collect();
    let label = if label.trim().is_empty() {
        "puzzle".to_string()
    } else {
        label
    };
    Ok(Sent {
        text: text.to_string(),
        label,
        body,
    })
}

/// Reads the puzzle as the command line does; the message on failure.
fn load(label: &str, text: &str) -> Result<Box<dyn jigsolve_session::puzzle::Loaded>, String> {
    let source = Source {
        label: label.to_string(),
        text: text.to_string(),
    };
    family::load(&source, None).map_err(|e| format!("{e:#}"))
}

async fn status(State(app): Shared) -> Response {
    let load = app.registry.load();
    let limits = &app.registry.limits;
    ok(json!({
        "running": load.running,
        "threads": load.threads,
        "waiting": load.waiting,
        "kept": load.kept,
        "kept_bytes": super::searches::kept_bytes(),
        "limits": {
            "threads": limits.threads,
            "waiting": limits.waiting,
            "kept": limits.kept,
            "solutions_kept": limits.solutions,
            "bytes_kept_per_search": super::searches::KEPT_BYTES_PER_SEARCH,
            "bytes_kept_in_all": super::searches::KEPT_BYTES_IN_ALL,
            "search_seconds": limits.time_limit.as_secs_f64(),
            "connect_seconds": limits.connect_timeout.as_secs_f64(),
            "request_bytes": MAX_BODY_BYTES,
            "puzzle_bytes": MAX_PUZZLE_BYTES,
        },
    }))
}

async fn catalog_list() -> Response {
    ok(catalog::ENTRIES.iter().map(catalog::entry_json).collect())
}

async fn catalog_one(Path(name): Path<String>) -> Response {
    match catalog::find(&name) {
        Some(e) => ok(json!({ "name": e.name, "label": e.path, "text": e.text })),
        None => error(
            StatusCode::NOT_FOUND,
            format!("no catalog puzzle named '{name}'"),
        ),
    }
}

async fn puzzle(body: Bytes) -> Response {
    let sent = match sent(&body) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let label = sent.label.clone();
    let read = blocking(Pool::Reading, move || {
        load(&sent.label, &sent.text).map(|p| jigsolve_session::puzzle::read_json(p.as_ref()))
    })
    .await;
    match read {
        Ok(Ok(v)) => ok(v),
        Ok(Err(message)) => input_error(&label, message),
        Err(r) => r,
    }
}

async fn puzzle_png(body: Bytes) -> Response {
    let sent = match sent(&body) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let label = sent.label.clone();
    let drawn = blocking(Pool::Drawing, move || {
        let puzzle = load(&sent.label, &sent.text)?;
        png_of(&puzzle.puzzle_svg())
    })
    .await;
    match drawn {
        Ok(Ok(png)) => picture("image/png", png, None),
        Ok(Err(message)) => input_error(&label, message),
        Err(r) => r,
    }
}

fn png_of(svg: &str) -> Result<Vec<u8>, String> {
    jigsolve_render::png::png(svg, jigsolve_render::png::DEFAULT_SCALE)
        .map_err(|e| format!("cannot draw the picture: {e}"))
}

fn picture(content_type: &'static str, bytes: Vec<u8>, file: Option<String>) -> Response {
    let mut response = ([(header::CONTENT_TYPE, content_type)], bytes).into_response();
    if let Some(file) = file {
        as_download(&mut response, &file);
    }
    response
}

/// Makes `response` a download saved as `file`.
fn as_download(response: &mut Response, file: &str) {
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, v);
    }
}

/// The search a picture or download request names, the `format` it asks
/// for and whether it wants a download (see [`format_asked`]).
fn picture_request(
    app: &App,
    id: &str,
    query: &HashMap<String, String>,
) -> Result<(Arc<Search>, String, bool), Response> {
    let search = search_of(app, id)?;
    let (format, download) = format_asked(query)?;
    Ok((search, format, download))
}

/// The `format` a request asks for (`svg`, `png` or `json`, the default)
/// and whether it wants a download.
fn format_asked(query: &HashMap<String, String>) -> Result<(String, bool), Response> {
    let format = query.get("format").map_or("json", String::as_str);
    if !matches!(format, "json" | "svg" | "png") {
        return Err(error(
            StatusCode::BAD_REQUEST,
            format!("unknown format '{format}': expected svg, png or json"),
        ));
    }
    Ok((format.to_string(), query.contains_key("download")))
}

/// A JSON answer, as a download named `file` when one is asked for.
fn json_download(line: &serde_json::Value, file: Option<String>) -> Response {
    let mut response = json_response(StatusCode::OK, line);
    if let Some(file) = file {
        as_download(&mut response, &file);
    }
    response
}

/// Draws an SVG off the async thread and answers it as SVG or PNG, as a
/// download named `stem` plus the extension when `stem` is given.
async fn drawn_picture(
    png: bool,
    stem: Option<String>,
    draw: impl FnOnce() -> Result<String, String> + Send + 'static,
) -> Response {
    let drawn = blocking(Pool::Drawing, move || -> Result<Vec<u8>, String> {
        let svg = draw()?;
        if png {
            png_of(&svg)
        } else {
            Ok(svg.into_bytes())
        }
    })
    .await;
    let (kind, ext) = if png {
        ("image/png", "png")
    } else {
        ("image/svg+xml", "svg")
    };
    match drawn {
        Ok(Ok(bytes)) => picture(kind, bytes, stem.map(|stem| format!("{stem}.{ext}"))),
        Ok(Err(message)) => error(StatusCode::INTERNAL_SERVER_ERROR, message),
        Err(r) => r,
    }
}
