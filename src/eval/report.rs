//! The static evaluation of a position as text, which `tarpon eval` and the
//! UCI `eval` command print: every evaluator side by side, and what the
//! search makes of them (material scale, endgame knowledge).

use super::Evaluator;
use super::as_search_sees;
use super::nnue::network::{Head, SCRELU_RAW_PER_UNIT, STOCKFISH15_UNITS_PER_PAWN};
use super::nnue::{Kernels, Network, SCALED_BY_MATERIAL, simd_path_name};
use super::pst::PstEvaluator;
use crate::position::Position;

/// The static evaluation of `pos` as text: the NNUE with its feature set and
/// architecture (or a note that no net is loaded), the PST, and what the
/// search makes of them where that differs. Scores are
/// centipawns from the side to move's point of view.
pub fn eval_report(pos: &Position, net: Option<&Network>) -> String {
    let mut out = format!("position    {}\n", pos.fen());
    let mut evals = Vec::new();
    match net {
        Some(net) => {
            let board = pos.snapshot().board();
            let raw = net.raw_output_board(Kernels::detected(), board, pos.turn());
            evals.push(("NNUE", net.centipawns(raw), SCALED_BY_MATERIAL));
            let conversion = match net.head {
                Head::Screlu => format!("× {} / {SCRELU_RAW_PER_UNIT}", net.output_scale),
                Head::Plain | Head::Stockfish15 => format!("/ {}", net.output_scale),
            };
            out.push_str(&format!(
                "NNUE        {:+} cp (side to move; raw output {raw} {conversion})\n",
                net.centipawns(raw),
            ));
            if net.head == Head::Stockfish15 {
                let value = raw / net.output_scale;
                let white = if pos.turn() == shakmaty::Color::White {
                    value
                } else {
                    -value
                };
                out.push_str(&format!(
                    "stockfish   {} (NNUE evaluation in pawns, white side, as Stockfish 15.1's eval prints it; internal value {value})\n",
                    stockfish15_eval_pawns(white)
                ));
            }
            out.push_str(&format!("features    {}\n", net.features().name()));
            out.push_str(&format!("net         {}\n", net.architecture()));
            if !net.description.is_empty() {
                out.push_str(&format!("description {}\n", net.description));
            }
        }
        None => out.push_str("NNUE        no net loaded (give one with --net or EvalFile)\n"),
    }
    let mut pst = PstEvaluator::new();
    pst.reset(pos);
    let pst_eval = pst.evaluate(pos);
    evals.push(("PST", pst_eval, pst.scaled_by_material()));
    out.push_str(&format!("PST         {pst_eval:+} cp (side to move)\n"));
    // What the search makes of these, where the material scale or endgame
    // knowledge changes them.
    let adjusted: Vec<String> = evals
        .iter()
        .map(|&(name, cp, scaled)| (name, cp, as_search_sees(pos.snapshot(), cp, scaled)))
        .filter(|&(_, cp, adjusted)| adjusted != cp)
        .map(|(name, _, adjusted)| format!("{name} {adjusted:+} cp"))
        .collect();
    if !adjusted.is_empty() {
        out.push_str(&format!(
            "search      {} (side to move, as the search sees it: a net's scaled by material, endgame knowledge, fifty-move fade)\n",
            adjusted.join(", ")
        ));
    }
    out.push_str(&format!("simd        {}\n", simd_path_name()));
    out
}

/// A Stockfish internal value as its 15.1 `eval` command prints it: pawns
/// of `NormalizeToPawnValue` units, two decimals, with a sign.
pub fn stockfish15_eval_pawns(white_value: i32) -> String {
    format!(
        "{:+.2}",
        f64::from(white_value) / f64::from(STOCKFISH15_UNITS_PER_PAWN)
    )
}
