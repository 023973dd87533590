//! The HTTP side: routes, request bodies, and the answers. Every request gets
//! its own thread (a search may take a second; the event streams stay open);
//! every error is a 4xx with `{"error": ...}` and the game untouched.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use shakmaty::Color;
use tiny_http::{Header, Method, Request, Response};

use super::clock::Clock;
use super::engine::{self, Slot};
use super::game::{Game, Mode, Outcome, Refusal, bad, white_win};
use super::levels::{NAMED_LEVELS, Opponent};
use super::page;
use super::tools;
use crate::eval::EvalChoice;
use crate::explain::game::pgn;
use crate::explain::game::verdict::{Budget, Preparation, judge};
use crate::position::{Position, START_FEN};
use crate::rng::SplitMix64;

/// Largest request body read; more is refused (413) unread.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// The largest picture `POST /api/scan` reads (a 4K screenshot as PNG is
/// well under it).
pub const MAX_PICTURE_BYTES: usize = 16 * 1024 * 1024;
/// Games kept; the oldest goes when a new one would exceed this.
const MAX_GAMES: usize = 256;
/// The longest a `/api/judge` request may "think" before its move.
const MAX_THINK_MS: u64 = 10_000;
/// Requests served at once; more are refused (503) at once.
const MAX_ACTIVE_REQUESTS: usize = 128;
/// An event stream sends a comment this often so a dead tab is noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// What the server was started with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Thinking time of the first verdict search (the re-search of the
    /// played move gets at most as much again).
    pub verdict_ms: u64,
    /// Threads of each verdict's searches (and of the preparation while
    /// the learner thinks).
    pub verdict_threads: usize,
    /// Where the learner's mistakes are kept as puzzles (JSON lines).
    pub puzzles: Option<std::path::PathBuf>,
}

/// The games by id, and their ids oldest first (the oldest goes first).
#[derive(Default)]
struct Games {
    by_id: HashMap<String, Arc<Slot>>,
    oldest_first: Vec<String>,
}

/// Where a new game starts: a position, moves played from it, PGN tags.
struct Start {
    position: Position,
    moves: Vec<shakmaty::Move>,
    tags: Vec<(String, String)>,
}

/// One of the `MAX_ACTIVE_REQUESTS` places, given back when dropped: also
/// when the request's thread panics or never starts.
struct RequestSlot(Arc<Server>);

impl Drop for RequestSlot {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

pub struct Server {
    games: Mutex<Games>,
    ids: Mutex<SplitMix64>,
    active: AtomicUsize,
    eval: EvalChoice,
    settings: Settings,
}

type Reply = Result<Response<std::io::Cursor<Vec<u8>>>, Refusal>;

impl Server {
    pub fn new(settings: Settings, seed: u64) -> Server {
        Server {
            games: Mutex::new(Games::default()),
            ids: Mutex::new(SplitMix64::new(seed)),
            active: AtomicUsize::new(0),
            eval: EvalChoice::default(),
            settings,
        }
    }

    /// Serves until the listener fails.
    pub fn serve(self: Arc<Self>, http: tiny_http::Server) {
        for request in http.incoming_requests() {
            if self.active.fetch_add(1, Ordering::SeqCst) >= MAX_ACTIVE_REQUESTS {
                self.active.fetch_sub(1, Ordering::SeqCst);
                let _ = request.respond(error_response(503, "too many requests at once"));
                continue;
            }
            let slot = RequestSlot(Arc::clone(&self));
            // A thread that cannot start drops its closure, and the slot with it.
            let _ = std::thread::Builder::new()
                .name("play-request".into())
                .spawn(move || slot.0.handle(request));
        }
    }

