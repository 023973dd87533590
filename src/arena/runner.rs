//! Running a whole match: the schedule of games, worker threads each owning
//! its engine processes, live progress, PGN output, the SPRT stop and a
//! clean stop on Ctrl-C.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

use crossbeam::channel::{Sender, unbounded};
use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Color;

use super::adjudication::Adjudicator;
use super::cli::{MatchPlan, Schedule};
use super::clock::Clock;
use super::engine::{self, Player};
use super::faults::{FaultTally, Faults};
use super::game::{self, GameRecord, GameSettings};
use super::outcome::MatchOutcome;
use super::pgn::{EventInfo, format_game};
use super::report::{self, PairingStats};
use super::stats::{Sprt, SprtVerdict};
use super::tablebase::Tablebases;

/// One game of the schedule.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// Index into the pairings.
    pub pairing: usize,
    /// Index of the game pair within the pairing (one opening per pair).
    pub pair: usize,
    /// The first engine of the pairing has White in the first game of a pair.
    pub first_is_white: bool,
    pub white: usize,
    pub black: usize,
}

/// Pairings of engine indices: the first engine of each is the one whose
/// results are reported.
pub fn pairings(engines: usize, schedule: Schedule) -> Vec<(usize, usize)> {
    match schedule {
        Schedule::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
        Schedule::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
    }
}

/// Games in the order they are started: pair by pair, each pairing in turn,
/// so that pairs complete early and partial results stay balanced.
pub fn schedule(pairings: &[(usize, usize)], games_per_pairing: u64) -> Vec<Job> {
    let mut jobs = Vec::new();
    for pair in 0..games_per_pairing.div_ceil(2) as usize {
        for (index, &(a, b)) in pairings.iter().enumerate() {
            for second in [false, true] {
                if (2 * pair + usize::from(second)) as u64 >= games_per_pairing {
                    continue;
                }
                let (white, black) = if second { (b, a) } else { (a, b) };
                jobs.push(Job {
                    pairing: index,
                    pair,
                    first_is_white: !second,
                    white,
                    black,
                });
            }
        }
    }
    jobs
}

enum Event {
    Finished(Job, Box<GameRecord>),
    Fatal(String),
}

/// Everything the worker threads share.
struct Shared {
    plan: MatchPlan,
    jobs: Vec<Job>,
    next_job: AtomicUsize,
    stop: Arc<AtomicBool>,
    tablebases: Option<Tablebases>,
}

fn worker(shared: &Shared, events: Sender<Event>) {
    let plan = &shared.plan;
    let stop = shared.stop.as_ref();
    // Engines this worker runs, by engine index; restarted after a fault.
    let mut running: HashMap<usize, Box<dyn Player>> = HashMap::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let index = shared.next_job.fetch_add(1, Ordering::Relaxed);
        let Some(&job) = shared.jobs.get(index) else {
            break;
        };
        let mut players = Vec::with_capacity(2);
        for engine_index in [job.white, job.black] {
            let player = match running.remove(&engine_index) {
                Some(p) => p,
                None => match engine::start(&plan.engines[engine_index], stop) {
                    Ok(p) => p,
                    Err(engine::EngineError::Interrupted) => return,
                    Err(e) => {
                        let name = &plan.engines[engine_index].name;
                        let _ =
                            events.send(Event::Fatal(format!("cannot start engine {name}: {e}")));
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                },
            };
            players.push(player);
        }
        let mut black = players.pop().expect("two players");
        let mut white = players.pop().expect("two players");
        let clock = |engine_index: usize| {
            let config = &plan.engines[engine_index];
            Clock::new(
                plan.time_controls[engine_index].clone(),
                config.margin_ms,
                config.hang_timeout,
            )
        };
        let settings = GameSettings {
            opening: &plan.openings[plan.opening_sequence[job.pair]],
            chess960: plan.chess960,
            clocks: [clock(job.white), clock(job.black)],
            adjudicator: Adjudicator::new(plan.draw, plan.resign),
            tablebases: shared.tablebases.as_ref(),
        };
        let outcome = game::play([white.as_mut(), black.as_mut()], settings, stop);
        match outcome {
            Ok(record) => {
                if !record.faulty[0] {
                    running.insert(job.white, white);
                }
                if !record.faulty[1] {
                    running.insert(job.black, black);
                }
                if events.send(Event::Finished(job, Box::new(record))).is_err() {
                    break;
                }
            }
            Err(game::Interrupted) => break,
        }
    }
    // Dropping the players shuts every engine down and reaps it.
}

