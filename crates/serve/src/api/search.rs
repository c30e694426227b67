//! The routes of one search: starting it, its event stream, Stop, and what
//! it keeps (solutions, the best board, the tree).

#![allow(clippy::result_large_err)]

use super::{
    as_download, blocking, drawn_picture, error, input_error, json_download, load, ok,
    picture_request, sent, App, Pool, Shared, PROGRESS_EVERY,
};
use crate::searches::{Mode, Phase, Refused, Registry, Search};
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use jigsolve_session::family;
use jigsolve_session::request::{mode_of, options_of};
use jigsolve_session::source::Source;
use jigsolve_session::text::file_stem;
use serde_json::json;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

pub(super) async fn start(State(app): Shared, body: Bytes) -> Response {
    let sent = match sent(&body) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let mode = match mode_of(&sent.body) {
        Ok(mode) => mode,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    let options = match options_of(
        &sent.body,
        mode,
        app.registry.limits.threads,
        "the server's --threads",
    ) {
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
        jigsolve_session::puzzle::check_engine_options(puzzle.as_ref(), &engine)
            .map_err(|e| format!("{e:#}"))?;
        if let Some(open) = &open {
            puzzle = puzzle
                .with_open(&crate::searches::open_names(open))
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

pub(super) fn search_of(app: &App, id: &str) -> Result<Arc<Search>, Response> {
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

pub(super) async fn events(State(app): Shared, Path(id): Path<String>) -> Response {
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

pub(super) async fn stop(State(app): Shared, Path(id): Path<String>) -> Response {
    match search_of(&app, &id) {
        Ok(search) => {
            search.cancel();
            ok(json!({ "stopped": search.id }))
        }
        Err(r) => r,
    }
}

pub(super) async fn solution(
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
            "weight": jigsolve_session::report::weight_json(found.weight),
            "solution": found.record,
        });
        return json_download(&line, download.then(|| format!("{stem}.json")));
    }
    let (label, text) = (search.label.clone(), search.text.clone());
    drawn_picture(format == "png", download.then_some(stem), move || {
        let puzzle = load(&label, &text)?;
        let caption =
            jigsolve_session::report::solution_caption(&found.puzzle, index, found.weight);
        puzzle.solution_svg(&found.record, &caption)
    })
    .await
}

pub(super) async fn solutions(State(app): Shared, Path(id): Path<String>) -> Response {
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
pub(super) async fn search_tree(
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
pub(super) async fn best_board(
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
        jigsolve_session::best::board_svg(&puzzle, &best.line)
    })
    .await
}
