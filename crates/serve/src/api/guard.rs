//! What every request passes through before its route: the host, origin
//! and content-type checks, a panic turned into an error answer, every
//! error of the API as JSON, and headers that keep the page to itself.

#![allow(clippy::result_large_err)]

use super::{error, Shared};
use crate::MAX_BODY_BYTES;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;

/// Around every request: the host, origin and content-type checks, a
/// panic turned into an error answer, every error of the API as JSON, and
/// headers that keep the page to itself.
pub(super) async fn guard(State(app): Shared, request: Request, next: Next) -> Response {
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
