//! The routes of `jigsolve serve`: the page's three files and the JSON API.
//!
//! | route | answer |
//! |---|---|
//! | `GET /`, `/app.js`, `/style.css` | the page |
//! | `GET /api/status` | searches running (and the threads they use), waiting and kept; the limits |
//! | `GET /api/catalog`, `GET /api/catalog/NAME` | the catalog; one puzzle's file |
//! | `POST /api/puzzle` `{text, label}` | the puzzle read as `solve` reads it: family, name and picture (SVG), or the error with its line |
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

use super::searches::{Mode, Options, Phase, Refused, Registry, Search};
use super::{MAX_BODY_BYTES, MAX_PUZZLE_BYTES};
use crate::catalog;
use crate::family;
use crate::source::Source;
use crate::text::file_stem;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::FutureExt;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

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

/// Around every request: the host, origin and content-type checks, a
/// panic turned into an error answer, every error of the API as JSON, and
/// headers that keep the page to itself.
async fn guard(State(app): Shared, request: Request, next: Next) -> Response {
    if app.loopback && !loopback_host(&request) {
        return error(
            StatusCode::FORBIDDEN,
            "this server answers only requests for localhost (it listens on a loopback address)"
                .into(),
        );
    }
    if !app.loopback && !address_host(&request) {
        return error(
            StatusCode::FORBIDDEN,
            "this server answers only requests that name it by its IP address or localhost (a name could be rebound by another site)"
                .into(),
        );
    }
    let api = request.uri().path().starts_with("/api/");
    if api && foreign(&request) {
        return error(
            StatusCode::FORBIDDEN,
            "this server answers its API only to its own page (the request came from another site)"
                .into(),
        );
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        // Read what the client sends (a few MiB at most, briefly) before
        // answering: a connection closed with its request unread is reset,
        // and the client may lose the answer with it.
        let mut body = request.into_body().into_data_stream();
        let until = tokio::time::Instant::now() + std::time::Duration::from_secs(2);
        let mut read = 0usize;
        while read <= 8 << 20 {
            match tokio::time::timeout_at(until, futures_util::StreamExt::next(&mut body)).await {
                Ok(Some(Ok(chunk))) => read += chunk.len(),
                _ => break,
            }
        }
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request is larger than the {} KiB the server takes",
                MAX_BODY_BYTES >> 10
            ),
        );
    }
    if request.method() == Method::POST && !is_json(&request) {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the request as JSON (Content-Type: application/json)".into(),
        );
    }
    let mut response = match AssertUnwindSafe(next.run(request)).catch_unwind().await {
        Ok(response) => response,
        Err(_) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "jigsolve failed on this request (a bug); the server goes on".into(),
        ),
    };
    if api && !response.status().is_success() && !is_json_response(&response) {
        response = as_json_error(response).await;
    }
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The host name of the request's Host header, without its port or the
/// brackets of an IPv6 address.
fn host_name(request: &Request) -> Option<&str> {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())?;
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    Some(name.trim_start_matches('[').trim_end_matches(']'))
}

/// Whether the request's Host is a loopback name or address.
fn loopback_host(request: &Request) -> bool {
    host_name(request).is_some_and(|name| {
        name.eq_ignore_ascii_case("localhost")
            || name
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    })
}

/// Whether the request's Host is an IP address or localhost: on a
/// non-loopback address the server cannot tell its own names from a name
/// another site has rebound to it, so it takes none.
fn address_host(request: &Request) -> bool {
    host_name(request).is_some_and(|name| {
        name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok()
    })
}

/// Whether a browser says the request comes from a page of another site:
/// `Sec-Fetch-Site` other than `same-origin` or `none` (typed in the
/// address bar), or an `Origin` that is not this server as the request
/// names it. Programs that send neither (curl, scripts) are served.
fn foreign(request: &Request) -> bool {
    let headers = request.headers();
    let text = |name| headers.get(name).map(|h| h.to_str().unwrap_or(""));
    if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
        if !matches!(site, "same-origin" | "none") {
            return true;
        }
    }
    match text(header::ORIGIN) {
        None => false,
        Some(origin) => {
            let host = text(header::HOST).unwrap_or("");
            !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        }
    }
}

/// Whether the request's body is JSON (media types are case-insensitive).
fn is_json(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|t| {
            t.trim_start()
                .get(..16)
                .is_some_and(|m| m.eq_ignore_ascii_case("application/json"))
        })
}

fn is_json_response(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"))
}

