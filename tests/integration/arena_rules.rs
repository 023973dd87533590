//! Game rules and forfeits, checked with scripted fake engines: small bash
//! scripts written into a temporary directory that play given moves and then
//! misbehave in one chosen way. Every game is judged by the arena; the
//! result, the PGN Termination tag and the reason comment are checked.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{ScratchDir, temp_dir};

const ARENA: &str = env!("CARGO_BIN_EXE_tarpon");

/// A UCI engine: answers `go` with the next scripted move, then does what
/// its mode says: `illegal` e2e5, `nomove` bestmove (none), `hang` sleeps,
/// `crash` exits, `slow` answers after 1.5 s.
const UCI_FAKE: &str = r#"#!/bin/bash
mode="$1"; IFS=',' read -ra moves <<< "$2"; [ "$2" = "-" ] && moves=(); n=0
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name fake-$mode"; echo "uciok";;
    isready) echo "readyok";;
    quit) exit 0;;
    go*)
      if [ $n -lt ${#moves[@]} ]; then
        echo "info depth 3 score cp 12 pv ${moves[$n]}"; echo "bestmove ${moves[$n]}"; n=$((n+1)); continue
      fi
      case "$mode" in
        illegal) echo "bestmove e2e5";;
        nomove) echo "bestmove (none)";;
        hang) sleep "$3";;
        crash) exit 3;;
        slow) sleep 1.5; echo "bestmove e2e4";;
        *) echo "bestmove 0000";;
      esac;;
  esac
done
"#;

/// An xboard engine with `usermove`, `ping` and `setboard`: plays scripted
/// moves, then claims a win it does not have.
const XBOARD_FAKE: &str = r#"#!/bin/bash
IFS=',' read -ra moves <<< "$1"; n=0
while IFS= read -r line; do
  case "$line" in
    "protover 2") echo 'feature usermove=1 ping=1 setboard=1 myname="xfake" done=1';;
    ping*) echo "pong ${line#ping }";;
    usermove*) echo "$line" >> "$2";;
    go)
      if [ $n -lt ${#moves[@]} ]; then
        echo "1 15 0 10 ${moves[$n]}"; echo "move ${moves[$n]}"; n=$((n+1))
      else
        echo "1-0 {White mates}"
      fi;;
    quit) exit 0;;
  esac
done
"#;

struct Sandbox {
    /// Removed, with the fakes and the PGN, when the sandbox drops.
    dir: ScratchDir,
    /// Unique argument of the hanging fake's `sleep`, to find it in /proc.
    marker: String,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = temp_dir(&format!("arena-{name}"));
        for (file, text) in [("uci.sh", UCI_FAKE), ("xboard.sh", XBOARD_FAKE)] {
            let path = dir.join(file);
            std::fs::write(&path, text).unwrap();
            let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
            assert!(status.success());
        }
        static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let marker = format!("30.{}{n}", std::process::id());
        Sandbox { dir, marker }
    }

    fn path(&self, file: &str) -> String {
        self.dir.join(file).display().to_string()
    }

    fn pgn(&self) -> String {
        std::fs::read_to_string(self.dir.join("games.pgn")).unwrap_or_default()
    }
}

/// Run `tarpon arena` with two engines given as full `--engine` token lists.
fn arena(sandbox: &Sandbox, white: &[String], black: &[String], extra: &[&str]) -> Output {
    let mut cmd = Command::new(ARENA);
    cmd.arg("arena")
        .arg("--engine")
        .args(white)
        .arg("--engine")
        .args(black);
    cmd.args(["--games", "1", "--pgn", &sandbox.path("games.pgn")]);
    cmd.args(extra);
    cmd.output().unwrap()
}

fn uci(sandbox: &Sandbox, name: &str, mode: &str, moves: &str, tc: &str) -> Vec<String> {
    vec![
        format!("cmd={}", sandbox.path("uci.sh")),
        format!("name={name}"),
        // "-" stands for no scripted moves (args are split on spaces).
        format!(
            "args={mode} {} {}",
            if moves.is_empty() { "-" } else { moves },
            sandbox.marker
        ),
        tc.to_string(),
    ]
}

