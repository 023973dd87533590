#!/bin/bash
# Photos' corners found by `tarpon scan photo` without --corners, against
# the corners the scene script computes: twelve ray-traced photos of the
# board of arena/scan/photo_scene.py from twelve cameras (steep, low, from
# either side, from Black's side, straight down, the board turned in the
# picture, partly out of the picture), three positions, 800x600 and one
# 1280x960, JPEG quality 85. Prints each photo's worst corner, in squares.
#
#   arena/scan/photo_corners.sh TARPON OUT
#
# Needs: apt-get install povray; pip install pillow.
set -euo pipefail
tarpon=$(realpath "$1")
scene=$(realpath "$(dirname "$0")/photo_scene.py")
out=$2
mkdir -p "$out"
cd "$out"
MID="r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R"
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
LATE="2r3k1/pp3ppp/4p3/3nP3/3P4/P4N2/1P3PPP/2R3K1"
END="8/5k2/3p4/1p1P4/1P2K3/8/8/8"
# name placement camera look-at angle seed [width height]
scenes=(
  "a-start $START 4.3,12.5,-3.2 4,0,3.6 48 4"
  "a-mid $MID 4.3,12.5,-3.2 4,0,3.6 48 5"
  "b-mid $MID 1.5,9,-4 4,0,3.8 50 6"
  "c-mid $MID 7,10,-3.5 4,0,4 50 7"
  "d-end $END 4,8,-5 4,0,4 50 8"
  "e-start $START 9,9,-2 4,0,4 52 9"
  "f-mid $MID 4,6,-6 4,0,4 45 10"
  "g-start $START 4,15,3.2 4,0,4 40 11"
  "h-late $LATE -2,9,2 4,0,4 50 12"
  "i-mid $MID 4,9,14 4,0,4 50 13"
  "j-late $LATE 10,7,-3 4,0,4 55 14 1280 960"
  "k-start $START 3,5,-7 4,0,4 40 15"
)
for line in "${scenes[@]}"; do
  read -r name placement camera look angle seed width height <<< "$line"
  width=${width:-800}
  height=${height:-600}
  python3 "$scene" "$placement" "$name.pov" --camera="$camera" --look-at="$look" --angle "$angle" \
    --width "$width" --height "$height" --seed "$seed" > "$name.corners"
  povray +I"$name.pov" +O"$name.png" +W"$width" +H"$height" +A0.1 -D > /dev/null 2>&1
  python3 -c "from PIL import Image; import sys; Image.open(sys.argv[1] + '.png').convert('RGB').save(sys.argv[1] + '.jpg', quality=85)" "$name"
done
python3 - "$tarpon" "${scenes[@]}" <<'PY'
import math, re, subprocess, sys
tarpon, worst_all, within = sys.argv[1], [], 0
for line in sys.argv[2:]:
    name = line.split()[0]
    truth = [tuple(map(float, p.split(","))) for p in open(name + ".corners").read().split()]
    run = subprocess.run([tarpon, "scan", "photo", name + ".jpg", "--start", name + ".jpg"],
                         capture_output=True, text=True)
    found = re.search(r"corners found at (.*)", run.stderr)
    if not found:
        print(f"{name}: not found ({run.stderr.strip().splitlines()[-1]})")
        continue
    points = [tuple(map(float, p.split(","))) for p in found.group(1).split()]
    square = math.dist(truth[0], truth[1]) / 8
    worst = max(min(math.dist(p, t) for p in points) / square for t in truth)
    within += worst < 0.1
    print(f"{name}: worst corner {worst:.3f} squares off")
print(f"found within a tenth of a square: {within} of {len(sys.argv) - 2}")
PY
