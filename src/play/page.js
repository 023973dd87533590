"use strict";
// tarpon play: the page draws whatever state the server sends (GET, POST
// answers and the event stream); it keeps only what is about the view: the
// selected square, the position being looked at, the board's orientation.
const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";
let state = null;
let levels = [];
let flipped = false;
let selected = null;     // square name of the picked-up piece
let viewing = null;      // index into state.fens, null = the live position
let events = null;
let shownResult = null;

function gameId() { return new URLSearchParams(location.hash.slice(1)).get("g"); }

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: "bad answer" }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text) { $("status").textContent = text; }

async function act(action, body) {
  try { show(await api("POST", `/api/game/${state.id}/${action}`, body || {})); }
  catch (e) { say(e.message); }
}

// ---- the position ----
function pieces(fen) {
  const out = {};
  fen.split(" ")[0].split("/").forEach((row, r) => {
    let f = 0;
    for (const c of row) {
      if (/\d/.test(c)) f += Number(c);
      else { out[FILES[f] + (8 - r)] = c; f += 1; }
    }
  });
  return out;
}
function isWhitePiece(p) { return p === p.toUpperCase(); }
function liveView() { return viewing === null || viewing === state.fens.length - 1; }
function shownFen() { return liveView() ? state.fen : state.fens[viewing]; }
function shownPly() { return liveView() ? state.fens.length - 1 : viewing; }

// ---- drawing ----
function squareOrder() {
  const out = [];
  for (let r = 7; r >= 0; r--) for (let f = 0; f < 8; f++) out.push(FILES[f] + (r + 1));
  return flipped ? out.reverse() : out;
}

function drawBoard() {
  const board = $("board");
  board.textContent = "";
  document.body.dataset.flipped = String(flipped);
  const placed = pieces(shownFen());
  const ply = shownPly();
  const last = ply > 0 ? state.moves[ply - 1].uci : null;
  const targets = legalTargets(selected);
  const heatMode = $("heat").value;
  const heat = state.heat && heatMode !== "off" ? state.heat[heatMode] : null;
  const heatMax = heat ? Math.max(1, ...heat) : 1;
  const order = squareOrder();
  order.forEach((name, i) => {
    const f = FILES.indexOf(name[0]), r = Number(name[1]) - 1;
    const sq = document.createElement("div");
    sq.className = "sq " + ((f + r) % 2 ? "light" : "dark");
    sq.dataset.square = name;
    const piece = placed[name];
    sq.setAttribute("aria-label", name + (piece ? " " + piece : ""));
    if (last && (last.slice(0, 2) === name || last.slice(2, 4) === name)) sq.classList.add("last");
    if (liveView() && state.check === name) sq.classList.add("check");
    if (selected === name) sq.classList.add("selected");
    if (state.hint && state.hint.piece === name && liveView()) sq.classList.add("hint-piece");
    if (targets.has(name)) sq.classList.add("target");
    if (piece) sq.classList.add("occupied");
    if (heat) {
      const h = document.createElement("div");
      h.className = "heat";
      h.style.background = `rgba(230, 30, 0, ${(0.65 * heat[r * 8 + f] / heatMax).toFixed(3)})`;
      sq.appendChild(h);
    }
    if (piece) {
      const p = document.createElement("span");
      p.className = "piece " + (isWhitePiece(piece) ? "w" : "b");
      p.textContent = GLYPHS[piece.toUpperCase()];
      sq.appendChild(p);
    }
    if (i >= 56) addCoord(sq, "file", name[0]);
    if (i % 8 === 0) addCoord(sq, "rank", name[1]);
    board.appendChild(sq);
  });
  drawArrows();
}

function addCoord(sq, kind, text) {
  const c = document.createElement("span");
  c.className = "coord " + kind;
  c.textContent = text;
  sq.appendChild(c);
}

