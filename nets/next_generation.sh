#!/usr/bin/env bash
# The next generation of nets in one run on one machine (docs/training.md):
#   1. self-play of the current default net, one process a core, with the soft node limit;
#   2. a net trained on that new data and the self-play kept from earlier sittings (KEEP), without the
#      pool's training files unless POOL_DATA=1 (generations 29 and 30 won on deep self-play alone;
#      the pool's shallower labels lost); the unseen games' loss is printed, but matches decide: it
#      ranked candidates backwards six times (nets/LEDGER.md);
#   3. the candidate against the current default at 20 000 nodes a move, colour-swapped pairs;
#   4. the candidate against a fixed anchor (generation 16), the same way on another seed, because
#      parent-against-child steps overstate (nets/LEDGER.md, "The chain checked directly").
# It changes nothing in the repository: the candidate, its data and the match report stay in WORK_DIR.
#
# Usage: nets/next_generation.sh WORK_DIR POOL_DIR BOOK [SYZYGY_DIR]
#   POOL_DIR  the self-play pool: *.bin or *.bin.zst files; those named *val* are the unseen games
#             (validation); the others are trained on only with POOL_DATA=1
#   BOOK      an EPD/FEN opening file such as noob_3moves.epd
# Environment (defaults in brackets):
#   MINUTES [120]  wall minutes of self-play    SEED [from the clock]  first datagen seed
#   GAMES [400]    games of each match          JOBS [all cores]       self-play processes
#   KEEP           directories of earlier sittings' self-play (*.bin), trained on too ["": none]
#   POOL_DATA [0]  1: train on the pool's files too  NODES_MATCH [20000]  nodes a move in the matches
#   SOFT_NODES, NODES  self-play's search (nets/selfplay.sh) [5000, 40000: generations 28 to 30]
#   ANCHOR         the anchor net [generation 16, from git: 33d21cd:nets/default.nnue]
#   TRAIN_ARGS     the training recipe [two epochs' fine-tune of the default net at lr 3e-5, λ 0.9 (generations 22 to 30);
#                  the architecture is the default net's, as the trainer takes it from --init-from]
# Run it again with the same WORK_DIR and SEED to resume: finished steps are skipped, datagen
# appends to its files, and an unfinished training starts again (it takes minutes, not hours).
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
work=$(mkdir -p "$1" && cd "$1" && pwd)
pool=$(cd "$2" && pwd)
book=$3
syzygy=${4:-}
minutes=${MINUTES:-120}
games=${GAMES:-400}
jobs=${JOBS:-$(nproc)}
seed=${SEED:-$(date +%s)}
# timeout takes 0 as "no limit", so zero minutes would mean self-play without end.
if ! [[ $minutes =~ ^[0-9]+$ ]] || [ "$minutes" -lt 1 ]; then
  echo "MINUTES must be a whole number of minutes, at least 1 (got $minutes)" >&2
  exit 2
fi
recipe=${TRAIN_ARGS:-"--init-from nets/default.nnue --epochs 2 --lr 3e-5 --gamma 0.5 --batch 4096 --lambda 0.9"}

cd "$(dirname "$0")/.."
cargo build --release --quiet
tarpon=target/release/tarpon
if [ -e "$work/selfplay.done" ]; then
  echo "work $work, pool $pool: self-play already done, resuming after it"
else
  echo "work $work, pool $pool, seed $seed, $minutes min of self-play on $jobs processes"
fi

# The pool, decompressed once into the work directory: its validation files, and the rest only
# when they are trained on.
mkdir -p "$work/pool"
for f in "$pool"/*.bin "$pool"/*.bin.zst; do
  [ -e "$f" ] || continue
  name=$(basename "${f%.zst}")
  case $name in
    *val*) ;;
    *) if [ "${POOL_DATA:-0}" != 1 ]; then rm -f "$work/pool/$name"; continue; fi ;;
  esac
  [ -s "$work/pool/$name" ] && continue
  case $f in
    *.zst) zstd -q -d -f "$f" -o "$work/pool/$name" ;;
    *) cp "$f" "$work/pool/$name" ;;
  esac
done

# 1. Self-play, the recipe of nets/selfplay.sh.
if [ ! -e "$work/selfplay.done" ]; then
  nets/selfplay.sh "$tarpon" "${minutes}m" "$seed" "$jobs" "$book" "$work" "$syzygy" nets/default.nnue
  touch "$work/selfplay.done"
fi

data=()
val=()
kept=()
for dir in ${KEEP:-}; do kept+=("$dir"/*.bin); done
# The pool's training files are in $work/pool only with POOL_DATA=1 (see above).
for f in "$work"/pool/*.bin "${kept[@]}" "$work"/selfplay-s*.bin; do
  [ -s "$f" ] || continue
  case $(basename "$f") in
    *val*) val+=(--val-data "$f") ;;
    *) data+=(--data "$f") ;;
  esac
done
if [ ${#val[@]} -eq 0 ]; then
  echo "no validation file (*val*) in $pool: the pool's unseen games are needed to validate on" >&2
  exit 1
fi

# 2. Training. No --keep-best: the pool's unseen games were scored by the default net's own search,
# which that net fits best, so their loss rejected generation 11 (+46 Elo). An interrupted
# training starts again.
candidate="$work/candidate.nnue"
if [ ! -e "$work/train.done" ]; then
  # shellcheck disable=SC2086 # the recipe is a list of options
  nice -n 5 "$tarpon" train "${data[@]}" "${val[@]}" --out "$candidate" $recipe \
    --scale 200 --quantise-aware --seed "$seed" --quiet
  touch "$work/train.done"
fi

# A match at fixed nodes, so the load does not matter: colour-swapped pairs, printed from NET1's side.
match() { # NET1 NAME1 NET2 NAME2 SEED REPORT
  "$tarpon" arena --engine "tarpon:nnue=$1" name="$2" --engine "tarpon:nnue=$3" name="$4" \
    --gauntlet --each nodes="${NODES_MATCH:-20000}" \
    --openings file=arena/openings/uho_4060_v2_2000.epd order=random seed="$5" \
    --games 2 --rounds $((games / 2)) --concurrency "$jobs" \
    --draw movenumber=40 movecount=8 score=10 --report "$6"
}

# 3. The candidate against the current default.
match nets/default.nnue default "$candidate" candidate "$seed" "$work/match.md"
echo "Report: $work/match.md (printed from the default's side)."

# 4. The candidate against the anchor, printed from the candidate's side: the figure that adds up
# from generation to generation.
anchor=${ANCHOR:-$work/anchor-gen16.nnue}
if [ -z "${ANCHOR:-}" ] && [ ! -s "$anchor" ]; then
  git show 33d21cd:nets/default.nnue > "$anchor"
fi
match "$candidate" candidate "$anchor" anchor $((seed + 1)) "$work/anchor.md"
echo "Report: $work/anchor.md (printed from the candidate's side; the default's own figure is in nets/LEDGER.md)."
echo "A candidate that wins becomes nets/default.nnue with both matches in arena/results/ and nets/LEDGER.md,"
echo "after its lead over the default is played again on fresh seeds (docs/training.md)."
