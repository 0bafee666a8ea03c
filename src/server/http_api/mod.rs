//! The JSON HTTP API under `/api/v1/` on the HTTP listener (`gulbara serve
//! --http`): `legal`, `move`, `eval`, `cube` and `rollout` as `POST` with a
//! JSON body, the first four also as `GET` with query parameters, and the
//! OpenAPI document at `/api/v1/openapi.json`. docs/HTTP.md is the user's
//! reference.
//!
//! Limits, as the TCP server has them: a body is at most `--max-line`
//! bytes and must arrive within `--line-timeout` (a client that stalls
//! half-way is answered 408 and holds nothing); a request holds one of the
//! server's connection slots (`--max-connections`, `--max-per-ip`, shared
//! with the TCP and WebSocket sessions) only while it is judged, after its
//! body is read; searches and rollouts stop at `--max-search-ms`, and a
//! rollout asks for at most `--max-rollout-games`. Requests from another
//! site's page are refused unless `--cors` names the site.

pub mod openapi;
pub mod ops;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, any, get, post};
use futures_util::StreamExt;
use serde::Serialize;

use super::driver::Slots;
use super::tcp::ServeConfig;
use ops::{ApiError, ApiRequest, Caps};

/// The default of `--max-rollout-games`.
pub const DEFAULT_MAX_ROLLOUT_GAMES: u32 = 10_000;

/// What the API allows, from the server's configuration.
struct ApiConfig {
    max_body: usize,
    body_timeout: Option<Duration>,
    caps: Caps,
    cors: Vec<String>,
}

#[derive(Clone)]
struct ApiState {
    config: Arc<ApiConfig>,
    slots: Slots,
}

/// The operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Legal,
    Move,
    Eval,
    Cube,
    Rollout,
}

/// The API's routes, with their state; merged into the HTTP listener's
/// router by [`super::web`].
pub fn router(config: &ServeConfig, slots: Slots) -> Router {
    let api = ApiConfig {
        max_body: config.max_line,
        body_timeout: config.line_timeout,
        caps: Caps {
            max_search: config.max_search,
            max_rollout_games: config.max_rollout_games.max(1),
        },
        cors: config.cors.clone(),
    };
    let cors = cors_layer(&api.cors);
    let state = ApiState {
        config: Arc::new(api),
        slots,
    };
    let op = |o: Op, with_get: bool| -> MethodRouter<ApiState> {
        let p = post(
            move |s: State<ApiState>, c: ConnectInfo<SocketAddr>, r: Request| {
                handle(o, false, s, c, r)
            },
        );
        let r = if with_get {
            p.get(
                move |s: State<ApiState>, c: ConnectInfo<SocketAddr>, r: Request| {
                    handle(o, true, s, c, r)
                },
            )
        } else {
            p
        };
        r.fallback(method_not_allowed)
    };
    let routes = Router::new()
        .route(
            "/api/v1/openapi.json",
            get(serve_openapi).fallback(method_not_allowed),
        )
        .route("/api/v1/legal", op(Op::Legal, true))
        .route("/api/v1/move", op(Op::Move, true))
        .route("/api/v1/eval", op(Op::Eval, true))
        .route("/api/v1/cube", op(Op::Cube, true))
        .route("/api/v1/rollout", op(Op::Rollout, false))
        .route("/api/v1", any(not_found))
        .route("/api/v1/", any(not_found))
        .route("/api/v1/{*rest}", any(not_found))
        .layer(middleware::from_fn_with_state(state.clone(), origin_check))
        .with_state(state);
    match cors {
        Some(layer) => routes.layer(layer),
        None => routes,
    }
}

/// The CORS layer `--cors` asks for (`*`: any site), or none.
fn cors_layer(origins: &[String]) -> Option<tower_http::cors::CorsLayer> {
    use tower_http::cors::{AllowOrigin, CorsLayer};
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok())
                .collect::<Vec<_>>(),
        )
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::CONTENT_TYPE])
            .max_age(Duration::from_secs(600)),
    )
}

/// Refuses a request from another site's page unless `--cors` lets that
/// site in: without it a page the user visits could make the server search
/// on its behalf (it could not read the answer, but the work is done).
async fn origin_check(State(state): State<ApiState>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    if !super::web::same_origin(headers) {
        let origin = headers
            .get(header::ORIGIN)
            .and_then(|o| o.to_str().ok())
            .unwrap_or("");
        let cors = &state.config.cors;
        if !cors.iter().any(|c| c == "*" || c == origin) {
            return error_response(&ApiError::new(
                403,
                "cross_origin",
                "requests from another site's page are refused (the server's --cors lets sites in)",
            ));
        }
    }
    next.run(req).await
}

/// A JSON answer with `status`.
fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => (
            status,
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The JSON of a refusal: `{"code": ..., "message": ...}`.
#[derive(Serialize)]
struct ErrorBody<'a> {
    code: &'a str,
    message: &'a str,
}

