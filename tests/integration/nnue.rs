//! NNUE: incremental accumulators against full refreshes, SIMD paths against
//! the scalar path, net files round-tripping and bad files rejected, and a
//! hand-made net whose output is computed independently.

use std::sync::Arc;

use shakmaty::{Board, Color, Role};
use tarpon::eval::Evaluator;
use tarpon::eval::nnue::layers::{Affine, FeatureTransformer};
use tarpon::eval::nnue::random::random_network;
use tarpon::eval::nnue::{FeatureSet, Kernels, NetError, Network, NnueEvaluator, SimdPath};
use tarpon::position::Position;
use tarpon::rng::SplitMix64;

use crate::common::temp_dir;

/// Start positions rich in castling, en passant, promotions and king moves;
/// the last is Chess960.
const STARTS: [(&str, bool); 6] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("8/2P1P3/1k6/8/8/6K1/3p1p2/8 w - - 0 1", false),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        false,
    ),
    ("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1", false),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
];

/// What a random walk does at one step.
enum Step {
    Move,
    Null,
    Back,
}

/// Plays random games from every start position, with null moves and
/// take-backs mixed in, calling `check` at the positions chosen by the walk
/// (about every other ply, so lazy updates over several plies are covered).
pub(crate) fn random_walks(games: usize, seed: u64, mut follow: impl FnMut(WalkEvent<'_>)) {
    let mut rng = SplitMix64::new(seed);
    for game in 0..games {
        let (fen, chess960) = STARTS[game % STARTS.len()];
        let mut pos = Position::from_fen(fen, chess960).unwrap();
        follow(WalkEvent::Reset(&pos));
        let mut depth = 0usize;
        for _ in 0..120 {
            let moves = pos.legal_moves();
            let step = match rng.below(20) {
                _ if moves.is_empty() => Step::Back,
                0..=1 if !pos.is_check() => Step::Null,
                2..=3 if depth > 0 => Step::Back,
                _ => Step::Move,
            };
            match step {
                Step::Move => {
                    let m = moves[rng.below(moves.len())];
                    let changes = pos.make(m);
                    follow(WalkEvent::Push(&pos, &changes));
                    depth += 1;
                }
                Step::Null => {
                    assert!(pos.make_null());
                    follow(WalkEvent::PushNull);
                    depth += 1;
                }
                Step::Back => {
                    if depth == 0 {
                        break;
                    }
                    pos.unmake();
                    follow(WalkEvent::Pop);
                    depth -= 1;
                }
            }
            if rng.below(2) == 0 {
                follow(WalkEvent::Check(&pos));
            }
        }
        follow(WalkEvent::Check(&pos));
    }
}

pub(crate) enum WalkEvent<'a> {
    Reset(&'a Position),
    Push(&'a Position, &'a tarpon::position::PieceChanges),
    PushNull,
    Pop,
    Check(&'a Position),
}

pub(crate) fn drive(ev: &mut NnueEvaluator, event: &WalkEvent<'_>) {
    match event {
        WalkEvent::Reset(pos) => ev.reset(pos),
        WalkEvent::Push(pos, changes) => ev.push(pos, changes),
        WalkEvent::PushNull => ev.push_null(),
        WalkEvent::Pop => ev.pop(),
        WalkEvent::Check(_) => {}
    }
}

#[test]
fn incremental_accumulators_equal_full_refresh_for_both_feature_sets() {
    for (set, seed) in [(FeatureSet::HalfKP, 11), (FeatureSet::HalfKAv2Hm, 12)] {
        let net = Arc::new(random_network(set, 32, &[16, 16], 2, seed).unwrap());
        let checked = incremental_equals_refresh(&net, 1200, seed);
        assert!(checked > 50_000, "only {checked} positions checked");
    }
}

/// Follows random walks with an evaluator of `net` and checks at every
/// chosen position that both accumulators and the evaluation equal a
/// computation from scratch; returns how many positions were checked.
pub(crate) fn incremental_equals_refresh(net: &Arc<Network>, walks: usize, seed: u64) -> usize {
    let mut ev = NnueEvaluator::new(net.clone());
    let mut checked = 0;
    let set = net.features();
    random_walks(walks, seed, |event| {
        drive(&mut ev, &event);
        if let WalkEvent::Check(pos) = event {
            let board = pos.snapshot().board();
            let expected_white = net.full_accumulator(board, Color::White);
            let expected_black = net.full_accumulator(board, Color::Black);
            let (white, black) = ev.accumulators(pos);
            assert_eq!(
                white,
                &expected_white[..],
                "{set:?} white accumulator at {}",
                pos.fen()
            );
            assert_eq!(
                black,
                &expected_black[..],
                "{set:?} black accumulator at {}",
                pos.fen()
            );
            let expected =
                net.centipawns(net.raw_output_board(Kernels::scalar(), board, pos.turn()));
            assert_eq!(
                ev.evaluate(pos),
                expected,
                "{set:?} evaluation at {}",
                pos.fen()
            );
            checked += 1;
        }
    });
    checked
}

/// Evaluates along random walks with every SIMD path the CPU has and checks
/// they all give the same raw output; returns how many distinct outputs
/// were seen (random nets must vary, or the comparison proves little).
pub(crate) fn simd_paths_agree_along_random_walks(
    net: &Arc<Network>,
    walks: usize,
    seed: u64,
) -> usize {
    let paths: Vec<&'static Kernels> = SimdPath::ALL
        .into_iter()
        .filter_map(Kernels::for_path)
        .collect();
    println!(
        "paths under test: {:?}",
        paths.iter().map(|k| k.path).collect::<Vec<_>>()
    );
    let mut evaluators: Vec<NnueEvaluator> = paths
        .iter()
        .map(|&k| NnueEvaluator::with_kernels(net.clone(), k))
        .collect();
    let mut distinct = std::collections::HashSet::new();
    random_walks(walks, seed, |event| {
        let mut outputs = Vec::new();
        for ev in evaluators.iter_mut() {
            drive(ev, &event);
            if let WalkEvent::Check(pos) = &event {
                outputs.push(ev.raw_output(pos));
            }
        }
        if let Some(&first) = outputs.first() {
            assert!(
                outputs.iter().all(|&o| o == first),
                "paths disagree: {outputs:?}"
            );
            distinct.insert(first);
        }
    });
    distinct.len()
}

#[test]
fn every_simd_path_equals_scalar_on_random_nets_and_positions() {
    for (set, width, seed) in [
        (FeatureSet::HalfKAv2Hm, 256, 21),
        (FeatureSet::HalfKP, 128, 22),
    ] {
        let net = Arc::new(random_network(set, width, &[32, 32], 8, seed).unwrap());
        let distinct = simd_paths_agree_along_random_walks(&net, 60, seed);
        assert!(distinct > 100, "only {distinct} distinct outputs");
    }
}

/// Reads a Stockfish 12 file back; its description is the architecture
/// string, which replaces the net's own.
fn read_back_sf12(bytes: &[u8]) -> Network {
    let mut net = Network::from_bytes(bytes).unwrap();
    assert!(
        net.description
            .starts_with("Features=HalfKP(Friend)[41024->"),
        "{}",
        net.description
    );
    net.description = format!(
        "random net, seed {}",
        31 + [32, 256, 48]
            .iter()
            .position(|&n| n == net.half_dims())
            .unwrap()
    );
    net
}

#[test]
fn nets_round_trip_through_both_formats_and_files() {
    let halfkp = random_network(FeatureSet::HalfKP, 32, &[32, 32], 1, 31).unwrap();
    let sf12 = halfkp.to_bytes();
    assert_eq!(
        &sf12[..4],
        &0x7AF3_2F16u32.to_le_bytes(),
        "HalfKP nets are written in the Stockfish 12 layout"
    );
    assert_eq!(read_back_sf12(&sf12), halfkp);
    // Stockfish 12's standard shape with its published hashes, other sizes by
    // the same formulas.
    let standard = random_network(FeatureSet::HalfKP, 256, &[32, 32], 1, 32).unwrap();
    let bytes = standard.to_bytes();
    assert_eq!(&bytes[4..8], &0x3E5A_A6EEu32.to_le_bytes());
    assert_eq!(read_back_sf12(&bytes), standard);
    let odd = random_network(FeatureSet::HalfKP, 48, &[24, 7], 1, 33).unwrap();
    assert_eq!(read_back_sf12(&odd.to_bytes()), odd);

    let halfka = random_network(FeatureSet::HalfKAv2Hm, 64, &[16, 32], 4, 34).unwrap();
    let ours = halfka.to_bytes();
    assert_eq!(&ours[..8], b"TARPNNUE");
    assert_eq!(Network::from_bytes(&ours).unwrap(), halfka);
    // Our format holds HalfKP nets too.
    assert_eq!(
        Network::from_bytes(&halfkp.to_tarpon_bytes()).unwrap(),
        halfkp
    );

    let dir = temp_dir("nnue-roundtrip");
    let path = dir.join("roundtrip.nnue");
    halfka.save(&path).unwrap();
    assert_eq!(Network::load(&path).unwrap(), halfka);
}

/// Truncated anywhere (header, transformer, dense layers, checksum), a
/// net file is refused with a message.
pub(crate) fn every_cut_is_refused(bytes: &[u8], rng: &mut SplitMix64) {
    let mut cuts: Vec<usize> = (0..200).collect();
    cuts.extend((0..300).map(|_| rng.below(bytes.len())));
    cuts.extend(bytes.len() - 200..bytes.len());
    for cut in cuts {
        let err = Network::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(!err.to_string().is_empty());
    }
}

/// Where a Stockfish-layout file keeps its transformer hash: after the
/// version word, file hash, description length and description.
fn transformer_hash_at(bytes: &[u8]) -> usize {
    12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize
}

#[test]
fn bad_files_are_rejected_without_panic() {
    use tarpon::eval::nnue::format::TARPON_VERSION;
    let halfkp = random_network(FeatureSet::HalfKP, 16, &[8, 8], 1, 41)
        .unwrap()
        .to_bytes();
    let halfka = random_network(FeatureSet::HalfKAv2Hm, 16, &[8, 8], 2, 42)
        .unwrap()
        .to_bytes();
    let mut rng = SplitMix64::new(43);
    for bytes in [&halfkp, &halfka] {
        // Truncated anywhere: the header, the transformer, the dense layers, the checksum.
        every_cut_is_refused(bytes, &mut rng);
        // Trailing garbage.
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 5]);
        assert!(Network::from_bytes(&longer).is_err());
    }

    // Wrong versions.
    let mut v = halfkp.clone();
    v[0] ^= 1;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::UnknownFormat(_))
    ));
    let mut v = halfka.clone();
    v[8] = TARPON_VERSION as u8 + 1;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::UnsupportedVersion(_))
    ));

    // Wrong architectures: a transformer hash that is not HalfKP (as in newer
    // Stockfish nets), a network hash no stack matches, an unknown feature set.
    let ft_hash_at = transformer_hash_at(&halfkp);
    let mut v = halfkp.clone();
    v[ft_hash_at..ft_hash_at + 4].copy_from_slice(&0x7F23_4CB8u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Architecture(_))
    ));
    let mut v = halfkp.clone();
    v[4] ^= 0x40; // header hash no longer transformer ^ network
    assert!(Network::from_bytes(&v).is_err());
    let mut v = halfka.clone();
    v[12] = 9;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Architecture(_))
    ));

    // A flipped bit anywhere in our format is caught by the checksum (or the
    // header checks before it).
    for _ in 0..200 {
        let mut v = halfka.clone();
        let at = rng.below(v.len());
        v[at] ^= 1 << rng.below(8);
        assert!(
            Network::from_bytes(&v).is_err(),
            "bit flip at {at} accepted"
        );
    }
    let mut v = halfka.clone();
    let mid = v.len() / 2;
    v[mid] ^= 0x10;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Checksum { .. })
    ));

    // Random bytes, with and without a valid first word.
    for len in [0, 1, 3, 4, 7, 64, 4096, 100_000] {
        let mut v: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        assert!(Network::from_bytes(&v).is_err());
        if len >= 8 {
            v[..4].copy_from_slice(&0x7AF3_2F16u32.to_le_bytes());
            assert!(Network::from_bytes(&v).is_err());
            v[..8].copy_from_slice(b"TARPNNUE");
            assert!(Network::from_bytes(&v).is_err());
        }
    }

    // Missing and empty files.
    let dir = temp_dir("nnue-bad-files");
    assert!(matches!(
        Network::load(dir.join("does-not-exist")),
        Err(NetError::Io(_))
    ));
    let empty = dir.join("empty.nnue");
    std::fs::write(&empty, b"").unwrap();
    assert!(Network::load(&empty).is_err());
}

