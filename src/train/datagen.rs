//! `tarpon datagen`: self-play games by the engine's own search at a fixed
//! node budget per move, written as training records.
//!
//! Every game is numbered, and its random choices (opening line, random
//! plies) come from a generator seeded by `--seed` and that number, and every
//! search starts from a cleared table on one thread. So a run's set of games
//! depends only on its arguments, not on how many threads played them (the
//! order of games in the file does).
//!
//! Each game's records are written and flushed together when it ends, so a
//! killed run leaves a file of whole games (at worst one partial record at the
//! end, which readers skip).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::{Color, Move, Position as _};

use super::data::{DataError, GameResult, PackedPosition, RecordWriter, TrainingPosition};
use super::openings::{MAX_RANDOM_PLIES, Openings};
use crate::eval::EvalChoice;
use crate::eval::endgame::KNOWN_WIN;
use crate::eval::nnue::Network;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::{
    EvaluatorStore, GameMemory, HistoryStore, Limits, Score, SearchConfig, SearchControl,
    TranspositionTable, run_search_in_game,
};
use crate::tablebase::Tablebase;

/// Arguments of `tarpon datagen`.
#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// File to append the records to (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Games to play (this many in total, whatever the thread count).
    #[arg(
        long,
        conflicts_with = "positions",
        required_unless_present = "positions"
    )]
    pub games: Option<u64>,
    /// Stop once at least this many positions are written (games in progress
    /// still finish and are written).
    #[arg(long)]
    pub positions: Option<u64>,
    /// Search nodes per move: a hard limit that cuts an iteration off.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Start no new iteration after this many nodes: the move comes from a
    /// completed iteration and no nodes go into one cut off by `--nodes`.
    #[arg(long)]
    pub soft_nodes: Option<u64>,
    /// Parallel games (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Opening book: a file of FEN/EPD lines, one picked at random per game.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Random legal moves played from the opening before the engine takes over (at most 200).
    #[arg(long, default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_RANDOM_PLIES)))]
    pub random_plies: u32,
    /// Seed of the run's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table per game, in MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Adjudicate a win when the score stays at or beyond this (centipawns) ...
    #[arg(long, default_value_t = 1500)]
    pub win_score: i32,
    /// ... for this many consecutive plies.
    #[arg(long, default_value_t = 6)]
    pub win_plies: u32,
    /// Adjudicate a draw when the score stays within this (centipawns) ...
    #[arg(long, default_value_t = 10)]
    pub draw_score: i32,
    /// ... for this many consecutive plies ...
    #[arg(long, default_value_t = 12)]
    pub draw_plies: u32,
    /// ... once the game is this many plies old.
    #[arg(long, default_value_t = 80)]
    pub draw_after: u32,
    /// Declare a draw after this many plies.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Play with this net [default: the net built into the binary, as the
    /// engine does].
    #[arg(long)]
    pub net: Option<PathBuf>,
    /// Play with the PST evaluator instead of a net (generation 0's self-play).
    #[arg(long, conflicts_with = "net")]
    pub pst: bool,
    /// Syzygy directories (separated like `SyzygyPath`): a game whose
    /// position the tables can answer ends there with the tables' result.
    #[arg(long)]
    pub syzygy: Option<String>,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// How a game ended, from white's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `Some(winner)` or `None` for a draw.
    Decided(Option<Color>),
}

/// Ends games whose outcome is no longer in doubt: a score beyond
/// `win_score` for the same side for `win_plies` plies in a row, or within
/// `draw_score` of zero for `draw_plies` plies once the game is `draw_after`
/// plies old. Mate scores count as beyond any threshold.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    win_score: i32,
    win_plies: u32,
    draw_score: i32,
    draw_plies: u32,
    draw_after: u32,
    /// The side the score favours and for how many plies in a row.
    win_streak: (Option<Color>, u32),
    draw_streak: u32,
}

impl Adjudicator {
    pub fn new(args: &DatagenArgs) -> Adjudicator {
        Adjudicator {
            win_score: args.win_score,
            win_plies: args.win_plies,
            draw_score: args.draw_score,
            draw_plies: args.draw_plies,
            draw_after: args.draw_after,
            win_streak: (None, 0),
            draw_streak: 0,
        }
    }

