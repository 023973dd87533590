#!/usr/bin/env bash
# A throwaway OpenBench on loopback that builds, tests, datagens and tunes
# this commit the way a real instance would (docs/openbench.md):
#
#   arena/openbench_local.sh OPENBENCH_DIR FASTCHESS_DIR
#
# OPENBENCH_DIR is a checkout of AndyGrant/OpenBench (copied, never changed),
# FASTCHESS_DIR one of fastchess (built with make if it has no binary yet).
# The script installs the server's and the client's Python requirements from
# PyPI into a venv, serves the server (Django, SQLite) on 127.0.0.1 and this
# repository's HEAD as a zip (`git archive`) from a loopback HTTP server,
# creates the workloads through Django's ORM (arena/openbench/local_orm.py;
# the web form would ask GitHub about the commit) and runs the client with
# --no-client-downloads, one workload at a time, each under a time limit:
#
#   1. a fixed-games test, 8 games at 5000 nodes a move (client -T 1),
#   2. a datagen of 4 games at 5000 nodes from genfens openings (-T 1),
#      whose uploaded PGN is turned into records by `tarpon convert` and
#      read by `tarpon train`,
#   3. an SPSA tune of three parameters, 16 games at 3000 nodes, built with
#      FEATURES=tune (-T 2: OpenBench plays SPSA pairs two at a time).
#
# The engine is called tarpon-ob, so its binaries are tarpon-ob-<SHA8>: the
# client kills `pkill -f fastchess-ob` and `pkill -f tarpon-ob-<SHA8>` after
# each workload, which must never match anyone else's tarpon. Everything runs
# at nice 10; every process started here is stopped by its process group id
# on exit. Commit first: the client builds HEAD.
#
# Environment: OB_WORK (work folder, default a fresh one under /tmp, kept),
# OB_VENV (a venv to reuse), OB_PORT (default 8011; the file server takes
# OB_PORT+1), OB_PHASE_LIMIT (seconds per workload, default 1800).
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 OPENBENCH_DIR FASTCHESS_DIR" >&2
    exit 2
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
OB_SRC=$(cd "$1" && pwd)
FC_SRC=$(cd "$2" && pwd)
WORK=${OB_WORK:-$(mktemp -d /tmp/tarpon-openbench.XXXXXX)}
VENV=${OB_VENV:-$WORK/venv}
PORT=${OB_PORT:-8011}
FILE_PORT=$((PORT + 1))
PHASE_LIMIT=${OB_PHASE_LIMIT:-1800}
SERVER=http://127.0.0.1:$PORT
FILES=http://127.0.0.1:$FILE_PORT
OB_USER=tarpon OB_PASSWORD=openbench-local
BOOK=uho_4060_v2_2000.epd
mkdir -p "$WORK/serve"
renice -n 10 $$ >/dev/null
log() { printf '[openbench_local] %s\n' "$*"; }

# Process groups started here, stopped on exit.
GROUPS_STARTED=()
stop_group() { kill -TERM -- "-$1" 2>/dev/null || true; }
cleanup() {
    for pid in "${GROUPS_STARTED[@]}"; do stop_group "$pid"; done
}
trap cleanup EXIT
# Runs a command in its own session; its pid is its process group id.
start() {
    local out=$1
    shift
    setsid "$@" >"$out" 2>&1 &
    STARTED=$!
    GROUPS_STARTED+=("$STARTED")
}

log "work folder $WORK"
SHA=$(git -C "$REPO" rev-parse HEAD)
BENCH=$(git -C "$REPO" log -1 --format=%B | sed -n 's/.*Bench: \([0-9][0-9]*\).*/\1/p' | tail -1)
if [[ -z $BENCH ]]; then
    log "HEAD's message names no 'Bench: N'; taking it from a release build of the tree"
    (cd "$REPO" && cargo build --release -q)
    BENCH=$("$REPO/target/release/tarpon" bench | tail -1 | cut -d' ' -f1)
fi
log "commit $SHA, expected bench $BENCH"

if [[ ! -x $FC_SRC/fastchess ]]; then
    log "building fastchess in $FC_SRC"
    make -C "$FC_SRC" -j2 >"$WORK/fastchess-build.log" 2>&1
fi

# OpenBench, copied: config, database and media stay in the work folder.
OB=$WORK/OpenBench
rm -rf "$OB" && mkdir -p "$OB"
if git -C "$OB_SRC" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$OB_SRC" archive HEAD | tar -x -C "$OB"
else
    cp -a "$OB_SRC/." "$OB"
