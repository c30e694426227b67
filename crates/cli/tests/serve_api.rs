//! The search API of `jigsolve serve` over plain HTTP: the best-board
//! search of edge puzzles (its boards recounted by `jigsolve verify`,
//! stopped on request), the command line's engine options, whose counts
//! must be the command line's own, the search tree, which must be what
//! `jigsolve tree` prints and draws, `--open`, `--connect-timeout` and
//! `--kept-solutions`.

mod server;

use serde_json::{json, Value};
use server::{catalog_text, request_with, Events, Server};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;

fn jigsolve(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Starts a search; its id.
fn start(server: &Server, body: Value) -> String {
    let (status, started) = server.post("/api/search", &body);
    assert_eq!(status, 200, "{body}: {started}");
    started["id"].as_str().unwrap().to_string()
}

#[test]
fn the_best_board_search_reaches_the_full_score_and_verifies() {
    let server = Server::start(&["--threads", "2"]);
    let (text, label) = catalog_text(&server, "scramble");
    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "best", "options": {"threads": 2}}),
    );
    let mut events = Events::open(&server.addr, &id);
    let done = events.done();
    let summary = &done["summary"];
    assert_eq!(summary["end"], "full score", "{done}");
    assert_eq!(summary["score"], 12, "{done}");
    assert_eq!(summary["max"], 12, "{done}");
    let best = &done["progress"]["best"];
    assert_eq!(best["score"], 12, "{done}");
    assert!(best["improvements"].as_u64().unwrap() >= 1, "{done}");
    assert!(
        best["link"]
            .as_str()
            .unwrap()
            .starts_with("https://e2.bucas.name/#puzzle=scramble&board_w=3&board_h=3&board_edges="),
        "{done}"
    );

    // The board, as `best --json` writes it, recounted by the verifier.
    let (status, line) = server.get(&format!("/api/search/{id}/best?format=json"));
    assert_eq!(status, 200, "{line}");
    assert_eq!(line["type"], "best");
    assert_eq!(line["link"], best["link"]);
    let (status, lines) = server.get_bytes(&format!("/api/search/{id}/solutions"));
    assert_eq!(status, 200);
    let verified = jigsolve(&["verify", "scramble", "-"], &lines);
    assert!(
        verified.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verified.stdout),
        String::from_utf8_lossy(&verified.stderr)
    );
    let (status, svg) = server.get_bytes(&format!("/api/search/{id}/best?format=svg"));
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&svg).contains("12 of 12 inner edges match"));
    let (status, png) = server.get_bytes(&format!("/api/search/{id}/best?format=png"));
    assert_eq!(status, 200);
    assert!(png.starts_with(b"\x89PNG"));
    drop(events);
    server.wait_idle(Duration::from_secs(10));

    // Not an edge puzzle; engine options; no board yet in a count.
    let (text, label) = catalog_text(&server, "soma");
    let (status, answer) = server.post(
        "/api/search",
        &json!({"text": text, "label": label, "mode": "best"}),
    );
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("applies to edge-matching puzzles only"),
        "{answer}"
    );
    let (text, label) = catalog_text(&server, "scramble");
    let (status, answer) = server.post(
        "/api/search",
        &json!({"text": text, "label": label, "mode": "best", "options": {"symmetry": false}}),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("--no-symmetry"));
}

#[test]
fn stop_and_a_closed_page_end_the_best_board_search() {
    let server = Server::start(&["--threads", "1"]);
    let (text, label) = catalog_text(&server, "eternity2");
    let body = json!({"text": text, "label": label, "mode": "best"});
    let id = start(&server, body.clone());
    let mut events = Events::open(&server.addr, &id);
    // Wait for a first board, then Stop.
    loop {
        let (name, data) = events.next().expect("progress");
        assert_eq!(name, "progress", "{data}");
        if data["best"]["score"].as_u64().is_some_and(|s| s > 0) {
            assert_eq!(data["best"]["max"], 480);
            break;
        }
    }
    let (status, _) = server.post(&format!("/api/search/{id}/stop"), &json!({}));
    assert_eq!(status, 200);
    let done = events.done();
    assert_eq!(done["summary"]["end"], "cancelled", "{done}");
    assert!(done["summary"]["score"].as_u64().unwrap() > 0, "{done}");
    drop(events);
    server.wait_idle(Duration::from_secs(10));

    // The page goes away: the search ends with it.
    let id = start(&server, body);
    let mut events = Events::open(&server.addr, &id);
    events.next().unwrap();
    assert_eq!(server.status()["running"], 1);
    drop(events);
    server.wait_idle(Duration::from_secs(10));
}