// ------------------------------------------------------------ hand-made net

/// Pawn weight in the hand-made net: ten plus the pawn's rank counted from
/// its owner's side (0..7).
fn pawn_weight(relative_rank: usize) -> i16 {
    10 + relative_rank as i16
}

const TEMPO: i32 = 5;

/// A 16-wide net in which neuron 0 of each perspective sums the weights of
/// its own pawns, neuron 1 those of the opponent's; the dense layers compute
/// `clamp(n0) - clamp(n1) + 5` in centipawns.
fn hand_made_net(set: FeatureSet) -> Network {
    let n = 16;
    let mut weights = vec![0i16; set.dimensions() * n];
    let kings: Vec<shakmaty::Square> = shakmaty::Square::ALL.to_vec();
    for perspective in Color::ALL {
        for &king in &kings {
            for owner in Color::ALL {
                for square in shakmaty::Square::ALL {
                    let rank = usize::from(square.rank());
                    if rank == 0 || rank == 7 {
                        continue;
                    }
                    let relative_rank = if owner == Color::White {
                        rank
                    } else {
                        7 - rank
                    };
                    let piece = Role::Pawn.of(owner);
                    let feature = set.index(perspective, king, piece, square).unwrap();
                    let neuron = if owner == perspective { 0 } else { 1 };
                    weights[feature * n + neuron] = pawn_weight(relative_rank);
                }
            }
        }
    }
    let transformer = FeatureTransformer::new(set, n, vec![0; n], weights);
    // 32 -> 2: difference and its negation, times 64 (one after the >> 6).
    let mut l1 = Affine::zeros(2 * n, 2);
    *l1.weight_mut(0, 0) = 64;
    *l1.weight_mut(0, 1) = -64;
    *l1.weight_mut(1, 0) = -64;
    *l1.weight_mut(1, 1) = 64;
    // 2 -> 2: identity.
    let mut l2 = Affine::zeros(2, 2);
    *l2.weight_mut(0, 0) = 64;
    *l2.weight_mut(1, 1) = 64;
    // 2 -> 1: (a0 - a1) * 16 + tempo * 16, and 16 is the output scale.
    let mut l3 = Affine::zeros(2, 1);
    *l3.weight_mut(0, 0) = 16;
    *l3.weight_mut(0, 1) = -16;
    l3.biases[0] = 16 * TEMPO;
    Network::new(
        transformer,
        vec![vec![l1, l2, l3]],
        16,
        "hand-made pawn counter".into(),
    )
    .unwrap()
}

