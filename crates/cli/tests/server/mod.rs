//! What the tests of `jigsolve serve` share: the server started on a free
//! loopback port, and a plain HTTP/1.1 client (requests, and Server-Sent
//! Events read as they come) written over `TcpStream`, so that the tests
//! need no HTTP library.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `jigsolve serve` process, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts the server on a free port with extra `args`; waits for the
    /// address it prints.
    pub fn start(args: &[&str]) -> Server {
        Server::start_with_env(args, &[])
    }

    /// [`Server::start`] with extra environment variables.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"));
        command
            .args(["serve", "--port", "0"])
            .args(args)
            .envs(env.iter().copied());
        Server::launch(command)
    }

    /// [`Server::start`] under a cap of `kib` KiB of address space (the
    /// shell's `ulimit -v`), so that the system refuses some threads.
    #[cfg(unix)]
    pub fn start_capped(args: &[&str], kib: u64) -> Server {
        let bin = assert_cmd::cargo::cargo_bin("jigsolve");
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!(
                "ulimit -v {kib} && exec \"$0\" serve --port 0 \"$@\""
            ))
            .arg(bin)
            .args(args);
        Server::launch(command)
    }

    fn launch(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start jigsolve serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).expect("read the server's address");
        let addr = line
            .split("http://")
            .nth(1)
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim()
            .trim_end_matches('/')
            .to_string();
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = out.read_to_end(&mut sink);
        });
        Server { child, addr }
    }

    /// The page's address.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `GET path` as JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = request(&self.addr, "GET", path, None);
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    /// `GET path`, raw.
    pub fn get_bytes(&self, path: &str) -> (u16, Vec<u8>) {
        request(&self.addr, "GET", path, None)
    }

    /// `POST path` with a JSON body, answered as JSON.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, bytes) = request(&self.addr, "POST", path, Some(&body.to_string()));
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// The server's status: searches running, waiting and kept.
    pub fn status(&self) -> Value {
        self.get("/api/status").1
    }

    /// Waits until no search runs, waits or is kept; the last status.
    pub fn wait_idle(&self, within: Duration) -> Value {
        let start = Instant::now();
        loop {
            let status = self.status();
            if status["running"] == 0 && status["waiting"] == 0 && status["kept"] == 0 {
                return status;
            }
            assert!(
                start.elapsed() < within,
                "the server is not idle after {within:?}: {status}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The resident memory of the server process, in KiB (from /proc).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/PID/status")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on a new connection; the status and the body
/// (chunked bodies decoded).
pub fn request(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, Vec<u8>) {
    request_with(
        addr,
        method,
        path,
        &[("Content-Type", "application/json")],
        body,
    )
}

/// [`request`] with the headers `headers` (besides Host, Connection and
/// Content-Length).
pub fn request_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let body = body.unwrap_or("");
    let extra: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before it has read a body past its limit.
    let _ = stream.write_all(body.as_bytes());
    let mut reader = BufReader::new(stream);
    let (status, chunked, length) = read_head(&mut reader);
    let mut bytes = Vec::new();
    if chunked {
        let mut chunks = Chunked::new(reader);
        chunks.read_to_end(&mut bytes).unwrap();
    } else if let Some(length) = length {
        bytes.resize(length, 0);
        reader.read_exact(&mut bytes).unwrap();
    } else {
        reader.read_to_end(&mut bytes).unwrap();
    }
    (status, bytes)
}

/// Reads a response's status line and headers: the status, whether the
/// body is chunked and its length when given.
fn read_head(reader: &mut impl BufRead) -> (u16, bool, Option<usize>) {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut chunked = false;
    let mut length = None;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        if header.trim().is_empty() {
            break;
        }
        let lower = header.to_ascii_lowercase();
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().ok();
        }
    }
    (status, chunked, length)
}

/// A chunked body as a plain reader.
struct Chunked<R: BufRead> {
    inner: R,
    left: usize,
    ended: bool,
}

impl<R: BufRead> Chunked<R> {
    fn new(inner: R) -> Self {
        Chunked {
            inner,
            left: 0,
            ended: false,
        }
    }
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        if self.left == 0 {
            let mut line = String::new();
            if self.inner.read_line(&mut line)? == 0 {
                self.ended = true;
                return Ok(0);
            }
            if line.trim().is_empty() {
                // The CRLF after the previous chunk.
                line.clear();
                if self.inner.read_line(&mut line)? == 0 {
                    self.ended = true;
                    return Ok(0);
                }
            }
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| std::io::Error::other(format!("bad chunk size {line:?}")))?;
            if size == 0 {
                self.ended = true;
                return Ok(0);
            }
            self.left = size;
        }
        let n = buf.len().min(self.left);
        let n = self.inner.read(&mut buf[..n])?;
        if n == 0 {
            self.ended = true;
        }
        self.left -= n;
        Ok(n)
    }
}

/// A search's event stream, read event by event; closing it (dropping)
/// is the page going away.
pub struct Events {
    reader: BufReader<Chunked<BufReader<TcpStream>>>,
}

impl Events {
    /// Opens the event stream of search `id`.
    pub fn open(addr: &str, id: &str) -> Events {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let head = format!(
            "GET /api/search/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let (status, chunked, _) = read_head(&mut reader);
        assert_eq!(status, 200, "the event stream of search {id}");
        assert!(chunked, "an event stream is chunked");
        Events {
            reader: BufReader::new(Chunked::new(reader)),
        }
    }

    /// The next event: its name and its data as JSON (comments skipped).
    pub fn next(&mut self) -> Option<(String, Value)> {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if !data.is_empty() {
                    return Some((name, serde_json::from_str(&data).ok()?));
                }
                continue;
            }
            if let Some(v) = line.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push_str(v.trim_start());
            }
        }
    }

    /// Reads until the `done` event; its data.
    pub fn done(&mut self) -> Value {
        while let Some((name, data)) = self.next() {
            if name == "done" {
                return data;
            }
        }
        panic!("the event stream ended without a done event");
    }
}

/// The text of catalog puzzle `name`, as the page would send it.
pub fn catalog_text(server: &Server, name: &str) -> (String, String) {
    let (status, entry) = server.get(&format!("/api/catalog/{name}"));
    assert_eq!(status, 200, "{entry}");
    (
        entry["text"].as_str().unwrap().to_string(),
        entry["label"].as_str().unwrap().to_string(),
    )
}

/// The published counts of catalog puzzle `name` (its `[expected]` table).
pub fn expected_counts(text: &str) -> (u64, u64, u64) {
    let table: toml::Table = toml::from_str(text).unwrap();
    let e = table["expected"].as_table().unwrap();
    let n = |k: &str| e[k].as_integer().unwrap() as u64;
    (n("raw"), n("distinct"), n("unique"))
}
