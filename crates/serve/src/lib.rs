//! `jigsolve serve`: a local web page to enter a puzzle, watch its search
//! and browse its solutions.
//!
//! The page (one HTML, one script, one style sheet, written by hand and
//! embedded in the binary) talks to a small JSON API over HTTP/1 on one
//! runtime thread. Anything that takes time or could fail deep inside a
//! library (reading a puzzle, drawing, a search) runs off that thread:
//! readings and pictures on the runtime's blocking threads, searches on
//! threads of their own ([`searches`]). A panic in any of them becomes an
//! error answer for that one request; the server goes on.
//!
//! Every search is a [`Session`](jigsolve_session::session::Session) driven as
//! `solve` drives it; its progress and end reach the page as Server-Sent
//! Events, and the page closing that stream is what cancels the search.
//!
//! The server reads no file: puzzles come in the request or from the
//! catalog. Requests are limited in size, the puzzle text too, and the
//! searches by a server-wide cap on threads and a queue; anything past a
//! limit gets a message saying which limit.

pub mod api;
pub mod searches;

pub use searches::Limits;
use searches::Registry;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body: a puzzle file and a little JSON around it.
pub const MAX_BODY_BYTES: usize = 512 << 10;

/// The largest puzzle text: Eternity II's file is 12 KB, and every catalog
/// puzzle is far smaller.
pub const MAX_PUZZLE_BYTES: usize = 256 << 10;

/// How long a connection may take to send a request's headers, counted
/// from the end of the previous answer on a kept-alive connection: a
/// client that sends a byte now and then cannot hold a connection, and an
/// idle one is closed. (An event stream, once answered, is not limited.)
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections served at once; more are closed as they come.
pub const MAX_CONNECTIONS: usize = 1024;

/// What the server was asked for.
pub struct Config {
    /// Where to listen (port 0: any free port).
    pub addr: SocketAddr,
    /// The limits on searches.
    pub limits: Limits,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The runtime's threads could not be made.
    #[error("cannot start the server's runtime")]
    Runtime(#[source] std::io::Error),
    /// The address cannot be listened on (taken, or not this machine's).
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
}

/// Serves until the process is stopped. Once the server listens,
/// `listening` is called with its address (the port chosen when 0 was
/// asked), so that the caller can say where it is or start a browser.
pub fn run(config: Config, listening: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    searches::few_arenas();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(16)
        .thread_keep_alive(Duration::from_secs(2))
        // Readers and pictures of deep puzzles recurse: give the blocking
        // threads the stack the command line's own thread has.
        .thread_stack_size(jigsolve_search::SEARCH_STACK_BYTES)
        .build()
        .map_err(ServeError::Runtime)?;
    let registry = Arc::new(Registry::new(config.limits));
    let loopback = config.addr.ip().is_loopback();
    runtime.block_on(async {
        let listen_error = |source| ServeError::Listen {
            addr: config.addr,
            source,
        };
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(listen_error)?;
        listening(listener.local_addr().map_err(listen_error)?);
        let tidying = Arc::clone(&registry);
        tokio::spawn(async move {
            loop {
                // After the runtime's idle blocking threads have ended.
                tokio::time::sleep(Duration::from_secs(3)).await;
                tidying.tidy();
            }
        });
        let app = api::router(Arc::clone(&registry), loopback);
        // Ctrl-C ends the process, and every search thread with it.
        serve(listener, app).await;
        Ok(())
    })
}

/// Serves each connection with HTTP/1 and [`HEADER_READ_TIMEOUT`], at most
/// [`MAX_CONNECTIONS`] at once.
async fn serve(listener: tokio::net::TcpListener, app: axum::Router) {
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it
            // was taken: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Default limits for `serve`: searches on at most `threads` threads at
/// once, `queue` more waiting, each at most `time_limit` long; 1,000
/// solutions kept per search; 10 s for a page to connect.
pub fn limits(threads: usize, queue: usize, time_limit: Duration) -> Limits {
    Limits {
        threads: threads.max(1),
        waiting: queue,
        kept: threads.max(1) + queue + 256,
        solutions: 1000,
        time_limit,
        connect_timeout: Duration::from_secs(10),
    }
}