/// The summary of a count through the API with `options`, and of `solve
/// NAME ARGS --json` on the command line: the same counts, listing and
/// tree.
fn same_as_the_command_line(server: &Server, name: &str, options: Value, args: &[&str]) {
    let (text, label) = catalog_text(server, name);
    let id = start(
        server,
        json!({"text": text, "label": label, "mode": "count", "options": options}),
    );
    let mut events = Events::open(&server.addr, &id);
    let done = events.done();
    let page = &done["summary"];
    let mut words = vec!["solve", name, "--json"];
    words.extend_from_slice(args);
    let out = jigsolve(&words, b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let cli: Value = serde_json::from_str(&last).unwrap();
    for key in [
        "raw",
        "distinct",
        "unique",
        "listed",
        "complete",
        "split",
        "symmetry",
        "threads",
        "counts_mean",
    ] {
        assert_eq!(page[key], cli[key], "{name} {options}: {key}");
    }
    assert_eq!(page["complete"], true);
    drop(events);
}

#[test]
fn engine_options_count_as_the_command_line_does() {
    let server = Server::start(&["--threads", "2"]);
    // Symmetry off: every distinct solution listed (4, not 1).
    same_as_the_command_line(
        &server,
        "impuzzable",
        json!({"symmetry": false}),
        &["--no-symmetry", "--threads", "1"],
    );
    same_as_the_command_line(
        &server,
        "hunde-spiel",
        json!({"symmetry": false, "order": "frame", "threads": 2}),
        &["--no-symmetry", "--order", "frame", "--threads", "2"],
    );
    same_as_the_command_line(
        &server,
        "soma",
        json!({"engine": "dlx", "threads": 2}),
        &["--engine", "dlx", "--threads", "2"],
    );
    same_as_the_command_line(
        &server,
        "tangram-square",
        json!({"flip": "no-flip"}),
        &["--no-flip", "--threads", "1"],
    );
    server.wait_idle(Duration::from_secs(10));

    // More threads than the server's, an unknown engine, an option the
    // family does not take (the command line's message), an unknown option.
    let (text, label) = catalog_text(&server, "soma");
    for (options, status, words) in [
        (
            json!({"threads": 3}),
            400,
            "from 1 to 2 (the server's --threads)",
        ),
        (json!({"threads": 0}), 400, "from 1 to 2"),
        (json!({"engine": "fast"}), 400, "unknown engine 'fast'"),
        (json!({"order": "frame"}), 422, "order"),
        (json!({"colour": 1}), 400, "unknown option 'colour'"),
    ] {
        let (got, answer) = server.post(
            "/api/search",
            &json!({"text": text, "label": label, "mode": "count", "options": options}),
        );
        assert_eq!(got, status, "{options}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(words),
            "{options}: {answer}"
        );
    }
    assert_eq!(server.status()["kept"], 0);
}

/// `jigsolve tree NAME ARGS --json`, and its picture with `--svg`.
fn tree_on_the_command_line(name: &str, args: &[&str]) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("tree.svg");
    let mut words = vec!["tree", name, "--json", "--svg", svg.to_str().unwrap()];
    words.extend_from_slice(args);
    let out = jigsolve(&words, b"");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        std::fs::read_to_string(&svg).unwrap(),
    )
}

