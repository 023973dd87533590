//! The Chess768 feature set and the SCReLU head: incremental accumulators
//! against full refreshes (king moves inside a bucket stay incremental),
//! SIMD paths against the scalar path, a hand-made net computed by hand,
//! and files round-tripping while damaged ones are refused.

use std::sync::Arc;

use tarpon::eval::Evaluator;
use tarpon::eval::nnue::features::KingBuckets;
use tarpon::eval::nnue::format::crc32;
use tarpon::eval::nnue::layers::{FeatureTransformer, ScreluOutput};
use tarpon::eval::nnue::network::{Head, SCRELU_OUTPUT_SCALE};
use tarpon::eval::nnue::random::random_screlu_network;
use tarpon::eval::nnue::{FeatureSet, Kernels, NetError, Network, NnueEvaluator};
use tarpon::position::Position;
use tarpon::rng::SplitMix64;

use super::common::temp_dir;
use super::nnue::{
    every_cut_is_refused, incremental_equals_refresh, simd_paths_agree_along_random_walks,
};

#[test]
fn chess768_accumulators_are_incremental_and_equal_full_refresh() {
    for (buckets, seed) in [(KingBuckets::SINGLE, 81), (KingBuckets::RANKS4, 82)] {
        let set = FeatureSet::Chess768(buckets);
        let net = Arc::new(random_screlu_network(set, 32, 8, seed).unwrap());
        let checked = incremental_equals_refresh(&net, 600, seed);
        assert!(checked > 20_000, "only {checked} positions checked");
    }
}

#[test]
fn screlu_simd_paths_equal_scalar_on_random_nets_and_positions() {
    for (buckets, width, seed) in [
        (KingBuckets::RANKS4, 256, 91),
        (KingBuckets::SINGLE, 64, 92),
    ] {
        let net = random_screlu_network(FeatureSet::Chess768(buckets), width, 8, seed).unwrap();
        let distinct = simd_paths_agree_along_random_walks(&Arc::new(net), 40, seed);
        assert!(distinct > 100, "only {distinct} distinct outputs");
    }
}

/// N = 16, one king bucket, one output bucket: neuron 0 counts the own
/// pawns (20 each), neuron 1 the own king on g1 after mirroring (a king on
/// b1 mirrors there), everything else zero.
#[test]
fn a_hand_made_screlu_net_gives_the_values_computed_by_hand() {
    let set = FeatureSet::Chess768(KingBuckets::SINGLE);
    let n = 16;
    let mut weights = vec![0i16; set.dimensions() * n];
    for sq in 0..64 {
        weights[sq * n] = 20; // own pawns: plane 0
    }
    // Own king (role 5, plane 10) on g1 (6) after orientation.
    weights[(10 * 64 + 6) * n + 1] = 300;
    let transformer = FeatureTransformer::new(set, n, vec![0; n], weights);
    let mut out = vec![0i16; 2 * n];
    out[0] = 64; // side to move's neuron 0, weight 1.0
    out[1] = -32; // side to move's neuron 1 (clipped at 255), weight -0.5
    out[n] = -127; // the other side's neuron 0
    let output = ScreluOutput {
        weights: out,
        biases: vec![1000],
    };
    let net = Network::new_screlu(transformer, output, SCRELU_OUTPUT_SCALE, String::new()).unwrap();
    assert_eq!(net.head, Head::Screlu);
    let check = |fen: &str, expected_raw: i32| {
        let pos = Position::from_fen(fen, false).unwrap();
        let raw = net.raw_output_board(Kernels::scalar(), pos.snapshot().board(), pos.turn());
        assert_eq!(raw, expected_raw, "{fen}");
        let mut ev = NnueEvaluator::new(Arc::new(net.clone()));
        ev.reset(&pos);
        assert_eq!(ev.raw_output(&pos), raw);
        // centipawns = raw × 400 / (255 × 64), truncated.
        assert_eq!(net.centipawns(raw), (i64::from(raw) * 400 / 16320) as i32);
    };
    // White to move with 3 pawns and the king on b1 (mirrored to g1); black
    // has 2 pawns and its king on e8 (flipped to e1: no king weight).
    // Σ = 60² × 64 + 255² × (−32) + 40² × (−127) = 230400 − 2080800 − 203200.
    check(
        "4k3/pp6/8/8/8/8/PPP5/1K6 w - - 0 1",
        (230_400 - 2_080_800 - 203_200) / 255 + 1000,
    );
    // The same from black's side: black's king on g8 flips to g1.
    // Σ = 40² × 64 + 255² × (−32) + 60² × (−127).
    check(
        "6k1/pp6/8/8/8/8/PPP5/4K3 b - - 0 1",
        (102_400 - 2_080_800 - 457_200) / 255 + 1000,
    );
}