/// The hand-made net's value computed with chess knowledge only.
fn hand_computed(board: &Board, to_move: Color) -> i32 {
    let sum = |owner: Color| -> i32 {
        let total: i32 = (board.by_piece(Role::Pawn.of(owner)))
            .into_iter()
            .map(|sq| {
                let rank = usize::from(sq.rank());
                i32::from(pawn_weight(if owner == Color::White {
                    rank
                } else {
                    7 - rank
                }))
            })
            .sum();
        total.clamp(0, 127)
    };
    (sum(to_move) - sum(!to_move)).clamp(-127, 127) + TEMPO
}

#[test]
fn a_hand_made_net_gives_the_values_computed_by_hand() {
    let cases = [
        // Symmetric: only the tempo.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
        ),
        // White: d5 (10 + 4) + a2, b2 (11 each) = 36 against nothing.
        ("4k3/8/8/3P4/8/8/PP6/4K3 w - - 0 1", 36 + 5),
        ("4k3/8/8/3P4/8/8/PP6/4K3 b - - 0 1", -36 + 5),
        // Black: e3 is black's sixth rank (10 + 5 = 15); white: h2 = 11.
        ("4k3/8/8/8/8/4p3/7P/4K3 w - - 0 1", 11 - 15 + 5),
    ];
    for set in FeatureSet::ALL {
        // Evaluate the net as read back from its file (Stockfish 12 layout
        // for HalfKP, ours for HalfKAv2_hm): the file must carry it unchanged.
        let made = hand_made_net(set);
        let net = Arc::new(Network::from_bytes(&made.to_bytes()).unwrap());
        assert_eq!(
            (&net.transformer, &net.stacks),
            (&made.transformer, &made.stacks)
        );
        for (fen, expected) in cases {
            let pos = Position::from_fen(fen, false).unwrap();
            let board = pos.snapshot().board().to_shakmaty();
            assert_eq!(hand_computed(&board, pos.turn()), expected, "{fen}");
            for kernels in SimdPath::ALL.into_iter().filter_map(Kernels::for_path) {
                let mut ev = NnueEvaluator::with_kernels(net.clone(), kernels);
                ev.reset(&pos);
                assert_eq!(
                    ev.evaluate(&pos),
                    expected,
                    "{set:?} {} {fen}",
                    kernels.path
                );
            }
        }
        // And along random games, where clamping kicks in with advanced pawns.
        let mut ev = NnueEvaluator::new(net.clone());
        random_walks(100, 51, |event| {
            drive(&mut ev, &event);
            if let WalkEvent::Check(pos) = event {
                assert_eq!(
                    ev.evaluate(pos),
                    hand_computed(&pos.snapshot().board().to_shakmaty(), pos.turn()),
                    "{}",
                    pos.fen()
                );
            }
        });
    }
}