#[test]
fn the_search_tree_is_what_jigsolve_tree_prints_and_draws() {
    let server = Server::start(&["--threads", "1"]);
    // An edge puzzle, a polyform with folded subtrees and a polygon
    // puzzle, with the tree's options and an engine option.
    for (name, options, args) in [
        ("impuzzable", json!({}), vec![]),
        (
            "pentomino-3x20",
            json!({"depth": 4, "engine": "bitboard-mrv"}),
            vec!["--depth", "4", "--engine", "bitboard-mrv"],
        ),
        (
            "tangram-square",
            json!({"max_nodes": 30, "symmetry": false}),
            vec!["--max-nodes", "30", "--no-symmetry"],
        ),
    ] {
        let (text, label) = catalog_text(&server, name);
        let id = start(
            &server,
            json!({"text": text, "label": label, "mode": "tree", "options": options}),
        );
        let mut events = Events::open(&server.addr, &id);
        let done = events.done();
        let (cli, cli_svg) = tree_on_the_command_line(name, &args);
        let tree = &done["tree"];
        assert_eq!(tree, &cli, "{name} {options}");
        let depths = tree["depths"].as_array().unwrap();
        let per_depth: u64 = depths.iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
        assert_eq!(per_depth, tree["nodes"].as_u64().unwrap(), "{name}");
        assert!(tree["nodes"].as_u64().unwrap() > 1, "{name}");
        assert!(depths.iter().all(|d| d.get("chosen").is_some()), "{name}");
        assert!(done["naive"]["space"]
            .as_str()
            .unwrap()
            .starts_with(tree["naive_space"]["formula"].as_str().unwrap()));

        let (status, json) = server.get(&format!("/api/search/{id}/tree?format=json"));
        assert_eq!(status, 200);
        assert_eq!(json, cli, "{name}");
        let (status, svg) = server.get_bytes(&format!("/api/search/{id}/tree?format=svg"));
        assert_eq!(status, 200);
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.starts_with("<svg"), "{name}");
        roxmltree::Document::parse(&svg).unwrap();
        let total = tree["nodes"].as_u64().unwrap();
        let grouped = common::grouped(total);
        assert!(
            svg.contains(&format!("{grouped} nodes")),
            "{name}: {grouped}"
        );
        assert_eq!(svg, cli_svg, "{name}: the picture of `tree --svg`");
        drop(events);
    }
    assert_eq!(
        tree_on_the_command_line("pentomino-3x20", &["--depth", "4"]).0["depths"][5]["recorded"],
        Value::Null,
        "pentomino-3x20 --depth 4 folds its subtrees below depth 4"
    );
    server.wait_idle(Duration::from_secs(10));

    // The picture as PNG, for download.
    let (text, label) = catalog_text(&server, "impuzzable");
    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "tree"}),
    );
    let mut events = Events::open(&server.addr, &id);
    events.done();
    let (status, png) = server.get_bytes(&format!("/api/search/{id}/tree?format=png&download"));
    assert_eq!(status, 200);
    assert!(png.starts_with(b"\x89PNG"));
    drop(events);
    server.wait_idle(Duration::from_secs(10));

    // Stop: the folded subtrees' counts are partial.
    let (bedlam, bedlam_label) = catalog_text(&server, "bedlam");
    let id = start(
        &server,
        json!({"text": bedlam, "label": bedlam_label, "mode": "tree", "options": {"depth": 1}}),
    );
    let mut events = Events::open(&server.addr, &id);
    events.next().unwrap();
    let (status, _) = server.post(&format!("/api/search/{id}/stop"), &json!({}));
    assert_eq!(status, 200);
    let done = events.done();
    assert_eq!(done["tree"]["complete"], false, "{done}");
    drop(events);
    server.wait_idle(Duration::from_secs(10));

    // Bad values, refused with the command line's messages; the tree's
    // options in another mode; more than one thread; a count has no tree.
    for (mode, options, message) in [
        (
            "tree",
            json!({"depth": 0}),
            "option depth: 0 is not allowed: it must be 1 or more",
        ),
        (
            "tree",
            json!({"depth": -1}),
            "option depth: '-1' is not a whole number, 1 or more",
        ),
        (
            "tree",
            json!({"depth": 1.5}),
            "option depth: '1.5' is not a whole number, 1 or more",
        ),
        (
            "tree",
            json!({"depth": "3"}),
            "option depth: expected a number, got \"3\"",
        ),
        (
            "tree",
            json!({"max_nodes": 0}),
            "option max_nodes: 0 nodes: the tree records 1 to 100000 nodes",
        ),
        (
            "tree",
            json!({"max_nodes": 100001}),
            "option max_nodes: 100001 nodes: the tree records 1 to 100000 nodes",
        ),
        (
            "count",
            json!({"depth": 3}),
            "option depth applies to the search tree (mode tree) only",
        ),
        ("tree", json!({"threads": 1, "max_nodes": 10}), ""),
    ] {
        let (got, answer) = server.post(
            "/api/search",
            &json!({"text": text, "label": label, "mode": mode, "options": options}),
        );
        if message.is_empty() {
            assert_eq!(got, 200, "{options}: {answer}");
            continue;
        }
        assert_eq!(got, 400, "{options}: {answer}");
        assert_eq!(answer["error"], message, "{options}");
    }
    let server = Server::start(&["--threads", "2"]);
    let (got, answer) = server.post(
        "/api/search",
        &json!({"text": text, "label": label, "mode": "tree", "options": {"threads": 2}}),
    );
    assert_eq!(got, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("option threads must be 1"),
        "{answer}"
    );
    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "count"}),
    );
    let mut events = Events::open(&server.addr, &id);
    events.done();
    let (status, answer) = server.get(&format!("/api/search/{id}/tree?format=svg"));
    assert_eq!(status, 404, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("not a tree search"));
}

