//! The engine loop's state and its answer to each command.
//!
//! The loop owns the options, the current position, the shared hash table
//! and at most one running job (a search or a perft) on its own thread. It
//! never waits for a search except right after telling it to stop, so
//! `isready`, `stop` and `quit` are answered at once.
//!
//! `position` is atomic: a malformed FEN or an illegal move anywhere in the
//! move list rejects the whole command with an `info string` and keeps the
//! previous position, so the engine never searches a half-applied game.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use shakmaty::Move;

use crate::eval::nnue::{NnueEvaluator, SimdPath};
use crate::eval::report::eval_report;
use crate::eval::{EvalChoice, Evaluator, as_search_sees, endgame, pst::PstEvaluator};
use crate::perft;
use crate::position::{Position, START_FEN};
use crate::rng::SplitMix64;
use crate::search::params;
use crate::search::{HistoryStore, Limits, SearchConfig, SearchControl, TranspositionTable};
use crate::tablebase::{ProbeSettings, Syzygy};
use crate::uci::command::{Command, GoParams, HELP, ScanRequest, StartPosition};
use crate::uci::display;
use crate::uci::loaded_net::LoadedNet;
use crate::uci::options::{Options, name};
use crate::uci::output::Output;
use crate::uci::search_job::{self, SearchJob};
use crate::uci::strength;

