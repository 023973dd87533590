#!/usr/bin/env bash
# The long gates, too slow for every CI run: clocked self-play (200 games at
# 1s+0.01s with Threads 2, 100 at 10s+0.1s), Miri on the SIMD kernels,
# valgrind on bench, and the four fuzz targets. Run it on a quiet machine
# (about 75 minutes on 2 cores); it prints one summary line per gate and
# exits non-zero if any failed. Logs go to OUT_DIR.
# Usage: arena/nightly.sh [OUT_DIR]   (default: tmp/nightly)
# Environment: GAMES_FAST (200), GAMES_SLOW (100), FUZZ_SECONDS (300 each).
# Needs: nightly with miri and rust-src (rustup +nightly component add miri
# rust-src), cargo-fuzz (cargo install cargo-fuzz), valgrind.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-tmp/nightly}
mkdir -p "$out"
tarpon=target/release/tarpon
summary=()
failed=0

# Runs a gate: name, then the command; its output goes to OUT_DIR/NAME.log.
gate() {
  local name=$1
  shift
  local start=$SECONDS
  if "$@" >"$out/$name.log" 2>&1; then
    summary+=("PASS  $name ($((SECONDS - start)) s)")
  else
    summary+=("FAIL  $name ($((SECONDS - start)) s), see $out/$name.log")
    failed=1
  fi
  echo "${summary[-1]}"
}

rev=$(git rev-parse --short HEAD)
cargo build --release || exit 1
gate selfplay-1s env PGN="$out/selfplay-1s.pgn" .ci/selfplay "$tarpon" "${GAMES_FAST:-200}"
gate selfplay-10s env TC=10+0.1 THREADS=1 CONCURRENCY=2 PGN="$out/selfplay-10s.pgn" \
  .ci/selfplay "$tarpon" "${GAMES_SLOW:-100}"
# Miri interprets the kernel tests with the x86 paths compiled in.
gate miri-simd env RUSTFLAGS="-C target-feature=+sse4.1,+avx2" \
  cargo +nightly miri test --lib eval::nnue::simd
# AVX2, not AVX-VNNI: valgrind does not decode every VNNI instruction.
gate valgrind-bench valgrind --error-exitcode=1 --leak-check=full \
  --errors-for-leak-kinds=definite "$tarpon" bench 6 --simd avx2
# Small real inputs to start each fuzzer from.
corpus=$out/corpus
mkdir -p "$corpus"/{fen,net_loader,syzygy_loader,uci_parser}
head -n 20 src/bench-fens.txt | split -l 1 - "$corpus/fen/bench-"
"$tarpon" random-net --width 16 --out "$corpus/net_loader/halfkav2-16.nnue" >/dev/null
"$tarpon" random-net --width 16 --features halfkp --out "$corpus/net_loader/halfkp-16.nnue" >/dev/null
cat tests/data/syzygy/KQvK.rtbw tests/data/syzygy/KQvK.rtbz >"$corpus/syzygy_loader/kqvk"
printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 3\n' >"$corpus/uci_parser/session"
for target in fen net_loader syzygy_loader uci_parser; do
  gate "fuzz-$target" cargo +nightly fuzz run "$target" "$corpus/$target" -- \
    -max_total_time="${FUZZ_SECONDS:-300}" -max_len=1200000 -rss_limit_mb=4096
done

echo
echo "nightly $(date -u +%F) at $rev:"
printf '%s\n' "${summary[@]}"
for log in "$out"/selfplay-*.log; do
  echo "== $(basename "$log" .log)"
  grep -E '^(Games|Faults|        tarpon)' "$log"
done
for target in fen net_loader syzygy_loader uci_parser; do
  echo "== fuzz-$target: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$out/fuzz-$target.log" | tail -n 1)"
done
exit $failed
