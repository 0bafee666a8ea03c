//! The OpenAPI 3 document of the JSON API, served at
//! `/api/v1/openapi.json`: every operation with a request example (a body
//! for `POST`, an example per query parameter for `GET`), and the schema
//! of every answer. tests/http_api.rs sends each example to a started
//! server and checks the answer against the documented schema.

use serde_json::{Value, json};

use crate::rules::Variant;

/// The position text of a backgammon race, White to roll (57 pips each).
pub const RACE_POSITION: &str = "2,2,2,3,3,3,0,0,0,0,0,0,0,0,0,0,0,0,-3,-3,-3,-2,-2,-2 w 0 0";

fn error_responses() -> Value {
    let e = |d: &str| json!({"description": d, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}});
    json!({
        "400": e("A malformed body or query (`bad_json`, `bad_request`), an unknown game (`unknown_game`), a position that is not one (`bad_position`), a value out of range (`bad_value`)"),
        "403": e("A request from another site's page the server's --cors does not let in (`cross_origin`)"),
        "408": e("The body did not arrive within the server's --line-timeout (`timeout`)"),
        "413": e("The body is longer than the server's --max-line (`body_too_large`)"),
        "422": e("A request that does not fit the position: no dice, the game over, the cube off (`bad_state`)"),
        "429": e("Too many requests at once from this address (`too_many_requests`)"),
        "503": e("Every slot of the server is taken (`busy`)"),
    })
}

fn post_op(summary: &str, description: &str, answer: &str, example: Value) -> Value {
    let mut responses = error_responses();
    responses["200"] = json!({
        "description": "The answer",
        "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{answer}")}}},
    });
    json!({
        "summary": summary,
        "description": description,
        "operationId": format!("post_{}", answer.trim_end_matches("Answer").to_lowercase()),
        "requestBody": {
            "required": true,
            "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Request"},
                "example": example,
            }},
        },
        "responses": responses,
    })
}

/// A `GET` operation whose parameters are `params` (name, example).
fn get_op(summary: &str, answer: &str, params: &[(&str, &str)]) -> Value {
    let mut responses = error_responses();
    responses["200"] = json!({
        "description": "The answer",
        "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{answer}")}}},
    });
    let parameters: Vec<Value> = params
        .iter()
        .map(|(name, example)| {
            let known = QUERY_PARAMS.iter().find(|(n, _)| n == name);
            json!({
                "name": name,
                "in": "query",
                "required": *name == "game",
                "description": known.map(|(_, d)| *d).unwrap_or("a rules.* option of the game"),
                "schema": {"type": "string"},
                "example": example,
            })
        })
        .collect();
    json!({
        "summary": summary,
        "description": "The same as the POST form, with the request's fields as query parameters: game, position, gnubgid, xgid, moves (space-separated), dice (`31`), ply, count, limit, rules.NAME, and the session's length, score (`W-B`), crawford, cube, owner, cube_on, jacoby, beavers, doubled. A `+` is a space, except in a gnubg ID.",
        "operationId": format!("get_{}", answer.trim_end_matches("Answer").to_lowercase()),
        "parameters": parameters,
        "responses": responses,
    })
}

/// The query parameters the `GET` forms read.
const QUERY_PARAMS: &[(&str, &str)] = &[
    ("game", "the game"),
    ("position", "the engine's position text"),
    ("gnubgid", "a gnubg Position ID, optionally :MatchID"),
    ("xgid", "an XGID"),
    ("moves", "move tokens played first, space-separated"),
    ("dice", "the dice, as 31"),
    (
        "ply",
        "depth counted as engine.ply: 1 = the network alone (gnubg's 0-ply), 2 = gnubg's 1-ply, 3 = gnubg's 2-ply",
    ),
    ("count", "move: how many plays to list"),
    ("limit", "legal: the most plays to list"),
    ("length", "the match length (0: money play)"),
    ("score", "White's and Black's points, as 2-3"),
    ("crawford", "whether this game is the Crawford game"),
    ("cube", "the cube's value"),
    ("owner", "centre, white or black"),
];

