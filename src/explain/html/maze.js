// Maze runs from DATA = {rows, cols, start, goal, text, results: [{algo, expanded, length, cost, path, steps}]}.
var rows = DATA.rows, cols = DATA.cols;
var lines = DATA.text.split('\n');
function rect(r, c, cls, fill) {
  var a = {x: c, y: r, width: 1, height: 1, class: cls};
  if (fill) a.fill = fill;
  return svgEl('rect', a);
}
function mazeSvg() {
  var s = svgEl('svg', {class: 'maze', viewBox: '0 0 ' + cols + ' ' + rows});
  var walls = [];
  for (var r = 0; r < rows; r++) {
    for (var c = 0; c < cols; c++) {
      var ch = lines[r].charAt(c);
      if (ch === '#') walls.push('M' + c + ' ' + r + 'h1v1h-1z');
      else if (ch >= '2' && ch <= '9') s.appendChild(rect(r, c, 'cost', 'rgba(120,90,40,' + (ch - 1) * 0.06 + ')'));
    }
  }
  s.appendChild(svgEl('path', {class: 'wall', d: walls.join('')}));
  return s;
}
// Each run: its steps as [kind, row, col] and the layer they are drawn on.
var runs = DATA.results.map(function (res) {
  var panel = el('div', {class: 'panel', id: 'run-' + res.algo});
  panel.appendChild(el('h2', {}, res.algo));
  var stats = el('p', {class: 'stats'});
  panel.appendChild(stats);
  var svg = mazeSvg();
  var layer = svgEl('g');
  svg.appendChild(layer);
  var path = svgEl('polyline', {class: 'path', 'stroke-width': 0.35, visibility: 'hidden',
    points: (res.path || []).map(function (p) { return (p[1] + 0.5) + ',' + (p[0] + 0.5); }).join(' ')});
  svg.appendChild(path);
  [[DATA.start, 'S'], [DATA.goal, 'G']].forEach(function (e) {
    svg.appendChild(rect(e[0][0], e[0][1], 'endcell'));
    var t = svgEl('text', {class: 'end', x: e[0][1] + 0.5, y: e[0][0] + 0.55});
    t.textContent = e[1];
    svg.appendChild(t);
  });
  panel.appendChild(svg);
  document.getElementById('runs').appendChild(panel);
  var steps = (res.steps || []).map(function (s) {
    var w = s.split(' ');
    return [w[0].charAt(0), +w[1], +w[2]];
  });
  return {res: res, panel: panel, stats: stats, layer: layer, path: path, steps: steps, shown: 0, visits: 0};
});
var last = Math.max.apply(null, runs.map(function (r) { return r.steps.length; }).concat([0]));
var now = 0, timer = null;
var slider = document.getElementById('slider'), playButton = document.getElementById('play');
slider.max = last;
function describe(run) {
  var res = run.res, finished = run.shown >= run.steps.length;
  var text = run.visits + ' of ' + res.expanded + ' cells expanded';
  if (finished) text += res.length === null ? '; no path' : '; path ' + res.length + ' moves, cost ' + res.cost;
  run.stats.textContent = text;
  run.path.setAttribute('visibility', finished && res.path ? 'visible' : 'hidden');
  run.panel.classList.toggle('done', finished);
}
// Draws every run up to step t (from scratch when going back).
function show(t) {
  now = Math.max(0, Math.min(last, t));
  runs.forEach(function (run) {
    var upto = Math.min(now, run.steps.length);
    if (upto < run.shown) {
      while (run.layer.firstChild) run.layer.removeChild(run.layer.firstChild);
      run.shown = 0;
      run.visits = 0;
    }
    for (; run.shown < upto; run.shown++) {
      var s = run.steps[run.shown];
      var fill;
      if (s[0] === 'v') {
        fill = 'hsl(' + (200 - 160 * run.visits / Math.max(1, run.res.expanded - 1)) + ',80%,55%)';
        run.visits++;
      }
      run.layer.appendChild(rect(s[1], s[2], s[0] === 'v' ? 'v' : s[0], fill));
    }
    describe(run);
  });
  slider.value = now;
  document.getElementById('clock').textContent = 'step ' + now + ' of ' + last;
  if (now >= last) {
    stop();
    document.documentElement.setAttribute('data-done', '1');
  }
}
function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  playButton.textContent = '\u25b6 play';
}
function play(perTick) {
  if (now >= last) show(0);
  timer = setInterval(function () { show(now + perTick()); }, 30);
  playButton.textContent = '\u275a\u275a pause';
}
var speed = document.getElementById('speed');
playButton.addEventListener('click', function () {
  if (timer) stop(); else play(function () { return +speed.value; });
});
document.getElementById('step').addEventListener('click', function () { stop(); show(now + 1); });
document.getElementById('reset').addEventListener('click', function () { stop(); show(0); });
slider.addEventListener('input', function () { stop(); show(+slider.value); });
show(0);
if (location.hash.indexOf('autoplay') >= 0) {
  play(function () { return Math.max(1, Math.ceil(last / 60)); });
}
// Served by `tarpon play` the page has a form with the maze's text: a click
// on an inner cell of any run toggles its wall and reruns on the edited maze.
var mazeForm = document.getElementById('maze-form');
if (mazeForm) {
  runs.forEach(function (run) {
    var svg = run.panel.querySelector('svg');
    svg.style.cursor = 'crosshair';
    svg.addEventListener('click', function (e) {
      var box = svg.getBoundingClientRect();
      var c = Math.floor((e.clientX - box.left) / box.width * cols);
      var r = Math.floor((e.clientY - box.top) / box.height * rows);
      if (r <= 0 || c <= 0 || r >= rows - 1 || c >= cols - 1) return;
      var ch = lines[r].charAt(c);
      if (ch === 'S' || ch === 'G') return;
      lines[r] = lines[r].substring(0, c) + (ch === '#' ? '.' : '#') + lines[r].substring(c + 1);
      document.getElementById('maze-text').value = lines.join('\n');
      mazeForm.submit();
    });
  });
}
if (mazeForm) {
  // "new maze" generates from the settings; only "run on these walls" sends the text.
  mazeForm.addEventListener('submit', function (e) {
    if (e.submitter && e.submitter.id === 'maze-new') document.getElementById('maze-text').disabled = true;
  });
}
