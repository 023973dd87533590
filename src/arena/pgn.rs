//! Writing finished games as PGN: the seven-tag roster plus TimeControl,
//! Termination, FEN/SetUp, Variant and PlyCount, and per-move comments.

use std::time::{SystemTime, UNIX_EPOCH};

use super::game::GameRecord;

/// Civil date (year, month, day) of a UNIX day number (days since
/// 1970-01-01), by Howard Hinnant's `civil_from_days` algorithm.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY.MM.DD` in UTC, as the PGN `Date` tag wants it.
pub fn pgn_date(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    format!("{y:04}.{m:02}.{d:02}")
}

/// Escape a tag value (backslash and quote).
fn tag_value(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments must not contain `}`.
fn comment_text(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

/// Headers that do not change from game to game.
pub struct EventInfo {
    pub event: String,
    pub site: String,
}

/// The game as PGN text, ending with a blank line.
pub fn format_game(record: &GameRecord, info: &EventInfo, round: u64) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    };
    tag("Event", &info.event);
    tag("Site", &info.site);
    tag("Date", &pgn_date(record.started));
    tag("Round", &round.to_string());
    tag("White", &record.white);
    tag("Black", &record.black);
    tag("Result", record.end.result.pgn());
    if record.time_controls[0] == record.time_controls[1] {
        tag("TimeControl", &record.time_controls[0]);
    } else {
        tag("WhiteTimeControl", &record.time_controls[0]);
        tag("BlackTimeControl", &record.time_controls[1]);
    }
    tag("Termination", record.end.termination.pgn());
    if record.chess960 {
        tag("Variant", "Chess960");
    }
    if !record.start_is_standard {
        tag("SetUp", "1");
        tag("FEN", &record.start_fen);
    }
    tag("PlyCount", &record.moves.len().to_string());
    out.push('\n');

    // Movetext: numbers, SAN, comments, the final reason and the result,
    // wrapped at 80 columns.
    let mut tokens: Vec<String> = Vec::new();
    let mut fields = record.start_fen.split_whitespace().skip(1);
    let mut white_to_move = fields.next() != Some("b");
    let mut number: u32 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    for (ply, m) in record.moves.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        if !m.comment.is_empty() {
            tokens.push(format!("{{{}}}", comment_text(&m.comment)));
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", comment_text(&record.end.reason)));
    tokens.push(record.end.result.pgn().to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11017; 2026-11-23 is day 20780.
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_780), (2026, 11, 23));
    }
}