/// The request side's schemas: errors, the session and the request body.
fn request_schemas() -> Value {
    let int = json!({"type": "integer"});
    let string = json!({"type": "string"});
    json!({
        "Error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "description": "stable: bad_json, bad_request, unknown_game, bad_position, bad_value, bad_state, body_too_large, timeout, too_many_requests, busy, cross_origin, not_found, method_not_allowed, internal"},
                "message": {"type": "string"},
            },
        },
        "Session": {
            "type": "object",
            "description": "Money play (length 0) or a match to `length` points. An XGID, or a gnubg ID with its Match ID, gives the session itself and overrides this.",
            "properties": {
                "length": {"type": "integer", "minimum": 0},
                "score": {"type": "array", "items": int, "minItems": 2, "maxItems": 2, "description": "White's and Black's points"},
                "crawford": {"type": "boolean", "description": "this game is the Crawford game"},
                "cube": {"type": "integer", "description": "the cube's value"},
                "owner": {"type": "string", "enum": ["centre", "white", "black"]},
                "cube_on": {"type": "boolean", "description": "whether the cube is in play (default: the game's)"},
                "jacoby": {"type": "boolean"},
                "beavers": {"type": "boolean"},
                "doubled": {"type": "boolean", "description": "the side to move has doubled; its opponent's answer is due (cube)"},
            },
        },
        "Request": {
            "type": "object",
            "required": ["game"],
            "description": "The game and position every operation reads, and each operation's own fields. Unknown fields are refused.",
            "properties": {
                "game": {"type": "string", "enum": Variant::NAMES},
                "rules": {"type": "object", "description": "rules.* options of the game without the prefix, e.g. {\"opening\": \"reroll\"}", "additionalProperties": {"type": ["string", "integer"]}},
                "position": {"type": "string", "description": "the engine's position text (protocol/NOTATION.md); absent with gnubgid and xgid: the start, White to roll"},
                "gnubgid": {"type": "string", "description": "a gnubg Position ID, optionally followed by :MatchID (the hitting games)"},
                "xgid": {"type": "string", "description": "an XGID (the hitting games)"},
                "moves": {"type": "array", "items": string, "description": "move tokens played from the position first, as the protocol's position ... moves"},
                "dice": {"description": "the dice to play: [3, 1] or \"31\"", "oneOf": [{"type": "array", "items": int}, {"type": "string"}]},
                "ply": {"type": "integer", "minimum": 1, "maximum": 3, "description": "depth counted as engine.ply: 1 = the network alone (gnubg's 0-ply), 2 = gnubg's 1-ply, 3 = gnubg's 2-ply"},
                "session": {"$ref": "#/components/schemas/Session"},
                "count": {"type": "integer", "minimum": 1, "maximum": super::ops::MAX_COUNT, "description": "move: plays to list (default 5)"},
                "limit": {"type": "integer", "minimum": 1, "maximum": super::ops::MAX_LEGAL, "description": "legal: the most plays to list"},
                "games": {"type": "integer", "minimum": 1, "description": "rollout: trials (default 1296, at most the server's --max-rollout-games)"},
                "truncate": {"type": "integer", "minimum": 0, "description": "rollout: plies per trial, 0 to the end"},
                "seed": {"type": "integer", "minimum": 0},
                "luck": {"type": "boolean", "description": "rollout: the luck correction (default true)"},
                "plays": {"type": "array", "items": string, "description": "rollout: candidate plays of the dice given, each as one string (\"8/5 6/5\")"},
            },
        },
    })
}