fn error_response(e: &ApiError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST);
    json_response(
        status,
        &ErrorBody {
            code: e.code,
            message: &e.message,
        },
    )
}

async fn not_found() -> Response {
    error_response(&ApiError::new(
        404,
        "not_found",
        "no such operation: legal, move, eval, cube, rollout (POST), openapi.json (GET)",
    ))
}

async fn method_not_allowed() -> Response {
    error_response(&ApiError::new(
        405,
        "method_not_allowed",
        "legal, move, eval and cube take POST or GET, rollout POST, openapi.json GET",
    ))
}

async fn serve_openapi() -> Response {
    json_response(StatusCode::OK, &openapi::document())
}

/// Sets the flag when dropped: a search whose request is gone (the client
/// closed, the server shuts down) stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Reads a body of at most `max` bytes within `timeout`.
async fn read_body(
    headers: &HeaderMap,
    body: Body,
    max: usize,
    timeout: Option<Duration>,
) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            413,
            "body_too_large",
            format!("the body is longer than {max} bytes"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let read = async {
        let mut stream = body.into_data_stream();
        let mut buf: Vec<u8> = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk
                .map_err(|e| ApiError::new(400, "bad_request", format!("reading the body: {e}")))?;
            if buf.len() + chunk.len() > max {
                return Err(too_large());
            }
            buf.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(buf))
    };
    match timeout {
        None => read.await,
        Some(t) => tokio::time::timeout(t, read).await.map_err(|_| {
            ApiError::new(
                408,
                "timeout",
                format!("the body did not arrive within {} s", t.as_secs()),
            )
        })?,
    }
}

/// The request a body holds.
fn parse_json(bytes: &[u8]) -> Result<ApiRequest, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::new(
            400,
            "bad_json",
            "the body is empty: send a JSON object such as {\"game\": \"backgammon\", \"dice\": [3, 1]}",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        use serde_json::error::Category;
        let code = match e.classify() {
            Category::Data => "bad_request",
            _ => "bad_json",
        };
        ApiError::new(400, code, format!("the body is not a valid request: {e}"))
    })
}

/// Decodes `%XX` escapes; `+` is a space except where `plus_is_plus`
/// (gnubg IDs, whose alphabet has `+` and never a space).
fn percent_decode(s: &str, plus_is_plus: bool) -> Result<String, ApiError> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = b
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        ApiError::new(400, "bad_request", "a bad %-escape in the query")
                    })?;
                out.push(hex);
                i += 3;
            }
            b'+' if !plus_is_plus => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ApiError::new(400, "bad_request", "the query is not UTF-8"))
}

/// The request a query string holds: `game`, `position`, `gnubgid`,
/// `xgid`, `moves` (space-separated), `dice`, `ply`, `count`, `limit`,
/// `rules.NAME` and the session's fields (`length`, `score` as `W-B`,
/// `crawford`, `cube`, `owner`, `cube_on`, `jacoby`, `beavers`, `doubled`).
fn parse_query(query: &str) -> Result<ApiRequest, ApiError> {
    use serde_json::{Map, Value};
    let mut top = Map::new();
    let mut rules = Map::new();
    let mut session = Map::new();
    let bad = |m: String| ApiError::new(400, "bad_request", m);
    let number = |k: &str, v: &str| -> Result<Value, ApiError> {
        v.parse::<u64>()
            .map(Value::from)
            .map_err(|_| bad(format!("{k} must be a number, got {}", Value::from(v))))
    };
    let boolean = |k: &str, v: &str| -> Result<Value, ApiError> {
        match v {
            "true" | "on" | "1" => Ok(Value::Bool(true)),
            "false" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(bad(format!(
                "{k} must be true or false, got {}",
                Value::from(v)
            ))),
        }
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = percent_decode(k, false)?;
        let v = percent_decode(v, k == "gnubgid")?;
        if top.contains_key(&k) || session.contains_key(&k) {
            return Err(bad(format!("{k} is given twice")));
        }
        match k.as_str() {
            "game" | "position" | "gnubgid" | "xgid" | "dice" => {
                top.insert(k, Value::String(v));
            }
            "ply" | "count" | "limit" => {
                let n = number(&k, &v)?;
                top.insert(k, n);
            }
            "moves" => {
                top.insert(
                    k,
                    Value::Array(v.split_whitespace().map(Value::from).collect()),
                );
            }
            "length" | "cube" => {
                let n = number(&k, &v)?;
                session.insert(k, n);
            }
            "owner" => {
                session.insert(k, Value::String(v));
            }
            "crawford" | "cube_on" | "jacoby" | "beavers" | "doubled" => {
                let b = boolean(&k, &v)?;
                session.insert(k, b);
            }
            "score" => {
                let parts: Vec<&str> = v.split(['-', ',']).collect();
                let [w, b] = parts[..] else {
                    return Err(bad(format!(
                        "score must be W-B (White's and Black's points), got {}",
                        Value::from(v.as_str())
                    )));
                };
                let arr = Value::Array(vec![number("score", w)?, number("score", b)?]);
                session.insert(k, arr);
            }
            _ => match k.strip_prefix("rules.") {
                Some(name) if !name.is_empty() => {
                    rules.insert(name.to_string(), Value::String(v));
                }
                _ => return Err(bad(format!("unknown query parameter {}", Value::from(k)))),
            },
        }
    }
    if !rules.is_empty() {
        top.insert("rules".into(), Value::Object(rules));
    }
    if !session.is_empty() {
        top.insert("session".into(), Value::Object(session));
    }
    serde_json::from_value(Value::Object(top))
        .map_err(|e| ApiError::new(400, "bad_request", format!("the query is not valid: {e}")))
}

