use super::*;

const SCHOLAR: &str = "[Event \"test\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

fn depth(d: u32) -> Engine {
    Engine {
        eval: EvalChoice::Pst,
        limits: Limits {
            depth: Some(d),
            ..Limits::default()
        },
    }
}

#[test]
fn labels_follow_the_thresholds() {
    assert_eq!(Label::from_loss(0.5, true), Label::Best);
    assert_eq!(Label::from_loss(0.01, false), Label::Good);
    assert_eq!(Label::from_loss(0.05, false), Label::Inaccuracy);
    assert_eq!(Label::from_loss(0.12, false), Label::Mistake);
    assert_eq!(Label::from_loss(0.3, false), Label::Blunder);
    assert_eq!(Label::Blunder.nag(), Some(4));
    assert_eq!(win_probability(Score::Mate(2)), 1.0);
    assert_eq!(win_probability(Score::Mate(-1)), 0.0);
    assert!((win_probability(Score::Cp(0)) - 0.5).abs() < 1e-12);
}

#[test]
fn the_move_that_allows_mate_is_a_blunder_and_the_mate_is_best() {
    let game = &pgn::read_games(SCHOLAR).unwrap()[0];
    let mut heat = [0; 64];
    let reports = annotate(game, &depth(5), &mut heat).unwrap();
    assert_eq!(reports.len(), 7);
    let nf6 = &reports[5];
    assert_eq!((nf6.san.as_str(), nf6.label), ("Nf6", Label::Blunder));
    assert_eq!(nf6.after, Score::Mate(-1));
    let mate = &reports[6];
    assert_eq!(
        (mate.san.as_str(), mate.label, mate.after),
        ("Qxf7#", Label::Best, Score::Mate(1))
    );
    assert!(heat.iter().any(|&h| h > 0));
    let text = pgn::write(game, &notes(&reports), "tarpon");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("3... Nf6 $4 { [%eval #1] blunder:"), "{text}");
    assert_eq!(pgn::read_games(&text).unwrap()[0].moves, game.moves);
}

/// The annotated PGN read by python-chess (`cargo test -- --ignored python_chess`).
#[test]
#[ignore]
fn python_chess_parses_the_annotated_pgn() {
    let game = &pgn::read_games(SCHOLAR).unwrap()[0];
    let reports = annotate(game, &depth(4), &mut [0; 64]).unwrap();
    let dir = crate::test_scratch::ScratchDir::new("annotated-pgn");
    let path = dir.join("annotated.pgn");
    std::fs::write(&path, pgn::write(game, &notes(&reports), "tarpon")).unwrap();
    let script = "import chess.pgn,sys\ng=chess.pgn.read_game(open(sys.argv[1]))\n\
        assert not g.errors, g.errors\nmoves=list(g.mainline())\n\
        print(len(moves), moves[5].nags, moves[5].eval())";
    let out = std::process::Command::new("python3")
        .args(["-c", script, path.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("7 {4} "), "{stdout}");
    assert!(stdout.contains("Mate(+1), WHITE"), "{stdout}");
}

/// The page speaks centipawns everywhere (its graph, its table); only the
/// PGN's `[%eval]` keeps pawns, as its format says.
#[test]
fn the_page_gives_evaluations_in_centipawns_and_the_pgn_in_pawns() {
    assert_eq!(page_eval(Score::Cp(86)), "+86 cp");
    assert_eq!(page_eval(Score::Cp(-5)), "-5 cp");
    assert_eq!(page_eval(Score::Mate(-2)), "#-2");
    assert_eq!(eval_tag(Score::Cp(86)), "0.86");
    let game = &pgn::read_games(SCHOLAR).unwrap()[0];
    let reports = annotate(game, &depth(3), &mut [0; 64]).unwrap();
    let json = game_json(game, &reports).to_string();
    assert!(json.contains(" cp\""), "{json}");
    assert!(!json.contains("\"eval\":\"0."), "{json}");
}