/// The answers' schemas.
fn answer_schemas() -> Value {
    let number = json!({"type": "number"});
    let int = json!({"type": "integer"});
    let string = json!({"type": "string"});
    json!({
        "Chances": {
            "type": "object",
            "required": ["win", "win_mars", "lose_mars"],
            "description": "The mover's chances; a mars is a gammon. win_bg and lose_bg in backgammon only.",
            "properties": {
                "win": number, "win_mars": number, "lose_mars": number,
                "win_bg": number, "lose_bg": number,
            },
        },
        "Step": {
            "type": "object",
            "required": ["from", "to", "die"],
            "description": "One checker moved by one die, in the mover's numbering (25: the bar, 0: borne off)",
            "properties": {"from": int, "to": int, "die": int},
        },
        "Play": {
            "type": "object",
            "required": ["play", "steps", "position"],
            "properties": {
                "play": {"type": "string", "description": "as the protocol writes it"},
                "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}},
                "position": {"type": "string", "description": "the position after it"},
            },
        },
        "Judged": {
            "type": "object",
            "required": ["game", "position", "to_move"],
            "properties": {
                "game": string,
                "position": {"type": "string", "description": "the position judged, as position text"},
                "to_move": {"type": "string", "enum": ["white", "black"]},
                "dice": {"type": ["array", "null"], "items": int, "description": "the dice of the stage to play"},
            },
        },
        "LegalAnswer": {
            "allOf": [{"$ref": "#/components/schemas/Judged"}],
            "type": "object",
            "required": ["game", "position", "to_move", "plays", "count", "playable", "truncated"],
            "properties": {
                "plays": {"type": "array", "items": {"$ref": "#/components/schemas/Play"}},
                "count": int, "playable": int, "truncated": {"type": "boolean"},
            },
        },
        "RankedPlay": {
            "type": "object",
            "required": ["rank", "play", "steps", "position", "equity", "chances"],
            "properties": {
                "rank": int,
                "play": string,
                "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}},
                "position": string,
                "equity": {"type": "number", "description": "cubeless, for the mover"},
                "cubeful": {"type": "number", "description": "money play with the cube: per cube unit"},
                "mwc": {"type": "number", "description": "a match: match-winning chances"},
                "chances": {"$ref": "#/components/schemas/Chances"},
            },
        },
        "MoveAnswer": {
            "allOf": [{"$ref": "#/components/schemas/Judged"}],
            "type": "object",
            "required": ["game", "position", "to_move", "ply", "best", "plays"],
            "properties": {
                "ply": int,
                "best": string,
                "plays": {"type": "array", "items": {"$ref": "#/components/schemas/RankedPlay"}},
            },
        },
        "EvalAnswer": {
            "allOf": [{"$ref": "#/components/schemas/Judged"}],
            "type": "object",
            "required": ["game", "position", "to_move", "ply", "chances", "equity"],
            "properties": {
                "ply": int,
                "after": {"type": "string", "description": "with dice: the best play the chances follow"},
                "chances": {"$ref": "#/components/schemas/Chances"},
                "equity": number, "cubeful": number, "mwc": number,
            },
        },
        "CubeAnswer": {
            "allOf": [{"$ref": "#/components/schemas/Judged"}],
            "type": "object",
            "required": ["game", "position", "to_move", "ply", "best", "chances"],
            "properties": {
                "ply": int,
                "best": {"type": "string", "enum": ["double", "nodouble", "take", "drop", "beaver"]},
                "action": {"type": "string", "description": "as gnubg words it"},
                "unit": {"type": "string", "enum": ["money", "mwc"]},
                "no_double": number, "double_take": number, "double_pass": number,
                "chances": {"$ref": "#/components/schemas/Chances"},
            },
        },
        "RolloutResult": {
            "type": "object",
            "required": ["games", "equity", "se", "chances", "raw_equity", "raw_se"],
            "properties": {
                "play": string, "games": int, "equity": number, "se": number,
                "chances": {"$ref": "#/components/schemas/Chances"},
                "raw_equity": number, "raw_se": number,
            },
        },
        "RolloutAnswer": {
            "allOf": [{"$ref": "#/components/schemas/Judged"}],
            "type": "object",
            "required": ["game", "position", "to_move", "ply", "games", "truncate", "seed", "luck", "stopped", "results"],
            "properties": {
                "ply": int, "games": int, "truncate": int, "seed": int,
                "luck": {"type": "boolean"}, "stopped": {"type": "boolean"},
                "results": {"type": "array", "items": {"$ref": "#/components/schemas/RolloutResult"}},
            },
        },
    })
}