/// The process-wide Ctrl-C flag; the handler can be installed only once.
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        if let Err(e) = ctrlc::set_handler(move || handler_flag.store(true, Ordering::SeqCst)) {
            eprintln!("warning: cannot catch Ctrl-C: {e}");
        }
        flag
    })
    .clone()
}

pub fn run(plan: MatchPlan) -> Result<MatchOutcome, String> {
    let tablebases = match &plan.tb {
        Some(paths) => Some(Tablebases::open(paths)?),
        None => None,
    };
    let pairs = pairings(plan.engines.len(), plan.schedule);
    let jobs = schedule(&pairs, plan.games_per_pairing);
    let mut pgn = PgnLog::open(&plan)?;
    let interrupt = interrupt_flag();
    let stop = Arc::new(AtomicBool::new(false));
    let total = jobs.len();
    let concurrency = plan.concurrency.min(total.max(1));
    let mut scoreboard = Scoreboard::new(&plan, &pairs);
    let shared = Arc::new(Shared {
        plan,
        jobs,
        next_job: AtomicUsize::new(0),
        stop: stop.clone(),
        tablebases,
    });
    let (tx, rx) = unbounded();
    let handles = start_workers(&shared, concurrency, tx)?;
    let progress = Progress::new(total);
    let mut outcome = MatchOutcome {
        interrupted: false,
        sprt: None,
        error: None,
        faults: 0,
    };
    let mut finished = 0u64;
    loop {
        if interrupt.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
            outcome.interrupted = true;
            stop.store(true, Ordering::SeqCst);
            progress.say("Interrupted: stopping the engines".to_string());
        }
        let event = match rx.recv_timeout(std::time::Duration::from_millis(100)) {
            Ok(event) => event,
            Err(crossbeam::channel::RecvTimeoutError::Timeout) => continue,
            Err(crossbeam::channel::RecvTimeoutError::Disconnected) => break,
        };
        let (job, record) = match event {
            Event::Fatal(message) => {
                progress.say(format!("error: {message}"));
                outcome.error = Some(message);
                continue;
            }
            Event::Finished(job, record) => (job, record),
        };
        finished += 1;
        pgn.write(&record, finished, &progress);
        let pairing = scoreboard.add(job, &record);
        progress.game_finished(finished, &record, pairing);
        if outcome.sprt.is_none()
            && let Some(verdict) = sprt_decision(shared.plan.sprt, pairing)
        {
            outcome.sprt = Some(verdict);
            stop.store(true, Ordering::SeqCst);
            progress.say(format!(
                "SPRT: {} accepted, stopping",
                report::verdict_name(verdict)
            ));
        }
    }
    for handle in handles {
        let _ = handle.join();
    }
    progress.finish();
    outcome.faults = scoreboard.faults.total();
    write_results(&shared.plan, &scoreboard, &outcome)?;
    Ok(outcome)
}

/// Starts `count` worker threads taking games from `shared`'s schedule.
fn start_workers(
    shared: &Arc<Shared>,
    count: usize,
    events: Sender<Event>,
) -> Result<Vec<JoinHandle<()>>, String> {
    let mut handles = Vec::new();
    for n in 0..count {
        let shared = shared.clone();
        let events = events.clone();
        let handle = std::thread::Builder::new()
            .name(format!("arena worker {n}"))
            .spawn(move || worker(&shared, events))
            .map_err(|e| format!("cannot start worker thread: {e}"))?;
        handles.push(handle);
    }
    Ok(handles)
}

/// The live progress bar, and the lines printed above it (or plainly when
/// there is no terminal to draw the bar on).
struct Progress {
    bar: ProgressBar,
}