/// Answers one operation: the request read (body within its limits, or the
/// query), a slot taken, the work done off the async threads under the
/// server's caps, the answer or the refusal as JSON.
async fn handle(
    op: Op,
    is_get: bool,
    State(state): State<ApiState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
) -> Response {
    let cfg = state.config.clone();
    let headers = req.headers().clone();
    let parsed = if is_get {
        parse_query(req.uri().query().unwrap_or(""))
    } else {
        match read_body(&headers, req.into_body(), cfg.max_body, cfg.body_timeout).await {
            Ok(bytes) => parse_json(&bytes),
            Err(e) => {
                tracing::debug!(%peer, code = e.code, "request body refused");
                let mut resp = error_response(&e);
                // The rest of the body is not read: the connection ends.
                resp.headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                return resp;
            }
        }
    };
    let request = match parsed {
        Ok(r) => r,
        Err(e) => return error_response(&e),
    };
    let slot = match state.slots.take(peer.ip()) {
        Ok(s) => s,
        Err(why) if why.contains("your address") => {
            return error_response(&ApiError::new(429, "too_many_requests", why));
        }
        Err(why) => return error_response(&ApiError::new(503, "busy", why)),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let caps = cfg.caps.clone();
    let work = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        match op {
            Op::Legal => ops::legal(&request, &caps).and_then(to_value),
            Op::Move => ops::best_move(&request, &caps, &stop).and_then(to_value),
            Op::Eval => ops::eval(&request, &caps, &stop).and_then(to_value),
            Op::Cube => ops::cube(&request, &caps).and_then(to_value),
            Op::Rollout => ops::rollout(&request, &caps, &stop).and_then(to_value),
        }
    });
    match work.await {
        Ok(Ok(v)) => json_response(StatusCode::OK, &v),
        Ok(Err(e)) => error_response(&e),
        Err(_) => error_response(&ApiError::new(500, "internal", "the request failed")),
    }
}

fn to_value(v: impl Serialize) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(v).map_err(|e| ApiError::new(500, "internal", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_read_as_the_json_requests_they_stand_for() {
        let r = parse_query(
            "game=backgammon&gnubgid=4HPwATDgc%2FABMA&dice=31&ply=1&rules.opening=reroll&length=7&score=2-3&crawford=false",
        )
        .expect("a good query");
        assert_eq!(r.game.as_deref(), Some("backgammon"));
        assert_eq!(r.gnubgid.as_deref(), Some("4HPwATDgc/ABMA"));
        assert_eq!(r.ply, Some(1));
        assert_eq!(r.rules["opening"], "reroll");
        let s = r.session.expect("a session");
        assert_eq!(
            (s.length, s.score, s.crawford),
            (7, Some([2, 3]), Some(false))
        );
        // `+` is a space in position text, itself in a gnubg ID.
        let r = parse_query("game=gulbara&position=a+b&gnubgid=a+b").expect("read");
        assert_eq!(r.position.as_deref(), Some("a b"));
        assert_eq!(r.gnubgid.as_deref(), Some("a+b"));
        for bad in ["game=x&game=y", "ply=zero", "color=red", "score=1", "x=%zz"] {
            let e = parse_query(bad).expect_err(bad);
            assert_eq!(e.status, 400, "{bad}");
        }
    }

    #[test]
    fn bodies_that_are_not_requests_are_told_apart() {
        assert_eq!(parse_json(b"  ").unwrap_err().code, "bad_json");
        assert_eq!(parse_json(b"{\"game\": ").unwrap_err().code, "bad_json");
        assert_eq!(
            parse_json(b"{\"gaem\": 1}").unwrap_err().code,
            "bad_request"
        );
        assert_eq!(
            parse_json(b"{\"ply\": \"x\"}").unwrap_err().code,
            "bad_request"
        );
        assert!(parse_json(b"{\"game\": \"fevga\"}").is_ok());
    }
}