#[test]
fn a_search_waits_until_its_threads_are_free() {
    let server = Server::start(&["--threads", "2"]);
    let (bedlam, label) = catalog_text(&server, "bedlam");
    let one = start(
        &server,
        json!({"text": bedlam, "label": label, "mode": "count"}),
    );
    let mut first = Events::open(&server.addr, &one);
    first.next().unwrap();
    // Two threads wanted, one free: it waits.
    let two = start(
        &server,
        json!({"text": bedlam, "label": label, "mode": "count", "options": {"threads": 2}}),
    );
    let mut second = Events::open(&server.addr, &two);
    let (_, progress) = second.next().unwrap();
    assert_eq!(progress["phase"], "waiting", "{progress}");
    let status = server.status();
    assert_eq!(
        (status["running"].as_u64(), status["threads"].as_u64()),
        (Some(1), Some(1)),
        "{status}"
    );
    // The first page goes: the second runs on both threads.
    drop(first);
    loop {
        let (_, progress) = second.next().unwrap();
        if progress["phase"] == "running" {
            break;
        }
    }
    let status = server.status();
    assert_eq!(
        (status["running"].as_u64(), status["threads"].as_u64()),
        (Some(1), Some(2)),
        "{status}"
    );
    drop(second);
    server.wait_idle(Duration::from_secs(10));
}

#[cfg(unix)]
#[test]
fn open_starts_the_browser_on_the_servers_page() {
    use std::os::unix::fs::PermissionsExt;
    // A stand-in for the system's opener (xdg-open, found on PATH) that
    // writes down the address it was given.
    let dir = tempfile::tempdir().unwrap();
    let opened = dir.path().join("opened");
    let opener = dir.path().join(if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    });
    std::fs::write(
        &opener,
        format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", opened.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let server = Server::start_with_env(&["--open"], &[("PATH", &path)]);
    let start = std::time::Instant::now();
    while !opened.exists() || std::fs::read_to_string(&opened).unwrap().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "--open did not start the opener"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(std::fs::read_to_string(&opened).unwrap(), server.url("/"));
    // And the page is there.
    let (status, page) = server.get_bytes("/");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&page).contains("<title>jigsolve</title>"));
}