/// Every schema of the document: the requests' and the answers'.
fn schemas() -> Value {
    let mut all = request_schemas();
    if let (Some(all), Value::Object(answers)) = (all.as_object_mut(), answer_schemas()) {
        all.extend(answers);
    }
    all
}

/// The document.
pub fn document() -> Value {
    let paths = json!({
        "/api/v1/legal": {
            "post": post_op(
                "The legal plays of the stage to play",
                "Every distinct legal play of the dice (one stage: in an escalating chain, the current one), sorted by text, with its steps and the position it reaches.",
                "LegalAnswer",
                json!({"game": "backgammon", "gnubgid": "4HPwATDgc/ABMA", "dice": [3, 1]}),
            ),
            "get": get_op("The legal plays (GET form)", "LegalAnswer", &[("game", "long_nardy"), ("dice", "65")]),
        },
        "/api/v1/move": {
            "post": post_op(
                "The best play and the next best",
                "The whole turn's best plays at the depth asked, best first, each with its equity and chances (and its cubeful equity or match-winning chances in a session with a cube or a score).",
                "MoveAnswer",
                json!({"game": "backgammon", "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10", "ply": 1, "count": 3}),
            ),
            "get": get_op("The best play (GET form)", "MoveAnswer", &[("game", "gulbara"), ("dice", "65"), ("ply", "1")]),
        },
        "/api/v1/eval": {
            "post": post_op(
                "The chances of the side to move",
                "Before its roll when no dice are given; after its best play when they are.",
                "EvalAnswer",
                json!({"game": "plakoto", "ply": 1}),
            ),
            "get": get_op("The chances (GET form)", "EvalAnswer", &[("game", "backgammon"), ("gnubgid", "4HPwATDgc/ABMA")]),
        },
        "/api/v1/cube": {
            "post": post_op(
                "The cube decision",
                "Before the roll: double or not, with the equities of no double, double/take and double/pass (money play per cube unit, or match-winning chances at a match score). With session.doubled: the answer due.",
                "CubeAnswer",
                json!({"game": "backgammon", "position": RACE_POSITION, "session": {"length": 7, "score": [3, 4], "cube": 1}}),
            ),
            "get": get_op("The cube decision (GET form)", "CubeAnswer", &[("game", "backgammon"), ("position", RACE_POSITION), ("length", "5"), ("score", "2-4")]),
        },
        "/api/v1/rollout": {
            "post": post_op(
                "A rollout",
                "The position before the roll, or each of `plays` with the dice given, rolled out with the luck correction; at most the server's --max-rollout-games trials, stopped at its --max-search-ms (then `stopped` is true). The players search at `ply` 1 (the default: the network alone) or 2.",
                "RolloutAnswer",
                json!({"game": "backgammon", "gnubgid": "4HPwATDgc/ABMA", "games": 36, "truncate": 7, "seed": 1}),
            ),
        },
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "operationId": "get_openapi",
                "responses": {"200": {"description": "The OpenAPI 3 document", "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "paths"]}}}}},
            },
        },
    });
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "gulbara JSON API",
            "version": "1",
            "description": "The engine's plays, evaluations, cube decisions and rollouts for all nine games, as JSON. docs/HTTP.md is the reference; errors are {\"code\", \"message\"} with a 4xx status.",
        },
        "paths": paths,
        "components": {"schemas": schemas()},
    })
}
