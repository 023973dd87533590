//! The engine's side of a game: its reply, run as a UCI `go` job (the same
//! search, level choice and fallbacks as `tarpon` speaking UCI) whose `info`
//! lines become the thinking the page streams, and the searches behind the
//! learner's hints.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::game::{Game, Mode, Thinking, white_win};
use super::levels::FULL_STRENGTH_MOVETIME_MS;
use crate::eval::EvalChoice;
use crate::explain::game::verdict::{Budget, Preparation, Verdict};
use crate::explain::trace::search_view::{self, san_line};
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::{HistoryStore, Limits, Score, SearchConfig, SearchControl, TranspositionTable};
use crate::uci::output::Output;
use crate::uci::search_job::{self, SearchJob};

/// Hash table of each game's engine.
const GAME_HASH_MB: usize = 8;
/// At most this many learners' positions are prepared at once (each a
/// search on a core and its table); past it, verdicts are searched after
/// the move alone.
const MAX_PREPARATIONS: usize = 4;
/// A preparation's search stops after this long; the verdict then uses it
/// as it stands.
const PREPARATION_MS: u64 = 30_000;
/// Preparations alive in this process.
static PREPARATIONS: AtomicUsize = AtomicUsize::new(0);

/// A learner's position searched while the learner thinks, counted against
/// [`MAX_PREPARATIONS`] while it lives.
pub struct Coach {
    preparation: Option<Preparation>,
}