#[test]
fn kept_solutions_and_connect_timeout_are_options() {
    let server = Server::start(&["--kept-solutions", "3", "--connect-timeout", "0.5"]);
    let (text, label) = catalog_text(&server, "soma");
    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "count"}),
    );
    let mut events = Events::open(&server.addr, &id);
    let done = events.done();
    assert_eq!(done["summary"]["listed"], 240, "{done}");
    assert_eq!(done["kept"], 3, "{done}");
    let (status, _) = server.get_bytes(&format!("/api/search/{id}/solution/3?format=json"));
    assert_eq!(status, 200);
    let (status, answer) = server.get(&format!("/api/search/{id}/solution/4?format=json"));
    assert_eq!(status, 404, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("kept 3 of the 240"));
    let limits = server.status()["limits"].clone();
    assert_eq!(limits["solutions_kept"], 3);
    assert_eq!(limits["connect_seconds"], 0.5);
    drop(events);
    server.wait_idle(Duration::from_secs(10));

    // A search nobody listens to is forgotten after half a second.
    let (bedlam, label) = catalog_text(&server, "bedlam");
    let id = start(
        &server,
        json!({"text": bedlam, "label": label, "mode": "count"}),
    );
    server.wait_idle(Duration::from_secs(5));
    let (status, _) = server.get(&format!("/api/search/{id}/events"));
    assert_eq!(status, 404);
}

#[test]
fn wrong_serve_options_are_refused_with_exit_2() {
    for (args, message) in [
        (
            ["--connect-timeout", "0"],
            "the connect timeout must be from 0.1 to 3600 seconds",
        ),
        (
            ["--connect-timeout", "7200"],
            "the connect timeout must be from 0.1 to 3600 seconds",
        ),
        (
            ["--connect-timeout", "soon"],
            "'soon' is not a number of seconds",
        ),
        (
            ["--kept-solutions", "100001"],
            "'100001' is not a number of solutions from 0 to 100000",
        ),
        (
            ["--kept-solutions", "-1"],
            "'-1' is not a number of solutions from 0 to 100000",
        ),
    ] {
        let out = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
            .arg("serve")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The server keeps to its own page (issue 43): a search's name cannot be
/// guessed; a request that a browser says comes from another site (by
/// `Origin` or `Sec-Fetch-Site`) gets 403 on every API route, so a foreign
/// page can neither follow nor stop a search; every error, the body over
/// the limit included, is the documented JSON; media types are told apart
/// without case; a `"mode"` that is not a string is refused.
#[test]
fn the_server_answers_only_its_own_page() {
    let server = Server::start(&["--threads", "1"]);
    let (text, label) = catalog_text(&server, "bedlam");
    let body = json!({"text": text, "label": label, "mode": "count"});
    let id = start(&server, body.clone());
    let other = start(&server, body.clone());
    for id in [&id, &other] {
        assert_eq!(id.len(), 32, "{id}");
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
    }
    assert_ne!(id, other);
    let addr = server.addr.clone();
    let json_of = |(status, bytes): (u16, Vec<u8>)| -> (u16, Value) {
        let v: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{status}: not JSON: {}", String::from_utf8_lossy(&bytes)));
        (status, v)
    };
    let evil = "http://evil.example";
    let refused_from_elsewhere = [
        vec![("Origin", evil)],
        vec![("Origin", "null")],
        vec![("Sec-Fetch-Site", "cross-site")],
        vec![("Sec-Fetch-Site", "same-site")],
    ];
    for headers in &refused_from_elsewhere {
        for (method, path) in [
            ("GET", format!("/api/search/{id}/events")),
            ("POST", format!("/api/search/{id}/stop")),
            ("GET", format!("/api/search/{id}/solutions")),
            ("GET", "/api/status".to_string()),
        ] {
            let mut h = headers.clone();
            h.push(("Content-Type", "application/json"));
            let (status, v) = json_of(request_with(&addr, method, &path, &h, Some("{}")));
            assert_eq!(status, 403, "{method} {path} {headers:?}: {v}");
            assert!(v["error"].as_str().unwrap().contains("another site"), "{v}");
        }
    }
    // Still there for its own page, which may name its origin.
    let own = format!("http://{addr}");
    let mut events = Events::open(&addr, &id);
    let (kind, _) = events.next().expect("an event");
    assert_eq!(kind, "progress");
    let (status, v) = json_of(request_with(
        &addr,
        "POST",
        &format!("/api/search/{id}/stop"),
        &[
            ("Origin", own.as_str()),
            ("Sec-Fetch-Site", "same-origin"),
            ("Content-Type", "application/json"),
        ],
        Some("{}"),
    ));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["stopped"], id.as_str());
    // Media types without case.
    let (status, v) = json_of(request_with(
        &addr,
        "POST",
        "/api/puzzle",
        &[("Content-Type", "APPLICATION/JSON; charset=UTF-8")],
        Some(&json!({"text": text, "label": label}).to_string()),
    ));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["family"], "grid");
    // A body over the limit: 413, as JSON.
    let big = json!({"text": "#".repeat(600 << 10), "label": "big"}).to_string();
    let (status, v) = json_of(request_with(
        &addr,
        "POST",
        "/api/puzzle",
        &[("Content-Type", "application/json")],
        Some(&big),
    ));
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("512 KiB"), "{v}");
    // A route that does not take the method: JSON too.
    let (status, v) = json_of(request_with(&addr, "DELETE", "/api/status", &[], None));
    assert_eq!(status, 405, "{v}");
    assert!(v["error"].is_string(), "{v}");
    // A mode that is not a string.
    let mut wrong = body.clone();
    wrong["mode"] = json!(5);
    let (status, v) = server.post("/api/search", &wrong);
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("must be a string"),
        "{v}"
    );
}

