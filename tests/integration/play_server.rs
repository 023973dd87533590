//! `tarpon play`'s HTTP server from outside: a real process on a free port,
//! spoken to over plain TCP. Bad input of every kind gets a 4xx and leaves
//! the game as it was; the server keeps serving; it listens only where asked.
//! Verdicts here are ones no search depth can get wrong (a mate in one
//! allowed), so a loaded machine changes only how long they take.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

struct Server {
    child: Child,
    address: String,
    puzzles: std::path::PathBuf,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        // One file per server: tests run in parallel in one process.
        static SERVERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let puzzles = std::env::temp_dir().join(format!(
            "tarpon-play-puzzles-{}-{n}.jsonl",
            std::process::id()
        ));
        let mut child = Command::new(env!("CARGO_BIN_EXE_tarpon"))
            .args(["play", "--port", "0", "--verdict-ms", "300", "--puzzles"])
            .arg(&puzzles)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tarpon play");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("the listening line");
        let address = first
            .trim()
            .strip_prefix("tarpon play: listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_string();
        Server {
            child,
            address,
            puzzles,
        }
    }

    /// One request; the status and the body.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(request).expect("send");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.address,
            body.len()
        );
        self.raw(&[head.as_bytes(), body.as_bytes()].concat())
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, &body.to_string());
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn state(&self, id: &str) -> Value {
        let (status, text) = self.request("GET", &format!("/api/game/{id}"), "");
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).expect("state JSON")
    }

    fn new_game(&self, args: Value) -> String {
        let (status, state) = self.post("/api/new", &args);
        assert_eq!(status, 200, "{state}");
        state["id"].as_str().expect("an id").to_string()
    }

    /// Waits (bounded) until the engine has answered.
    fn settled(&self, id: &str) -> Value {
        for _ in 0..600 {
            let state = self.state(id);
            if state["busy"] == false {
                return state;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the engine never answered in game {id}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.puzzles);
    }
}

/// What must not change when a request is refused.
fn fingerprint(state: &Value) -> (Value, Value, Value) {
    (
        state["fen"].clone(),
        state["moves"].clone(),
        state["result"].clone(),
    )
}