fi
if [[ ! -x $VENV/bin/python ]]; then
    log "installing OpenBench's requirements into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -r "$OB/requirements.txt" -r "$OB/Client/requirements.txt"
fi
PY=$VENV/bin/python

# What the server hands out: the commit (and a copy whose Makefile builds
# the tune feature, as a tuning branch would), and the test's opening book.
git -C "$REPO" archive --format=zip --prefix=tarpon/ -o "$WORK/serve/tarpon.zip" HEAD
cp "$REPO/arena/openings/$BOOK" "$WORK/serve/$BOOK"
"$PY" - "$WORK/serve" "$BOOK" <<'EOF'
import sys, zipfile
serve, book = sys.argv[1:]
with zipfile.ZipFile(f"{serve}/tarpon.zip") as src, \
        zipfile.ZipFile(f"{serve}/tarpon-tune.zip", "w", zipfile.ZIP_DEFLATED) as dst:
    for item in src.infolist():
        data = src.read(item)
        if item.filename == "tarpon/Makefile":
            data = data.replace(b"\nFEATURES ?=\n", b"\nFEATURES ?= tune\n")
            assert b"FEATURES ?= tune" in data, "the Makefile has no FEATURES line"
        dst.writestr(item, data)
with zipfile.ZipFile(f"{serve}/{book}.zip", "w") as z:
    z.write(f"{serve}/{book}", book)
EOF
BOOK_SHA=$(sha256sum "$WORK/serve/$BOOK" | cut -d' ' -f1)

# The server's configuration: tarpon-ob its only engine, the test book its only book.
"$PY" - "$OB" "$REPO/arena/openbench/tarpon.json" "$BOOK" "$BOOK_SHA" "$FILES" <<'EOF'
import json, sys
ob, engine_json, book, sha, files = sys.argv[1:]
config = json.load(open(f"{ob}/Config/config.json"))
config.update(engines=["tarpon-ob"], books=[book])
json.dump(config, open(f"{ob}/Config/config.json", "w"), indent=4)
json.dump({"sha": sha, "source": f"{files}/{book}.zip"}, open(f"{ob}/Books/{book}.json", "w"))
engine = json.load(open(engine_json))
engine["source"] = f"{files}/tarpon.zip"
json.dump(engine, open(f"{ob}/Engines/tarpon-ob.json", "w"), indent=4)
EOF

orm() { # ACTION [VAR=VALUE...]: one action of local_orm.py, its JSON on stdout
    local action=$1
    shift
    (cd "$OB" && env OB_ACTION="$action" OB_USER=$OB_USER OB_PASSWORD=$OB_PASSWORD "$@" \
        "$PY" manage.py shell <"$REPO/arena/openbench/local_orm.py" 2>>"$WORK/orm.log")
}
field() { "$PY" -c "import json,sys; print(json.loads(sys.stdin.read())$1)"; }

# (Its PGN watcher thread complains before the tables exist: to the log.)
(cd "$OB" && "$PY" manage.py migrate -v 0 2>"$WORK/migrate.log")
orm user >/dev/null
start "$WORK/server.log" "$PY" "$OB/manage.py" runserver "127.0.0.1:$PORT" --noreload
start "$WORK/files.log" "$PY" -m http.server --bind 127.0.0.1 "$FILE_PORT" --directory "$WORK/serve"
for _ in $(seq 60); do
    curl -sf -o /dev/null "$SERVER/login/" && break
    sleep 1
done
cp "$FC_SRC/fastchess" "$OB/Client/fastchess-ob"

# Runs the client until workload ID is finished (or PHASE_LIMIT), then stops it.
run_client() {
    local threads=$1 id=$2 name=$3 deadline=$((SECONDS + PHASE_LIMIT))
    log "$name: workload $id, client -T $threads (log $WORK/client-$name.log)"
    start "$WORK/client-$name.log" env OPENBENCH_USERNAME=$OB_USER OPENBENCH_PASSWORD=$OB_PASSWORD \
        OPENBENCH_SERVER="$SERVER" "$PY" "$OB/Client/client.py" --no-client-downloads \
        -T "$threads" -N 1
    local client=$STARTED
    until [[ $(orm report OB_TEST="$id" | field "['finished']") == True ]]; do
        if ((SECONDS > deadline)); then
            stop_group "$client"
            log "$name: not finished after $PHASE_LIMIT s"
            return 1
        fi
        if ! kill -0 "$client" 2>/dev/null; then
            log "$name: the client stopped early"
            return 1
        fi
        sleep 10
    done
    stop_group "$client"
    grep -E '^(Bench|Speed) for' "$WORK/client-$name.log" | sort -u | sed 's/^/    /'
}

