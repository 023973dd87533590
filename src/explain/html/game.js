// Replays DATA.games[i] = {start: {fen, contest}, moves: [{san, uci, fen, contest, label, best, eval, ...}]}
// on the board, graph and move list of section #g<i>.
var GLYPHS = {k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F'};
function placement(fen) {
  var out = [], rows = fen.split(' ')[0].split('/');
  for (var row = 0; row < 8; row++) {
    var file = 0;
    for (var i = 0; i < rows[row].length; i++) {
      var ch = rows[row].charAt(i);
      if (ch >= '1' && ch <= '8') file += +ch;
      else out[(7 - row) * 8 + file++] = ch;
    }
  }
  return out;
}
function squareOf(name) { return (name.charCodeAt(1) - 49) * 8 + name.charCodeAt(0) - 97; }
function setUpGame(section, game) {
  var id = section.id, positions = [game.start].concat(game.moves), ply = 0;
  var hottest = Math.max.apply(null, positions.map(function (p) { return Math.max.apply(null, p.contest); }).concat([1]));
  var heatBox = section.querySelector('input.heat');
  var graph = document.getElementById(id + '-eval');
  var cursor = document.getElementById(id + '-eval-cursor');
  var dots = graph.querySelectorAll('circle');
  var buttons = section.querySelectorAll('.mv');
  function show(p) {
    ply = Math.max(0, Math.min(positions.length - 1, p));
    var pos = positions[ply], pieces = placement(pos.fen), move = ply > 0 ? game.moves[ply - 1] : null;
    var marked = move ? [squareOf(move.uci.slice(0, 2)), squareOf(move.uci.slice(2, 4))] : [];
    for (var sq = 0; sq < 64; sq++) {
      var t = document.getElementById(id + '-board-p' + sq), ch = pieces[sq];
      t.textContent = ch ? GLYPHS[ch.toLowerCase()] + '\uFE0E' : '';
      t.setAttribute('class', 'piece' + (ch ? (ch === ch.toUpperCase() ? ' white' : ' black') : ''));
      var h = document.getElementById(id + '-board-h' + sq);
      if (marked.indexOf(sq) >= 0) {
        h.setAttribute('fill', '#f2d13b');
        h.setAttribute('fill-opacity', '0.55');
      } else {
        h.setAttribute('fill', '#d62839');
        h.setAttribute('fill-opacity', heatBox.checked ? (0.7 * pos.contest[sq] / hottest).toFixed(3) : '0');
      }
      document.getElementById(id + '-board-v' + sq).textContent = heatBox.checked && pos.contest[sq] ? pos.contest[sq] : '';
    }
    var dot = dots[ply];
    cursor.setAttribute('x1', dot.getAttribute('cx'));
    cursor.setAttribute('x2', dot.getAttribute('cx'));
    cursor.setAttribute('visibility', 'visible');
    for (var i = 0; i < buttons.length; i++) buttons[i].classList.toggle('current', +buttons[i].getAttribute('data-ply') === ply);
    var now = section.querySelector('.now');
    if (!move) {
      now.textContent = 'Start position, ' + game.moves.length + ' plies. Evaluation ' + pos.eval + ' for White.';
    } else {
      var text = move.number + (move.white ? '. ' : '... ') + move.san + ': ' + move.label + ', evaluation ' + move.eval + ' for White.';
      if (move.label !== 'best') text += ' Engine preferred ' + move.best + ' (' + move.before + ' for the mover, played: ' + move.after + ').';
      now.textContent = text;
    }
  }
  section.querySelectorAll('[data-go]').forEach(function (b) {
    b.addEventListener('click', function () {
      var go = b.getAttribute('data-go');
      show(go === 'first' ? 0 : go === 'last' ? positions.length - 1 : go === 'back' ? ply - 1 : ply + 1);
    });
  });
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (e) { show(+e.currentTarget.getAttribute('data-ply')); });
  }
  for (var d = 0; d < dots.length; d++) {
    dots[d].addEventListener('click', function (e) { show(+e.currentTarget.getAttribute('data-i')); });
  }
  heatBox.addEventListener('change', function () { show(ply); });
  section.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') show(ply - 1);
    if (e.key === 'ArrowRight') show(ply + 1);
  });
  section.tabIndex = 0;
  // #ply=N opens every game at ply N (for screenshots and links).
  var wanted = /ply=(\d+)/.exec(location.hash);
  show(wanted ? +wanted[1] : 0);
}
document.querySelectorAll('section.game').forEach(function (s) {
  setUpGame(s, DATA.games[+s.getAttribute('data-game')]);
});