function squareCentre(name) {
  let f = FILES.indexOf(name[0]), r = 7 - (Number(name[1]) - 1);
  if (flipped) { f = 7 - f; r = 7 - r; }
  return [f + 0.5, r + 0.5];
}

function arrow(uci, colour) {
  const [x1, y1] = squareCentre(uci.slice(0, 2)), [x2, y2] = squareCentre(uci.slice(2, 4));
  const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const ex = x2 - ux * 0.3, ey = y2 - uy * 0.3;
  return `<line x1="${x1}" y1="${y1}" x2="${ex}" y2="${ey}" stroke="${colour}" stroke-width="0.16" stroke-linecap="round" opacity="0.8"/>` +
    `<polygon points="${x2},${y2} ${ex - uy * 0.22},${ey + ux * 0.22} ${ex + uy * 0.22},${ey - ux * 0.22}" fill="${colour}" opacity="0.8"/>`;
}

function drawArrows() {
  let svg = "";
  const ply = shownPly();
  // The better move, drawn on the position where the player went wrong.
  const verdict = ply < state.moves.length ? state.moves[ply].verdict : null;
  if (verdict && verdict.best_uci && !["best", "great"].includes(verdict.class)) svg += arrow(verdict.best_uci, "#1b7f3b");
  if (liveView() && state.hint && state.hint.move) svg += arrow(state.hint.move, "#7b2cbf");
  $("arrows").innerHTML = svg;
  $("arrows").dataset.arrows = (svg.match(/<line/g) || []).length;
}

const MARKS = { great: "!!", best: "!", inaccuracy: "?!", mistake: "?", blunder: "??" };
function drawMoves() {
  const list = $("moves");
  list.textContent = "";
  const firstBlack = state.start_fen.split(" ")[1] === "b";
  let li = null;
  state.moves.forEach((m, i) => {
    const whiteMove = (i % 2 === 0) !== firstBlack;
    if (!li || whiteMove) { li = document.createElement("li"); list.appendChild(li); if (!whiteMove) li.append("… "); }
    const span = document.createElement("span");
    const mark = m.verdict ? (MARKS[m.verdict.class] || "") : "";
    span.textContent = m.san + mark;
    if (m.verdict) span.className = "v-" + m.verdict.class;
    if (shownPly() === i + 1) span.classList.add("viewing");
    span.onclick = () => { viewing = i + 1; selected = null; render(); };
    li.appendChild(span);
    li.append(" ");
  });
  list.scrollTop = list.scrollHeight;
}

function drawVerdict() {
  const box = $("verdict");
  const judged = [...state.moves].reverse().find((m) => m.verdict);
  document.body.dataset.verdict = judged ? judged.verdict.class : "";
  if (!judged) { box.textContent = ""; return; }
  const v = judged.verdict;
  const words = { great: "Great move! The only move that keeps the result.", best: "Best move.", good: "Good move.",
    inaccuracy: "Inaccuracy.", mistake: "Mistake.", blunder: "Blunder." };
  let html = `<span class="class v-${v.class}">${judged.san}: ${words[v.class]}</span> <small>(${v.loss}% winning chances lost, depth ${v.depth})</small>`;
  if (!["best", "great", "good"].includes(v.class)) {
    html += `<br><b id="better">${v.best_san}</b> was better (arrow on the board before your move).` +
      `<br>After ${judged.san}: <span class="line">${v.refutation.slice(1).join(" ")}</span>`;
  }
  box.innerHTML = html;
  box.dataset.better = v.best_san || "";
}