    /// Feeds the search score (side to move's view) at game ply `ply`; returns
    /// a verdict once one is justified.
    pub fn observe(&mut self, ply: u32, turn: Color, score: Score) -> Option<Verdict> {
        let cp = match score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => i32::MAX,
            Score::Mate(_) => -i32::MAX,
        };
        let favoured = if cp >= self.win_score {
            Some(turn)
        } else if cp <= -self.win_score {
            Some(!turn)
        } else {
            None
        };
        self.win_streak = match (favoured, self.win_streak) {
            (Some(side), (Some(prev), n)) if side == prev => (Some(side), n + 1),
            (Some(side), _) => (Some(side), 1),
            (None, _) => (None, 0),
        };
        if let (Some(side), n) = self.win_streak
            && n >= self.win_plies
        {
            return Some(Verdict::Decided(Some(side)));
        }
        if ply >= self.draw_after && cp.abs() <= self.draw_score {
            self.draw_streak += 1;
        } else {
            self.draw_streak = 0;
        }
        (self.draw_streak >= self.draw_plies).then_some(Verdict::Decided(None))
    }
}

/// One game's finished records and how it ended.
struct PlayedGame {
    records: Vec<PackedPosition>,
    winner: Option<Color>,
}

/// Everything a game needs besides its number.
struct GameSetup<'a> {
    args: &'a DatagenArgs,
    openings: &'a Openings,
    config: SearchConfig,
    /// Empty unless `--syzygy` is given.
    tablebase: Tablebase,
}

/// The seed of game `game` in a run seeded with `seed`.
fn game_seed(seed: u64, game: u64) -> u64 {
    let mut rng = SplitMix64::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

/// The game's result if the rules have ended it.
fn rules_verdict(pos: &Position) -> Option<Option<Color>> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            Some(!pos.turn())
        } else {
            None
        });
    }
    (pos.repetitions() >= 2 || pos.is_fifty_move_draw() || pos.is_insufficient_material())
        .then_some(None)
}

/// Whether a searched position makes a good training example: quiet (not in
/// check, best move neither capture nor promotion) and neither a mate score
/// nor a known win of the endgame knowledge (10 000 and more: a constant
/// plus mating terms, no target for a net to learn). `tarpon convert` applies
/// the same filter to the moves of PGN games, through [`training_position`].
fn training_score(pos: &Position, best: &Move, score: Score) -> Option<i16> {
    if pos.is_check() || best.is_capture() || best.is_promotion() {
        return None;
    }
    match score {
        Score::Cp(cp) if cp.abs() < KNOWN_WIN => i16::try_from(cp).ok(),
        Score::Cp(_) | Score::Mate(_) => None,
    }
}

/// `pos` as a training example with its score, if [`training_score`] keeps
/// it; the result stays a draw until the game's end is known.
pub fn training_position(pos: &Position, best: &Move, score: Score) -> Option<TrainingPosition> {
    let score = training_score(pos, best, score)?;
    let chess = pos.to_chess();
    Some(TrainingPosition {
        board: chess.board().clone(),
        turn: chess.turn(),
        score,
        result: GameResult::Draw,
        halfmoves: u8::try_from(chess.halfmoves()).unwrap_or(u8::MAX),
        fullmoves: u16::try_from(chess.fullmoves().get()).unwrap_or(u16::MAX),
    })
}

