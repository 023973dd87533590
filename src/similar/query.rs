//! `tarpon similar query`: the indexed positions nearest to a position, who
//! played them and what they played there, and a table of the moves the
//! neighbours chose with how they scored. Text or JSON.
//!
//! Moves of a neighbour with the other side to move are flipped into the
//! query's frame before they are counted: a master's ...Nf6 as Black is
//! Nf3 for a query with White to move.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use shakmaty::{CastlingMode, Chess, fen::Fen};

use super::features::{Snapshot, flip_move, move_san, move_uci};
use super::games::position_in_game;
use super::index::Index;
use super::lsi::weigh;
use super::search::{Hit, nearest};

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The index written by `tarpon similar index`.
    #[arg(long)]
    pub index: PathBuf,
    /// The position to look up.
    #[arg(long, conflicts_with = "pgn", required_unless_present = "pgn")]
    pub fen: Option<String>,
    /// Take the position from the first game of this PGN file (with --ply).
    #[arg(long, requires = "ply")]
    pub pgn: Option<PathBuf>,
    /// With --pgn: the position after this many plies (0: the start).
    #[arg(long)]
    pub ply: Option<usize>,
    /// How many neighbours to list.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub top: u32,
    /// How many neighbours the move table counts (at least --top).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub pool: u32,
    /// List several positions of one game (by default each game once, at
    /// its most similar position).
    #[arg(long)]
    pub all_plies: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One listed neighbour, ready to print.
struct Row {
    similarity: f32,
    white: String,
    black: String,
    event: String,
    year: Option<u16>,
    result: &'static str,
    eco: String,
    ply: u16,
    fen: String,
    /// SAN in the neighbour's own position (UCI if it cannot be rebuilt).
    played: String,
}

/// One line of the "what did the masters play" table.
struct MoveLine {
    /// SAN in the query position.
    text: String,
    uci: String,
    count: usize,
    /// Mean score for the side to move over neighbours with a known result.
    score: Option<f32>,
}

struct Report {
    fen: String,
    black_to_move: bool,
    positions: usize,
    games: usize,
    k: usize,
    pool: usize,
    rows: Vec<Row>,
    moves: Vec<MoveLine>,
    /// Neighbours whose move is not legal in the query position.
    other: usize,
    /// At most one position per game.
    per_game: bool,
    open_ms: f64,
    search_ms: f64,
}

fn query_position(args: &QueryArgs) -> Result<Chess, String> {
    match (&args.fen, &args.pgn) {
        (Some(text), _) => {
            let fen: Fen = text.parse().map_err(|e| format!("bad FEN '{text}': {e}"))?;
            fen.into_position(CastlingMode::Standard)
                .map_err(|e| format!("illegal position '{text}': {e}"))
        }
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            position_in_game(&text, args.ply.unwrap_or(0))
                .map_err(|e| format!("{}: {e}", path.display()))
        }
        (None, None) => Err("give --fen or --pgn with --ply".into()),
    }
}

fn report(args: &QueryArgs) -> Result<Report, String> {
    let chess = query_position(args)?;
    let start = Instant::now();
    let index = Index::open(&args.index)?;
    let open_ms = start.elapsed().as_secs_f64() * 1e3;

    let start = Instant::now();
    let snapshot = Snapshot::of(&chess);
    let q = index
        .basis()
        .project(&weigh(&snapshot.features(), &index.idf()));
    let pool = args.pool.max(args.top) as usize;
    let per_game = |i: usize| (!args.all_plies).then(|| index.game_of(i));
    let hits = nearest(index.vector_bytes(), &q, pool, |_| false, per_game);
    let search_ms = start.elapsed().as_secs_f64() * 1e3;

    let moves = move_table(&index, &hits, &chess, snapshot.black_to_move);
    let rows = hits
        .iter()
        .take(args.top as usize)
        .map(|h| row(&index, h))
        .collect();
    Ok(Report {
        fen: Fen::from_position(&chess, shakmaty::EnPassantMode::Legal).to_string(),
        black_to_move: snapshot.black_to_move,
        positions: index.positions,
        games: index.games,
        k: index.k,
        pool: hits.len(),
        rows,
        per_game: !args.all_plies,
        other: hits.len() - moves.iter().map(|m| m.count).sum::<usize>(),
        moves,
        open_ms,
        search_ms,
    })
}

fn row(index: &Index, hit: &Hit) -> Row {
    let e = index.entry(hit.index);
    let g = index.game(e.game);
    let played = e
        .snapshot
        .to_chess()
        .and_then(|c| move_san(&c, e.played))
        .unwrap_or_else(|| move_uci(e.played));
    Row {
        similarity: hit.similarity,
        year: g.year(),
        result: g.result.text(),
        white: g.white,
        black: g.black,
        event: g.event,
        eco: g.eco,
        ply: e.ply,
        fen: e.snapshot.fen(),
        played,
    }
}

