#!/bin/bash
# Whole book pages, uncut, read by `tarpon scan`: a diagram typeset by LaTeX
# (the chessboard package, skaknew pieces, hatched dark squares, coordinates)
# on an otherwise short page and on a page of running text, both ways up,
# rastered at several resolutions, some turned a little as a scanner leaves
# them, one saved as JPEG. Prints one line a picture and the count read
# exactly and the right way up. Then a puzzle page of four diagrams (one
# with Black at the bottom) read with `--all`, at four resolutions: the
# boards read exactly, in order.
#
#   arena/scan/book_pages.sh TARPON OUT
#
# Needs: apt-get install texlive-latex-base texlive-latex-extra texlive-games
# poppler-utils; pip install pillow.
set -euo pipefail
tarpon=$(realpath "$1")
out=$2
mkdir -p "$out"
cd "$out"
placement="r1bqkb1r/pppp1ppp/2n2n2/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R"
para="White has sacrificed nothing yet, but the knight on g5 and the bishop on c4 both eye the square f7, which only the king defends. Black must decide now whether to counter in the centre with d5 or to bring the queen's knight into play; the books have argued about both for four centuries, and the answer still depends on what the reader is willing to risk."
for option in "" ", inverse"; do
  side=$([ -z "$option" ] && echo white || echo black)
  board="\\chessboard[setfen=$placement b KQkq - 5 4, showmover=false$option]"
  printf '%s\n' '\documentclass{article}\usepackage{chessboard}\pagestyle{empty}\begin{document}' \
    '\noindent Diagram 12. After 4.Ng5, the Fried Liver is near.\par\medskip' "$board" \
    '\par\medskip\noindent Black to play. Which move keeps the balance?' '\end{document}' > short-$side.tex
  printf '%s\n' '\documentclass{article}\usepackage{chessboard}\pagestyle{plain}\begin{document}' \
    '\section*{Chapter 3. The Two Knights}' "$para $para" '' "$para" '' \
    "\\begin{center}$board\\par Diagram 12. After 4.Ng5.\\end{center}" '' "$para $para $para" \
    '\end{document}' > text-$side.tex
  for page in short text; do
    pdflatex -interaction=nonstopmode $page-$side.tex > /dev/null
    for dpi in 100 150 200 300; do
      pdftoppm -r $dpi -png -singlefile $page-$side.pdf $page-$side-$dpi
    done
    python3 - "$page-$side-150.png" <<'EOF'
import sys
from PIL import Image
name = sys.argv[1]
page = Image.open(name).convert("RGB")
for degrees in (-3, -1.2, 0.6, 2):
    turned = page.rotate(degrees, resample=Image.BICUBIC, fillcolor=(255, 255, 255))
    turned.save(name.replace(".png", f"-turned{degrees}.png"))
page.save(name.replace(".png", ".jpg"), quality=80)
EOF
  done
done
exact=0
total=0
for picture in short-*.png short-*.jpg text-*.png text-*.jpg; do
  side=$(echo "$picture" | cut -d- -f2)
  json=$("$tarpon" scan "$picture" --format json 2> /dev/null || true)
  read -r fen bottom < <(python3 -c 'import json,sys
try:
    j = json.loads(sys.argv[1]); print(j["fen"].split()[0], j["bottom"])
except Exception:
    print("none none")' "$json")
  verdict=wrong
  if [ "$fen" = "$placement" ] && [ "$bottom" = "$side" ]; then
    verdict=exact
    exact=$((exact + 1))
  fi
  total=$((total + 1))
  echo "$picture $verdict $fen $bottom"
done
echo "read exactly, the right way up: $exact of $total"

# A puzzle page: four diagrams in two rows, the fourth turned round.
puzzles=("$placement" "6k1/5ppp/8/8/8/8/5PPP/3R2K1" "r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1" "4k3/8/8/8/8/8/4P3/4K3")
diagram() { echo "\\chessboard[setfen=${puzzles[$1]} w - - 0 1, showmover=false, boardfontsize=14pt${2:-}]"; }
printf '%s\n' '\documentclass{article}\usepackage{chessboard}\pagestyle{empty}\begin{document}' \
  '\section*{Puzzles 1--4}' '\begin{tabular}{cc}' "$(diagram 0) & $(diagram 1) \\\\" '1. & 2. \\' \
  "$(diagram 2) & $(diagram 3 ', inverse') \\\\" '3. & 4. Black at the bottom. \\' \
  '\end{tabular}' '\end{document}' > puzzles.tex
pdflatex -interaction=nonstopmode puzzles.tex > /dev/null
sides=(white white white black)
found=0
for dpi in 100 150 200 300; do
  pdftoppm -r $dpi -png -singlefile puzzles.pdf puzzles-$dpi
  json=$("$tarpon" scan puzzles-$dpi.png --all --format json 2> /dev/null || true)
  read -r -a read_boards < <(python3 -c 'import json,sys
try:
    print(" ".join(o["fen"].split()[0] + "," + o["bottom"] for o in json.loads(sys.argv[1])))
except Exception:
    print("none")' "$json")
  right=0
  for i in 0 1 2 3; do
    [ "${read_boards[$i]:-}" = "${puzzles[$i]},${sides[$i]}" ] && right=$((right + 1))
  done
  found=$((found + right))
  echo "puzzles-$dpi.png: ${#read_boards[@]} boards read, $right of 4 exact in order"
done
echo "puzzle pages: $found of 16 boards exact, in order"
