//! Debian's Chromium driven through ChromeDriver by plain WebDriver
//! requests (JSON over HTTP): what the browser tests share.
#![allow(dead_code)]

use crate::server::request;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// ChromeDriver with one headless Chromium session.
pub struct Browser {
    driver: Child,
    addr: String,
    session: String,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    pub fn start() -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = format!("127.0.0.1:{port}");
        let start = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver does not answer"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1400,1000",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        // More switches for a measurement, one per line (for example
        // --js-flags=--no-liftoff: WebAssembly compiled by V8's optimizing
        // tier only).
        .chain(
            std::env::var("JIGSOLVE_CHROMIUM_ARGS")
                .unwrap_or_default()
                .lines()
                .filter(|a| !a.trim().is_empty())
                .map(|a| a.trim().to_string())
                .collect::<Vec<_>>(),
        )
        .collect::<Vec<_>>();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let (status, body) = request(&addr, "POST", "/session", Some(&capabilities.to_string()));
        let answer: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_eq!(status, 200, "a browser session: {answer}");
        let session = answer["value"]["sessionId"].as_str().unwrap().to_string();
        Browser {
            driver,
            addr,
            session,
            _profile: profile,
        }
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.map(|b| b.to_string());
        let (status, bytes) = request(&self.addr, method, &path, body.as_deref());
        let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
        self.wait(
            "the page is ready",
            "return document.body.dataset.ready === 'yes'",
        );
    }

    pub fn find(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    pub fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    pub fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.call("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Waits until `script` returns true.
    pub fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        while self.script(script) != Value::Bool(true) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waited 30 s for {what}; the page says: {}",
                self.script("return ['status', 'error', 'search-error'].map((id) => (document.getElementById(id) || {}).textContent).join(' | ')")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("JIGSOLVE_SCREENSHOTS") else {
            return;
        };
        let data = self.call("GET", "/screenshot", None);
        let png = base64_decode(data.as_str().unwrap());
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            _ => 63,
        }
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    out
}

/// Whether the browser is here; a loud skip, or a failure when the
/// browser tests are required.
pub fn browser_available() -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    let required = std::env::var("JIGSOLVE_BROWSER_TESTS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "JIGSOLVE_BROWSER_TESTS=1 but {CHROMIUM} or {CHROMEDRIVER} is missing: run scripts/setup.sh"
    );
    eprintln!("\n!!!!!!!!\n!!! SKIPPED: the browser tests (the page of `jigsolve serve`, the WebAssembly build) need {CHROMIUM} and {CHROMEDRIVER} (scripts/setup.sh installs them)\n!!!!!!!!\n");
    false
}

/// Chooses catalog puzzle `name` on the page and waits until it is read.
pub fn choose_catalog(browser: &Browser, name: &str) {
    browser.click(&format!("#catalog option[value='{name}']"));
    browser.wait(
        &format!("{name} read"),
        &format!("return document.getElementById('puzzle-info').textContent.startsWith('{name}:')"),
    );
}

/// Waits until the image `id` shows a picture.
pub fn picture_shown(browser: &Browser, id: &str) {
    browser.wait(
        &format!("the picture #{id}"),
        &format!("const i = document.getElementById('{id}'); return i.complete && i.naturalWidth > 0 && !!i.getAttribute('src')"),
    );
}