    fn handle(&self, mut request: Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let method = request.method().clone();
        if method == Method::Get && parts.len() == 4 && parts[3] == "events" && parts[0] == "api" {
            return match self.slot(parts[2]) {
                Ok(slot) => stream_events(request, &slot, parts[2]),
                Err(refusal) => {
                    let _ = request.respond(refusal_response(refusal));
                }
            };
        }
        if method == Method::Post && parts == ["api", "scan"] {
            let reply = read_bytes(&mut request, MAX_PICTURE_BYTES).and_then(|b| scan_reply(&b));
            let _ = request.respond(reply.unwrap_or_else(refusal_response));
            return;
        }
        let body = match read_bytes(&mut request, MAX_BODY_BYTES)
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| bad("the body is not UTF-8")))
        {
            Ok(body) => body,
            Err(refusal) => {
                let _ = request.respond(refusal_response(refusal));
                return;
            }
        };
        let reply = self.route(&method, &parts, query, &body);
        let response = reply.unwrap_or_else(refusal_response);
        let _ = request.respond(response);
    }

    fn route(&self, method: &Method, parts: &[&str], query: &str, body: &str) -> Reply {
        match (method, parts) {
            (Method::Get, []) => Ok(html_response(page::html())),
            (Method::Get, ["api", "levels"]) => Ok(json_response(200, &levels_json())),
            (Method::Post, ["api", "new"]) => self.new_game(&parse_json(body)?),
            (Method::Post, ["api", "judge"]) => self.judge_fen(&parse_json(body)?),
            (Method::Get, ["api", "puzzles"]) => Ok(json_response(200, &self.puzzles())),
            (Method::Get, ["api", "game", id]) => {
                let slot = self.slot(id)?;
                let state = {
                    let mut game = slot.lock();
                    if game.check_time() {
                        slot.changed.notify_all();
                    }
                    game.state(id)
                };
                Ok(json_response(200, &state))
            }
            (Method::Get, ["api", "game", id, "pgn"]) => {
                let slot = self.slot(id)?;
                let text = slot.lock().pgn();
                Ok(Response::from_data(text.into_bytes())
                    .with_header(header(
                        "Content-Type",
                        "application/x-chess-pgn; charset=utf-8",
                    ))
                    .with_header(header(
                        "Content-Disposition",
                        "attachment; filename=\"tarpon-game.pgn\"",
                    )))
            }
            (Method::Post, ["api", "game", id, action]) => {
                let slot = self.slot(id)?;
                let args = if body.trim().is_empty() {
                    json!({})
                } else {
                    parse_json(body)?
                };
                self.act(&slot, action, &args)?;
                let state = slot.lock().state(id);
                Ok(json_response(200, &state))
            }
            (Method::Get, ["explain", view]) => tools::explain_page(view, query).map(html_response),
            (Method::Get, ["maze"]) => tools::maze_page(query).map(html_response),
            (Method::Get, _) | (Method::Post, _) => Err(Refusal::NotFound(format!(
                "no such page: /{}",
                parts.join("/")
            ))),
            _ => Err(Refusal::BadRequest("only GET and POST are served".into())),
        }
    }

    fn slot(&self, id: &str) -> Outcome<Arc<Slot>> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .by_id
            .get(id)
            .cloned()
            .ok_or_else(|| Refusal::NotFound(format!("no game with id {id:?}")))
    }

    fn new_game(&self, args: &Value) -> Reply {
        let mode = match str_field(args, "mode")?.unwrap_or("learning") {
            "learning" => Mode::Learning,
            "competitive" => Mode::Competitive,
            other => return Err(bad(format!("mode {other:?}: learning or competitive"))),
        };
        let player = match str_field(args, "color")?.unwrap_or("white") {
            "white" => Color::White,
            "black" => Color::Black,
            other => return Err(bad(format!("color {other:?}: white or black"))),
        };
        let opponent = match (str_field(args, "level")?, args.get("elo")) {
            (Some(name), _) => {
                Opponent::named(name).ok_or_else(|| bad(format!("no level {name:?}")))?
            }
            (None, Some(elo)) if !elo.is_null() => {
                Opponent::from_elo(elo.as_i64().ok_or_else(|| bad("elo: a whole number"))?)
            }
            _ => Opponent::named("Intermediate").expect("a named level"),
        };
        let start = start_position(args)?;
        let mut game = Game::new(mode, player, opponent, start.position, start.moves);
        game.tags = start.tags;
        if let Some(undo) = args.get("undo").filter(|v| !v.is_null()) {
            let allowed = undo.as_bool().ok_or_else(|| bad("undo: true or false"))?;
            game.undo_allowed = allowed && mode == Mode::Learning;
        }
        if let Some(clock) = str_field(args, "clock")?.filter(|c| !c.is_empty()) {
            if mode == Mode::Learning {
                return Err(bad("clocks are for competitive games"));
            }
            game.set_clock(Clock::parse(clock).map_err(bad)?);
        }
        let id = format!(
            "{:016x}",
            self.ids
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .next_u64()
        );
        let slot = Arc::new(Slot::new(
            game,
            self.eval.clone(),
            self.settings.verdict_threads,
            id_seed(&id),
        ));
        {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if games.oldest_first.len() >= MAX_GAMES {
                let oldest = games.oldest_first.remove(0);
                if let Some(old) = games.by_id.remove(&oldest) {
                    old.stop_search();
                }
            }
            games.oldest_first.push(id.clone());
            games.by_id.insert(id.clone(), Arc::clone(&slot));
        }
        let mut game = slot.lock();
        engine::start_reply(&slot, &mut game);
        slot.prepare_verdict(&game);
        Ok(json_response(200, &game.state(&id)))
    }

    fn act(&self, slot: &Arc<Slot>, action: &str, args: &Value) -> Outcome<()> {
        if slot.lock().check_time() {
            slot.stop_search();
            slot.changed.notify_all();
        }
        let learning = || {
            if slot.lock().mode == Mode::Learning {
                Ok(())
            } else {
                Err(Refusal::Forbidden("no help in a competitive game".into()))
            }
        };
        match action {
            "move" => self.player_move(slot, args),
            "undo" => {
                let mut game = slot.lock();
                game.undo()?;
                drop(game);
                slot.stop_search();
                slot.prepare_verdict(&slot.lock());
                slot.changed.notify_all();
                Ok(())
            }
            "resign" => finish(slot, |g| g.resign()),
            "draw" => finish(slot, |g| match g.offer_draw()? {
                true => Ok(()),
                false => Err(Refusal::Conflict("the engine declines the draw".into())),
            }),
            "hint" => {
                learning()?;
                self.hint(slot)
            }
            _ => Err(Refusal::NotFound(format!("no action {action:?}"))),
        }
    }

    fn player_move(&self, slot: &Arc<Slot>, args: &Value) -> Outcome<()> {
        let text = str_field(args, "move")?.ok_or_else(|| bad("missing \"move\""))?;
        let (mv, position, generation, mode) = {
            let mut game = slot.lock();
            game.check_player_may_move()?;
            let mv = game.parse_move(text)?;
            if game.mode == Mode::Learning {
                game.busy = true;
                game.version += 1;
                slot.changed.notify_all();
            }
            (mv, game.position.clone(), game.generation, game.mode)
        };
        let verdict = match mode {
            Mode::Competitive => None,
            Mode::Learning => {
                let budget = Budget::Millis(self.settings.verdict_ms);
                let judged = match slot.take_preparation(&position) {
                    Some(coach) => coach.judge(mv, budget),
                    None => judge(
                        &position,
                        mv,
                        budget,
                        slot.eval.clone(),
                        slot.verdict_threads,
                    ),
                };
                let mut game = slot.lock();
                if game.generation != generation {
                    return Err(Refusal::Conflict(
                        "the game changed while the move was judged".into(),
                    ));
                }
                game.busy = false;
                match judged {
                    Ok(v) => Some(v),
                    Err(e) => {
                        game.version += 1;
                        slot.changed.notify_all();
                        return Err(Refusal::Conflict(format!("cannot judge the move: {e}")));
                    }
                }
            }
        };
        if let Some(v) = verdict
            .as_ref()
            .filter(|v| v.label.nag().is_some_and(|n| n != 6))
        {
            self.keep_puzzle(&position, mv, v);
        }
        let mut game = slot.lock();
        let after = verdict
            .as_ref()
            .map(|v| white_win(position.turn(), v.played_score));
        game.push(mv, verdict, after);
        engine::start_reply(slot, &mut game);
        slot.changed.notify_all();
        Ok(())
    }

    fn hint(&self, slot: &Arc<Slot>) -> Outcome<()> {
        let (position, ply, generation) = {
            let mut game = slot.lock();
            game.check_player_may_move()?;
            if game.hint.stage >= 3 {
                return Err(Refusal::Conflict("the hint already shows the move".into()));
            }
            // The searches were made at the first stage; a move resets the hint.
            if game.hint.stage > 0 {
                game.hint.stage += 1;
                game.hints_used += 1;
                game.version += 1;
                slot.changed.notify_all();
                return Ok(());
            }
            (game.position.clone(), game.ply(), game.generation)
        };
        let (best, threat) = engine::hint_searches(&position, &slot.eval);
        let mut game = slot.lock();
        if game.generation != generation || game.ply() != ply {
            return Err(Refusal::Conflict(
                "the game changed while the hint was searched".into(),
            ));
        }
        game.hint.stage = 1;
        game.hint.ply = ply;
        game.hint.best = best;
        game.hint.threat = Some(threat.unwrap_or_else(|| "no direct threat".to_string()));
        game.hints_used += 1;
        game.version += 1;
        slot.changed.notify_all();
        Ok(())
    }

    /// `POST /api/judge {fen, move}`: the verdict the page would give, for
    /// measuring it (`arena/verdict_quality.py`); nothing is stored.
    fn judge_fen(&self, args: &Value) -> Reply {
        let fen = str_field(args, "fen")?.ok_or_else(|| bad("missing \"fen\""))?;
        let text = str_field(args, "move")?.ok_or_else(|| bad("missing \"move\""))?;
        let position = Position::from_fen(fen, false).map_err(|e| bad(format!("bad FEN: {e}")))?;
        let mv = position
            .parse_uci(text)
            .map_err(|e| bad(format!("bad move: {e}")))?;
        // `think_ms`: how long the learner "thought" first, the page's
        // preparation running meanwhile (as in a game).
        let think_ms = match args.get("think_ms").filter(|v| !v.is_null()) {
            None => 0,
            Some(v) => v
                .as_u64()
                .filter(|&ms| ms <= MAX_THINK_MS)
                .ok_or_else(|| bad(format!("think_ms: 0 to {MAX_THINK_MS}")))?,
        };
        let budget = Budget::Millis(self.settings.verdict_ms);
        let verdict = if think_ms > 0 {
            let threads = self.settings.verdict_threads;
            let preparation = Preparation::start(&position, self.eval.clone(), threads, think_ms)
                .map_err(Refusal::Conflict)?;
            std::thread::sleep(std::time::Duration::from_millis(think_ms));
            preparation.judge(mv, budget)
        } else {
            judge(
                &position,
                mv,
                budget,
                self.eval.clone(),
                self.settings.verdict_threads,
            )
        }
        .map_err(Refusal::Conflict)?;
        Ok(json_response(
            200,
            &json!({ "verdict": super::game::verdict_json(&position, &verdict) }),
        ))
    }

    fn keep_puzzle(
        &self,
        before: &Position,
        mv: shakmaty::Move,
        v: &crate::explain::game::verdict::Verdict,
    ) {
        let Some(path) = &self.settings.puzzles else {
            return;
        };
        let line = json!({
            "fen": before.fen(),
            "played": before.uci(mv),
            "best": v.best_line.first().map(|&m| before.uci(m)),
            "class": v.name(),
        });
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| writeln!(f, "{line}"));
        if let Err(e) = written {
            eprintln!("warning: cannot keep a puzzle in {}: {e}", path.display());
        }
    }

    fn puzzles(&self) -> Value {
        let text = self
            .settings
            .puzzles
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default();
        let puzzles: Vec<Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        json!({ "puzzles": puzzles })
    }
}

