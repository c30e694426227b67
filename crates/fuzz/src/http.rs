//! `--http`: malformed and hostile requests to a running `jigsolve serve`.
//!
//! One server on a free loopback port takes requests made of the API's own
//! (catalog puzzles read, drawn and searched; solutions, trees and best
//! boards asked for) changed the ways requests go wrong: bodies mutated as
//! files are, wrong types, foreign `Origin` and `Host` headers, media types
//! in other cases, lies in `Content-Length`, bytes cut off, plain garbage.
//! A run fails when the server dies, writes a panic, or stops answering
//! `GET /api/status` within 10 s; answers of every status are fine.

use super::{mutate, Options, Rng};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the HTTP fuzzing for `o.seconds`; the number of failures.
pub fn run(o: &Options) -> u64 {
    let mut server = Command::new(&o.bin)
        .args([
            "serve",
            "--port",
            "0",
            "--threads",
            "2",
            "--connect-timeout",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start jigsolve serve");
    let mut lines = BufReader::new(server.stdout.take().expect("its output"));
    let mut first = String::new();
    lines.read_line(&mut first).expect("its first line");
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|a| a.split('/').next())
        .expect("the address it listens on")
        .to_string();
    let stderr = server.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut e) = stderr {
            let _ = e.read_to_string(&mut text);
        }
        text
    });
    let catalog: Vec<String> = [
        "impuzzable",
        "scramble",
        "pentomino-3x20",
        "tangram-square",
        "eternity2",
        "soma",
    ]
    .iter()
    .filter_map(|name| {
        let out = Command::new(&o.bin).args(["show", name]).output().ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    })
    .collect();
    let mut rng = Rng(o.seed ^ 0x4854_5450);
    let started = Instant::now();
    let (mut sent, mut failures) = (0u64, 0u64);
    let mut ids: Vec<String> = Vec::new();
    while started.elapsed().as_secs_f64() < o.seconds {
        sent += 1;
        let request = hostile_request(&addr, &catalog, &ids, &mut rng);
        if let Some(id) = exchange(&addr, &request) {
            ids.push(id);
            if ids.len() > 64 {
                ids.remove(0);
            }
        }
        if let Some(why) = check(&mut server, &addr) {
            failures += 1;
            eprintln!(
                "FAIL http request {sent}: {why}\n{}",
                String::from_utf8_lossy(&request[..request.len().min(400)])
            );
            break;
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let text = errors.join().unwrap_or_default();
    if text.contains("panicked") {
        failures += 1;
        eprintln!(
            "FAIL the server wrote a panic: {}",
            text.lines().take(3).collect::<Vec<_>>().join(" | ")
        );
    }
    println!(
        "jigsolve-fuzz --http: seed {}, {sent} requests in {:.0} s, {failures} failing",
        o.seed,
        started.elapsed().as_secs_f64()
    );
    failures
}

/// One request made the ways requests go wrong.
fn hostile_request(addr: &str, catalog: &[String], ids: &[String], rng: &mut Rng) -> Vec<u8> {
    if rng.below(15) == 0 {
        return (0..rng.below(3000)).map(|_| rng.next() as u8).collect();
    }
    let text = &catalog[rng.below(catalog.len())];
    let text = if rng.below(3) == 0 {
        String::from_utf8_lossy(&mutate(text.as_bytes(), rng)).into_owned()
    } else {
        text.clone()
    };
    let label = serde_like(&format!("fuzz-{}.toml", rng.below(100)));
    let puzzle = format!("{{\"text\": {}, \"label\": {label}", serde_like(&text));
    let id = ids
        .get(rng.below(ids.len() + 1))
        .cloned()
        .unwrap_or_else(|| "0".into());
    let modes = [
        "\"solve\"",
        "\"count\"",
        "\"best\"",
        "\"tree\"",
        "\"by-open\"",
        "5",
        "null",
        "\"x\"",
        "[]",
    ];
    let options = [
        "{}",
        "{\"threads\": 2}",
        "{\"threads\": -1}",
        "{\"threads\": 1e30}",
        "{\"symmetry\": false, \"engine\": \"dlx\"}",
        "{\"order\": \"spiral\"}",
        "{\"depth\": 0, \"max_nodes\": 99999999999}",
        "{\"flip\": 1}",
        "{\"open\": \"Jan,25\"}",
        "{\"open\": \",,,\"}",
        "{\"open\": 7}",
        "\"x\"",
    ];
    let (method, path, body) = match rng.below(9) {
        0 => ("POST", "/api/puzzle".to_string(), format!("{puzzle}}}")),
        1 => ("POST", "/api/puzzle/png".to_string(), format!("{puzzle}}}")),
        2 | 3 => (
            "POST",
            "/api/search".to_string(),
            format!(
                "{puzzle}, \"mode\": {}, \"options\": {}}}",
                modes[rng.below(modes.len())],
                options[rng.below(options.len())]
            ),
        ),
        4 => (
            "GET",
            format!(
                "/api/search/{id}/solution/{}?format={}",
                rng.below(5),
                ["svg", "png", "json", "x"][rng.below(4)]
            ),
            String::new(),
        ),
        5 => (
            "GET",
            format!(
                "/api/search/{id}/{}",
                ["tree", "best", "solutions", "events", "tree?format=png"][rng.below(5)]
            ),
            String::new(),
        ),
        6 => ("POST", format!("/api/search/{id}/stop"), "{}".into()),
        7 => (
            "GET",
            [
                "/api/status",
                "/api/catalog",
                "/api/catalog/eternity2",
                "/api/catalog/..%2F..",
                "/",
                "/app.js",
                "/nope",
            ][rng.below(7)]
            .to_string(),
            String::new(),
        ),
        _ => (
            ["PUT", "DELETE", "PATCH", "OPTIONS", "GET"][rng.below(5)],
            "/api/search".to_string(),
            format!("{puzzle}}}"),
        ),
    };
    let mut body = body.into_bytes();
    if rng.below(6) == 0 {
        body = mutate(&body, rng);
    }
    let host = match rng.below(8) {
        0 => "evil.example".to_string(),
        1 => String::new(),
        _ => addr.to_string(),
    };
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    match rng.below(6) {
        0 => head.push_str("Origin: http://evil.example\r\n"),
        1 => head.push_str("Sec-Fetch-Site: cross-site\r\n"),
        2 => head.push_str(&format!("Origin: http://{addr}\r\n")),
        _ => {}
    }
    head.push_str(match rng.below(5) {
        0 => "Content-Type: APPLICATION/JSON\r\n",
        1 => "Content-Type: text/plain\r\n",
        2 => "",
        _ => "Content-Type: application/json\r\n",
    });
    let length = match rng.below(10) {
        0 => body.len() + 1 + rng.below(1000),
        1 => body.len().saturating_sub(1 + rng.below(10)),
        2 => 1 << 40,
        _ => body.len(),
    };
    head.push_str(&format!("Content-Length: {length}\r\n\r\n"));
    let mut request = head.into_bytes();
    request.extend_from_slice(&body);
    if rng.below(12) == 0 {
        let keep = rng.below(request.len() + 1);
        request.truncate(keep);
    }
    request
}

/// A string as a JSON string (quotes and escapes), without a JSON crate.
fn serde_like(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Sends `request` and reads what comes back for at most 3 s (an event
/// stream is left after that); the id of a search it started, if any.
fn exchange(addr: &str, request: &[u8]) -> Option<String> {
    let mut stream = TcpStream::connect(addr).ok()?;
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = stream.write_all(request);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // At most 3 s and 64 KiB in all: an event stream never ends by itself.
    let until = Instant::now() + Duration::from_secs(3);
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < until && answer.len() < 64 << 10 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&answer);
    let at = text.find("\"id\":\"")? + 6;
    let id: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    (id.len() == 32).then_some(id)
}

/// Whether the server is still there and answers its status.
fn check(server: &mut Child, addr: &str) -> Option<String> {
    if let Ok(Some(status)) = server.try_wait() {
        return Some(format!("the server died ({status})"));
    }
    let asked = Instant::now();
    let request = format!("GET /api/status HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    while asked.elapsed() < Duration::from_secs(10) {
        if let Ok(mut stream) = TcpStream::connect(addr) {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            if stream.write_all(request.as_bytes()).is_ok() {
                let mut answer = String::new();
                let _ = stream.read_to_string(&mut answer);
                if answer.starts_with("HTTP/1.1 200") {
                    return None;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some("GET /api/status went unanswered for 10 s".into())
}
