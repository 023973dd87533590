// Shared by every report: the embedded data and small DOM helpers. `ready()`
// marks a start without script errors (html[data-ready]).
var DATA = JSON.parse(document.getElementById('data').textContent);
var SVG_NS = 'http://www.w3.org/2000/svg';
function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function svgEl(tag, attrs) {
  var e = document.createElementNS(SVG_NS, tag);
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}
function ready() {
  var root = document.documentElement;
  if (!root.hasAttribute('data-errors')) root.setAttribute('data-ready', '1');
}
