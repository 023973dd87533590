#!/usr/bin/env bash
# Fetches the licensed piece art `tarpon scan train` and `tarpon scan eval`
# compose boards from, and rasterises it to 128-px PNG sprites:
#   OUT/<set>/<piece>.png with <piece> one of P N B R Q K p n b r q k.
# Usage: arena/scan/fetch_art.sh OUT
# Needs: pip, apt-get download, dpkg-deb, gresource (libglib2.0-bin),
# rsvg-convert (librsvg2-bin). Sources and licences: docs/scan.md.
set -euo pipefail
out=${1:?usage: fetch_art.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

size=128
raster() { # raster SVG PNG
    rsvg-convert -w $size -h $size -a "$1" -o "$2"
}
names="P:Pawn N:Knight B:Bishop R:Rook Q:Queen K:King"

# cburnett (python-chess chess/svg.py; GPL/GFDL/BSD): each piece an SVG group on a 45x45 canvas.
pip download --no-deps -q chess==1.11.2 -d . >/dev/null
mkdir chesspy && tar -xzf chess-*.tar.gz -C chesspy --strip-components=1
mkdir -p "$out/cburnett"
PYTHONPATH=chesspy python3 - "$out/cburnett" <<'PY'
import sys, chess.svg
for sym, group in chess.svg.PIECES.items():
    name = sym.upper() if sym.isupper() else sym
    open(f"{sys.argv[1]}/{name}.svg", "w").write(
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 45 45">{group}</svg>')
PY
for f in "$out"/cburnett/*.svg; do raster "$f" "${f%.svg}.png"; rm "$f"; done

# xboard default theme (GPL-3+).
apt-get download xboard >/dev/null 2>&1
dpkg-deb -x xboard_*.deb xb
mkdir -p "$out/xboard"
for pair in $names; do
    letter=${pair%%:*}; word=${pair#*:}
    raster "xb/usr/share/games/xboard/themes/default/White$word.svg" "$out/xboard/$letter.png"
    raster "xb/usr/share/games/xboard/themes/default/Black$word.svg" "$out/xboard/${letter,,}.png"
done

# gnome-chess "fancy" (GPL-2+), from the binary's GResource.
apt-get download gnome-chess >/dev/null 2>&1
dpkg-deb -x gnome-chess_*.deb gc
mkdir -p "$out/gnome-fancy"
for pair in $names; do
    letter=${pair%%:*}; word=${pair#*:}
    gresource extract gc/usr/games/gnome-chess "/org/gnome/Chess/pieces/fancy/white$word.svg" > w.svg
    gresource extract gc/usr/games/gnome-chess "/org/gnome/Chess/pieces/fancy/black$word.svg" > b.svg
    raster w.svg "$out/gnome-fancy/$letter.png"
    raster b.svg "$out/gnome-fancy/${letter,,}.png"
done

# pychess-data 0.1.0: merida (GPLv2+), firi and kaneo (CC BY 4.0) only.
pip download --no-deps -q pychess-data==0.1.0 -d . >/dev/null
unzip -q -o pychess_data-*.whl -d pd
pieces=pd/pychess_data/static/images/pieces
for set in merida kaneo; do
    mkdir -p "$out/$set"
    for letter in P N B R Q K; do
        raster "$pieces/$set/w$letter.svg" "$out/$set/$letter.png"
        raster "$pieces/$set/b$letter.svg" "$out/$set/${letter,,}.png"
    done
done
mkdir -p "$out/firi"
for letter in P N B R Q K; do
    lower=${letter,,}
    raster "$pieces/firi/w$lower.svg" "$out/firi/$letter.png"
    raster "$pieces/firi/b$lower.svg" "$out/firi/$lower.png"
done

# DejaVu Sans chess glyphs (Bitstream Vera licence), drawn as text.
mkdir -p "$out/dejavu"
glyph() { # glyph CODEPOINT PNG
    printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text x="50" y="84" font-family="DejaVu Sans" font-size="92" text-anchor="middle">&#x%s;</text></svg>' "$1" > g.svg
    raster g.svg "$2"
}
set -- K:2654 Q:2655 R:2656 B:2657 N:2658 P:2659 k:265A q:265B r:265C b:265D n:265E p:265F
for pair in "$@"; do glyph "${pair#*:}" "$out/dejavu/${pair%%:*}.png"; done
echo "sprites in $out: $(ls "$out" | tr '\n' ' ')"