function drawHelp() {
  const learning = state.mode === "learning";
  document.body.classList.toggle("competitive", !learning);
  if (!learning) return;
  const w = state.white_win === null ? 50 : state.white_win;
  $("bar-white").style.height = w + "%";
  $("bar-text").textContent = state.white_win === null ? "" :
    (w > 65 ? "White is winning!" : w < 35 ? "Black is winning!" : "Close game!") + ` (White's winning chances ${w.toFixed(0)}%)`;
  $("bar").dataset.white = w.toFixed(1);
  const h = state.hint;
  const parts = [];
  if (h.stage >= 1) parts.push(`Threat: ${h.threat}`);
  if (h.stage >= 2) parts.push(`Move the piece on ${h.piece}`);
  if (h.stage >= 3) parts.push(`Play ${h.move_san}`);
  $("hint-text").textContent = parts.join(" → ");
  $("hint").textContent = ["Hint: the threat", "Hint: the piece", "Hint: the move", "Hint"][h.stage];
  $("hint").disabled = h.stage >= 3;
  $("hints-used").textContent = state.hints_used ? `(${state.hints_used} hints used)` : "";
  $("undo").disabled = !state.undo_allowed;
  const fen = encodeURIComponent(shownFen());
  $("why-trace").href = `/explain/trace?fen=${fen}`;
  $("why-tree").href = `/explain/tree?fen=${fen}`;
}

function drawStatus() {
  const t = state.thinking;
  $("thinking").textContent = t && t.depth ? `depth ${t.depth}  ${t.score || ""}  ${t.pv.join(" ")}` : "";
  if (state.result) say(`${state.result.result}: ${state.result.reason}`);
  else if (state.busy) say(state.turn === state.player ? "Evaluating your move…" : `${state.opponent.name} is thinking…`);
  else say(state.turn === state.player ? "Your move." : "");
  if (state.result && shownResult !== state.id + state.moves.length + state.result.reason) {
    shownResult = state.id + state.moves.length + state.result.reason;
    $("result-title").textContent = state.result.result;
    $("result-reason").textContent = state.result.reason;
    const a = state.accuracy;
    $("result-accuracy").textContent = a ? `Accuracy: White ${fmt(a.white)}, Black ${fmt(a.black)}. Hints used: ${state.hints_used}.` : "";
    if (!$("result").open) $("result").showModal();
  }
}
function fmt(x) { return x === null || x === undefined ? "–" : x.toFixed(1) + "%"; }

function render() {
  if (!state) return;
  if (viewing !== null && viewing >= state.fens.length) viewing = null;
  const b = document.body.dataset;
  b.state = "ready"; b.fen = shownFen(); b.ply = state.moves.length; b.busy = state.busy;
  b.mode = state.mode; b.result = state.result ? state.result.reason : ""; b.hintStage = state.hint ? state.hint.stage : 0;
  b.version = state.version;
  drawBoard(); drawMoves(); drawVerdict(); drawHelp(); drawStatus();
  $("pgn").href = $("result-pgn").href = `/api/game/${state.id}/pgn`;
  // The first complete drawing, in ms since the navigation began (docs/play.md, "Latency").
  if (!b.readyMs) b.readyMs = Math.round(performance.now());
}

function show(next) {
  if (state && next.id === state.id && next.version < state.version) return;
  if (!state || next.id !== state.id || next.fens.length !== state.fens.length) viewing = null;
  state = next;
  clockSeen = performance.now();
  render();
  drawClocks();
}

// ---- clocks: the server's times, counted down here between states ----
let clockSeen = 0, flagAsked = false;
function clockText(ms) {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  const s = Math.floor(tenths / 10), m = Math.floor(s / 60);
  return ms < 10000 ? `${m}:${String(s % 60).padStart(2, "0")}.${tenths % 10}` : `${m}:${String(s % 60).padStart(2, "0")}`;
}
function drawClocks() {
  const c = state && state.clock;
  $("clocks").hidden = !c;
  if (!c) return;
  const opponent = state.player === "white" ? "black" : "white";
  let outOfTime = false;
  for (const [side, el, who] of [[state.player, "clock-player", "You"], [opponent, "clock-opponent", state.opponent.name]]) {
    const running = c.running === side;
    const left = c[side + "_ms"] - (running ? performance.now() - clockSeen : 0);
    if (running && left <= 0) outOfTime = true;
    $(el).textContent = `${who} ${clockText(left)}`;
    $(el).classList.toggle("running", running);
    $(el).classList.toggle("low", left < 10000);
  }
  document.body.dataset.clockPlayer = $("clock-player").textContent;
  // Out of time here: the server decides (it holds the clocks), asked once.
  if (outOfTime && !flagAsked) {
    flagAsked = true;
    api("GET", `/api/game/${state.id}`).then(show).catch((e) => say(e.message)).finally(() => { flagAsked = false; });
  }
}
setInterval(drawClocks, 100);