/// A connection that sends its headers a byte at a time, or nothing at
/// all, is closed after the header-read timeout (10 s), not held.
#[test]
fn slow_and_idle_connections_are_closed() {
    use std::io::Read;
    use std::net::TcpStream;
    use std::time::Instant;
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let started = Instant::now();
    let slow = {
        let addr = addr.clone();
        std::thread::spawn(move || {
            let mut stream = TcpStream::connect(&addr).unwrap();
            stream.write_all(b"GET /api/status HTTP/1.1\r\n").unwrap();
            // A header byte a second until the server hangs up.
            for _ in 0..60 {
                std::thread::sleep(Duration::from_secs(1));
                if stream.write_all(b"X").is_err() {
                    break;
                }
            }
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest);
        })
    };
    let mut idle = TcpStream::connect(&addr).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut buf = [0u8; 64];
    let n = idle.read(&mut buf).unwrap_or(0);
    let idle_for = started.elapsed();
    assert_eq!(n, 0, "the idle connection got an answer");
    assert!(
        idle_for >= Duration::from_secs(9) && idle_for < Duration::from_secs(20),
        "the idle connection was closed after {idle_for:?}"
    );
    slow.join().unwrap();
    let slow_for = started.elapsed();
    assert!(
        slow_for < Duration::from_secs(25),
        "the slow connection was held {slow_for:?}"
    );
    // The server still answers.
    assert_eq!(server.status()["running"], 0);
}

