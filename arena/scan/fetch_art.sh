#!/usr/bin/env bash
# Fetches the licensed piece art `tarpon scan train` and `tarpon scan eval`
# compose boards from, and rasterises it to 128-px PNG sprites:
#   OUT/<set>/<piece>.png with <piece> one of P N B R Q K p n b r q k.
# Usage: arena/scan/fetch_art.sh OUT
# Needs: pip, apt-get download, dpkg-deb, gresource (libglib2.0-bin),
# rsvg-convert (librsvg2-bin), python3, base64, zcat. Sources and licences:
# docs/scan.md.
set -euo pipefail
out=${1:?usage: fetch_art.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

size=128
raster() { # raster SVG PNG
    rsvg-convert -w $size -h $size -a "$1" -o "$2"
}
raster_png() { # raster_png PNG SIDE OUTPNG: rescales a square PNG of SIDE px through an SVG wrapper
    printf '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%s" height="%s"><image width="%s" height="%s" xlink:href="data:image/png;base64,%s"/></svg>' \
        "$2" "$2" "$2" "$2" "$(base64 -w0 "$1")" > png.svg
    raster png.svg "$3"
}
names="P:Pawn N:Knight B:Bishop R:Rook Q:Queen K:King"
pngs_to_set() { # pngs_to_set SET SIDE WHITE BLACK: the twelve PNG sprites of SIDE px named by
    # WHITE and BLACK, where "Word" stands for the piece's name ("Knight") and "word" for it in lower case
    mkdir -p "$out/$1"
    for pair in $names; do
        local letter=${pair%%:*} word=${pair#*:} white black
        white=${3//Word/$word}; white=${white//word/${word,,}}
        black=${4//Word/$word}; black=${black//word/${word,,}}
        raster_png "$white" "$2" "$out/$1/$letter.png"
        raster_png "$black" "$2" "$out/$1/${letter,,}.png"
    done
}

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

# gnome-chess "fancy" (GPL-2+) and "simple" (W3C licence), from the binary's GResource.
apt-get download gnome-chess >/dev/null 2>&1
dpkg-deb -x gnome-chess_*.deb gc
for theme in fancy simple; do
    mkdir -p "$out/gnome-$theme"
    for pair in $names; do
        letter=${pair%%:*}; word=${pair#*:}
        gresource extract gc/usr/games/gnome-chess "/org/gnome/Chess/pieces/$theme/white$word.svg" > w.svg
        gresource extract gc/usr/games/gnome-chess "/org/gnome/Chess/pieces/$theme/black$word.svg" > b.svg
        raster w.svg "$out/gnome-$theme/$letter.png"
        raster b.svg "$out/gnome-$theme/${letter,,}.png"
    done
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

# Knights (KDE) "knights" theme by Troy Corbin (GPL-2/3+): 144-px PNGs embedded in an SVGZ.
apt-get download knights >/dev/null 2>&1
dpkg-deb -x knights_*.deb kn
zcat kn/usr/share/knights/themes/knights.svgz | python3 -c '
import base64, re, sys
for m in re.finditer(r"<image\s+xlink:href=\"data:image/png;base64,([^\"]+)\"(.*?)/>", sys.stdin.read(), re.S):
    name = re.search(r"id=\"(\w+)\"", m.group(2)).group(1)
    open(f"kn/{name}.png", "wb").write(base64.b64decode(m.group(1)))
'
pngs_to_set knights 144 kn/WhiteWord.png kn/BlackWord.png

# DreamChess "sketch" (GPL-3+): 256-px hand-drawn PNGs.
apt-get download dreamchess-data >/dev/null 2>&1
dpkg-deb -x dreamchess-data_*.deb dc
pngs_to_set dreamchess-sketch 256 dc/usr/share/games/dreamchess/pieces/sketch/word_{w,b}.png

# PyChess (Debian) "kilfiger" by James Kilfiger (public domain, per each SVG's cc:license).
apt-get download pychess >/dev/null 2>&1
dpkg-deb -x pychess_*.deb pyc
mkdir -p "$out/kilfiger"
for letter in P N B R Q K; do
    raster "pyc/usr/share/pychess/pieces/kilfiger/w${letter,,}.svg" "$out/kilfiger/$letter.png"
    raster "pyc/usr/share/pychess/pieces/kilfiger/b${letter,,}.svg" "$out/kilfiger/${letter,,}.png"
done

# Tagua's "FantasySVG" (trained on) and "SpatialSVG", "SkullsSVG", "PrmiSVG" (measured, docs/scan.md
# "Not done") by Maurizio Monge (GPL-2+: Debian's copyright file and each SVG's licence tag).
apt-get download tagua-data >/dev/null 2>&1
dpkg-deb -x tagua-data_*.deb tg
for pair in FantasySVG:fantasy SpatialSVG:spatial SkullsSVG:skulls PrmiSVG:prmi; do
    theme=${pair%%:*} set=${pair#*:}
    mkdir -p "$out/$set"
    for letter in P N B R Q K; do
        raster "tg/usr/share/tagua/themes/pieces/$theme/w${letter,,}.svg" "$out/$set/$letter.png"
        raster "tg/usr/share/tagua/themes/pieces/$theme/b${letter,,}.svg" "$out/$set/${letter,,}.png"
    done
done

# PyChess (Debian, GPL-3+) "celtic" by Maurizio Monge (lichess ships it under MIT), measured only:
# one 1200x400 sheet, Black's K Q R B N P in the top row, White's below, each cell cut by a viewBox.
mkdir -p "$out/celtic"
python3 - pyc/usr/share/pychess/pieces/celtic/celtic.svg "$out/celtic" <<'PY'
import sys
sheet, folder = open(sys.argv[1]).read(), sys.argv[2]
size = 'width="1200"\n   height="400"'
assert size in sheet, "celtic.svg: the sheet is not 1200x400 any more"
for row, black in ((0, True), (1, False)):
    for col, letter in enumerate("KQRBNP"):
        cell = sheet.replace(size, f'width="128" height="128" viewBox="{col * 200} {row * 200} 200 200"', 1)
        open(f"{folder}/{letter.lower() if black else letter}.svg", "w").write(cell)
PY
for f in "$out"/celtic/*.svg; do raster "$f" "${f%.svg}.png"; rm "$f"; done

# pgn2web's sixteen book-diagram sets (Debian pgn2web 0.4, GPL-3+ per its copyright file): 32-px
# glyphs of the classic chess diagram fonts, each drawn on a white and a hatched square; the white
# square's is cut out (diagram_sprite.py) and scaled up. Measured only (docs/scan.md, "Book-diagram
# fonts").
apt-get download pgn2web >/dev/null 2>&1
dpkg-deb -x pgn2web_*.deb p2w
for theme in adventurer alfonso-x cases condal harlequin kingdom leipzig line lucena magnetic mark \
    marroquin maya mediaeval merida motif; do
    mkdir -p "cut/$theme"
    for pair in $names; do
        letter=${pair%%:*}; word=${pair#*:}
        for side in w b; do
            python3 "$here/diagram_sprite.py" "p2w/usr/share/pgn2web/images/$theme/$side${letter,,}ws.png" \
                "cut/$theme/$side-${word,,}.png"
        done
    done
    pngs_to_set "diagram-$theme" 32 "cut/$theme/w-word.png" "cut/$theme/b-word.png"
done

# Chess glyphs drawn as text (white ones are outlines, left unfilled):
# DejaVu Sans (Bitstream Vera licence, the system font) and Noto Sans Symbols2
# (OFL-1.1, fonts-noto-core, via a fontconfig that sees only that file).
glyph() { # glyph FAMILY CODEPOINT PNG [TEXT_ATTRIBUTES]
    printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text x="50" y="84" font-family="%s" font-size="92" text-anchor="middle" %s>&#x%s;</text></svg>' "$1" "${4:-}" "$2" > g.svg
    raster g.svg "$3"
}
glyphs="K:2654 Q:2655 R:2656 B:2657 N:2658 P:2659 k:265A q:265B r:265C b:265D n:265E p:265F"
mkdir -p "$out/dejavu"
for pair in $glyphs; do glyph "DejaVu Sans" "${pair#*:}" "$out/dejavu/${pair%%:*}.png"; done
# The same font as web pages often draw it: every piece the solid glyph,
# White's filled white with a thin dark stroke (CSS color and
# -webkit-text-stroke), Black's filled near-black.
mkdir -p "$out/dejavu-solid"
for pair in K:265A Q:265B R:265C B:265D N:265E P:265F; do
    letter=${pair%%:*}
    glyph "DejaVu Sans" "${pair#*:}" "$out/dejavu-solid/$letter.png" 'fill="#fff" stroke="#222" stroke-width="2.4"'
    glyph "DejaVu Sans" "${pair#*:}" "$out/dejavu-solid/$(echo "$letter" | tr KQRBNP kqrbnp).png" 'fill="#111" stroke="#222" stroke-width="2.4"'
done
fontconfig_for() { # fontconfig_for DIR CONF: a fontconfig that sees only the font files in DIR
    printf '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' \
        "$work/$1" "$work/$1-cache" > "$2"
}
glyph_set() { # glyph_set SET PACKAGE FONT_FILE FAMILY: the twelve glyphs of one font file of a Debian package
    apt-get download "$2" >/dev/null 2>&1
    mkdir -p "pkg-$1" "fonts-$1" "$out/$1"
    dpkg-deb -x "$2"_*.deb "pkg-$1"
    cp "pkg-$1/$3" "fonts-$1/"
    fontconfig_for "fonts-$1" "$1.conf"
    for pair in $glyphs; do
        FONTCONFIG_FILE="$work/$1.conf" glyph "$4" "${pair#*:}" "$out/$1/${pair%%:*}.png"
    done
}
# Noto Sans Symbols2 (OFL-1.1, fonts-noto-core), trained on.
glyph_set noto fonts-noto-core usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf "Noto Sans Symbols2"
# GNU FreeSerif (GPL-3+ with the font exception, fonts-freefont-ttf), measured only.
glyph_set freeserif fonts-freefont-ttf usr/share/fonts/truetype/freefont/FreeSerif.ttf FreeSerif
# Board coordinates (a-h, 1-8) in real fonts, black on transparent, for the renderer's labels and
# the reader's templates (docs/scan.md "Printed coordinates"): DejaVu (Bitstream Vera licence),
# Liberation (OFL-1.1), Latin Modern (GUST Font License), GNU FreeFont (GPL-3+ with the font
# exception), Noto (OFL-1.1), via a fontconfig that sees only these files.
for package in fonts-dejavu-core fonts-liberation fonts-lmodern fonts-freefont-ttf fonts-noto-core; do
    apt-get download $package >/dev/null 2>&1
    dpkg-deb -x ${package}_*.deb labelfonts
done
mkdir -p lfonts
find labelfonts \( -name 'DejaVu*.ttf' -o -name 'Liberation*.ttf' -o -name 'lmroman10-regular.otf' \
    -o -name 'Free*.ttf' -o -name 'NotoSerif-Regular.ttf' -o -name 'NotoSans-Regular.ttf' \
    -o -name 'NotoSansMono-Regular.ttf' \) -exec cp {} lfonts/ \;
fontconfig_for lfonts lfonts.conf
label_glyph() { # label_glyph FAMILY WEIGHT CHAR PNG
    printf '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"><text x="64" y="104" font-family="%s" font-weight="%s" font-size="112" text-anchor="middle">%s</text></svg>' "$1" "$2" "$3" > l.svg
    FONTCONFIG_FILE="$work/lfonts.conf" rsvg-convert -w 128 -h 128 -o "$4" l.svg
}
for spec in "dejavu-sans-bold:DejaVu Sans:bold" "dejavu-serif:DejaVu Serif:normal" \
    "liberation-sans:Liberation Sans:normal" "liberation-mono-bold:Liberation Mono:bold" \
    "liberation-narrow-bold:Liberation Sans Narrow:bold" "lm-roman:Latin Modern Roman:normal" \
    "dejavu-mono:DejaVu Sans Mono:normal" \
    "dejavu-sans:DejaVu Sans:normal" "free-serif:FreeSerif:normal" "free-sans:FreeSans:normal" \
    "free-mono:FreeMono:normal" "noto-serif:Noto Serif:normal" "noto-sans:Noto Sans:normal" \
    "noto-sans-mono:Noto Sans Mono:normal"; do
    IFS=: read -r name family weight <<< "$spec"
    mkdir -p "$out/_labels/$name"
    for c in a b c d e f g h 1 2 3 4 5 6 7 8; do label_glyph "$family" "$weight" "$c" "$out/_labels/$name/$c.png"; done
done
echo "sprites in $out: $(ls "$out" | tr '\n' ' ')"