/// An error answer that axum made as plain text (a body over the limit, a
/// path that does not parse, a method a route does not take) as the API's
/// documented JSON error, with the same status.
async fn as_json_error(response: Response) -> Response {
    let status = response.status();
    let text = axum::body::to_bytes(response.into_body(), 64 << 10)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => format!(
            "the request is larger than the {} KiB the server takes",
            MAX_BODY_BYTES >> 10
        ),
        _ if text.is_empty() => status
            .canonical_reason()
            .unwrap_or("the request was refused")
            .to_string(),
        _ => text,
    };
    error(status, message)
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
fn load(label: &str, text: &str) -> Result<Box<dyn crate::puzzle::Loaded>, String> {
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
    let entries: Vec<Value> = catalog::ENTRIES
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "family": e.family,
                "title": catalog::field(e, "title"),
                "about": catalog::field(e, "about"),
                "expected": catalog::expected(e),
            })
        })
        .collect();
    ok(Value::Array(entries))
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
        load(&sent.label, &sent.text).map(|p| {
            json!({
                "family": p.family().as_str(),
                "name": p.name(),
                "svg": p.puzzle_svg(),
                "open_groups": p
                    .open_groups()
                    .into_iter()
                    .map(|(name, cells)| json!({"name": name, "cells": cells}))
                    .collect::<Vec<_>>(),
            })
        })
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

async fn start(State(app): Shared, body: Bytes) -> Response {
    let sent = match sent(&body) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let mode = match sent.body.get("mode").map(|m| m.as_str().ok_or(m)) {
        Some(Err(m)) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("\"mode\" must be a string (solve, count, best, tree or by-open), not {m}"),
            )
        }
        Some(Ok(mode)) => Some(mode),
        None => None,
    };
    let mode = match mode {
        Some("solve") | None => Mode::Solve,
        Some("count") => Mode::Count,
        Some("best") => Mode::Best,
        Some("tree") => Mode::Tree,
        Some("by-open") => Mode::ByOpen,
        Some(other) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("unknown mode '{other}': expected solve, count, best, tree or by-open"),
            )
        }
    };
    let options = match options_of(&sent.body, mode, app.registry.limits.threads) {
        Ok(o) => o,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    // Read once here, and the session prepared with these options, so that
    // bad input or an option the family does not take is an answer, not a
    // failed search.
    let (label, text) = (sent.label.clone(), sent.text.clone());
    let engine = options.engine.clone();
    let open = options.open.clone();
    let checked = blocking(Pool::Reading, move || {
        if mode == Mode::Best {
            let source = Source { label, text };
            return family::load_edge(&source, None, "the best-board search")
                .map(|_| ())
                .map_err(|e| format!("{e:#}"));
        }
        let mut puzzle = load(&label, &text)?;
        crate::puzzle::check_engine_options(puzzle.as_ref(), &engine)
            .map_err(|e| format!("{e:#}"))?;
        if let Some(open) = &open {
            puzzle = puzzle
                .with_open(&super::searches::open_names(open))
                .map_err(|e| format!("{e:#}"))?;
        }
        if mode == Mode::ByOpen && puzzle.open_groups().is_empty() {
            return Err(format!(
                "{} leaves no cells open: mode by-open is for puzzles with [[open]] groups or holes",
                puzzle.name()
            ));
        }
        puzzle
            .session(&engine)
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
    })
    .await;
    match checked {
        Ok(Ok(())) => {}
        Ok(Err(message)) => return input_error(&sent.label, message),
        Err(r) => return r,
    }
    match app.registry.start(mode, options, sent.label, sent.text) {
        Ok(search) => {
            let registry = Arc::clone(&app.registry);
            let id = search.id.clone();
            let timeout = registry.limits.connect_timeout;
            drop(search);
            let answer = ok(json!({ "id": id, "mode": mode.as_str() }));
            // Holds only the id: a search forgotten meanwhile is freed now.
            tokio::spawn(async move {
                tokio::time::sleep(timeout).await;
                if let Some(search) = registry.get(&id) {
                    if !search.streamed.load(std::sync::atomic::Ordering::SeqCst) {
                        registry.forget(&id);
                    }
                }
            });
            answer
        }
        Err(Refused(message)) => error(StatusCode::SERVICE_UNAVAILABLE, message),
    }
}

