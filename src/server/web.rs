//! The HTTP listener: the browser board at `/` (plain HTML, CSS and JS
//! embedded in the binary, so it works offline) and the protocol over a
//! WebSocket at `/ws`, one text message per line in either direction, one
//! session per socket. The JSON API under `/api/v1/` ([`super::http_api`])
//! is merged in. A WebSocket session is driven by the same loop as a
//! TCP connection ([`drive`]) and counts against the same connection limits.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tracing::Instrument;

use super::connection::{Frame, LineFramer};
use super::driver::{self, Lifecycle, Member, Served, Slot, Slots, drive};
use super::output::LineSink;
use super::tcp::ServeConfig;

/// The page and its assets, compiled in.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const STYLE_CSS: &str = include_str!("../../web/style.css");
const RULES_HTML: &str = include_str!("../../web/rules.html");

/// The page's script: ES modules with no build step, `app.js` the one
/// the page loads (it imports the others), each served as JavaScript.
const MODULES: &[(&str, &str)] = &[
    ("app.js", include_str!("../../web/app.js")),
    ("state.js", include_str!("../../web/state.js")),
    ("protocol.js", include_str!("../../web/protocol.js")),
    ("board.js", include_str!("../../web/board.js")),
    ("panel.js", include_str!("../../web/panel.js")),
    ("game.js", include_str!("../../web/game.js")),
    ("settings.js", include_str!("../../web/settings.js")),
    ("record.js", include_str!("../../web/record.js")),
    ("review.js", include_str!("../../web/review.js")),
    ("input.js", include_str!("../../web/input.js")),
];

/// Every response: nothing is loaded from anywhere but this server.
const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

#[derive(Clone)]
struct AppState {
    config: Arc<ServeConfig>,
    slots: Slots,
    life: Arc<Lifecycle>,
}

/// The router of the HTTP listener.
fn router(served: Served) -> Router {
    let Served {
        config,
        slots,
        life,
    } = served;
    let api = super::http_api::router(&config, slots.clone());
    let mut page = Router::new().route(
        "/",
        get(|| async { asset("text/html; charset=utf-8", "index.html", INDEX_HTML) }),
    );
    for &(name, text) in MODULES {
        page = page.route(
            &format!("/{name}"),
            get(move || async move { asset("text/javascript; charset=utf-8", name, text) }),
        );
    }
    page.route(
        "/style.css",
        get(|| async { asset("text/css; charset=utf-8", "style.css", STYLE_CSS) }),
    )
    .route(
        "/rules.html",
        get(|| async { asset("text/html; charset=utf-8", "rules.html", RULES_HTML) }),
    )
    .route("/api/record", post(api_record))
    .route("/api/analyse", post(api_analyse))
    .route("/api/mat", post(api_mat))
    .route("/ws", get(ws_upgrade))
    .with_state(AppState {
        config: Arc::new(config),
        slots,
        life,
    })
    .merge(api)
}

/// The environment variable naming a folder the page's files are read
/// from at each request instead of the copies compiled in: a developer's
/// aid to work on the page without rebuilding (the folder holds
/// `index.html`, the modules `*.js`, `style.css` and `rules.html`, as web/
/// does). A file it lacks is served from the compiled-in copy.
pub const WEB_DIR_ENV: &str = "GULBARA_WEB_DIR";

/// The text of the page's file `name`: from [`WEB_DIR_ENV`]'s folder when
/// set, else `embedded`.
fn asset_text(name: &str, embedded: &'static str) -> std::borrow::Cow<'static, str> {
    std::env::var_os(WEB_DIR_ENV)
        .and_then(|dir| std::fs::read_to_string(std::path::Path::new(&dir).join(name)).ok())
        .map_or(
            std::borrow::Cow::Borrowed(embedded),
            std::borrow::Cow::Owned,
        )
}

fn asset(content_type: &'static str, name: &str, embedded: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        asset_text(name, embedded).into_owned(),
    )
        .into_response()
}