impl Coach {
    fn start(pos: &Position, eval: &EvalChoice, threads: usize) -> Option<Coach> {
        if PREPARATIONS.fetch_add(1, Ordering::SeqCst) >= MAX_PREPARATIONS {
            PREPARATIONS.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        let coach = Coach {
            preparation: Preparation::start(pos, eval.clone(), threads, PREPARATION_MS).ok(),
        };
        // A failed start is dropped here, which gives its count back.
        coach.preparation.is_some().then_some(coach)
    }

    /// Whether this is the preparation of `pos` (compared by FEN: a key
    /// collision must not judge a move in another position).
    fn prepares(&self, pos: &Position) -> bool {
        self.preparation
            .as_ref()
            .is_some_and(|p| p.position().fen() == pos.fen())
    }

    /// Judges `played` with what was prepared (see [`Preparation::judge`]).
    pub fn judge(mut self, played: Move, budget: Budget) -> Result<Verdict, String> {
        match self.preparation.take() {
            Some(preparation) => preparation.judge(played, budget),
            None => Err("nothing was prepared".into()),
        }
    }
}

impl Drop for Coach {
    fn drop(&mut self) {
        PREPARATIONS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One game and what its searches share: the table and histories carried
/// from move to move, and the control of the search running now.
pub struct Slot {
    game: Mutex<Game>,
    pub changed: Condvar,
    tt: Arc<TranspositionTable>,
    histories: Arc<Mutex<HistoryStore>>,
    control: Mutex<Option<Arc<SearchControl>>>,
    /// The learner's position, searched while the learner thinks.
    coach: Mutex<Option<Coach>>,
    pub eval: EvalChoice,
    /// Threads of the verdicts' searches.
    pub verdict_threads: usize,
    seed: u64,
}

impl Slot {
    pub fn new(game: Game, eval: EvalChoice, verdict_threads: usize, seed: u64) -> Slot {
        Slot {
            game: Mutex::new(game),
            changed: Condvar::new(),
            tt: Arc::new(TranspositionTable::new(GAME_HASH_MB)),
            histories: Arc::new(Mutex::new(HistoryStore::new())),
            control: Mutex::new(None),
            coach: Mutex::new(None),
            eval,
            verdict_threads,
            seed,
        }
    }

    /// The game, locked. A panic while it was held leaves a usable game:
    /// every method keeps it consistent between statements that matter.
    pub fn lock(&self) -> MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// In a learning game where the learner is to move, starts searching
    /// the position for the verdict of the coming move (unless that runs
    /// already). Call with the game locked (`game` is the guard's content).
    pub fn prepare_verdict(&self, game: &Game) {
        if game.mode != Mode::Learning || game.check_player_may_move().is_err() {
            return;
        }
        let mut coach = self.coach.lock().unwrap_or_else(|e| e.into_inner());
        if coach.as_ref().is_some_and(|c| c.prepares(&game.position)) {
            return;
        }
        *coach = None;
        *coach = Coach::start(&game.position, &self.eval, self.verdict_threads);
    }

    /// The preparation of `pos`, if one was made for it.
    pub fn take_preparation(&self, pos: &Position) -> Option<Coach> {
        let mut coach = self.coach.lock().unwrap_or_else(|e| e.into_inner());
        coach.take_if(|c| c.prepares(pos))
    }

    /// Stops the search running now, if any (its answer is dropped by the
    /// generation check), and any preparation.
    pub fn stop_search(&self) {
        self.coach.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(control) = self
            .control
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            control.stop();
        }
    }
}

/// Starts the engine's reply if it is the engine's turn. Call with the game
/// locked (`game` is the guard's content).
pub fn start_reply(slot: &Arc<Slot>, game: &mut Game) {
    if !game.engine_to_move() || game.busy {
        return;
    }
    let mut limits = Limits::default();
    let mut config = SearchConfig {
        eval: slot.eval.clone(),
        ..SearchConfig::default()
    };
    match game.opponent.level {
        Some(level) => level.restrict(&mut limits, &mut config),
        None if game.clock.is_none() => limits.movetime_ms = Some(FULL_STRENGTH_MOVETIME_MS),
        None => {}
    }
    let mut min_think = Duration::from_millis(game.opponent.min_think_ms);
    if let Some(clock) = &game.clock {
        // A timed game: the search manages the engine's time as `go wtime
        // btime winc binc` would, and a person-like pause never takes more
        // than a thirtieth of what is left.
        let now = Instant::now();
        let [wtime, btime, winc, binc] = clock.go_times(now);
        (limits.wtime_ms, limits.btime_ms) = (Some(wtime), Some(btime));
        (limits.winc_ms, limits.binc_ms) = (Some(winc), Some(binc));
        let left = clock.left(game.position.turn(), now).max(0) as u64;
        min_think = min_think.min(Duration::from_millis(left / 30));
    }
    let control = Arc::new(SearchControl::new());
    let job = SearchJob {
        position: game.position.clone(),
        limits,
        config,
        tt: Arc::clone(&slot.tt),
        histories: Arc::clone(&slot.histories),
        control: Arc::clone(&control),
        level: game.opponent.level,
        rng: SplitMix64::new(slot.seed ^ game.ply() as u64),
        received: Instant::now(),
    };
    game.busy = true;
    game.thinking = Some(Thinking::default());
    game.version += 1;
    slot.stop_search();
    *slot.control.lock().unwrap_or_else(|e| e.into_inner()) = Some(control);
    let sink = ReplySink {
        slot: Arc::clone(slot),
        generation: game.generation,
        position: game.position.clone(),
        started: Instant::now(),
        min_think,
        pending: Vec::new(),
    };
    slot.changed.notify_all();
    search_job::spawn(job, Output::to(sink));
}

/// Where the reply's UCI lines go: `info` lines become the game's thinking,
/// `bestmove` is played (after the level's minimum thinking time).
struct ReplySink {
    slot: Arc<Slot>,
    generation: u64,
    position: Position,
    started: Instant,
    min_think: Duration,
    pending: Vec<u8>,
}

impl ReplySink {
    fn line(&mut self, line: &str) {
        if line.starts_with("info") {
            if let Some(thinking) = parse_info(&self.position, line) {
                let mut game = self.slot.lock();
                if game.generation == self.generation {
                    game.thinking = Some(thinking);
                    game.version += 1;
                    self.slot.changed.notify_all();
                }
            }
        } else if let Some(text) = line.strip_prefix("bestmove ") {
            let wait = self.min_think.saturating_sub(self.started.elapsed());
            std::thread::sleep(wait);
            let mv = text
                .split_whitespace()
                .next()
                .and_then(|m| self.position.parse_uci(m).ok());
            let mut game = self.slot.lock();
            if game.generation != self.generation {
                return;
            }
            if game.check_time() {
                // The engine's own time ran out while it thought.
                self.slot.changed.notify_all();
                return;
            }
            game.busy = false;
            let score = game.thinking.as_ref().and_then(|t| t.score);
            match mv {
                Some(mv) => {
                    let turn = game.position.turn();
                    game.push(mv, None, score.map(|s| white_win(turn, s)));
                    self.slot.prepare_verdict(&game);
                }
                None => game.version += 1,
            }
            self.slot.changed.notify_all();
        }
    }
}

impl Write for ReplySink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.line(String::from_utf8_lossy(&line).trim_end());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Depth, score and principal line (in SAN) of an `info` line of the first
/// line (`multipv 1`); `None` for any other line.
pub fn parse_info(pos: &Position, line: &str) -> Option<Thinking> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        tokens
            .iter()
            .position(|t| *t == key)
            .and_then(|i| tokens.get(i + 1))
    };
    if after("multipv").is_some_and(|m| *m != "1") || tokens.contains(&"string") {
        return None;
    }
    let depth = after("depth")?.parse().ok()?;
    let score = match (after("cp"), after("mate")) {
        (Some(cp), _) => cp.parse().ok().map(Score::Cp),
        (None, Some(n)) => n.parse().ok().map(Score::Mate),
        _ => None,
    };
    let pv_start = tokens.iter().position(|t| *t == "pv")? + 1;
    let mut replay = pos.clone();
    let mut moves: Vec<Move> = Vec::new();
    for text in &tokens[pv_start..] {
        let Ok(mv) = replay.parse_uci(text) else {
            break;
        };
        replay.make(mv);
        moves.push(mv);
    }
    Some(Thinking {
        depth,
        score,
        pv: san_line(pos, &moves),
    })
}

