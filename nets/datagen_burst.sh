#!/usr/bin/env bash
# Self-play (nets/selfplay.sh) of the built-in net on every core of a borrowed machine for a fixed
# time, packed to travel back (docs/training.md, "Self-play on a borrowed machine"): the records of
# all processes, each cut to whole 32-byte records, concatenated and xz-compressed (about 3.7 to 1),
# split into 16 MB parts.
#
# Usage: nets/datagen_burst.sh TARPON SECONDS FIRST_SEED BOOK OUT_DIR [SYZYGY_DIR]
#   TARPON      a release binary (the default net is the one built in)
#   FIRST_SEED  process i uses FIRST_SEED + i: give every burst seeds no earlier run used
# Unpack: cat OUT_DIR/selfplay-*.xz.part* | xz -dc > selfplay.bin
set -euo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
tarpon=$1 seconds=$2 seed=$3 book=$4 out=$5 syzygy=${6:-}
jobs=$(nproc)
# A fresh folder: a warm machine may still hold an earlier burst's files.
work=$(mktemp -d)
case $book in
  *.xz) xz -dc "$book" > "$work/book.epd"; book=$work/book.epd ;;
esac
echo "$jobs processes for $seconds s, seeds $seed..$((seed + jobs - 1))"
"$(dirname "$0")/selfplay.sh" "$tarpon" "$seconds" "$seed" "$jobs" "$book" "$work/parts" "$syzygy"
for f in "$work"/parts/selfplay-s*.bin; do truncate -s $(($(stat -c%s "$f") / 32 * 32)) "$f"; done
name=selfplay-s$seed-$((seed + jobs - 1))
cat "$work"/parts/selfplay-s*.bin > "$work/$name.bin"
echo "$(($(stat -c%s "$work/$name.bin") / 32)) positions, sha256 $(sha256sum < "$work/$name.bin" | cut -c1-64)"
mkdir -p "$out"
xz -6 -T"$jobs" -c "$work/$name.bin" | split -b 16000000 -d - "$out/$name.xz.part"
ls -l "$out"
rm -rf "$work"