fn finish(slot: &Arc<Slot>, end: impl FnOnce(&mut Game) -> Outcome<()>) -> Outcome<()> {
    let mut game = slot.lock();
    end(&mut game)?;
    drop(game);
    slot.stop_search();
    slot.changed.notify_all();
    Ok(())
}

fn id_seed(id: &str) -> u64 {
    u64::from_str_radix(id, 16).unwrap_or(0)
}

/// The start of a new game: a FEN, or a PGN whose moves are played first.
fn start_position(args: &Value) -> Outcome<Start> {
    if let Some(text) = str_field(args, "pgn")?.filter(|t| !t.trim().is_empty()) {
        let games = pgn::read_games(text).map_err(|e| bad(format!("bad PGN: {e}")))?;
        let game = games
            .into_iter()
            .next()
            .ok_or_else(|| bad("the PGN has no game"))?;
        return Ok(Start {
            position: game.start,
            moves: game.moves,
            tags: Vec::new(),
        });
    }
    let fen = str_field(args, "fen")?
        .filter(|t| !t.trim().is_empty())
        .unwrap_or(START_FEN);
    let position =
        Position::from_fen(fen.trim(), false).map_err(|e| bad(format!("bad FEN: {e}")))?;
    let tags = if fen == START_FEN {
        Vec::new()
    } else {
        vec![
            ("FEN".to_string(), position.fen()),
            ("SetUp".to_string(), "1".to_string()),
        ]
    };
    Ok(Start {
        position,
        moves: Vec::new(),
        tags,
    })
}