#[test]
fn bad_requests_get_a_4xx_and_leave_the_game_alone() {
    let server = Server::start(&[]);
    let id = server.new_game(json!({ "mode": "competitive", "level": "Beginner" }));
    let before = fingerprint(&server.state(&id));
    let path = format!("/api/game/{id}/move");
    let cases: Vec<(&str, String, u16)> = vec![
        ("illegal move", r#"{"move":"e2e5"}"#.into(), 400),
        ("not a move", r#"{"move":"hello"}"#.into(), 400),
        ("empty move", r#"{"move":""}"#.into(), 400),
        ("move of the wrong type", r#"{"move":42}"#.into(), 400),
        ("no move", r#"{}"#.into(), 400),
        ("malformed JSON", r#"{"move": "e2e4""#.into(), 400),
        ("not an object", r#"["e2e4"]"#.into(), 400),
        ("black's move", r#"{"move":"e7e5"}"#.into(), 400),
    ];
    for (what, body, expected) in cases {
        let (status, text) = server.request("POST", &path, &body);
        assert_eq!(status, expected, "{what}: {text}");
        assert!(text.contains("error"), "{what}: {text}");
        assert_eq!(
            fingerprint(&server.state(&id)),
            before,
            "{what} changed the game"
        );
    }
    let (status, _) = server.raw(
        &[
            format!("POST {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: 4\r\n\r\n")
                .as_bytes(),
            &[0xff, 0xfe, 0x7b, 0x7d],
        ]
        .concat(),
    );
    assert_eq!(status, 400, "a body that is not UTF-8");
    let huge = format!(r#"{{"move":"e2e4","pad":"{}"}}"#, "x".repeat(200_000));
    assert_eq!(server.request("POST", &path, &huge).0, 413);
    assert_eq!(
        fingerprint(&server.state(&id)),
        before,
        "oversized body changed the game"
    );
    // Help is refused in a competitive game, unknown things are not found.
    assert_eq!(
        server.post(&format!("/api/game/{id}/hint"), &json!({})).0,
        403
    );
    assert_eq!(
        server.post(&format!("/api/game/{id}/undo"), &json!({})).0,
        403
    );
    assert_eq!(
        server.post(&format!("/api/game/{id}/fly"), &json!({})).0,
        404
    );
    assert_eq!(
        server
            .post("/api/game/nosuchgame/move", &json!({ "move": "e2e4" }))
            .0,
        404
    );
    assert_eq!(server.request("GET", "/api/game/nosuchgame", "").0, 404);
    assert_eq!(
        server.request("GET", "/api/game/nosuchgame/events", "").0,
        404
    );
    assert_eq!(server.request("GET", "/nowhere", "").0, 404);
    assert_eq!(server.request("DELETE", "/", "").0, 400);
    // A new game from bad settings is refused.
    for bad in [
        json!({ "fen": "not a fen" }),
        json!({ "pgn": "1. e4 e5 2. Ke3 Ke6 3. Qxf7" }),
        json!({ "mode": "blitz" }),
        json!({ "color": "green" }),
        json!({ "level": "Grandmaster" }),
        json!({ "elo": "high" }),
        json!({ "undo": "yes" }),
    ] {
        assert_eq!(server.post("/api/new", &bad).0, 400, "{bad}");
    }
    for bad_page in [
        "/explain/trace?fen=garbage",
        "/explain/tree?depth=9",
        "/explain/trace?depth=x",
        "/explain/nothing",
        "/maze?width=999",
        "/maze?seed=-1",
        "/maze?preset=nope",
        "/maze?loops=2",
        "/maze?text=%23%23%23",
    ] {
        let (status, body) = server.request("GET", bad_page, "");
        assert!(
            (400..500).contains(&status) && body.contains("\"error\""),
            "{bad_page}: {status} {body}"
        );
    }
    assert_eq!(
        server
            .post(
                "/api/judge",
                &json!({ "fen": "8/8/8/8/8/8/8/8 w - - 0 1", "move": "e2e4" })
            )
            .0,
        400
    );
    for think_ms in [json!(-1), json!("long"), json!(10_001)] {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let body = json!({ "fen": start, "move": "e2e4", "think_ms": think_ms });
        assert_eq!(server.post("/api/judge", &body).0, 400, "{body}");
    }
    // Still serving, game unchanged.
    assert_eq!(fingerprint(&server.state(&id)), before);
}

#[test]
fn a_timed_game_charges_the_mover_and_ends_on_time() {
    let server = Server::start(&[]);
    for bad in [
        json!({ "mode": "learning", "clock": "5+3" }),
        json!({ "mode": "competitive", "clock": "five" }),
        json!({ "mode": "competitive", "clock": "0+0" }),
        json!({ "mode": "competitive", "clock": 5 }),
    ] {
        assert_eq!(server.post("/api/new", &bad).0, 400, "{bad}");
    }
    // Three seconds and no increment: the player's clock runs from the start.
    let id =
        server.new_game(json!({ "mode": "competitive", "level": "Beginner", "clock": "0.05+0" }));
    let state = server.state(&id);
    assert_eq!(state["clock"]["running"], "white");
    assert!(state["clock"]["white_ms"].as_i64().unwrap() <= 3000);
    assert_eq!(state["clock"]["black_ms"], 3000);
    let (status, _) = server.post(&format!("/api/game/{id}/move"), &json!({ "move": "e2e4" }));
    assert_eq!(status, 200);
    let state = server.settled(&id);
    assert_eq!(
        state["moves"].as_array().unwrap().len(),
        2,
        "the engine replied"
    );
    // The engine's pause is cut to a thirtieth of its time: it spent little.
    let black_ms = state["clock"]["black_ms"].as_i64().unwrap();
    assert!((2000..3000).contains(&black_ms), "black has {black_ms} ms");
    assert_eq!(state["clock"]["running"], "white");
    // The player does not move: White loses on time, and a late move is refused.
    std::thread::sleep(Duration::from_millis(3100));
    let state = server.state(&id);
    assert_eq!(state["result"]["reason"], "time forfeit", "{state}");
    assert_eq!(state["result"]["result"], "0-1");
    assert_eq!(state["clock"]["white_ms"], 0);
    assert_eq!(state["clock"]["running"], Value::Null);
    let (status, _) = server.post(&format!("/api/game/{id}/move"), &json!({ "move": "d2d4" }));
    assert_eq!(status, 409);
    // A flag is a loss when the other side can still mate (Black's lone
    // king flags against king and rook), a draw when it cannot (White flags
    // against the lone king).
    for (color, to_move, reason) in [
        ("black", "b", "time forfeit"),
        ("white", "w", "timeout vs insufficient material"),
    ] {
        let fen = format!("4k3/8/8/8/8/8/8/4K2R {to_move} K - 0 1");
        let game = server.new_game(
            json!({ "mode": "competitive", "color": color, "clock": "0.02+0", "fen": fen }),
        );
        std::thread::sleep(Duration::from_millis(1300));
        assert_eq!(server.state(&game)["result"]["reason"], reason, "{color}");
    }
}

#[test]
fn a_finished_game_refuses_moves_and_keeps_its_result() {
    let server = Server::start(&[]);
    let id = server.new_game(json!({ "mode": "competitive", "level": "Beginner" }));
    let (status, state) = server.post(&format!("/api/game/{id}/resign"), &json!({}));
    assert_eq!(status, 200);
    assert_eq!(state["result"]["reason"], "resignation");
    assert_eq!(state["result"]["result"], "0-1");
    let before = fingerprint(&state);
    for action in ["move", "resign", "draw"] {
        let (status, _) = server.post(
            &format!("/api/game/{id}/{action}"),
            &json!({ "move": "e2e4" }),
        );
        assert_eq!(status, 409, "{action} on a finished game");
    }
    assert_eq!(fingerprint(&server.state(&id)), before);
    // Checkmate by the rules ends a game too: the engine (White) cannot move.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let over = server.new_game(json!({ "mode": "competitive", "color": "black", "fen": mated }));
    let state = server.state(&over);
    assert_eq!(state["result"]["reason"], "checkmate");
    assert_eq!(
        server
            .post(
                &format!("/api/game/{over}/move"),
                &json!({ "move": "a7a6" })
            )
            .0,
        409
    );
}

#[test]
fn fifty_concurrent_requests_from_several_games_are_all_answered() {
    let server = Server::start(&[]);
    let ids: Vec<String> = (0..5)
        .map(|_| server.new_game(json!({ "mode": "competitive", "level": "Beginner" })))
        .collect();
    let before: Vec<_> = ids
        .iter()
        .map(|id| fingerprint(&server.state(id)))
        .collect();
    let statuses: Vec<(usize, u16, u16)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..50)
            .map(|i| {
                let (server, id) = (&server, &ids[i % ids.len()]);
                scope.spawn(move || {
                    let (expected, status) = match i % 5 {
                        0 => (
                            400,
                            server
                                .request(
                                    "POST",
                                    &format!("/api/game/{id}/move"),
                                    r#"{"move":"e2e5"}"#,
                                )
                                .0,
                        ),
                        1 => (
                            400,
                            server
                                .request("POST", &format!("/api/game/{id}/move"), "{nope")
                                .0,
                        ),
                        2 => (
                            404,
                            server
                                .request("POST", "/api/game/missing/move", r#"{"move":"e2e4"}"#)
                                .0,
                        ),
                        3 => (200, server.request("GET", &format!("/api/game/{id}"), "").0),
                        _ => (
                            200,
                            server.request("GET", &format!("/api/game/{id}/pgn"), "").0,
                        ),
                    };
                    (i, expected, status)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("request thread"))
            .collect()
    });
    for (i, expected, status) in statuses {
        assert_eq!(status, expected, "request {i}");
    }
    for (id, before) in ids.iter().zip(before) {
        assert_eq!(fingerprint(&server.state(id)), before, "game {id} changed");
    }
    // Every game still plays.
    let (status, _) = server.post(
        &format!("/api/game/{}/move", ids[0]),
        &json!({ "move": "e2e4" }),
    );
    assert_eq!(status, 200);
    assert_eq!(
        server.settled(&ids[0])["moves"].as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn bad_verdict_settings_are_refused_before_listening() {
    for (flag, value) in [
        ("--verdict-ms", "0"),
        ("--verdict-threads", "0"),
        ("--verdict-threads", "65"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tarpon"))
            .args(["play", "--port", "0", flag, value])
            .output()
            .expect("run tarpon play");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag} {value} was accepted");
        assert!(
            stderr.contains(flag) && !stderr.contains("panicked"),
            "{flag} {value}: {stderr}"
        );
        assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    }
}

#[test]
fn it_listens_only_where_asked() {
    let server = Server::start(&["--host", "127.0.0.1"]);
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.address
    );
    let port = server.address.rsplit(':').next().unwrap();
    assert!(TcpStream::connect(&server.address).is_ok());
    // 127.0.0.2 is this machine too: a server bound to every address would
    // answer there.
    assert!(
        TcpStream::connect(format!("127.0.0.2:{port}")).is_err(),
        "the server answers on 127.0.0.2"
    );
}

#[test]
fn a_learner_is_told_of_a_blunder_can_undo_it_and_download_the_pgn() {
    let server = Server::start(&[]);
    // 1. f3 e5 played; White to move. 2. g4?? allows Qh4#.
    let start = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2";
    let id = server.new_game(json!({ "mode": "learning", "level": "Beginner", "fen": start }));
    let (status, state) = server.post(&format!("/api/game/{id}/move"), &json!({ "move": "g4" }));
    assert_eq!(status, 200, "{state}");
    let verdict = &state["moves"][0]["verdict"];
    assert_eq!(verdict["class"], "blunder", "{verdict}");
    assert_ne!(verdict["best_uci"], "g2g4");
    assert_eq!(verdict["refutation"][1], "Qh4#", "{verdict}");
    let pgn = {
        let (status, text) = server.request("GET", &format!("/api/game/{id}/pgn"), "");
        assert_eq!(status, 200);
        text
    };
    assert!(pgn.contains("g4 $4") && pgn.contains("blunder"), "{pgn}");
    assert!(pgn.contains("[FEN \""), "{pgn}");
    let after = server.settled(&id);
    assert_eq!(
        after["moves"].as_array().map(Vec::len),
        Some(2),
        "the engine replied"
    );
    let (status, undone) = server.post(&format!("/api/game/{id}/undo"), &json!({}));
    assert_eq!(status, 200);
    assert_eq!(undone["fen"], start);
    assert_eq!(undone["moves"], json!([]));
    // Nothing left of the player's to take back.
    assert_eq!(
        server.post(&format!("/api/game/{id}/undo"), &json!({})).0,
        409
    );
    // Hints come in stages: the threat, the piece, the move.
    for stage in 1..=3 {
        let (status, state) = server.post(&format!("/api/game/{id}/hint"), &json!({}));
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["hint"]["stage"], stage);
        assert_eq!(state["hints_used"], stage);
        assert_eq!(state["hint"]["move"].is_string(), stage == 3, "{state}");
        assert_eq!(state["hint"]["piece"].is_string(), stage >= 2, "{state}");
    }
    assert_eq!(
        server.post(&format!("/api/game/{id}/hint"), &json!({})).0,
        409
    );
    // Undo switched off: refused.
    let strict = server.new_game(json!({ "mode": "learning", "level": "Beginner", "undo": false }));
    server.post(
        &format!("/api/game/{strict}/move"),
        &json!({ "move": "e2e4" }),
    );
    assert_eq!(
        server
            .post(&format!("/api/game/{strict}/undo"), &json!({}))
            .0,
        403
    );
}

#[test]
fn moves_are_read_as_san_or_uci_and_promotions_need_their_piece() {
    let server = Server::start(&[]);
    let promote = "8/4P3/8/8/8/k7/8/K7 w - - 0 1";
    let id = server.new_game(json!({ "mode": "competitive", "level": "Beginner", "fen": promote }));
    assert_eq!(
        server
            .post(&format!("/api/game/{id}/move"), &json!({ "move": "e7e8" }))
            .0,
        400
    );
    let (status, state) = server.post(&format!("/api/game/{id}/move"), &json!({ "move": "e8=N" }));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"][0]["uci"], "e7e8n");
    let id = server.new_game(json!({ "mode": "competitive", "level": "Beginner" }));
    let (status, state) = server.post(&format!("/api/game/{id}/move"), &json!({ "move": "Nf3" }));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"][0]["uci"], "g1f3");
    // A PGN start plays its moves; a reload (GET) sees the same game.
    let id = server
        .new_game(json!({ "mode": "competitive", "color": "black", "pgn": "1. e4 e5 2. Nf3" }));
    let state = server.state(&id);
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(3));
    assert_eq!(state["turn"], "black");
    assert_eq!(state["player"], "black");
}

#[test]
fn the_event_stream_sends_the_state() {
    let server = Server::start(&[]);
    let id = server.new_game(json!({ "mode": "competitive", "level": "Beginner" }));
    let mut stream = TcpStream::connect(&server.address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/game/{id}/events HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    reader.read_line(&mut head).unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let data = reader
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("data: ").map(str::to_string))
        .expect("an event");
    let state: Value = serde_json::from_str(&data).expect("event JSON");
    assert_eq!(state["id"], id.as_str());
}

#[test]
fn the_page_is_self_contained() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<script>") && page.contains("id=\"board\""));
    for outside in ["http://", "https://", "//cdn", "src=\"", "@import", "url("] {
        assert!(
            !page.contains(outside),
            "the page reaches outside: {outside}"
        );
    }
    let (status, levels) = server.request("GET", "/api/levels", "");
    assert_eq!(status, 200);
    for name in ["Beginner", "Amateur", "Intermediate", "Hard", "Master"] {
        assert!(levels.contains(name), "{levels}");
    }
    // "why?": the explain views of a position, from the same server.
    let fen = "rnbqkbnr%2Fpppppppp%2F8%2F8%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR%20b%20KQkq%20-%200%201";
    for view in ["tree", "trace"] {
        let (status, page) = server.request("GET", &format!("/explain/{view}?fen={fen}"), "");
        assert_eq!(status, 200, "{view}");
        assert!(
            page.contains("<svg") && page.contains("4P3"),
            "{view} page of the position"
        );
        assert!(
            page.contains("id=\"explain-form\""),
            "{view} has its controls"
        );
    }
    // The maze page: the runs chosen, a maze drawn by hand rerun as given.
    let (status, page) = server.request("GET", "/maze?width=6&height=4&seed=3&astar=on", "");
    assert_eq!(status, 200);
    assert!(page.contains("id=\"maze-form\"") && page.contains("\"algo\":\"astar\""));
    assert!(
        !page.contains("\"algo\":\"bfs\""),
        "only the runs asked for"
    );
    let drawn = "%23%23%23%23%23%0A%23S..%23%0A%23%23%23.%23%0A%23G..%23%0A%23%23%23%23%23";
    let (status, page) = server.request("GET", &format!("/maze?text={drawn}&bfs=on"), "");
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("drawn by hand") && page.contains("\"length\":6"),
        "{page}"
    );
}

#[cfg(feature = "scan")]
#[test]
fn a_picture_of_a_board_is_read_and_bad_pictures_get_a_4xx() {
    let server = Server::start(&[]);
    let picture_post = |body: &[u8], length: usize| {
        let head = format!(
            "POST /api/scan HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: image/png\r\nContent-Length: {length}\r\n\r\n",
            server.address
        );
        server.raw(&[head.as_bytes(), body].concat())
    };
    let fixture: std::path::PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "data",
        "scan",
        "merida-black-bottom.png",
    ]
    .iter()
    .collect();
    let png = std::fs::read(fixture).expect("the fixture");
    let (status, body) = picture_post(&png, png.len());
    assert_eq!(status, 200, "{body}");
    let read: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        read["fen"], "2r3k1/pp3ppp/4p3/3n4/3P4/5N2/PP3PPP/2R3K1 w - - 0 1",
        "{read}"
    );
    assert_eq!(read["white_at_bottom"], false, "{read}");
    // Not a picture, a truncated one, and one announced as 17 MB: refused
    // with a message, and the server goes on serving.
    let (status, body) = picture_post(b"not a picture", 13);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("the picture"), "{body}");
    let (status, body) = picture_post(&png[..200], 200);
    assert_eq!(status, 400, "{body}");
    let (status, body) = picture_post(b"", 17 * 1024 * 1024);
    assert_eq!(status, 413, "{body}");
    let (status, _) = server.request("GET", "/api/levels", "");
    assert_eq!(status, 200);
}