#[test]
fn output_buckets_follow_the_piece_count() {
    let net = random_network(FeatureSet::HalfKAv2Hm, 16, &[8, 8], 8, 61).unwrap();
    // Stockfish's rule for 8 buckets: (pieces - 1) / 4.
    for pieces in 2..=32 {
        assert_eq!(net.bucket_for(pieces), (pieces - 1) / 4);
    }
    let single = random_network(FeatureSet::HalfKAv2Hm, 16, &[8, 8], 1, 62).unwrap();
    assert!((2..=32).all(|p| single.bucket_for(p) == 0));
}

/// A net whose transformer counts 4 units per activation unit (shift 2):
/// every weight ×4 and every bias ×4 plus 0..3 (which the floor shift
/// drops) must evaluate exactly like the original, on every SIMD path,
/// incrementally, and after a trip through the file format. A version 1
/// file (before the shift existed) still loads, as shift 0.
#[test]
fn a_shifted_transformer_evaluates_like_the_unshifted_one() {
    use tarpon::eval::nnue::format::{TARPON_VERSION, crc32};
    let plain = random_network(FeatureSet::HalfKAv2Hm, 64, &[16, 16], 2, 71).unwrap();
    let mut rng = SplitMix64::new(72);
    let t = &plain.transformer;
    let shifted_transformer = FeatureTransformer::new(
        t.features,
        t.half_dims,
        t.biases
            .iter()
            .map(|&b| 4 * b + rng.below(4) as i16)
            .collect(),
        t.weights.iter().map(|&w| 4 * w).collect(),
    )
    .with_shift(2);
    let shifted = Network::new(
        shifted_transformer,
        plain.stacks.clone(),
        plain.output_scale,
        "shifted".into(),
    )
    .unwrap();
    assert!(shifted.architecture().contains("accumulator x4"));
    let reread = Network::from_bytes(&shifted.to_bytes()).unwrap();
    assert_eq!(reread, shifted);
    let shifted = Arc::new(shifted);
    let mut ev = NnueEvaluator::new(shifted.clone());
    let mut checked = 0;
    random_walks(100, 73, |event| {
        drive(&mut ev, &event);
        if let WalkEvent::Check(pos) = event {
            let board = pos.snapshot().board();
            let expected = plain.raw_output_board(Kernels::scalar(), board, pos.turn());
            assert_eq!(ev.raw_output(pos), expected, "at {}", pos.fen());
            checked += 1;
        }
    });
    assert!(checked > 1000, "only {checked} positions checked");
    assert!(simd_paths_agree_along_random_walks(&shifted, 30, 74) > 100);
    let bad = Network::new(
        shifted.transformer.clone().with_shift(7),
        plain.stacks.clone(),
        16,
        String::new(),
    );
    assert!(matches!(bad, Err(NetError::Architecture(_))));

    // Version 1: the same header without the shift field. Plain nets of
    // the Stockfish feature sets are still written in version 2.
    let v2 = plain.to_bytes();
    assert_eq!(&v2[8..12], &2u32.to_le_bytes());
    const { assert!(TARPON_VERSION > 2) };
    let layers = plain.stacks[0].len();
    let shift_at = 28 + 4 * layers + 4;
    let mut v1 = [&v2[..shift_at], &v2[shift_at + 4..v2.len() - 4]].concat();
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    let crc = crc32(&v1);
    v1.extend_from_slice(&crc.to_le_bytes());
    let old = Network::from_bytes(&v1).unwrap();
    assert_eq!(old.transformer.shift, 0);
    assert_eq!(old, plain);
}