/// The search options of a request, `"options": {"symmetry": false,
/// "order": "frame", "engine": "dlx", "flip": "flip" | "no-flip",
/// "threads": 2}`, each optional: what `solve --no-symmetry --order frame
/// --engine dlx --flip --threads 2` asks. At most `most_threads` threads;
/// the best-board search takes the thread count only; the tree takes one
/// thread, and `"depth": N, "max_nodes": N` as `tree --depth N
/// --max-nodes N` (checked as the command line checks them).
fn options_of(body: &Value, mode: Mode, most_threads: usize) -> Result<Options, String> {
    let mut options = Options::default();
    let Some(given) = body.get("options") else {
        return Ok(options);
    };
    let Some(given) = given.as_object() else {
        return Err("\"options\" must be an object such as {\"symmetry\": false}".into());
    };
    let text = |key: &str| -> Result<Option<&str>, String> {
        match given.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("option {key}: expected a name, got {other}")),
        }
    };
    for key in given.keys() {
        if !matches!(
            key.as_str(),
            "symmetry" | "order" | "engine" | "flip" | "threads" | "depth" | "max_nodes" | "open"
        ) {
            return Err(format!(
                "unknown option '{key}': expected symmetry, order, engine, flip, threads, depth, max_nodes or open"
            ));
        }
    }
    if let Some(open) = text("open")? {
        if matches!(mode, Mode::Best | Mode::ByOpen) {
            return Err(format!(
                "option open names one goal; mode {} takes none",
                mode.as_str()
            ));
        }
        options.open = Some(open.to_string());
    }
    match given.get("symmetry") {
        None | Some(Value::Null) | Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => options.engine.no_symmetry = true,
        Some(other) => {
            return Err(format!(
                "option symmetry: expected true or false, got {other}"
            ))
        }
    }
    if let Some(order) = text("order")? {
        options.engine.order = Some(order.parse().map_err(|e| format!("option order: {e}"))?);
    }
    if let Some(engine) = text("engine")? {
        options.engine.engine_choice =
            Some(engine.parse().map_err(|e| format!("option engine: {e}"))?);
    }
    match text("flip")? {
        None | Some("file") => {}
        Some("flip") => options.engine.flip = true,
        Some("no-flip") => options.engine.no_flip = true,
        Some(other) => {
            return Err(format!(
                "option flip: unknown '{other}': expected file, flip or no-flip"
            ))
        }
    }
    match given.get("threads") {
        None | Some(Value::Null) => {}
        Some(n) => match n.as_u64() {
            Some(n) if n >= 1 && n <= most_threads as u64 => options.threads = n as usize,
            _ => {
                return Err(format!(
                    "option threads: {n} is not a thread count from 1 to {most_threads} (the server's --threads)"
                ))
            }
        },
    }
    // The tree's options, parsed from their text by the command line's own
    // parsers, so that the messages are the same.
    let tree_option = |key: &str| -> Result<Option<String>, String> {
        match given.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) if mode != Mode::Tree => Err(format!(
                "option {key} applies to the search tree (mode tree) only"
            )),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(format!("option {key}: expected a number, got {other}")),
        }
    };
    if let Some(depth) = tree_option("depth")? {
        let depth = crate::options::positive(&depth).map_err(|e| format!("option depth: {e}"))?;
        options.tree.depth = Some(usize::try_from(depth).unwrap_or(usize::MAX));
    }
    if let Some(nodes) = tree_option("max_nodes")? {
        options.tree.nodes =
            crate::options::tree_nodes(&nodes).map_err(|e| format!("option max_nodes: {e}"))?;
    }
    if mode == Mode::Tree && options.threads != 1 {
        return Err(format!(
            "the search tree is walked on one thread, as `jigsolve tree` walks it: option threads must be 1, not {}",
            options.threads
        ));
    }
    if mode == Mode::Best && !options.engine.to_args().is_empty() {
        return Err(format!(
            "the best-board search takes only the threads option, not {}",
            options.engine.to_args().join(" ")
        ));
    }
    Ok(options)
}

fn search_of(app: &App, id: &str) -> Result<Arc<Search>, Response> {
    app.registry.get(id).ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            format!("no search {id} on this server (its page closed, or it never started)"),
        )
    })
}

/// The page listening to its search. Dropped when the stream ends, which
/// is when the page went away: the search is then cancelled and forgotten.
struct Listening {
    registry: Arc<Registry>,
    search: Arc<Search>,
    first: bool,
    done: bool,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.registry.forget(&self.search.id);
    }
}

