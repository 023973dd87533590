// Search trees from DATA = {fen, depth, results: [{algo, nodes, cutoffs, best, score, time_ms, tree}]}.
var MATE = 32000, MATE_BOUND = 31000;
function scoreText(s, infinity) {
  if (s === null || s === undefined) return infinity;
  var a = Math.abs(s);
  if (a > MATE_BOUND && a <= MATE) {
    var moves = Math.floor((MATE - Math.round(a) + 1) / 2);
    return (s > 0 ? '#' : '#-') + moves;
  }
  var r = Math.round(s);
  return Math.abs(s - r) < 1e-9 ? (r >= 0 ? '+' : '') + r : (s >= 0 ? '+' : '') + s.toFixed(2);
}
function valueText(n) {
  if (n.visits !== undefined) return 'Q ' + n.q.toFixed(3) + ', ' + n.visits + ' visits';
  return scoreText(n.score, '?');
}
function describe(n, isRoot) {
  var parts = [(isRoot ? 'root' : n.move + ' (' + n.uci + ')'), n.type, 'value ' + valueText(n)];
  if (n.window) parts.push('window \u03b1 ' + scoreText(n.window[0], '-\u221e') + ', \u03b2 ' + scoreText(n.window[1], '+\u221e'));
  parts.push(n.nodes + (n.nodes === 1 ? ' node' : ' nodes'));
  if (n.pruned) parts.push('cutoff: ' + n.pruned + ' moves pruned');
  if (n.research) parts.push('PVS re-search');
  return parts.join(' \u00b7 ');
}
function nodeItem(n, isRoot, depth, info) {
  var li = el('li');
  var box = el('span', {class: 'node k-' + n.type.toLowerCase() + (n.pv ? ' pv' : ''), tabindex: '0'});
  box.textContent = (isRoot ? 'root' : n.move) + ' ' + valueText(n);
  box.appendChild(el('span', {class: 'kind'}, n.type));
  if (n.pruned) box.appendChild(el('span', {class: 'cutmark', title: 'beta cutoff'}, '\u2702'));
  if (n.collapsed) box.appendChild(el('span', {class: 'kind'}, '+' + (n.nodes - 1)));
  var text = describe(n, isRoot);
  box.setAttribute('title', text);
  var show = function () { info.textContent = text; };
  box.addEventListener('mouseenter', show);
  box.addEventListener('focus', show);
  var below = [];
  (n.children || []).forEach(function (c) { below.push(nodeItem(c, false, depth + 1, info)); });
  if (n.more) below.push(el('li', {class: 'more'}, '\u2026 ' + n.more.moves + ' more moves (' + n.more.nodes + ' nodes)'));
  if (n.pruned) {
    var p = el('li');
    p.appendChild(el('span', {class: 'pruned'}, '\u2702 ' + n.pruned + ' moves pruned here'));
    below.push(p);
  }
  if (!below.length) { li.appendChild(box); return li; }
  var details = el('details');
  if (n.pv || depth < 1) details.open = true;
  var summary = el('summary');
  summary.appendChild(box);
  details.appendChild(summary);
  var ul = el('ul');
  below.forEach(function (b) { ul.appendChild(b); });
  details.appendChild(ul);
  li.appendChild(details);
  return li;
}
function drawSummary(results) {
  var box = document.getElementById('summary');
  var most = Math.max.apply(null, results.map(function (r) { return r.nodes; }).concat([1]));
  results.forEach(function (r) {
    var row = el('div', {class: 'bar'});
    row.appendChild(el('span', {}, r.algo));
    var track = el('div');
    track.appendChild(el('div', {class: 'fill', style: 'width:' + (100 * r.nodes / most).toFixed(1) + '%'}));
    row.appendChild(track);
    row.appendChild(el('span', {class: 'num'}, r.nodes + ' nodes'));
    box.appendChild(row);
  });
}
function drawTrees(results) {
  var section = document.getElementById('trees');
  results.forEach(function (r) {
    var panel = el('div', {class: 'panel', id: 'tree-' + r.algo});
    panel.appendChild(el('h2', {}, r.algo));
    var cut = r.algo === 'alphabeta' || r.algo === 'pvs' ? ', ' + r.cutoffs + ' cutoffs' : '';
    panel.appendChild(el('p', {class: 'stats'}, r.nodes + ' nodes, ' + r.leaves + ' leaves' + cut +
      '; best ' + r.best + ' ' + scoreText(r.score, '?') + '; ' + r.time_ms.toFixed(1) + ' ms'));
    var info = el('div', {class: 'info'}, 'hover or tap a node for its window and score');
    panel.appendChild(info);
    var scroll = el('div', {class: 'treebox'});
    var ul = el('ul', {class: 'tree'});
    ul.appendChild(nodeItem(r.tree, true, 0, info));
    if (r.tree.not_shown_nodes) ul.appendChild(el('li', {class: 'more'}, '\u2026 ' + r.tree.not_shown_nodes + ' nodes not shown (--max-lines)'));
    scroll.appendChild(ul);
    panel.appendChild(scroll);
    section.appendChild(panel);
  });
}
drawSummary(DATA.results);
drawTrees(DATA.results);