/// Thinking time of a hint's searches.
const HINT_MOVETIME_MS: u64 = 400;

/// The best move in `pos`, and the threat: what the opponent would play if
/// it could move now (a null move), in SAN, when that is a capture or check.
pub fn hint_searches(pos: &Position, eval: &EvalChoice) -> (Option<Move>, Option<String>) {
    let limits = Limits {
        movetime_ms: Some(HINT_MOVETIME_MS),
        ..Limits::default()
    };
    let best = search_view::run(pos, limits.clone(), eval.clone())
        .ok()
        .and_then(|o| o.best);
    let mut passed = pos.clone();
    let threat = if passed.make_null() {
        search_view::run(&passed, limits, eval.clone())
            .ok()
            .and_then(|o| o.best)
            .map(|m| san_line(&passed, &[m]).concat())
            .filter(|san| san.contains('x') || san.contains('+') || san.contains('#'))
    } else {
        None
    };
    (best, threat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_become_thinking_in_san() {
        let pos = Position::startpos();
        let t = parse_info(
            &pos,
            "info depth 7 seldepth 9 multipv 1 score cp 31 nodes 5 pv e2e4 e7e5 g1f3",
        )
        .unwrap();
        assert_eq!(t.depth, 7);
        assert_eq!(t.score, Some(Score::Cp(31)));
        assert_eq!(t.pv, ["e4", "e5", "Nf3"]);
        assert!(parse_info(&pos, "info depth 7 multipv 2 score cp 1 pv d2d4").is_none());
        assert!(parse_info(&pos, "info string depth 3 pv e2e4").is_none());
        let mate = parse_info(&pos, "info depth 3 score mate -2 pv e2e4 zz").unwrap();
        assert_eq!((mate.score, mate.pv.len()), (Some(Score::Mate(-2)), 1));
    }
}
