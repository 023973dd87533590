#!/usr/bin/env bash
# Self-play for training: one datagen process a core, each with its own seed, for a fixed time
# (docs/training.md). The one place that spells out the self-play recipe, so that
# nets/next_generation.sh and nets/datagen_burst.sh cannot drift apart. timeout ends each process
# at a game boundary; a file of an earlier run with the same seed is appended to.
#
# Usage: nets/selfplay.sh TARPON SECONDS FIRST_SEED JOBS BOOK OUT_DIR [SYZYGY_DIR [NET]]
#   writes OUT_DIR/selfplay-sSEED.bin for SEED = FIRST_SEED .. FIRST_SEED + JOBS - 1
#   NET   the net that plays [the one built into TARPON]; NICE [10] the processes' niceness
#   SOFT_NODES [5000], NODES [40000]  the search of each move (datagen's --soft-nodes, --nodes)
set -euo pipefail
if [ $# -lt 6 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
tarpon=$1 seconds=$2 seed=$3 jobs=$4 book=$5 out=$6 syzygy=${7:-} net=${8:-}
mkdir -p "$out"
pids=()
for i in $(seq 0 $((jobs - 1))); do
  # A soft limit gives twice the positions a core-hour of a hard one, each worth as much
  # (nets/LEDGER.md, "Data per core-hour"); 5000 soft nodes, four times the earlier 1200,
  # gave generations 28 to 30 their data (about 0.53 M positions a core-hour; LEDGER).
  timeout --signal=TERM "$seconds" nice -n "${NICE:-10}" "$tarpon" datagen \
    --out "$out/selfplay-s$((seed + i)).bin" --positions 1000000000 \
    --soft-nodes "${SOFT_NODES:-5000}" --nodes "${NODES:-40000}" --threads 1 --book "$book" --random-plies 4 \
    --seed $((seed + i)) ${net:+--net "$net"} ${syzygy:+--syzygy "$syzygy"} --quiet &
  pids+=($!)
done
# timeout's status 124 is the normal end.
for pid in "${pids[@]}"; do wait "$pid" || true; done