/// Under a memory cap the system refuses some of a search's threads: the
/// search runs on those it made, counts right, and its `done` event says
/// so, as the command line warns (it said nothing on the page before).
#[cfg(unix)]
#[test]
fn threads_the_system_refuses_are_a_warning_on_the_page() {
    let server = Server::start_capped(&["--threads", "16"], 3_000_000);
    let (text, label) = catalog_text(&server, "pentomino-6x10");
    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "count", "options": {"threads": 16}}),
    );
    let done = Events::open(&server.addr, &id).done();
    assert_eq!(done["summary"]["raw"], 9_356, "{done}");
    let warning = done["warning"].as_str().unwrap_or_else(|| panic!("{done}"));
    assert!(
        warning.contains("the system refused some search threads")
            && warning.contains("of the 16 asked for ran the search"),
        "{warning}"
    );
    let (text, label) = catalog_text(&server, "a-puzzle-a-day");
    let by_open = |threads: usize| {
        let id = start(
            &server,
            json!({"text": text, "label": label, "mode": "by-open", "options": {"threads": threads}}),
        );
        Events::open(&server.addr, &id).done()
    };
    let done = by_open(16);
    assert_eq!(done["summary"]["distinct"], 25_061, "{done}");
    assert!(
        done["warning"]
            .as_str()
            .is_some_and(|w| w.contains("of the 16 asked for ran the search")),
        "{done}"
    );
    // With the threads it asks for, a search has no warning.
    let done = by_open(2);
    assert!(done["warning"].is_null(), "{done}");
}

/// A calendar on the page: the puzzle says its open groups, mode `by-open`
/// counts every goal with the heat map (the counts `solve --by-open`
/// prints), and option `open` solves one date (`solve --open`), whose
/// solutions verify.
#[test]
fn a_calendar_counts_every_date_and_solves_one() {
    let server = Server::start(&["--threads", "2"]);
    let (text, label) = catalog_text(&server, "a-puzzle-a-day");
    let (status, read) = server.post("/api/puzzle", &json!({"text": text, "label": label}));
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["open_groups"][0]["name"], "month");
    assert_eq!(read["open_groups"][0]["cells"][11], "Dec");
    assert_eq!(
        read["open_groups"][1]["cells"].as_array().unwrap().len(),
        31
    );

    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "by-open", "options": {"threads": 2}}),
    );
    let done = Events::open(&server.addr, &id).done();
    assert_eq!(done["summary"]["distinct"], 25_061, "{done}");
    let goals = done["goals"].as_array().unwrap();
    assert_eq!(goals.len(), 372);
    let oct6 = goals
        .iter()
        .find(|g| g["open"]["month"] == "Oct" && g["open"]["day"] == "6")
        .unwrap();
    assert_eq!(oct6["counts"]["distinct"], 7);
    let heat = done["heat_map"].as_str().unwrap();
    roxmltree::Document::parse(heat).unwrap();
    assert!(heat.contains(">Oct "), "the heat map names the months");

    let id = start(
        &server,
        json!({"text": text, "label": label, "mode": "count", "options": {"open": "Oct, 6"}}),
    );
    // The stream stays open while the solutions are read: its end forgets
    // the search.
    let mut events = Events::open(&server.addr, &id);
    let done = events.done();
    assert_eq!(done["summary"]["distinct"], 7, "{done}");
    let (status, lines) = server.get_bytes(&format!("/api/search/{id}/solutions"));
    assert_eq!(status, 200);
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("oct6.jsonl");
    std::fs::write(&saved, &lines).unwrap();
    let out = jigsolve(&["verify", "a-puzzle-a-day", saved.to_str().unwrap()], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok: 7 solutions"));
    drop(events);

    // Wrong goals and modes are refused with the command line's words: a
    // goal the puzzle does not have as the puzzle's error (422), an option
    // a mode does not take as a bad request (400).
    let wrong = [
        (
            json!({"text": text, "label": label, "mode": "count", "options": {"open": "Oct,32"}}),
            422,
            "no cell that may stay open is called '32'",
        ),
        (
            json!({"text": text, "label": label, "mode": "by-open", "options": {"open": "Oct,6"}}),
            400,
            "mode by-open takes none",
        ),
    ];
    for (body, code, words) in wrong {
        let (status, answer) = server.post("/api/search", &body);
        assert_eq!(status, code, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(words),
            "{answer}"
        );
    }
    let (pent, pent_label) = catalog_text(&server, "pentomino-3x20");
    let (status, answer) = server.post(
        "/api/search",
        &json!({"text": pent, "label": pent_label, "mode": "by-open"}),
    );
    assert_eq!(status, 422, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("leaves no cells open"));
}