/// Offsets in a version 3 Chess768 SCReLU file (see nets/README.md).
const TABLE_AT: usize = 24;
const WIDTH_AT: usize = 56;
const QA_AT: usize = 68;

/// The bytes with the CRC recomputed, so a damaged field reaches its own check.
fn with_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 4;
    let crc = crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn screlu_files_round_trip_and_damaged_ones_are_refused() {
    let set = FeatureSet::Chess768(KingBuckets::RANKS4);
    let net = random_screlu_network(set, 16, 8, 101).unwrap();
    let bytes = net.to_bytes();
    assert_eq!(&bytes[..8], b"TARPNNUE");
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
    assert_eq!(
        &bytes[TABLE_AT..TABLE_AT + 32],
        &KingBuckets::RANKS4.table()
    );
    assert_eq!(&bytes[WIDTH_AT..WIDTH_AT + 4], &16u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let dir = temp_dir("nnue-screlu-roundtrip");
    let path = dir.join("screlu.nnue");
    net.save(&path).unwrap();
    assert_eq!(Network::load(&path).unwrap(), net);
    // A single bucket and a plain head over Chess768 round-trip too.
    let single = random_screlu_network(FeatureSet::Chess768(KingBuckets::SINGLE), 32, 1, 102);
    let single = single.unwrap();
    assert_eq!(Network::from_bytes(&single.to_bytes()).unwrap(), single);
    let plain = tarpon::eval::nnue::random::random_network(set, 32, &[8, 8], 2, 103).unwrap();
    assert_eq!(Network::from_bytes(&plain.to_bytes()).unwrap(), plain);

    let mut rng = SplitMix64::new(104);
    every_cut_is_refused(&bytes, &mut rng);
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::Malformed(_))
    ));
    let mut flipped = bytes.clone();
    let mid = bytes.len() / 2;
    flipped[mid] ^= 4;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetError::Checksum { .. })
    ));
    let architecture = |v: Vec<u8>, what: &str| {
        let result = Network::from_bytes(&with_crc(v));
        assert!(
            matches!(result, Err(NetError::Architecture(_))),
            "{what}: {result:?}"
        );
    };
    // A bucket table entry beyond the bucket count, and a count of 0 or 33.
    let mut v = bytes.clone();
    v[TABLE_AT + 31] = 4;
    architecture(v, "table entry 4 of 4 buckets");
    for count in [0u32, 33] {
        let mut v = bytes.clone();
        v[TABLE_AT - 4..TABLE_AT].copy_from_slice(&count.to_le_bytes());
        architecture(v, "bucket count");
    }
    // Absurd widths, other quantisation, an unknown head.
    for width in [0u32, 8193, u32::MAX] {
        let mut v = bytes.clone();
        v[WIDTH_AT..WIDTH_AT + 4].copy_from_slice(&width.to_le_bytes());
        architecture(v, "width");
    }
    let mut v = bytes.clone();
    v[QA_AT..QA_AT + 4].copy_from_slice(&127u32.to_le_bytes());
    architecture(v, "QA 127");
    let mut v = bytes.clone();
    v[16] = 7;
    architecture(v, "head 7");
    // An output weight beyond ±127, which the kernels' i16 products cannot take.
    let mut v = bytes.clone();
    let last_weight = v.len() - 6;
    v[last_weight..last_weight + 2].copy_from_slice(&128i16.to_le_bytes());
    architecture(v, "output weight 128");
    // Chess768 in a version 2 header.
    let mut v = bytes.clone();
    v[8] = 2;
    assert!(Network::from_bytes(&with_crc(v)).is_err());
}
