#!/usr/bin/env bash
# Opens one HTML report per `tarpon explain` mode in headless Chromium with
# JavaScript on, fails if a page reports a script error (html[data-errors],
# or any console message: the pages log nothing) or did not finish starting
# (html[data-ready]), or if the maze animation did not reach its last step
# (html[data-done]); then takes a screenshot of each page.
#
#   docs/explain-screenshots.sh [TARPON [OUT_DIR [WIDTH,HEIGHT]]]
#
# Defaults: target/release/tarpon, docs/img, 1000,1000. Needs chromium
# (Debian: apt-get install chromium). The same check runs as the ignored test
# `cargo test --release --test integration -- --ignored headless_chromium`.
set -euo pipefail
cd "$(dirname "$0")/.."
tarpon=${1:-target/release/tarpon}
out=${2:-docs/img}
size=${3:-1000,1000}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "no chromium found (Debian: apt-get install chromium)" >&2
  exit 2
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$tarpon" explain tree --depth 3 --algo minimax,alphabeta,pvs --max-children 5 --html "$work/tree.html" >/dev/null
"$tarpon" explain maze --width 20 --height 20 --loops 0.1 --html "$work/maze.html" >/dev/null
"$tarpon" explain trace --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" \
  --depth 8 --html "$work/trace.html" >/dev/null
"$tarpon" explain game --pgn docs/opera-game.pgn --depth 8 --html "$work/game.html" >/dev/null

chrome() {
  # Virtual time runs the maze animation to its end without waiting for it.
  nice -n 5 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --virtual-time-budget=20000 "$@"
}
failed=0
for mode in tree maze trace game; do
  # #autoplay plays the maze to its end; #ply=15 opens the game at 8. Nc3.
  url="file://$work/$mode.html#autoplay,ply=15"
  chrome --enable-logging=stderr --v=0 --dump-dom "$url" >"$work/$mode.dom" 2>"$work/$mode.log" || true
  root=$(grep -m1 -o '<html[^>]*>' "$work/$mode.dom" || echo "(no <html> in the DOM dump)")
  problems=""
  case "$root" in *data-ready=\"1\"*) ;; *) problems+=" not ready;" ;; esac
  case "$root" in *data-errors*) problems+=" script errors: $root;" ;; esac
  if [ "$mode" = maze ]; then
    case "$root" in *data-done=\"1\"*) ;; *) problems+=" animation did not finish;" ;; esac
  fi
  if grep -q ':CONSOLE' "$work/$mode.log"; then
    problems+=" console: $(grep ':CONSOLE' "$work/$mode.log" | head -3 | tr '\n' ' ');"
  fi
  if [ -n "$problems" ]; then
    echo "FAIL $mode:$problems"
    failed=1
    continue
  fi
  chrome --window-size="$size" --screenshot="$out/explain-$mode.png" "$url" >/dev/null 2>&1
  echo "ok   $mode: $(wc -c <"$work/$mode.html") bytes of HTML, screenshot $out/explain-$mode.png"
done
exit $failed