fn tag<'a>(pgn: &'a str, name: &str) -> &'a str {
    let start = format!("[{name} \"");
    let line = pgn
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no {name} tag in:\n{pgn}"));
    &line[start.len()..line.len() - 2]
}

/// No process started from the sandbox (the scripts or their `sleep`)
/// survives the match.
fn assert_no_leftovers(sandbox: &Sandbox) {
    let marker = format!("sleep {}", sandbox.marker);
    let dir = sandbox.dir.display().to_string();
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let mut alive = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let zombie = stat.split(") ").nth(1).is_some_and(|s| s.starts_with('Z'));
            if (cmdline.contains(&dir) || cmdline.contains(&marker)) && !cmdline.contains("cargo") {
                alive.push(format!("{cmdline} zombie={zombie}"));
            }
        }
        if alive.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "processes left behind: {alive:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Play one game, check its result, Termination tag and reason (in the PGN
/// and on stdout), and return its PGN; the PGN file is removed so the
/// sandbox can host the next game.
fn expect_game(
    s: &Sandbox,
    white: &[String],
    black: &[String],
    extra: &[&str],
    [result, termination, reason]: [&str; 3],
) -> String {
    let output = arena(s, white, black, extra);
    let pgn = s.pgn();
    check(&output, &pgn, result, termination, reason);
    std::fs::remove_file(s.dir.join("games.pgn")).unwrap();
    pgn
}

fn check(output: &Output, pgn: &str, result: &str, termination: &str, reason: &str) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "arena failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(tag(pgn, "Result"), result, "{pgn}");
    assert_eq!(tag(pgn, "Termination"), termination, "{pgn}");
    assert!(pgn.contains(reason), "expected '{reason}' in:\n{pgn}");
    assert!(stdout.contains(reason), "expected '{reason}' in:\n{stdout}");
}

#[test]
fn illegal_move_forfeits() {
    let s = Sandbox::new("illegal");
    expect_game(
        &s,
        &uci(&s, "bad", "illegal", "", "st=1"),
        &uci(&s, "good", "good", "e7e5", "st=1"),
        &[],
        [
            "0-1",
            "rules infraction",
            "White makes an illegal move: e2e5",
        ],
    );
    assert_no_leftovers(&s);
}

#[test]
fn false_mate_claim_forfeits_uci_and_xboard() {
    let s = Sandbox::new("claim");
    // UCI: Black says it has no legal move after 1. e4.
    expect_game(
        &s,
        &uci(&s, "good", "good", "e2e4", "st=1"),
        &uci(&s, "claimer", "nomove", "", "st=1"),
        &[],
        ["1-0", "rules infraction", "Black makes a false claim"],
    );
    // xboard: after 1. e4 e5 White claims mate.
    let received = s.path("usermoves.txt");
    let xboard = vec![
        format!("cmd={}", s.path("xboard.sh")),
        "name=xfake".to_string(),
        "proto=xboard".to_string(),
        format!("args=e2e4 {received}"),
        "tc=10+0.1".to_string(),
    ];
    expect_game(
        &s,
        &xboard,
        &uci(&s, "good", "good", "e7e5", "tc=10+0.1"),
        &[],
        [
            "0-1",
            "rules infraction",
            "White makes a false claim: 1-0 (White mates)",
        ],
    );
    // The adapter told the xboard engine Black's reply with `usermove`.
    assert_eq!(
        std::fs::read_to_string(&received).unwrap().trim(),
        "usermove e7e5"
    );
    assert_no_leftovers(&s);
}

#[test]
fn hang_on_the_clock_is_a_time_forfeit_and_without_clock_an_abandonment() {
    let s = Sandbox::new("hang");
    expect_game(
        &s,
        &uci(&s, "good", "good", "e2e4", "tc=1+0"),
        &uci(&s, "hanger", "hang", "", "tc=1+0"),
        &[],
        ["1-0", "time forfeit", "Black loses on time"],
    );
    assert_no_leftovers(&s);
    expect_game(
        &s,
        &uci(&s, "hanger", "hang", "", "nodes=1000"),
        &uci(&s, "good", "good", "e7e5", "nodes=1000"),
        &["--each", "timeout=1"],
        ["0-1", "abandoned", "White's engine hangs"],
    );
    assert_no_leftovers(&s);
}