async fn events(State(app): Shared, Path(id): Path<String>) -> Response {
    let search = match search_of(&app, &id) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if search
        .streamed
        .swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        return error(
            StatusCode::CONFLICT,
            format!("search {id} already has a page listening to it"),
        );
    }
    let listening = Listening {
        registry: Arc::clone(&app.registry),
        search,
        first: true,
        done: false,
    };
    let stream = futures_util::stream::unfold(listening, |mut l| async move {
        if l.done {
            // Nothing more to say; the stream stays open (kept alive) so
            // that its closing tells when the page has gone.
            std::future::pending::<()>().await;
        }
        if !l.first {
            tokio::time::sleep(PROGRESS_EVERY).await;
        }
        l.first = false;
        let event = if l.search.phase() == Phase::Done {
            l.done = true;
            let mut outcome = l.search.outcome();
            outcome["progress"] = l.search.progress();
            Event::default().event("done").data(outcome.to_string())
        } else {
            Event::default()
                .event("progress")
                .data(l.search.progress().to_string())
        };
        Some((Ok::<Event, Infallible>(event), l))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(2)))
        .into_response()
}

async fn stop(State(app): Shared, Path(id): Path<String>) -> Response {
    match search_of(&app, &id) {
        Ok(search) => {
            search.cancel();
            ok(json!({ "stopped": search.id }))
        }
        Err(r) => r,
    }
}

async fn solution(
    State(app): Shared,
    Path((id, n)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let (search, format, download) = match picture_request(&app, &id, &query) {
        Ok(asked) => asked,
        Err(r) => return r,
    };
    let Some(found) = n.parse::<u64>().ok().and_then(|n| search.solution(n)) else {
        let outcome = search.outcome();
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "no solution {n} in search {id}: it has kept {} of the {} listed so far",
                outcome["kept"], outcome["listed"]
            ),
        );
    };
    let index: u64 = n.parse().unwrap_or(0);
    let stem = format!("{}-{index:04}", file_stem(&found.puzzle));
    if format == "json" {
        let line = json!({
            "type": "solution",
            "puzzle": found.puzzle,
            "index": index,
            "weight": crate::report::weight_json(found.weight),
            "solution": found.record,
        });
        return json_download(&line, download.then(|| format!("{stem}.json")));
    }
    let (label, text) = (search.label.clone(), search.text.clone());
    drawn_picture(format == "png", download.then_some(stem), move || {
        let puzzle = load(&label, &text)?;
        let caption = format!(
            "{}: solution {index} (stands for {} raw, {} distinct)",
            found.puzzle, found.weight.raw, found.weight.distinct
        );
        puzzle.solution_svg(&found.record, &caption)
    })
    .await
}

async fn solutions(State(app): Shared, Path(id): Path<String>) -> Response {
    let search = match search_of(&app, &id) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let file = format!("{}-solutions.jsonl", file_stem(&search.label_stem()));
    let mut response = (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from(search.json_lines()),
    )
        .into_response();
    as_download(&mut response, &file);
    response
}

/// The tree of a tree search, as its picture or what `tree --json` prints.
async fn search_tree(
    State(app): Shared,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let (search, format, download) = match picture_request(&app, &id, &query) {
        Ok(asked) => asked,
        Err(r) => return r,
    };
    let Some(tree) = search.tree() else {
        return error(
            StatusCode::NOT_FOUND,
            format!("search {id} has no tree (yet, or it is not a tree search)"),
        );
    };
    let stem = format!("{}-tree", file_stem(&search.label_stem()));
    if format == "json" {
        let mut response = (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            tree.json.to_string(),
        )
            .into_response();
        if download {
            as_download(&mut response, &format!("{stem}.json"));
        }
        return response;
    }
    drawn_picture(format == "png", download.then_some(stem), move || {
        Ok(tree.svg.to_string())
    })
    .await
}

/// The best board so far of a best-board search, as a picture (empty cells
/// blank) or its line of `best --json`.
async fn best_board(
    State(app): Shared,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let (search, format, download) = match picture_request(&app, &id, &query) {
        Ok(asked) => asked,
        Err(r) => return r,
    };
    let Some(best) = search.best() else {
        return error(
            StatusCode::NOT_FOUND,
            format!("search {id} has no best board (yet, or it is not a best-board search)"),
        );
    };
    let score = best.line["score"].as_u64().unwrap_or(0);
    let stem = format!("{}-best-{score}", file_stem(&search.label_stem()));
    if format == "json" {
        return json_download(&best.line, download.then(|| format!("{stem}.json")));
    }
    let source = Source {
        label: search.label.clone(),
        text: search.text.clone(),
    };
    drawn_picture(format == "png", download.then_some(stem), move || {
        let puzzle = family::load_edge(&source, None, "the best-board search")
            .map_err(|e| format!("{e:#}"))?;
        let placements = family::edge_board_of(&puzzle, &best.line)?;
        let caption = format!(
            "{}: best board, {score} of {} inner edges match",
            puzzle.name, best.line["max"]
        );
        Ok(jigsolve_render::edge::board_svg(
            &puzzle,
            &placements,
            &caption,
        ))
    })
    .await
}