/// Serves HTTP on `listener` until the caller drops this future (at
/// shutdown, after which `life` tells the WebSocket sessions to stop).
/// Each connection is HTTP/1.1 (WebSocket upgrades included) whose request
/// headers must arrive within `line_timeout`: a client that stalls in its
/// headers, or leaves a kept-alive connection idle that long, is closed
/// (the JSON API bounds the body the same way, [`super::http_api`]).
pub async fn run(listener: TcpListener, served: Served) -> std::io::Result<()> {
    let header_timeout = served.config.line_timeout;
    let app = router(served);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(x) => x,
            Err(e) if super::tcp::is_transient(&e) => {
                tracing::warn!(error = %e, "accept failed; retrying");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            async move {
                use tower_service::Service;
                app.call(req.map(axum::body::Body::new)).await
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(hyper_util::rt::TokioTimer::new());
        builder.header_read_timeout(header_timeout);
        tokio::spawn(async move {
            let conn = builder
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(e) = conn.await {
                tracing::debug!(%peer, error = %e, "HTTP connection ended");
            }
        });
    }
}

/// The host[:port] part of an `Origin` header (`http://127.0.0.1:8080`).
fn origin_host(origin: &str) -> Option<&str> {
    let rest = origin.split_once("://")?.1;
    Some(rest.split('/').next().unwrap_or(rest))
}

/// Whether a browser's WebSocket comes from a page of this server. A
/// request without `Origin` is not a browser's (a script or a GUI) and is
/// let in; one from another site's page is refused, so a page the user
/// happens to visit cannot use the engine behind their back.
pub(super) fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str().ok().and_then(origin_host), host) {
        (Some(o), Some(h)) => o.eq_ignore_ascii_case(h),
        _ => false,
    }
}

/// Answers one of the board's text requests ([`super::web_api`]): the
/// body read as text within its limit, judged off the async threads, the
/// answer JSON (`{"error": ...}` with 400 when refused).
async fn api_answer(
    headers: HeaderMap,
    body: axum::body::Bytes,
    judge: impl FnOnce(&str) -> Result<serde_json::Value, super::web_api::BoardRequestError>
    + Send
    + 'static,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin request refused\n").into_response();
    }
    let json = |code: StatusCode, v: serde_json::Value| {
        (
            code,
            [(header::CONTENT_TYPE, "application/json")],
            v.to_string(),
        )
            .into_response()
    };
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        return json(
            StatusCode::BAD_REQUEST,
            serde_json::json!({ "error": "the text is not UTF-8" }),
        );
    };
    match tokio::task::spawn_blocking(move || judge(&text)).await {
        Ok(Ok(v)) => json(StatusCode::OK, v),
        Ok(Err(e)) => json(
            StatusCode::BAD_REQUEST,
            serde_json::json!({ "error": e.to_string() }),
        ),
        Err(_) => json(
            StatusCode::INTERNAL_SERVER_ERROR,
            serde_json::json!({ "error": "the request failed" }),
        ),
    }
}

async fn api_record(headers: HeaderMap, body: axum::body::Bytes) -> Response {
    api_answer(headers, body, super::web_api::record_json).await
}

async fn api_mat(headers: HeaderMap, body: axum::body::Bytes) -> Response {
    api_answer(headers, body, super::web_api::mat_json).await
}

/// `POST /api/analyse?ply=N[&progress=1]`: the record judged at
/// `engine.ply` N (1..=3; default [`super::web_api::DEFAULT_REVIEW_PLY`]).
/// With `progress=1` the answer is a stream of JSON lines
/// (`application/x-ndjson`): `{"progress":[k,n]}` after each of the
/// game's n turns is judged, then `{"result":{...}}` (the analysis) or
/// `{"error":"..."}`; a client that goes away stops the analysis.
async fn api_analyse(
    headers: HeaderMap,
    uri: axum::http::Uri,
    body: axum::body::Bytes,
) -> Response {
    let query = uri.query().unwrap_or("");
    let ply = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("ply="))
        .and_then(|p| p.parse::<u8>().ok())
        .unwrap_or(super::web_api::DEFAULT_REVIEW_PLY);
    if !query.split('&').any(|kv| kv == "progress=1") {
        return api_answer(headers, body, move |text| {
            super::web_api::analyse_json(text, ply)
        })
        .await;
    }
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin request refused\n").into_response();
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    match String::from_utf8(body.to_vec()) {
        Err(_) => {
            let _ = tx.send(serde_json::json!({ "error": "the text is not UTF-8" }).to_string());
        }
        Ok(text) => {
            tokio::task::spawn_blocking(move || {
                let res = super::web_api::analyse_json_with(&text, ply, &mut |k, n| {
                    tx.send(serde_json::json!({ "progress": [k, n] }).to_string())
                        .is_ok()
                });
                let last = match res {
                    Ok(v) => serde_json::json!({ "result": v }),
                    Err(e) => serde_json::json!({ "error": e.to_string() }),
                };
                let _ = tx.send(last.to_string());
            });
        }
    }
    let lines = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|l| (Ok::<_, std::io::Error>(format!("{l}\n")), rx))
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        axum::body::Body::from_stream(lines),
    )
        .into_response()
}