// ---- moving ----
function legalTargets(from) {
  const out = new Set();
  if (!from || !state || !liveView()) return out;
  for (const m of state.legal) if (m.startsWith(from)) out.add(m.slice(2, 4));
  return out;
}

function tryMove(from, to) {
  const options = state.legal.filter((m) => m.startsWith(from + to));
  selected = null;
  if (options.length === 0) { render(); return false; }
  if (options.length > 1) { choosePromotion(options); return true; }
  sendMove(options[0]);
  return true;
}

function choosePromotion(options) {
  const box = $("promotion");
  box.textContent = "";
  const white = state.turn === "white";
  for (const role of ["q", "r", "b", "n"]) {
    const uci = options.find((m) => m.endsWith(role));
    if (!uci) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.role = role;
    button.className = "piece " + (white ? "w" : "b");
    button.textContent = GLYPHS[role.toUpperCase()];
    button.onclick = () => { box.hidden = true; sendMove(uci); };
    box.appendChild(button);
  }
  box.hidden = false;
  render();
}

async function sendMove(text) {
  // Shown at once; the server's answer (with the verdict) replaces it.
  await act("move", { move: text });
}

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest(".sq");
  return sq ? sq.dataset.square : null;
}

let drag = null;
function onPointerDown(e) {
  const name = squareAt(e.clientX, e.clientY);
  if (!name || !state || !liveView() || state.busy || state.result) return;
  const piece = pieces(state.fen)[name];
  const mine = piece && (isWhitePiece(piece) === (state.player === "white"));
  if (selected && selected !== name && !mine) { tryMove(selected, name); return; }
  if (!mine) { selected = null; render(); return; }
  if (selected === name) { selected = null; render(); return; }
  selected = name;
  render();
  const original = document.querySelector(`.sq[data-square="${name}"] .piece`);
  if (!original) return;
  const ghost = original.cloneNode(true);
  ghost.classList.add("dragging");
  ghost.style.left = e.clientX + "px"; ghost.style.top = e.clientY + "px";
  document.body.appendChild(ghost);
  original.style.opacity = "0.3";
  drag = { from: name, ghost, moved: false };
  e.preventDefault();
}
function onPointerMove(e) {
  if (!drag) return;
  drag.moved = true;
  drag.ghost.style.left = e.clientX + "px"; drag.ghost.style.top = e.clientY + "px";
}
function onPointerUp(e) {
  if (!drag) return;
  const { from, ghost } = drag;
  drag = null;
  ghost.remove();
  const to = squareAt(e.clientX, e.clientY);
  if (to && to !== from) tryMove(from, to); else render();
}