fn play_game(setup: &GameSetup, game: u64, tt: &TranspositionTable) -> PlayedGame {
    let mut rng = SplitMix64::new(game_seed(setup.args.seed, game));
    let mut pos = setup.openings.draw(&mut rng, setup.args.random_plies);
    let mut adjudicator = Adjudicator::new(setup.args);
    let limits = Limits {
        nodes: Some(setup.args.nodes),
        soft_nodes: setup.args.soft_nodes,
        ..Limits::default()
    };
    let control = SearchControl::new();
    // A game's searches share what they learn, as in a UCI game.
    tt.clear();
    let mut histories = HistoryStore::new();
    let mut evaluators = EvaluatorStore::new();
    let mut kept: Vec<TrainingPosition> = Vec::new();
    let mut ply = 0;
    let winner = loop {
        if let Some(verdict) = rules_verdict(&pos) {
            break verdict;
        }
        if let Some(verdict) = setup.tablebase.winner(&pos.to_chess()) {
            break verdict;
        }
        if ply >= setup.args.max_plies {
            break None;
        }
        let memory = GameMemory {
            tt,
            histories: &mut histories,
            evaluators: Some(&mut evaluators),
        };
        let outcome = run_search_in_game(&pos, &limits, &setup.config, memory, &control, None);
        let (Some(best), Some(line)) = (outcome.best, outcome.lines.first()) else {
            break None;
        };
        kept.extend(training_position(&pos, &best, line.score));
        if let Some(Verdict::Decided(w)) = adjudicator.observe(ply, pos.turn(), line.score) {
            break w;
        }
        pos.make(best);
        pos.forget_undo();
        ply += 1;
    };
    let records = kept
        .iter_mut()
        .filter_map(|p| {
            p.result = GameResult::for_side(p.turn, winner);
            PackedPosition::pack(p).ok()
        })
        .collect();
    PlayedGame { records, winner }
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenReport {
    pub games: u64,
    pub positions: u64,
    /// White wins, draws, black wins.
    pub results: [u64; 3],
    /// What the games were played with: the PST, the built-in net or a net file.
    pub played_with: String,
}

/// `tarpon datagen`.
pub fn run(args: DatagenArgs) -> ExitCode {
    let start = Instant::now();
    match generate(&args) {
        Ok(r) => {
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{} games (+{} ={} -{} for white) played with {}, {} positions written to {} in {:.1} s: {:.1} positions/s, {:.1} per game",
                r.games,
                r.results[0],
                r.results[1],
                r.results[2],
                r.played_with,
                r.positions,
                args.out.display(),
                secs,
                r.positions as f64 / secs.max(1e-9),
                r.positions as f64 / r.games.max(1) as f64
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The evaluator the games are played with (`--net`, `--pst`, or else the
/// binary's own net) and its name for the log. Never a silent PST: the
/// built-in net was once assumed where datagen had quietly played the PST,
/// and 11 M positions were lost to it.
fn self_play_evaluator(args: &DatagenArgs) -> Result<(EvalChoice, String), String> {
    if let Some(path) = &args.net {
        let net = Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((
            EvalChoice::Nnue(Arc::new(net)),
            format!("the net {}", path.display()),
        ));
    }
    if args.pst {
        return Ok((EvalChoice::Pst, "the PST".into()));
    }
    match Network::embedded_default() {
        Some(net) => Ok((EvalChoice::Nnue(net), "the built-in net".into())),
        None => Err(match Network::embedded_default_error() {
            Some(e) => format!("the built-in net does not load ({e}): give --net FILE or --pst"),
            None => "this binary carries no net: give --net FILE or --pst".into(),
        }),
    }
}

/// Plays the games `args` asks for and appends their records to `args.out`.
pub fn generate(args: &DatagenArgs) -> Result<DatagenReport, String> {
    if args.nodes == 0
        || args.soft_nodes == Some(0)
        || args.games == Some(0)
        || args.positions == Some(0)
    {
        return Err("--nodes, --soft-nodes, --games and --positions must be positive".into());
    }
    if args.hash == 0 || args.hash > 4096 {
        return Err(format!(
            "--hash {} MB must be between 1 and 4096",
            args.hash
        ));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let openings = Openings::load(args.book.as_deref())?;
    let (eval, played_with) = self_play_evaluator(args)?;
    // Said even with --quiet: a run stopped by a signal prints no summary, and
    // which evaluator made the data is the one thing its records cannot tell.
    eprintln!("datagen: playing with {played_with}");
    let tablebase = match &args.syzygy {
        Some(paths) => {
            let tables = Tablebase::open(paths);
            if tables.is_empty() {
                return Err(format!("--syzygy {paths}: no usable Syzygy tables"));
            }
            tables
        }
        None => Tablebase::empty(),
    };
    let writer = Mutex::new(RecordWriter::append(&args.out).map_err(|e| e.to_string())?);
    let setup = GameSetup {
        args,
        openings: &openings,
        tablebase,
        config: SearchConfig {
            threads: 1,
            eval,
            ..SearchConfig::default()
        },
    };
    let next_game = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let games = AtomicU64::new(0);
    let results = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    let failed: Mutex<Option<DataError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let bar = progress_bar(args);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let worker = || {
                let tt = TranspositionTable::new(args.hash);
                while !stop.load(Ordering::Relaxed) {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    if args.games.is_some_and(|g| game >= g) {
                        break;
                    }
                    let played = play_game(&setup, game, &tt);
                    let written = {
                        let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
                        played
                            .records
                            .iter()
                            .try_for_each(|r| w.write(r))
                            .and_then(|()| w.flush())
                    };
                    if let Err(e) = written {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let slot = match played.winner {
                        Some(Color::White) => 0,
                        None => 1,
                        Some(Color::Black) => 2,
                    };
                    results[slot].fetch_add(1, Ordering::Relaxed);
                    let n = played.records.len() as u64;
                    let total = positions.fetch_add(n, Ordering::Relaxed) + n;
                    let done = games.fetch_add(1, Ordering::Relaxed) + 1;
                    if args.positions.is_some_and(|p| total >= p) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    bar.set_position(if args.positions.is_some() {
                        total
                    } else {
                        done
                    });
                    let rate = total as f64 / start.elapsed().as_secs_f64().max(1e-9);
                    bar.set_message(format!("{done} games, {total} positions, {rate:.1} pos/s"));
                }
            };
            // The search recurses deeply; give it the stack it asks for.
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, worker)
                .expect("spawning a datagen thread");
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(format!("writing {}: {e}", args.out.display()));
    }
    Ok(DatagenReport {
        games: games.into_inner(),
        positions: positions.into_inner(),
        results: results.map(AtomicU64::into_inner),
        played_with,
    })
}

fn progress_bar(args: &DatagenArgs) -> ProgressBar {
    if args.quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(args.positions.or(args.games).unwrap_or(0));
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_scratch::ScratchDir;
    use crate::train::data::read_records;
    use shakmaty::{Chess, FromSetup, Setup};

    #[test]
    fn known_wins_and_mates_are_not_training_targets() {
        let pos = Position::from_fen("7k/8/8/8/8/8/8/KQ6 w - - 0 1", false).unwrap();
        let quiet = pos.parse_uci("b1b2").unwrap();
        assert_eq!(training_score(&pos, &quiet, Score::Cp(250)), Some(250));
        assert_eq!(
            training_score(&pos, &quiet, Score::Cp(KNOWN_WIN - 1)),
            Some(9999)
        );
        assert_eq!(
            training_score(&pos, &quiet, Score::Cp(KNOWN_WIN + 900)),
            None
        );
        assert_eq!(
            training_score(&pos, &quiet, Score::Cp(-KNOWN_WIN - 900)),
            None
        );
        assert_eq!(training_score(&pos, &quiet, Score::Mate(3)), None);
    }

    fn args(out: PathBuf) -> DatagenArgs {
        DatagenArgs {
            out,
            games: Some(4),
            positions: None,
            nodes: 400,
            soft_nodes: None,
            threads: Some(1),
            book: None,
            random_plies: 8,
            seed: 3,
            hash: 1,
            win_score: 1000,
            win_plies: 4,
            draw_score: 10,
            draw_plies: 8,
            draw_after: 40,
            max_plies: 160,
            net: None,
            pst: true,
            syzygy: None,
            quiet: true,
        }
    }

    #[test]
    fn adjudicator_needs_a_streak_for_the_same_side() {
        let a = args(PathBuf::new());
        let mut adj = Adjudicator::new(&a);
        // White to move +1200, black to move -1200: both favour white.
        assert_eq!(adj.observe(10, Color::White, Score::Cp(1200)), None);
        assert_eq!(adj.observe(11, Color::Black, Score::Cp(-1200)), None);
        assert_eq!(adj.observe(12, Color::White, Score::Cp(1300)), None);
        // A dip resets the streak.
        assert_eq!(adj.observe(13, Color::Black, Score::Cp(-900)), None);
        for ply in 14..17 {
            let turn = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let cp = if turn == Color::White { 1100 } else { -1100 };
            assert_eq!(adj.observe(ply, turn, Score::Cp(cp)), None);
        }
        assert_eq!(
            adj.observe(17, Color::Black, Score::Mate(-3)),
            Some(Verdict::Decided(Some(Color::White)))
        );

        let mut adj = Adjudicator::new(&a);
        for ply in 0..60 {
            let turn = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let verdict = adj.observe(ply, turn, Score::Cp(3));
            // Draws only after ply 40, and only after 8 quiet plies there.
            assert_eq!(verdict.is_some(), ply >= 47, "ply {ply}");
            if verdict.is_some() {
                assert_eq!(verdict, Some(Verdict::Decided(None)));
                break;
            }
        }
    }

    #[test]
    fn datagen_writes_filtered_records_reproducibly() {
        let dir = ScratchDir::new("datagen-reproducibly");
        let one = dir.join("one.bin");
        let report = generate(&args(one.clone())).unwrap();
        assert_eq!(report.games, 4);
        let (records, dropped) = read_records(&one).unwrap();
        assert_eq!(dropped, 0);
        assert_eq!(records.len() as u64, report.positions);
        assert!(
            records.len() > 20,
            "only {} positions from 4 games",
            records.len()
        );
        for r in &records {
            let p = r.unpack().unwrap();
            let mut setup = Setup::empty();
            setup.board = p.board.clone();
            setup.turn = p.turn;
            let chess = Chess::from_setup(setup, shakmaty::CastlingMode::Standard)
                .expect("positions from games are legal");
            assert!(!chess.is_check(), "a position in check was kept");
            assert!(i32::from(p.score).abs() < crate::search::score::MATE_BOUND);
        }

        // The same games with two threads: the same records, maybe reordered.
        let two = dir.join("two.bin");
        let mut a = args(two.clone());
        a.threads = Some(2);
        generate(&a).unwrap();
        let (mut again, _) = read_records(&two).unwrap();
        let mut first = records.clone();
        first.sort_by_key(|r| r.0);
        again.sort_by_key(|r| r.0);
        assert!(first == again, "two threads played different games");

        // Appending a second run adds to the file.
        let mut a = args(one.clone());
        a.games = None;
        a.positions = Some(1);
        let more = generate(&a).unwrap();
        assert!(more.positions >= 1);
        let (after, _) = read_records(&one).unwrap();
        assert_eq!(after.len() as u64, report.positions + more.positions);
    }

    #[test]
    fn datagen_plays_with_a_net() {
        let dir = ScratchDir::new("datagen-net");
        let net = crate::eval::nnue::random::random_network(
            crate::eval::nnue::FeatureSet::HalfKAv2Hm,
            32,
            &[8, 8],
            1,
            5,
        )
        .unwrap();
        net.save(dir.join("random.nnue")).unwrap();
        let mut a = args(dir.join("data.bin"));
        a.games = Some(1);
        a.pst = false;
        a.net = Some(dir.join("random.nnue"));
        let report = generate(&a).unwrap();
        let (records, _) = read_records(&a.out).unwrap();
        assert_eq!(records.len() as u64, report.positions);
        a.net = Some(dir.join("missing.nnue"));
        assert!(generate(&a).is_err());
    }

    /// Without `--net` or `--pst` the games are the built-in net's: the same
    /// records as with that net's file named, and not the PST's.
    #[cfg(tarpon_default_net)]
    #[test]
    fn datagen_plays_the_built_in_net_by_default() {
        let dir = ScratchDir::new("datagen-built-in");
        let play = |name: &str, net: Option<PathBuf>, pst: bool| {
            let mut a = args(dir.join(name));
            a.games = Some(1);
            a.net = net;
            a.pst = pst;
            generate(&a).unwrap();
            read_records(&a.out).unwrap().0
        };
        let by_default = play("default.bin", None, false);
        let named = play("named.bin", Some(env!("TARPON_EMBEDDED_NET").into()), false);
        let pst = play("pst.bin", None, true);
        assert!(!by_default.is_empty());
        assert_eq!(by_default, named);
        assert_ne!(by_default, pst);
    }

    #[test]
    fn tablebases_end_games_they_know() {
        let dir = ScratchDir::new("datagen-tb");
        // White's queen against a rook, then black's: won for the side with
        // the queen (the tables say so). Not against a bare king, whose
        // known-win scores are never kept.
        let book = dir.join("book.epd");
        std::fs::write(
            &book,
            "1r6/8/4k3/8/8/8/8/Q3K3 w - - 0 1\nq3k3/8/8/8/8/4K3/8/1R6 w - - 0 1\n",
        )
        .unwrap();
        let mut a = args(dir.join("data.bin"));
        a.book = Some(book);
        a.random_plies = 0;
        a.games = Some(6);
        // Without tables the games are searched and leave positions behind.
        let searched = generate(&a).unwrap();
        assert!(searched.positions > 0);
        a.out = dir.join("tb.bin");
        a.syzygy = Some("tests/data/syzygy".into());
        let judged = generate(&a).unwrap();
        assert_eq!(judged.positions, 0, "the tables end every game at once");
        assert_eq!(judged.games, 6);
        assert_eq!(judged.results[1], 0, "no draws");
        assert_eq!(judged.results[0] + judged.results[2], 6);
        assert!(judged.results[0] > 0 && judged.results[2] > 0);
        a.syzygy = Some("/nonexistent/tables".into());
        assert!(
            generate(&a)
                .unwrap_err()
                .contains("no usable Syzygy tables")
        );
    }

    #[test]
    fn bad_arguments_are_refused() {
        let dir = ScratchDir::new("datagen-bad");
        let mut a = args(dir.join("bad.bin"));
        a.nodes = 0;
        assert!(generate(&a).is_err());
        let mut a = args(dir.join("bad.bin"));
        a.book = Some(PathBuf::from("/nonexistent/book.epd"));
        assert!(generate(&a).unwrap_err().contains("cannot read book"));
    }
}