fn levels_json() -> Value {
    let levels: Vec<Value> = NAMED_LEVELS
        .iter()
        .map(|l| {
            let opponent = Opponent::named(l.name).expect("a named level");
            json!({ "name": l.name, "elo": opponent.elo() })
        })
        .collect();
    json!({ "levels": levels })
}

fn parse_json(body: &str) -> Outcome<Value> {
    let value: Value =
        serde_json::from_str(body).map_err(|e| bad(format!("malformed JSON: {e}")))?;
    if value.is_object() {
        Ok(value)
    } else {
        Err(bad("the body must be a JSON object"))
    }
}

fn str_field<'a>(args: &'a Value, key: &str) -> Outcome<Option<&'a str>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("{key:?} must be a string"))),
    }
}

/// The request's body, refused past `limit` bytes before more is read.
fn read_bytes(request: &mut Request, limit: usize) -> Outcome<Vec<u8>> {
    if request.body_length().is_some_and(|n| n > limit) {
        return Err(Refusal::TooLarge(limit));
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("cannot read the body: {e}")))?;
    if bytes.len() > limit {
        return Err(Refusal::TooLarge(limit));
    }
    Ok(bytes)
}

/// `POST /api/scan`: the position in a picture of a board (the page's
/// dropped image), as `{fen, white_at_bottom, doubts}`.
#[cfg(feature = "scan")]
fn scan_reply(bytes: &[u8]) -> Reply {
    use crate::scan::{picture, scan_picture, sense::Bottom};
    let image = picture::decode(bytes).map_err(|e| bad(format!("the picture: {e}")))?;
    let scanned = scan_picture(&image, Bottom::Auto, None).map_err(bad)?;
    Ok(json_response(
        200,
        &json!({
            "fen": scanned.fen,
            "white_at_bottom": scanned.white_at_bottom,
            "doubts": scanned.doubts,
        }),
    ))
}