impl Progress {
    fn new(games: usize) -> Progress {
        let bar = ProgressBar::new(games as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} games {elapsed_precise} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Progress { bar }
    }

    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            println!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Announces game `number` and shows its pairing's standing.
    fn game_finished(&self, number: u64, record: &GameRecord, pairing: &PairingStats) {
        self.say(format!(
            "Finished game {number} ({} vs {}): {} {{{}}}",
            record.white,
            record.black,
            record.end.result.pgn(),
            record.end.reason
        ));
        self.bar.inc(1);
        self.bar.set_message(pairing.live_line());
    }

    fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// The `--pgn` file, games appended as they finish.
struct PgnLog {
    file: Option<File>,
    info: EventInfo,
}

impl PgnLog {
    fn open(plan: &MatchPlan) -> Result<PgnLog, String> {
        let file = match &plan.pgn {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
            ),
            None => None,
        };
        let info = EventInfo {
            event: plan.event.clone(),
            site: std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "?".to_string()),
        };
        Ok(PgnLog { file, info })
    }

    /// Appends game `round`; a write error is reported and the match goes on.
    fn write(&mut self, record: &GameRecord, round: u64, progress: &Progress) {
        if let Some(file) = self.file.as_mut() {
            let text = format_game(record, &self.info, round);
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                progress.say(format!("error: cannot write PGN: {e}"));
            }
        }
    }
}

/// Results so far: per pairing (with game pairs matched up for the
/// pentanomial counts) and faults per engine.
struct Scoreboard {
    pairings: Vec<PairingStats>,
    faults: FaultTally,
    /// Points of the first engine in a pair's first finished game, until
    /// the other game of the pair finishes.
    half_pairs: HashMap<(usize, usize), f64>,
}

impl Scoreboard {
    fn new(plan: &MatchPlan, pairs: &[(usize, usize)]) -> Scoreboard {
        let names: Vec<String> = plan.engines.iter().map(|e| e.name.clone()).collect();
        let mut faults = FaultTally::default();
        for name in &names {
            faults.add(name, Faults::default());
        }
        Scoreboard {
            pairings: pairs
                .iter()
                .map(|&(a, b)| PairingStats::new(names[a].clone(), names[b].clone()))
                .collect(),
            faults,
            half_pairs: HashMap::new(),
        }
    }

    /// Counts a finished game; returns its pairing's standing.
    fn add(&mut self, job: Job, record: &GameRecord) -> &PairingStats {
        let first = if job.first_is_white {
            Color::White
        } else {
            Color::Black
        };
        self.faults.add(&record.white, record.faults[0]);
        self.faults.add(&record.black, record.faults[1]);
        let points = record.end.result.points_for(first);
        let pairing = &mut self.pairings[job.pairing];
        pairing.wdl.add(points);
        if let Some(other) = self.half_pairs.remove(&(job.pairing, job.pair)) {
            pairing.penta.add_pair(other, points);
        } else {
            self.half_pairs.insert((job.pairing, job.pair), points);
        }
        pairing
    }
}

/// The SPRT's verdict on `pairing` once it accepts a hypothesis.
fn sprt_decision(sprt: Option<Sprt>, pairing: &PairingStats) -> Option<SprtVerdict> {
    let verdict = sprt?.verdict(&pairing.penta);
    (verdict != SprtVerdict::Continue).then_some(verdict)
}

/// Prints the final table and writes the `--report` file.
fn write_results(
    plan: &MatchPlan,
    scoreboard: &Scoreboard,
    outcome: &MatchOutcome,
) -> Result<(), String> {
    let table = report::final_table(plan, &scoreboard.pairings, &scoreboard.faults, outcome);
    println!("{table}");
    if let Some(path) = &plan.report {
        let markdown = report::markdown(plan, &table);
        std::fs::write(path, markdown)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        assert_eq!(pairings(3, Schedule::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, Schedule::Gauntlet), [(0, 1), (0, 2)]);
        let jobs = schedule(&[(0, 1)], 5);
        let colours: Vec<(usize, usize, usize)> =
            jobs.iter().map(|j| (j.pair, j.white, j.black)).collect();
        assert_eq!(
            colours,
            [(0, 0, 1), (0, 1, 0), (1, 0, 1), (1, 1, 0), (2, 0, 1)]
        );
    }
}
