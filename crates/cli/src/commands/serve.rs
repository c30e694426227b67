//! `jigsolve serve`: the local web page, served by the `jigsolve-serve`
//! crate; this command says where it listens and starts a browser on it.

use crate::exit;
use crate::options::ServeArgs;
use anyhow::Result;
use jigsolve_serve as serve;
use std::io::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

/// Serves the page until the process is stopped.
pub fn serve_command(args: &ServeArgs) -> Result<u8> {
    let threads = if args.threads > 0 {
        args.threads
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    let config = serve::Config {
        addr: SocketAddr::new(args.listen, args.port),
        limits: serve::Limits {
            connect_timeout: Duration::from_secs_f64(args.connect_timeout),
            solutions: args.kept_solutions as usize,
            ..serve::limits(
                threads,
                args.queue as usize,
                Duration::from_secs_f64(args.time_limit),
            )
        },
    };
    let open = args.open;
    serve::run(config, |addr| {
        let url = format!("http://{addr}/");
        let mut out = std::io::stdout().lock();
        let mut say = |line: String| {
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                exit::stdout_failed(e);
            }
        };
        say(format!("jigsolve serve: listening on {url}"));
        if !addr.ip().is_loopback() {
            say(format!(
                "jigsolve serve: {} is not a loopback address: other machines can reach this server",
                addr.ip()
            ));
        }
        say("jigsolve serve: Ctrl-C stops the server".into());
        if open {
            open_browser(&url);
        }
    })?;
    Ok(exit::FOUND)
}

/// Starts the system's browser on `url`; failing is only a message.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("jigsolve serve: cannot start a browser ({program}: {e}); open {url} yourself");
    }
}