workload() { # MODE [VAR=VALUE...]: creates a workload of tarpon-ob, prints its id
    local mode=$1
    shift
    orm "$mode" OB_BRANCH=HEAD OB_SHA="$SHA" OB_BENCH="$BENCH" OB_SOURCE="$FILES/tarpon.zip" \
        OB_OPTIONS="Threads=1 Hash=16" OB_SCALE_NPS=2200000 OB_UPLOAD=FALSE \
        OB_WIN_ADJ="movecount=3 score=400" OB_DRAW_ADJ="movenumber=40 movecount=8 score=10" \
        "$@" | field "['id']"
}

# 1. A fixed-games test.
TEST_ID=$(workload test OB_BOOK=$BOOK OB_TC=N=5000 OB_WORKLOAD_SIZE=2 OB_MAX_GAMES=8)
run_client 1 "$TEST_ID" test
orm report OB_TEST="$TEST_ID" | field "" | sed 's/^/    result: /'

# 2. Datagen: genfens openings, games archived as PGN, PGN turned into records.
DATAGEN_ID=$(workload datagen OB_BOOK=NONE OB_TC=N=5000 OB_WORKLOAD_SIZE=2 OB_MAX_GAMES=4 \
    OB_UPLOAD=VERBOSE OB_WIN_ADJ=None OB_DRAW_ADJ=None \
    OB_GENFENS_ARGS="random_plies 8 max_score 400")
run_client 1 "$DATAGEN_ID" datagen
orm report OB_TEST="$DATAGEN_ID" | field "" | sed 's/^/    result: /'
# The client's build of HEAD (OpenBench names it engine-SHA8, upper case).
TARPON=$OB/Client/Engines/tarpon-ob-$(echo "${SHA:0:8}" | tr a-f A-F)
log "genfens openings the client asked for: $(grep -c . "$OB/Client/Books/openbench.genfens.epd")"
# The server files uploads into Media/PGNs/ID.pgn.tar (what /api/pgns/ID/ serves).
ARCHIVE=$OB/Media/PGNs/$DATAGEN_ID.pgn.tar
for _ in $(seq 30); do [[ -f $ARCHIVE ]] && break; sleep 2; done
mkdir -p "$WORK/datagen"
tar -x -C "$WORK/datagen" -f "$ARCHIVE"
bunzip2 -f "$WORK"/datagen/*.pgn.bz2
log "archive $(basename "$ARCHIVE"): $(ls "$WORK"/datagen/*.pgn | xargs -n1 basename | tr '\n' ' ')"
"$TARPON" convert --out "$WORK/datagen/data.bin" "$WORK"/datagen/*.pgn | sed 's/^/    convert: /'
"$TARPON" train --data "$WORK/datagen/data.bin" --out "$WORK/datagen/net.nnue" --hidden 16 \
    --layers 8 8 --epochs 1 --batch 64 --threads 1 | tail -1 | sed 's/^/    train: /'

# 3. SPSA of three parameters with the tune build (a Makefile with FEATURES ?= tune).
SPSA_INPUTS=$("$TARPON" params 2>/dev/null | grep -E '^(rfp_margin|fp_margin|aspiration_delta),')
SPSA_ID=$(workload spsa OB_SHA="7e57${SHA:4}" OB_SOURCE="$FILES/tarpon-tune.zip" \
    OB_BOOK=$BOOK OB_TC=N=3000 OB_WORKLOAD_SIZE=1 OB_SPSA_ITERATIONS=8 \
    OB_SPSA_INPUTS="$SPSA_INPUTS")
run_client 2 "$SPSA_ID" spsa
orm report OB_TEST="$SPSA_ID" | "$PY" -c '
import json, sys
r = json.load(sys.stdin)
print("    result: %d games, +%d =%d -%d" % (r["games"], r["wins"], r["draws"], r["losses"]))
for p in r["spsa"]:
    print("    spsa: %s %g -> %g" % (p["name"], p["start"], p["value"]))
print("    optimal values:\n" + "\n".join("      " + l for l in r["optimal"].splitlines()))'
log "done; everything is in $WORK"