// ------------------------------------------------------- Stockfish 15.1 nets

use tarpon::eval::nnue::extract::find_embedded_net;
use tarpon::eval::nnue::network::Head;
use tarpon::eval::nnue::random::random_stockfish15_network;

#[test]
fn stockfish15_nets_are_incremental_and_equal_full_refresh() {
    let net = Arc::new(random_stockfish15_network(32, 71).unwrap());
    assert_eq!(net.head, Head::Stockfish15);
    let mut ev = NnueEvaluator::new(net.clone());
    let mut checked = 0;
    let mut distinct = std::collections::HashSet::new();
    random_walks(400, 71, |event| {
        drive(&mut ev, &event);
        if let WalkEvent::Check(pos) = event {
            let board = pos.snapshot().board();
            let (white, black) = ev.accumulators(pos);
            assert_eq!(white, &net.full_accumulator(board, Color::White)[..]);
            assert_eq!(black, &net.full_accumulator(board, Color::Black)[..]);
            let (white, black) = ev.psqt_sums(pos);
            assert_eq!(white, &net.full_psqt(board, Color::White)[..]);
            assert_eq!(black, &net.full_psqt(board, Color::Black)[..]);
            let raw = net.raw_output_board(Kernels::scalar(), board, pos.turn());
            assert_eq!(ev.raw_output(pos), raw, "{}", pos.fen());
            assert_eq!(ev.evaluate(pos), net.centipawns(raw), "{}", pos.fen());
            distinct.insert(raw);
            checked += 1;
        }
    });
    assert!(checked > 15_000, "only {checked} positions checked");
    assert!(
        distinct.len() > 1000,
        "only {} distinct outputs",
        distinct.len()
    );
}