#[test]
fn slow_move_loses_on_time_even_if_legal() {
    let s = Sandbox::new("slow");
    expect_game(
        &s,
        &uci(&s, "slow", "slow", "", "st=0.5"),
        &uci(&s, "good", "good", "e7e5", "st=0.5"),
        &[],
        ["0-1", "time forfeit", "White loses on time"],
    );
}

#[test]
fn crash_forfeits_and_leaves_no_zombie() {
    let s = Sandbox::new("crash");
    let pgn = expect_game(
        &s,
        &uci(&s, "good", "good", "d2d4,c2c4", "st=1"),
        &uci(&s, "crasher", "crash", "d7d5", "st=1"),
        &[],
        ["1-0", "abandoned", "Black's engine disconnects"],
    );
    assert!(pgn.contains("engine exited"), "{pgn}");
    assert_no_leftovers(&s);
}

#[test]
fn checkmate_and_repetition_are_judged_by_the_arena() {
    let s = Sandbox::new("rules");
    // Fool's mate: the engines say nothing about it; the arena sees mate.
    let pgn = expect_game(
        &s,
        &uci(&s, "white", "good", "f2f3,g2g4", "st=1"),
        &uci(&s, "black", "good", "e7e5,d8h4", "st=1"),
        &[],
        ["0-1", "normal", "Black mates"],
    );
    assert_eq!(tag(&pgn, "PlyCount"), "4");
    // Knights out and back twice: the start position occurs a third time.
    expect_game(
        &s,
        &uci(&s, "white", "good", "g1f3,f3g1,g1f3,f3g1", "st=1"),
        &uci(&s, "black", "good", "g8f6,f6g8,g8f6,f6g8", "st=1"),
        &[],
        ["1/2-1/2", "normal", "Draw by 3-fold repetition"],
    );
}

#[test]
fn ctrl_c_writes_what_is_finished_and_stops_the_engines() {
    let s = Sandbox::new("interrupt");
    // Each game ends in fool's mate after four slow-ish moves; many games.
    let child = Command::new(ARENA)
        .arg("arena")
        .arg("--engine")
        .args(uci(&s, "white", "good", "f2f3,g2g4", "st=1"))
        .arg("--engine")
        .args(uci(&s, "black", "good", "e7e5,d8h4", "st=1"))
        .args([
            "--games",
            "1",
            "--rounds",
            "1000",
            "--pgn",
            &s.path("games.pgn"),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a few finished games, then interrupt.
    let deadline = Instant::now() + Duration::from_secs(20);
    while s.pgn().matches("[Event").count() < 3 {
        assert!(Instant::now() < deadline, "no games finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Match interrupted"), "{stdout}");
    let games = s.pgn().matches("[Event").count();
    assert!(
        stdout.contains(&format!("Games: {games},")),
        "{games} games in PGN:\n{stdout}"
    );
    assert_no_leftovers(&s);
}

#[test]
fn bad_command_lines_fail_clearly() {
    let run = |args: &[&str]| {
        Command::new(ARENA)
            .arg("arena")
            .args(args)
            .output()
            .unwrap()
    };
    let cases: [&[&str]; 5] = [
        &["--engine", "cmd=/bin/true", "tc=1+0"],
        &["--engine", "cmd=a", "tc=x", "--engine", "cmd=b", "tc=1"],
        &["--engine", "cmd=a", "--engine", "cmd=b"],
        &["--engine", "cmd=a", "st=1", "--engine", "cmd=a", "st=1"],
        &[
            "--engine",
            "cmd=a",
            "st=1",
            "--engine",
            "cmd=b",
            "st=1",
            "--openings",
            "file=/nonexistent.epd",
        ],
    ];
    for args in cases {
        let out = run(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // A command that does not exist stops the match with a message.
    let out = run(&[
        "--engine",
        "cmd=/nonexistent/engine",
        "st=1",
        "--engine",
        "cmd=/bin/cat",
        "st=1",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("cannot start engine"));
}