async fn ws_upgrade(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(state): State<AppState>,
) -> Response {
    if !same_origin(&headers) {
        tracing::warn!(%peer, origin = ?headers.get(header::ORIGIN), "refusing a cross-origin WebSocket");
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused\n").into_response();
    }
    // A message holds one line: anything up to a few times the line limit
    // is read and answered with the line-too-long error (as TCP does);
    // beyond that the socket is closed without buffering it.
    let max_message = state.config.max_line.saturating_mul(4).saturating_add(4096);
    let ws = ws.max_message_size(max_message).max_frame_size(max_message);
    let member = state.life.join();
    let slot = state.slots.take(peer.ip());
    // Everything the connection logs is under its span.
    let span = tracing::info_span!("websocket", %peer);
    let mut resp = ws.on_upgrade(move |socket| {
        async move {
            let (member, slot) = match (member, slot) {
                (Some(m), Ok(s)) => (m, s),
                (None, _) => return refuse(socket, "server shutting down").await,
                (_, Err(why)) => {
                    tracing::warn!(%peer, why, "refusing a WebSocket");
                    return refuse(socket, why).await;
                }
            };
            tracing::info!(%peer, "websocket opened");
            session(socket, &state.config, member, slot).await;
            tracing::info!(%peer, "websocket closed");
        }
        .instrument(span)
    });
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// Tells a client there is no slot for it, then closes.
async fn refuse(socket: WebSocket, why: &'static str) {
    driver::refuse(WsWriter(socket.split().0), why).await;
}

async fn session(socket: WebSocket, config: &ServeConfig, member: Member, slot: Slot) {
    let (sink, stream) = socket.split();
    let reader = WsReader {
        stream,
        max_line: config.max_line,
        ready: VecDeque::new(),
    };
    drive(reader, WsWriter(sink), config, member, slot).await;
}

/// The reading side of a WebSocket: each text (or binary) message is one
/// line; a trailing line ending is dropped, and a message holding several
/// lines is taken as those lines, so nothing reaches the session with a
/// line break inside.
struct WsReader {
    stream: SplitStream<WebSocket>,
    max_line: usize,
    ready: VecDeque<Frame>,
}

impl WsReader {
    fn frames(&mut self, data: &[u8]) {
        let mut framer = LineFramer::new(self.max_line);
        let mut out = Vec::new();
        framer.push(data, &mut out);
        out.extend(framer.finish());
        self.ready.extend(out);
    }
}

impl super::driver::FrameSource for WsReader {
    async fn read_frame(&mut self) -> std::io::Result<Option<Frame>> {
        loop {
            if let Some(f) = self.ready.pop_front() {
                return Ok(Some(f));
            }
            // StreamExt::next is cancel-safe: a message is never half taken.
            match self.stream.next().await {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Ok(Message::Text(t))) => self.frames(t.as_bytes()),
                Some(Ok(Message::Binary(b))) => self.frames(&b),
                // Pings are answered by the WebSocket layer itself.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Err(e)) => return Err(std::io::Error::other(e)),
            }
        }
    }
}

/// The writing side of a WebSocket: one text message per line.
struct WsWriter(SplitSink<WebSocket, Message>);

impl LineSink for WsWriter {
    async fn write_lines(&mut self, lines: Vec<String>) -> std::io::Result<()> {
        for line in lines {
            self.0
                .feed(Message::Text(line.into()))
                .await
                .map_err(std::io::Error::other)?;
        }
        self.0.flush().await.map_err(std::io::Error::other)
    }

    async fn close(mut self) {
        let _ = self.0.send(Message::Close(None)).await;
        let _ = self.0.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn the_page_loads_app_js_as_a_module_and_every_module_it_imports_is_served() {
        assert!(INDEX_HTML.contains(r#"<script type="module" src="app.js"></script>"#));
        let names: Vec<&str> = MODULES.iter().map(|m| m.0).collect();
        let mut imported = vec!["app.js"];
        for (name, text) in MODULES {
            for line in text.lines().filter(|l| l.starts_with("import ")) {
                let from = line
                    .rsplit_once(" from './")
                    .and_then(|(_, r)| r.strip_suffix("';"))
                    .unwrap_or_else(|| panic!("{name}: an import not of a sibling: {line}"));
                assert!(
                    names.contains(&from),
                    "{name} imports {from}, which is not served"
                );
                imported.push(from);
            }
        }
        // Every module served is used.
        for n in names {
            assert!(
                imported.contains(&n),
                "{n} is served but nothing imports it"
            );
        }
    }

    #[test]
    fn only_the_servers_own_pages_may_open_a_websocket() {
        assert!(same_origin(&headers(None, "127.0.0.1:8080")));
        assert!(same_origin(&headers(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin(&headers(
            Some("http://evil.example"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin(&headers(Some("null"), "127.0.0.1:8080")));
    }
}