#[test]
fn stockfish15_simd_paths_equal_scalar() {
    // 1024 is the released width; 48 leaves tails after every SIMD block.
    for (width, seed) in [(1024, 81), (48, 82)] {
        let net = Arc::new(random_stockfish15_network(width, seed).unwrap());
        let distinct = simd_paths_agree_along_random_walks(&net, 24, seed);
        assert!(distinct > 100, "only {distinct} distinct outputs");
    }
}

/// A Stockfish 15.1-layout net whose every step can be followed by hand.
#[test]
fn a_hand_made_stockfish15_net_gives_the_values_computed_by_hand() {
    let mut net = random_stockfish15_network(32, 91).unwrap();
    let n = 32;
    // Every transformer weight zero: both accumulators are the biases, 127
    // in the first half and 64 in the second: each product is 127 × 64 / 128 = 63.
    net.transformer.weights.fill(0);
    net.transformer.psqt_weights.fill(0);
    for (j, b) in net.transformer.biases.iter_mut().enumerate() {
        *b = if j < n / 2 { 127 } else { 64 };
    }
    for stack in net.stacks.iter_mut() {
        for layer in stack.iter_mut() {
            layer.weights.fill(0);
            layer.biases.fill(0);
        }
        let [fc_0, fc_1, fc_2] = &mut stack[..] else {
            unreachable!()
        };
        // fc_0 output 0 = 63 + 7937 = 8000: squared 8000² >> 19 = 122,
        // clipped 8000 >> 6 = 125. Output 15 (forwarded) = 1000.
        *fc_0.weight_mut(0, 0) = 1;
        fc_0.biases[0] = 7937;
        fc_0.biases[15] = 1000;
        // fc_1 output 0 = 122 + 125 = 247, clipped 247 >> 6 = 3.
        *fc_1.weight_mut(0, 0) = 1;
        *fc_1.weight_mut(0, 15) = 1;
        // fc_2 = 10 × 3 + 7 = 37.
        *fc_2.weight_mut(0, 0) = 10;
        fc_2.biases[0] = 7;
    }
    // Forwarded: 1000 × 600 × 16 / (127 × 64) = 1181; positional 37 + 1181.
    let positional = 1218;
    let net = Arc::new(Network::from_bytes(&net.to_bytes()).unwrap());
    let pos = Position::from_fen("4k3/8/8/3P4/8/8/PP6/4K3 w - - 0 1", false).unwrap();
    for kernels in SimdPath::ALL.into_iter().filter_map(Kernels::for_path) {
        let mut ev = NnueEvaluator::with_kernels(net.clone(), kernels);
        ev.reset(&pos);
        assert_eq!(ev.raw_output(&pos), positional, "{}", kernels.path);
        // 1218 / 16 = 76 internal units, 76 × 100 / 361 = 21 cp.
        assert_eq!(ev.evaluate(&pos), 21, "{}", kernels.path);
    }

    // The PSQT part: one bucket's weight on the white pawn features from
    // white's point of view: (3 × 40 − 0) / 2 = 60 joins the output.
    let mut with_psqt = (*net).clone();
    let bucket = with_psqt.bucket_for(5);
    for square in shakmaty::Square::ALL {
        for king in shakmaty::Square::ALL {
            let pawn = Role::Pawn.of(Color::White);
            let f = FeatureSet::HalfKAv2Hm
                .index(Color::White, king, pawn, square)
                .unwrap();
            with_psqt.transformer.psqt_weights[f * 8 + bucket] = 40;
        }
    }
    let board = pos.snapshot().board();
    assert_eq!(
        with_psqt.raw_output_board(Kernels::scalar(), board, Color::White),
        positional + 60
    );
    // Black to move sees the PSQT difference the other way round: the white
    // pawns are "their" pawns from black's view, a different plane with weight 0.
    assert_eq!(with_psqt.full_psqt(board, Color::White)[bucket], 120);
    assert_eq!(with_psqt.full_psqt(board, Color::Black)[bucket], 0);
    let raw = with_psqt.raw_output_board(Kernels::scalar(), board, Color::Black);
    assert_eq!(raw, positional - 60);
}