fn move_table(index: &Index, hits: &[Hit], chess: &Chess, black_to_move: bool) -> Vec<MoveLine> {
    // (move in the query's frame, count, score sum, scored count), first seen first.
    let mut tally: Vec<(u16, usize, f32, usize)> = Vec::new();
    for h in hits {
        let e = index.entry(h.index);
        let code = if e.snapshot.black_to_move == black_to_move {
            e.played
        } else {
            flip_move(e.played)
        };
        let score = index
            .game(e.game)
            .result
            .score_for(e.snapshot.black_to_move);
        let at = match tally.iter().position(|t| t.0 == code) {
            Some(at) => at,
            None => {
                tally.push((code, 0, 0.0, 0));
                tally.len() - 1
            }
        };
        let t = &mut tally[at];
        t.1 += 1;
        if let Some(s) = score {
            t.2 += s;
            t.3 += 1;
        }
    }
    // Most played first; the sort is stable, so ties keep the nearest first.
    tally.sort_by_key(|t| std::cmp::Reverse(t.1));
    // A neighbour's move that is not legal here (a piece elsewhere) is no
    // advice for this position: it is left out of the table and counted.
    tally
        .into_iter()
        .filter_map(|(code, count, sum, scored)| {
            Some(MoveLine {
                text: move_san(chess, code)?,
                uci: move_uci(code),
                count,
                score: (scored > 0).then(|| sum / scored as f32),
            })
        })
        .collect()
}

fn game_name(r: &Row) -> String {
    let mut s = format!("{} - {}", r.white, r.black);
    if !r.event.is_empty() && r.event != "?" {
        s += &format!(", {}", r.event);
    }
    s
}

fn text(r: &Report) -> String {
    let mut out = String::new();
    let side = if r.black_to_move { "Black" } else { "White" };
    let _ = writeln!(out, "Position: {} ({side} to move)", r.fen);
    let _ = writeln!(
        out,
        "Index: {} positions from {} games, LSI with {} dimensions\n",
        r.positions, r.games, r.k
    );
    let each = if r.per_game { " (one per game)" } else { "" };
    let _ = writeln!(out, "Nearest {} positions{each}:", r.rows.len());
    let _ = writeln!(
        out,
        "{:>3}  {:>6}  {:>4}  {:<7}  {:<3}  {:>4}  {:<8}  game",
        "#", "sim", "year", "result", "eco", "ply", "played"
    );
    for (i, row) in r.rows.iter().enumerate() {
        let year = row.year.map_or("?".to_string(), |y| y.to_string());
        let eco = if row.eco.is_empty() { "?" } else { &row.eco };
        let _ = writeln!(
            out,
            "{:>3}  {:>6.3}  {:>4}  {:<7}  {:<3}  {:>4}  {:<8}  {}",
            i + 1,
            row.similarity,
            year,
            row.result,
            eco,
            row.ply,
            row.played,
            game_name(row)
        );
    }
    let _ = writeln!(
        out,
        "\nWhat the masters played in the {} nearest positions{} (score: for the side to move):",
        r.pool,
        if r.per_game { ", one per game" } else { "" }
    );
    let _ = writeln!(out, "  {:<8}  {:>6}  {:>6}", "move", "played", "score");
    for m in &r.moves {
        let score = m
            .score
            .map_or("-".to_string(), |s| format!("{:.0}%", s * 100.0));
        let _ = writeln!(out, "  {:<8}  {:>6}  {:>6}", m.text, m.count, score);
    }
    if r.other > 0 {
        let _ = writeln!(out, "  ({} played a move not legal here)", r.other);
    }
    let _ = writeln!(
        out,
        "\nSearched {} positions in {:.1} ms (index opened and checked in {:.1} ms)",
        r.positions, r.search_ms, r.open_ms
    );
    out
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json(r: &Report) -> String {
    let rows: Vec<String> = r
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            format!(
                "{{\"rank\":{},\"similarity\":{:.6},\"white\":{},\"black\":{},\"event\":{},\"year\":{},\
                 \"result\":{},\"eco\":{},\"ply\":{},\"fen\":{},\"played\":{}}}",
                i + 1,
                row.similarity,
                json_string(&row.white),
                json_string(&row.black),
                json_string(&row.event),
                row.year.map_or("null".to_string(), |y| y.to_string()),
                json_string(row.result),
                json_string(&row.eco),
                row.ply,
                json_string(&row.fen),
                json_string(&row.played),
            )
        })
        .collect();
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|m| {
            format!(
                "{{\"move\":{},\"uci\":{},\"count\":{},\"score\":{}}}",
                json_string(&m.text),
                json_string(&m.uci),
                m.count,
                m.score.map_or("null".to_string(), |s| format!("{s:.4}"))
            )
        })
        .collect();
    format!(
        "{{\"fen\":{},\"side_to_move\":\"{}\",\"positions\":{},\"games\":{},\"dims\":{},\
         \"neighbours\":[{}],\"pool\":{},\"moves\":[{}],\"other_moves\":{},\"open_ms\":{:.3},\"search_ms\":{:.3}}}\n",
        json_string(&r.fen),
        if r.black_to_move { "black" } else { "white" },
        r.positions,
        r.games,
        r.k,
        rows.join(","),
        r.pool,
        moves.join(","),
        r.other,
        r.open_ms,
        r.search_ms
    )
}

pub fn run(args: &QueryArgs) -> Result<String, String> {
    let r = report(args)?;
    Ok(if args.json { json(&r) } else { text(&r) })
}

#[cfg(test)]
mod tests {
    use super::json_string;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(json_string("Réti"), "\"Réti\"");
    }
}
