//! The server crate on its own: started in this process on a free loopback
//! port (no `jigsolve` binary involved), asked over plain HTTP for the
//! catalog, a puzzle and a count, with every solution it keeps checked by
//! the family's verifier and the count against the catalog's published one.

use jigsolve_serve::{limits, run, Config};
use jigsolve_session::{catalog, family, source::Source};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

/// Starts a server on a free port for the rest of the test process; its
/// address.
fn start() -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let config = Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            limits: limits(2, 4, Duration::from_secs(60)),
        };
        run(config, |addr| tx.send(addr).unwrap()).expect("the server runs");
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the server says where it listens")
}

/// One HTTP/1.0 request (the answer ends when the server closes the
/// connection); its status and body.
fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).unwrap();
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {status_line:?}"));
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
    }
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).unwrap();
    (status, bytes)
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// The data of the `done` event of search `id`'s event stream, read line
/// by line as the events come, and the stream: the search is kept (its
/// solutions too) until it is closed.
fn done(addr: SocketAddr, id: &str) -> (Value, BufReader<TcpStream>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!("GET /api/search/{id}/events HTTP/1.0\r\nHost: {addr}\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let mut seen = String::new();
    let mut done_next = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            panic!("the event stream ended without a done event: {seen}");
        }
        if done_next {
            if let Some(data) = line.trim().strip_prefix("data:") {
                return (json_of(data.trim().as_bytes()), reader);
            }
        }
        done_next |= line.trim() == "event: done";
        seen.push_str(&line);
    }
}

#[test]
fn the_server_counts_a_catalog_puzzle_and_keeps_solutions_that_verify() {
    let addr = start();
    let (status, list) = request(addr, "GET", "/api/catalog", None);
    assert_eq!(status, 200);
    let list = json_of(&list);
    assert!(
        list.to_string().contains("hexiamond-6x6"),
        "the catalog lists its puzzles: {list}"
    );
    let entry = catalog::find("hexiamond-6x6").unwrap();
    let (status, read) = request(
        addr,
        "POST",
        "/api/puzzle",
        Some(&json!({"text": entry.text, "label": entry.name})),
    );
    assert_eq!(status, 200);
    assert_eq!(json_of(&read)["family"], "grid");

    let (status, started) = request(
        addr,
        "POST",
        "/api/search",
        Some(
            &json!({"text": entry.text, "label": entry.name, "mode": "count", "options": {"threads": 2}}),
        ),
    );
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&started));
    let id = json_of(&started)["id"].as_str().unwrap().to_string();
    let (end, _events) = done(addr, &id);
    let summary = &end["summary"];
    let expected = catalog::expected(entry).expect("published counts");
    for key in ["distinct", "unique"] {
        let n = summary[key]
            .as_u64()
            .unwrap_or_else(|| panic!("no {key} count in {end}"));
        assert!(
            expected.contains(&format!("{key} {n}")),
            "counted {end}, published {expected}"
        );
    }
    let listed = summary["listed"].as_u64().unwrap();

    // Every kept solution is a real one: the family's own verifier.
    let puzzle = family::load(
        &Source {
            label: entry.name.into(),
            text: entry.text.into(),
        },
        None,
    )
    .unwrap();
    let (status, lines) = request(addr, "GET", &format!("/api/search/{id}/solutions"), None);
    assert_eq!(status, 200);
    let mut checked = 0;
    for line in String::from_utf8(lines).unwrap().lines() {
        let value = json_of(line.as_bytes());
        if value["type"] == "solution" {
            puzzle.verify(&value["solution"]).unwrap();
            checked += 1;
        }
    }
    assert_eq!(checked as u64, listed.min(1000), "solutions kept");
    assert!(checked > 0);
}

#[test]
fn a_bad_puzzle_is_an_error_naming_its_line() {
    let addr = start();
    let (status, answer) = request(
        addr,
        "POST",
        "/api/puzzle",
        Some(
            &json!({"text": "board = \"##\"\n[[piece]]\nname = \"D\"\nshape = 7\n", "label": "bad.toml"}),
        ),
    );
    assert_eq!(status, 422);
    let answer = json_of(&answer);
    assert!(
        answer["error"].as_str().unwrap().contains("bad.toml"),
        "{answer}"
    );
}

#[test]
fn the_puzzle_read_says_what_solve_warns_of() {
    let addr = start();
    // Two pieces of the same shape: `solve` warns, and so does the page.
    let text = "board = \"####\"\n[[piece]]\nname = \"A\"\nshape = \"##\"\n[[piece]]\nname = \"B\"\nshape = \"##\"\n";
    let (status, answer) = request(
        addr,
        "POST",
        "/api/puzzle",
        Some(&json!({"text": text, "label": "twins.toml"})),
    );
    assert_eq!(status, 200);
    let answer = json_of(&answer);
    let warnings = answer["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{answer}");
    assert!(
        warnings[0].as_str().unwrap().contains("twins.toml"),
        "{answer}"
    );
}