#[test]
fn stockfish15_files_round_trip_and_bad_ones_are_rejected() {
    let net = random_stockfish15_network(32, 101).unwrap();
    let bytes = net.to_bytes();
    assert_eq!(&bytes[..4], &0x7AF3_2F20u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

    // The released width gives the released hashes (nn-ad9b42354671.nnue
    // carries 1c102ef2 in its header and 7f2344b8 as transformer hash).
    let wide = random_stockfish15_network(1024, 102).unwrap().to_bytes();
    assert_eq!(&wide[4..8], &0x1C10_2EF2u32.to_le_bytes());
    let at = transformer_hash_at(&wide);
    assert_eq!(&wide[at..at + 4], &0x7F23_44B8u32.to_le_bytes());

    let mut rng = SplitMix64::new(103);
    every_cut_is_refused(&bytes, &mut rng);
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 16 * 32]);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::Architecture(_))
    ));

    let ft_hash_at = transformer_hash_at(&bytes);
    // Another width in the transformer hash: the header hash no longer fits.
    let mut v = bytes.clone();
    v[ft_hash_at + 1] ^= 0x01;
    assert!(Network::from_bytes(&v).is_err());
    // A HalfKP transformer hash under the new version word.
    let mut v = bytes.clone();
    v[ft_hash_at..ft_hash_at + 4].copy_from_slice(&(0x5D69_D5B8u32 ^ 64).to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Architecture(_))
    ));
    // Another stack architecture: header hash changed.
    let mut v = bytes.clone();
    v[4] ^= 0x40;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Architecture(_))
    ));
    // A layer stack's own hash damaged.
    let stack_bytes = 4 + (4 * 16 + 16 * 32) + (4 * 32 + 32 * 32) + (4 + 32);
    let mut v = bytes.clone();
    v[bytes.len() - 3 * stack_bytes] ^= 1;
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::Malformed(_))
    ));
    // Stockfish 16's compressed layout.
    let mut v = bytes[..ft_hash_at + 4].to_vec();
    v.extend_from_slice(b"COMPRESSED_LEB128");
    v.extend_from_slice(&[0; 64]);
    assert!(matches!(
        Network::from_bytes(&v),
        Err(NetError::UnsupportedVersion(_))
    ));
    // Random bytes after the version word.
    for len in [4, 8, 64, 100_000] {
        let mut v: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        v[..4].copy_from_slice(&0x7AF3_2F20u32.to_le_bytes());
        assert!(Network::from_bytes(&v).is_err());
    }
}

#[test]
fn an_embedded_stockfish15_net_is_found_in_a_larger_file() {
    let net = random_stockfish15_network(32, 111).unwrap();
    let bytes = net.to_bytes();
    // A fake binary: junk, a decoy version word with a broken header, the
    // net, more junk.
    let mut binary: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
    binary.extend_from_slice(&0x7AF3_2F20u32.to_le_bytes());
    binary.extend_from_slice(&[0xFF; 40]);
    let offset = binary.len();
    binary.extend_from_slice(&bytes);
    binary.extend((0..3000u32).map(|i| (i * 13 % 241) as u8));
    let (at, found, parsed) = find_embedded_net(&binary).unwrap();
    assert_eq!(at, offset);
    assert_eq!(found, &bytes[..]);
    assert_eq!(parsed, net);
    // A net cut short is no net.
    assert!(find_embedded_net(&binary[..offset + bytes.len() - 1]).is_none());
    assert!(find_embedded_net(&[]).is_none());
}
