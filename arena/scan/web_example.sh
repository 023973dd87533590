#!/usr/bin/env bash
# docs/scan.md's web-page example: a board drawn with the held-out `kaneo`
# pieces on a blue board, a heading above and text beside and below, as a
# page of a chess site might show it; rendered by headless Chromium, then
# read by tarpon scan. Nothing here is a test: it makes the picture and prints
# what scan reads, for the docs.
# Usage: arena/scan/web_example.sh TARPON ART OUT_DIR [PLACEMENT]
# Needs: chromium (Debian), ART from arena/scan/fetch_art.sh.
set -euo pipefail
tarpon=${1:?usage: web_example.sh TARPON ART OUT_DIR [PLACEMENT]}
art=${2:?art folder}
out=${3:?output folder}
placement=${4:-r1b2rk1/pp1nqppp/2p1pn2/3p4/2PP4/2NBPN2/PP3PPP/R2Q1RK1}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for piece in P N B R Q K p n b r q k; do
    # Sprite names differ only by case; keep them apart on any file system.
    case $piece in [A-Z]) name=w$piece ;; *) name=b$piece ;; esac
    cp "$art/kaneo/$piece.png" "$out/$name.png"
done
{
    cat <<'HEAD'
<!doctype html><html><head><meta charset="utf-8"><style>
body { font-family: sans-serif; margin: 24px; background: #fafafa; color: #222; }
h1 { font-size: 22px; margin: 0 0 12px; }
.wrap { display: flex; gap: 24px; }
table { border-collapse: collapse; }
td { width: 56px; height: 56px; padding: 0; }
td img { width: 56px; height: 56px; display: block; }
.l { background: #dee3e6; } .d { background: #8ca2ad; }
.side { width: 300px; font-size: 14px; line-height: 1.5; }
.comments { font-size: 13px; color: #555; margin-top: 12px; }
</style></head><body>
<h1>Puzzle of the week: White to play</h1>
<div class="wrap"><table>
HEAD
    rank=0
    IFS=/ read -ra rows <<< "$placement"
    for row in "${rows[@]}"; do
        printf '<tr>'
        file=0
        for ((i = 0; i < ${#row}; i++)); do
            c=${row:i:1}
            if [[ $c =~ [1-8] ]]; then
                for ((k = 0; k < c; k++)); do
                    shade=$(( (rank + file) % 2 == 0 ? 0 : 1 ))
                    printf '<td class="%s"></td>' "$([ $shade = 0 ] && echo l || echo d)"
                    file=$((file + 1))
                done
            else
                case $c in [A-Z]) name=w$c ;; *) name=b$c ;; esac
                shade=$(( (rank + file) % 2 == 0 ? 0 : 1 ))
                printf '<td class="%s"><img src="%s.png"></td>' "$([ $shade = 0 ] && echo l || echo d)" "$name"
                file=$((file + 1))
            fi
        done
        printf '</tr>\n'
        rank=$((rank + 1))
    done
    cat <<'TAIL'
</table>
<div class="side"><p>Both sides have castled and the centre is locked.
White's bishop eyes the king's side; can White break through before
Black's knights regroup?</p><p>Find the best plan and send your answer
by Sunday.</p></div></div>
<div class="comments">12 comments · Last week's solution: 1. Rxf7!</div>
</body></html>
TAIL
} > "$out/page.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$out/web.png" --window-size=900,650 "file://$out/page.html" 2>/dev/null
echo "true placement: $placement"
set +e
"$tarpon" scan "$out/web.png" --format ascii
echo "exit status $?"