#[cfg(not(feature = "scan"))]
fn scan_reply(_: &[u8]) -> Reply {
    Err(Refusal::NotFound(
        "this build reads no pictures (the 'scan' feature is off)".into(),
    ))
}

/// `text/event-stream` of the game's state: one `data:` event now and one on
/// every change, until the tab goes away.
fn stream_events(request: Request, slot: &Arc<Slot>, id: &str) {
    let mut writer = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    if writer.write_all(head.as_bytes()).is_err() {
        return;
    }
    let mut seen = None;
    loop {
        let event = {
            let mut game = slot.lock();
            game.check_time();
            if seen == Some(game.version) {
                let (guard, timeout) = slot
                    .changed
                    .wait_timeout(game, KEEPALIVE)
                    .unwrap_or_else(|e| e.into_inner());
                game = guard;
                if timeout.timed_out() && seen == Some(game.version) {
                    None
                } else {
                    seen = Some(game.version);
                    Some(game.state(id))
                }
            } else {
                seen = Some(game.version);
                Some(game.state(id))
            }
        };
        let text = match event {
            Some(state) => format!("data: {state}\n\n"),
            None => ": keep-alive\n\n".to_string(),
        };
        if writer
            .write_all(text.as_bytes())
            .and_then(|_| writer.flush())
            .is_err()
        {
            return;
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn json_response(status: u16, value: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(value.to_string().into_bytes())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

fn html_response(html: String) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(html.into_bytes())
        .with_header(header("Content-Type", "text/html; charset=utf-8"))
}

fn error_response(status: u16, text: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    json_response(status, &json!({ "error": text }))
}

fn refusal_response(refusal: Refusal) -> Response<std::io::Cursor<Vec<u8>>> {
    match refusal {
        Refusal::BadRequest(t) => error_response(400, &t),
        Refusal::Forbidden(t) => error_response(403, &t),
        Refusal::NotFound(t) => error_response(404, &t),
        Refusal::Conflict(t) => error_response(409, &t),
        Refusal::TooLarge(limit) => error_response(413, &format!("the body is over {limit} bytes")),
    }
}