// ---- the game ----
async function newGame(event) {
  if (event) event.preventDefault();
  const level = $("level").value;
  const start = $("start").value.trim();
  const body = { mode: $("mode").value, color: $("color").value, undo: $("undo-allowed").checked };
  if (body.mode === "competitive" && $("clock").value) body.clock = $("clock").value;
  if (level === "elo") body.elo = Number($("elo").value); else body.level = level;
  if (start) { if (/^\s*\[|\d\.\s*\S/.test(start) && !/\//.test(start.split(" ")[0])) body.pgn = start; else body.fen = start; }
  try {
    const next = await api("POST", "/api/new", body);
    flipped = next.player === "black";
    history.replaceState(null, "", "#g=" + next.id);
    listen(next.id);
    show(next);
  } catch (e) { say(e.message); }
}

// A picture of a board (dropped on the board or chosen in the form) starts a
// new game from the position `tarpon scan` reads in it.
async function scanPicture(file) {
  if (!file) return;
  const note = (text) => { $("picture-note").textContent = text; };
  note("Reading the picture…");
  try {
    const response = await fetch("/api/scan", { method: "POST", body: file });
    const read = await response.json().catch(() => ({ error: "bad answer" }));
    if (!response.ok) throw new Error(read.error || response.statusText);
    $("start").value = read.fen;
    await newGame();
    note(`Read from the picture: ${read.fen}` + (read.doubts ? ` (${read.doubts}: check them)` : ""));
  } catch (e) { note("The picture: " + e.message); }
}

function listen(id) {
  if (events) events.close();
  events = new EventSource(`/api/game/${id}/events`);
  events.onmessage = (e) => show(JSON.parse(e.data));
}

async function attach() {
  const id = gameId();
  if (!id) return newGame();
  try {
    const found = await api("GET", `/api/game/${id}`);
    flipped = found.player === "black";
    listen(id);
    show(found);
  } catch (e) { await newGame(); }
}

async function loadPuzzles() {
  try {
    const { puzzles } = await api("GET", "/api/puzzles");
    const list = $("puzzles");
    list.textContent = "";
    puzzles.slice(-20).forEach((p) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = `${p.class}: you played ${p.played} (${p.fen.split(" ")[1] === "w" ? "White" : "Black"} to move)`;
      a.onclick = (e) => {
        e.preventDefault();
        $("mode").value = "learning";
        $("color").value = p.fen.split(" ")[1] === "w" ? "white" : "black";
        $("start").value = p.fen;
        newGame().then(() => say(`You played ${p.played} here: find a better move.`));
      };
      li.appendChild(a);
      list.appendChild(li);
    });
  } catch (e) { /* no puzzles kept yet */ }
}

function step(delta) {
  if (!state) return;
  const current = shownPly();
  const next = Math.max(0, Math.min(state.fens.length - 1, current + delta));
  viewing = next === state.fens.length - 1 ? null : next;
  selected = null;
  render();
}

async function init() {
  try { levels = (await api("GET", "/api/levels")).levels; } catch (e) { levels = []; }
  for (const l of levels) {
    const o = document.createElement("option");
    o.value = l.name;
    o.textContent = l.elo ? `${l.name} (${l.elo})` : `${l.name} (full strength)`;
    $("level").appendChild(o);
  }
  const free = document.createElement("option");
  free.value = "elo"; free.textContent = "Elo…";
  $("level").appendChild(free);
  $("level").value = "Beginner";
  $("level").onchange = () => { $("elo-label").hidden = $("level").value !== "elo"; };
  $("setup").onsubmit = newGame;
  $("flip").onclick = () => { flipped = !flipped; render(); };
  $("undo").onclick = () => act("undo");
  $("hint").onclick = () => act("hint");
  $("resign").onclick = () => act("resign");
  $("draw").onclick = () => act("draw");
  $("heat").onchange = render;
  $("typed").onsubmit = (e) => { e.preventDefault(); const t = $("typed-move").value.trim(); if (t) { $("typed-move").value = ""; sendMove(t); } };
  const board = $("board-wrap");
  board.addEventListener("dragover", (e) => { e.preventDefault(); board.classList.add("drop-target"); });
  board.addEventListener("dragleave", () => board.classList.remove("drop-target"));
  board.addEventListener("drop", (e) => {
    e.preventDefault();
    board.classList.remove("drop-target");
    scanPicture(e.dataTransfer.files[0]);
  });
  $("picture").onchange = () => scanPicture($("picture").files[0]);
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, textarea, select")) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "f") { flipped = !flipped; render(); }
  });
  window.addEventListener("hashchange", attach);
  loadPuzzles();
  await attach();
}
init();