pub const ENGINE_NAME: &str = concat!("tarpon ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the tarpon developers";

fn evaluator(choice: &EvalChoice) -> Box<dyn Evaluator> {
    match choice {
        EvalChoice::Pst => Box::new(PstEvaluator::new()),
        EvalChoice::Nnue(net) => Box::new(NnueEvaluator::new(net.clone())),
    }
}

/// What is running on the job thread.
enum Job {
    Search {
        control: Arc<SearchControl>,
        handle: Option<JoinHandle<()>>,
    },
    /// A console command that runs to its end (perft, bench).
    Task(JoinHandle<()>),
}

pub struct Engine {
    options: Options,
    position: Position,
    tt: Arc<TranspositionTable>,
    /// Move-ordering history, kept from one `go` to the next within a game.
    histories: Arc<Mutex<HistoryStore>>,
    job: Option<Job>,
    out: Output,
    rng: SplitMix64,
    /// `debug on`: report the limits of each search as `info string`.
    debug: bool,
    /// The net of `EvalFile` (or the embedded one).
    net: LoadedNet,
    /// The tables `SyzygyPath` opened.
    syzygy: Syzygy,
    /// Set when the engine must stop serving and exit with an error.
    fatal: bool,
    /// What reads a board from a picture for `scan` (none in a build
    /// without the `scan` feature; the engine itself knows no pictures).
    picture_reader: Option<PictureReader>,
}

/// Reads the picture a `scan` command names: the FEN of the position and a
/// warning to pass on (squares in doubt), or why nothing usable was read.
pub type PictureReader = fn(&ScanRequest) -> Result<(String, Option<String>), String>;

impl Engine {
    pub fn new(out: Output) -> Engine {
        let options = Options::new(LoadedNet::eval_option_values());
        let tt = TranspositionTable::new(options.spin(name::HASH) as usize);
        // At start-up, as Stockfish builds its bitbases, not in the first game.
        endgame::prepare();
        Engine {
            options,
            position: Position::startpos(),
            tt: Arc::new(tt),
            histories: Arc::new(Mutex::new(HistoryStore::new())),
            job: None,
            out,
            rng: SplitMix64::from_time(),
            debug: false,
            net: LoadedNet::embedded(),
            syzygy: Syzygy::default(),
            fatal: false,
            picture_reader: None,
        }
    }

    /// Lets `scan` read pictures with `reader`.
    pub fn with_picture_reader(mut self, reader: PictureReader) -> Engine {
        self.picture_reader = Some(reader);
        self
    }

    /// Answers one command read at `received`; `false` means quit.
    pub fn handle(&mut self, command: Command, received: Instant) -> bool {
        self.reap_finished_job();
        match command {
            Command::Uci => self.identify(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.stop_search();
                self.forget_the_game();
                self.position = self.start_position();
            }
            Command::Position { start, moves } => {
                if let Err(e) = self.set_position(&start, &moves) {
                    self.out.info(&format!("error: {e}; position unchanged"));
                }
            }
            Command::Go(params) => self.go(params, received),
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                if let Some(Job::Search { control, .. }) = &self.job {
                    control.ponderhit();
                }
            }
            Command::Quit => {
                self.stop_search();
                return false;
            }
            Command::Display => display::board(&self.position, &self.out),
            Command::Eval => self.print_eval(),
            Command::Bench { depth } => self.bench(depth),
            Command::Help => self.help(),
            Command::Scan(request) => self.scan(&request),
            Command::Empty => {}
            Command::Invalid { command, reason } => {
                self.out.info(&format!("error: {command}: {reason}"));
            }
            Command::Unknown(word) => self.out.info(&format!("unknown command '{word}'")),
        }
        !self.fatal
    }

    /// Stops the search (if any) and waits for its `bestmove`. Called when
    /// stdin closes, so a search never outlives the GUI.
    pub fn shutdown(&mut self) {
        self.stop_search();
    }

    /// The line a person who starts the engine in a terminal sees first,
    /// as Stockfish greets: who it is, what it evaluates with, and where to
    /// start. UCI clients skip lines they do not know before `uciok`.
    pub fn greet(&self) {
        let net = match self.net.net() {
            Some(net) => net.architecture(),
            None => "none (PST evaluation)".to_string(),
        };
        self.out.line(&format!(
            "{ENGINE_NAME} by {ENGINE_AUTHOR}; net {net}; simd {}; type 'help' for the commands",
            SimdPath::fastest().name()
        ));
    }

    /// `scan`: the position becomes the one read from the picture, or stays
    /// as it was when the picture gives no legal position.
    fn scan(&mut self, request: &ScanRequest) {
        let Some(read) = self.picture_reader else {
            self.out
                .info("error: scan: this build reads no pictures (the 'scan' feature is off)");
            return;
        };
        if self.job.is_some() {
            self.out
                .info("error: scan: not while searching; position unchanged");
            return;
        }
        match read(request) {
            Ok((fen, warning)) => {
                match self.set_position(&StartPosition::Fen(fen.clone()), &[]) {
                    Ok(()) => self.out.info(&format!("scan: position set: {fen}")),
                    Err(e) => self
                        .out
                        .info(&format!("error: scan: {e}; position unchanged")),
                }
                if let Some(warning) = warning {
                    self.out.info(&format!("scan: {warning}"));
                }
            }
            Err(e) => self
                .out
                .info(&format!("error: scan: {e}; position unchanged")),
        }
    }

    fn help(&self) {
        self.out
            .line(&format!("{ENGINE_NAME}: the commands of its UCI loop"));
        for (command, what) in HELP {
            self.out.line(&format!("  {command}  - {what}"));
        }
        self.out.line(
            "Run 'tarpon --help' in a shell for perft, bench, explain, play and the other tools.",
        );
    }

    fn identify(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for spec in self.options.specs() {
            self.out.line(&spec.declaration());
        }
        self.out.line("uciok");
    }

    /// A tuner sets a search parameter, which only a `tune` build has as an
    /// option. Playing on would run the whole tune at the default values and
    /// report a result that means nothing (fastchess only warns), so this is
    /// the one input the engine stops for: loudly, with a non-zero exit.
    fn refuse_to_be_tuned(&mut self, parameter: &str) {
        let message = format!(
            "error: setoption: {parameter} is a search parameter, settable only in a build with              the tune feature (make FEATURES=tune); exiting, as a tune of this binary would              measure nothing"
        );
        self.out.info(&message);
        eprintln!("{message}");
        self.stop_search();
        self.fatal = true;
    }

    /// Whether the engine must exit with an error (see `refuse_to_be_tuned`).
    pub fn failed(&self) -> bool {
        self.fatal
    }

    fn start_position(&self) -> Position {
        // START_FEN parses; the fallback only guards against a broken constant.
        Position::from_fen(START_FEN, self.options.check(name::CHESS960))
            .unwrap_or_else(|_| Position::startpos())
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String> {
        let mut position = match start {
            StartPosition::StartPos => self.start_position(),
            StartPosition::Fen(fen) => {
                Position::from_fen(fen, self.options.check(name::CHESS960)).map_err(|e| e.0)?
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let m = position
                .parse_uci(text)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            position.make(m);
        }
        position.forget_undo();
        self.position = position;
        Ok(())
    }

    fn set_option(&mut self, option: &str, value: Option<&str>) {
        let searching = matches!(self.job, Some(Job::Search { .. }));
        let canonical = match self.options.set(option, value) {
            Ok(n) => n,
            Err(_) if !cfg!(feature = "tune") && params::find(option.trim()).is_some() => {
                return self.refuse_to_be_tuned(option.trim());
            }
            Err(e) => return self.out.info(&format!("error: setoption: {e}")),
        };
        match canonical {
            name::HASH | name::CLEAR_HASH if searching => self.out.info(&format!(
                "error: {canonical} cannot change during a search; send stop first"
            )),
            name::HASH => {
                let mb = self.options.spin(name::HASH) as usize;
                let result = match Arc::get_mut(&mut self.tt) {
                    Some(tt) => tt.resize(mb),
                    None => Err("the hash table is in use".to_string()),
                };
                if let Err(e) = result {
                    self.out.info(&format!("error: Hash: {e}"));
                }
            }
            name::CLEAR_HASH => self.forget_the_game(),
            name::EVAL_FILE => match self.net.set_eval_file(self.options.text(name::EVAL_FILE)) {
                Ok(message) | Err(message) => self.out.info(&message),
            },
            name::SYZYGY_PATH => {
                let path = self.options.text(name::SYZYGY_PATH).to_string();
                self.syzygy
                    .set_path(&path)
                    .iter()
                    .for_each(|l| self.out.info(l));
            }
            #[cfg(feature = "tune")]
            _ if crate::search::params::find(canonical).is_some() => {
                if let Err(e) = crate::search::params::set(canonical, self.options.spin(canonical))
                {
                    self.out.info(&format!("error: setoption: {e}"));
                }
            }
            _ => {}
        }
    }

    /// The search limits and configuration from `go` and the options.
    fn go(&mut self, params: GoParams, received: Instant) {
        for warning in &params.warnings {
            self.out.info(&format!("warning: {warning}"));
        }
        self.stop_search();
        // Tables that failed during the last search are reported and dropped.
        self.syzygy
            .after_search()
            .iter()
            .for_each(|l| self.out.info(l));
        if self.job.is_some() {
            return self
                .out
                .info("error: a perft or bench is still running; go ignored");
        }
        if let Some(depth) = params.perft {
            return self.start_perft(depth);
        }
        let mut limits = self.limits(&params);
        let level = strength::active_level(
            self.options.check(name::LIMIT_STRENGTH),
            self.options.spin(name::ELO),
            self.options.spin(name::SKILL_LEVEL),
        );
        let mut config = self.search_config();
        if let Some(level) = level {
            level.restrict(&mut limits, &mut config);
        }
        let control = Arc::new(SearchControl::new());
        let job = SearchJob {
            position: self.position.clone(),
            limits,
            config,
            tt: Arc::clone(&self.tt),
            histories: Arc::clone(&self.histories),
            control: Arc::clone(&control),
            level,
            rng: SplitMix64::new(self.rng.next_u64()),
            received,
        };
        if self.debug {
            self.out
                .info(&format!("debug: {:?} level {:?}", job.limits, job.level));
        }
        let handle = search_job::spawn(job, self.out.clone());
        self.job = Some(Job::Search { control, handle });
    }

    fn limits(&self, params: &GoParams) -> Limits {
        let clock = |label: &str, value: Option<i64>| {
            value.map(|v| {
                if v < 0 {
                    self.out
                        .info(&format!("warning: {label} {v} is negative; using 0"));
                }
                v.max(0)
            })
        };
        Limits {
            depth: params.depth,
            nodes: params.nodes,
            soft_nodes: None,
            movetime_ms: params.movetime,
            wtime_ms: clock("wtime", params.wtime),
            btime_ms: clock("btime", params.btime),
            winc_ms: clock("winc", params.winc),
            binc_ms: clock("binc", params.binc),
            movestogo: params.movestogo.filter(|&n| n > 0),
            mate: params.mate,
            infinite: params.infinite,
            ponder: params.ponder,
            searchmoves: self.searchmoves(&params.searchmoves),
        }
    }

    /// The legal moves among `searchmoves`; illegal ones are reported and
    /// dropped (none legal: search every move).
    fn searchmoves(&self, texts: &[String]) -> Vec<Move> {
        let mut moves = Vec::new();
        for text in texts {
            match self.position.parse_uci(text) {
                Ok(m) if !moves.contains(&m) => moves.push(m),
                Ok(_) => {}
                Err(e) => self
                    .out
                    .info(&format!("warning: searchmoves: {e}; ignored")),
            }
        }
        if moves.is_empty() && !texts.is_empty() {
            self.out
                .info("warning: no legal move in searchmoves; searching all moves");
        }
        moves
    }

    fn search_config(&self) -> SearchConfig {
        SearchConfig {
            threads: self.options.spin(name::THREADS) as usize,
            multipv: self.options.spin(name::MULTI_PV) as usize,
            move_overhead_ms: self.options.spin(name::MOVE_OVERHEAD) as u64,
            show_wdl: self.options.check(name::SHOW_WDL),
            eval: self.eval_choice(),
            chess960: self.options.check(name::CHESS960),
            syzygy: Syzygy {
                tables: self.syzygy.tables.clone(),
                settings: ProbeSettings {
                    depth: self.options.spin(name::SYZYGY_PROBE_DEPTH) as i32,
                    limit: self.options.spin(name::SYZYGY_PROBE_LIMIT) as u32,
                    rule50: self.options.check(name::SYZYGY_50_MOVE_RULE),
                },
            },
        }
    }

    /// `go perft N` in Stockfish's divide format, with the `Threads`
    /// option's thread count.
    fn start_perft(&mut self, depth: u32) {
        // Checked here too so the error comes before the next `readyok`.
        if !(1..=perft::MAX_DEPTH).contains(&depth) {
            return self.out.info(&format!(
                "error: perft depth {depth} is out of range 1..={}",
                perft::MAX_DEPTH
            ));
        }
        let position = self.position.clone();
        let settings = perft::Settings {
            threads: self.options.spin(name::THREADS) as usize,
            hash_mb: None,
        };
        self.start_task("perft", move |out| {
            let mut text = Vec::new();
            match perft::report(&position, depth, &settings, &mut text) {
                Ok(_) => String::from_utf8_lossy(&text)
                    .lines()
                    .for_each(|line| out.line(line)),
                Err(e) => out.info(&format!("error: {e}")),
            }
        });
    }

    /// Runs a console command that cannot be stopped (perft, bench) on the
    /// job thread, so `isready` is still answered while it works.
    fn start_task(&mut self, label: &str, task: impl FnOnce(&Output) + Send + 'static) {
        let out = self.out.clone();
        match std::thread::Builder::new()
            .name(label.into())
            .spawn(move || task(&out))
        {
            Ok(handle) => self.job = Some(Job::Task(handle)),
            Err(e) => self.out.info(&format!("error: cannot start {label}: {e}")),
        }
    }

    /// The evaluator of the `Eval` option (the PST, with an `info string`,
    /// when `nnue` is asked for without a net).
    fn eval_choice(&self) -> EvalChoice {
        self.net
            .choice(self.options.text(name::EVAL))
            .unwrap_or_else(|message| {
                self.out.info(&message);
                EvalChoice::Pst
            })
    }

    fn print_eval(&self) {
        for line in eval_report(&self.position, self.net.net().map(|n| n.as_ref())).lines() {
            self.out.line(line);
        }
        let choice = self.eval_choice();
        let mut evaluator = evaluator(&choice);
        evaluator.reset(&self.position);
        let raw = evaluator.evaluate(&self.position);
        let score = as_search_sees(
            self.position.snapshot(),
            raw,
            evaluator.scaled_by_material(),
        );
        let white = if self.position.turn().is_white() {
            score
        } else {
            -score
        };
        self.out.line(&format!(
            "Final evaluation ({}): {:+.2} (white side) [{score} cp from the side to move]",
            self.options.text(name::EVAL),
            white as f64 / 100.0
        ));
    }

    fn bench(&mut self, depth: Option<u32>) {
        self.stop_search();
        if self.job.is_some() {
            return self
                .out
                .info("error: a perft or bench is still running; bench ignored");
        }
        let eval = self.eval_choice();
        self.start_task("bench", move |out| {
            crate::bench::bench(
                depth.unwrap_or(crate::bench::DEFAULT_DEPTH),
                1,
                crate::bench::DEFAULT_HASH_MB,
                &eval,
                &mut |line: &str| out.line(line),
            );
        });
    }

    /// Tells a running search to stop and waits for its `bestmove`. A perft
    /// or bench cannot be stopped; it is left running.
    /// What searches learned about this game (table entries, move-ordering
    /// history) goes; no search is running.
    fn forget_the_game(&mut self) {
        self.tt.clear();
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    fn stop_search(&mut self) {
        if let Some(Job::Search { control, .. }) = &self.job {
            control.stop();
            if let Some(Job::Search {
                handle: Some(handle),
                ..
            }) = self.job.take()
                && handle.join().is_err()
            {
                self.out.info("error: the search thread died");
            }
        }
        self.reap_finished_job();
    }

    /// Joins a job that has ended. A search counts as ended once it has
    /// signalled `finish` (its `bestmove` may already be out while the thread
    /// is still returning), so no command read after `bestmove` ever sees a
    /// search running.
    fn reap_finished_job(&mut self) {
        let finished = match &self.job {
            Some(Job::Search {
                handle: Some(h),
                control,
            }) => h.is_finished() || control.is_finished(),
            Some(Job::Task(h)) => h.is_finished(),
            Some(Job::Search { handle: None, .. }) => true,
            None => false,
        };
        if finished {
            match self.job.take() {
                Some(Job::Search {
                    handle: Some(h), ..
                })
                | Some(Job::Task(h)) => {
                    let _ = h.join();
                }
                _ => {}
            }
        }
    }
}
