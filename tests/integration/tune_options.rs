//! Search parameters as UCI options: a `--features tune` build offers them,
//! takes values in range (and searches differently with them) and refuses
//! others with an `info string`; a normal build has no such options.

use crate::common::uci_engine::Engine;

/// The node count of a fresh `go depth 7` from the start position.
fn nodes_at_depth_7(engine: &mut Engine) -> String {
    engine.send("ucinewgame");
    engine.send("position startpos");
    engine.send("go depth 7");
    let (lines, _) = engine.bestmove();
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 7 "))
        .expect("an info line at depth 7");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").expect("nodes");
    words[at + 1].to_string()
}

#[test]
fn search_parameters_are_options_only_in_a_tune_build() {
    let mut engine = Engine::start();
    engine.send("uci");
    let declared = engine.until_line("uciok");
    let offered = declared
        .iter()
        .any(|l| l == "option name lmr_divisor type spin default 250 min 150 max 400");
    assert_eq!(offered, cfg!(feature = "tune"), "{declared:?}");

    let before = nodes_at_depth_7(&mut engine);
    engine.send("setoption name lmr_divisor value 100000");
    if cfg!(feature = "tune") {
        let refused = engine.ready();
        assert_eq!(
            refused,
            ["info string error: setoption: lmr_divisor must be between 150 and 400, got 100000"]
        );
        assert_eq!(
            nodes_at_depth_7(&mut engine),
            before,
            "a refused value changes nothing"
        );
        engine.send("setoption name lmr_divisor value 150");
        assert_eq!(engine.ready(), Vec::<String>::new());
        assert_ne!(nodes_at_depth_7(&mut engine), before, "reduces more");
        engine.finish();
    } else {
        // A tune of a build without the feature would measure nothing: the
        // engine says so and exits with an error instead of playing on.
        let said = engine.until(|l| l.starts_with("info string error"));
        assert!(
            said[said.len() - 1]
                .starts_with("info string error: setoption: lmr_divisor is a search parameter"),
            "{said:?}"
        );
        let exit = engine.exit_status();
        assert_eq!(exit.code(), Some(1), "{exit:?}");
    }
}

/// Options that are not search parameters stay a plain `info string`.
#[test]
fn an_unknown_option_is_only_an_info_string() {
    let mut engine = Engine::start();
    engine.send("setoption name No Such Thing value 3");
    assert_eq!(
        engine.ready(),
        ["info string error: setoption: no such option 'No Such Thing'"]
    );
    engine.finish();
}
