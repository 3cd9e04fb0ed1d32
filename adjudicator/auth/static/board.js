/* "Check a game": the board at any turn. The server drew every tile of the game once, each with
 * the turns it lay on the board (data-from, data-until); showing turn k hides the tiles outside
 * [from, until) and outlines the newest move of the others (last_move in engine/picture.py).
 * The slider, the arrow keys (Home, End) and the links to a turn (the table's numbers, the list
 * of deviations) all go through show().
 * Nothing is fetched: the page holds the whole game. */
(function () {
  'use strict';
  var game = document.getElementById('game');
  if (!game) return;
  var slider = document.getElementById('turn-slider');
  var number = document.getElementById('turn-number');
  var caption = document.getElementById('turn-caption');
  var tiles = Array.prototype.slice.call(game.querySelectorAll('svg g.tile'));
  var rows = Array.prototype.slice.call(game.querySelectorAll('#turns tbody tr'));
  var last = Number(slider.max);

  function show(k) {
    k = Math.max(0, Math.min(last, k));
    slider.value = String(k);
    number.textContent = String(k);
    var latest = 0; // the newest move still on the board: a pass leaves the play before it
    var on = tiles.map(function (tile) {
      var from = Number(tile.getAttribute('data-from'));
      var until = tile.hasAttribute('data-until') ? Number(tile.getAttribute('data-until')) : Infinity;
      var there = from <= k && k < until;
      if (there) latest = Math.max(latest, from);
      return there;
    });
    tiles.forEach(function (tile, i) {
      var now = on[i] && Number(tile.getAttribute('data-from')) === latest;
      tile.setAttribute('visibility', on[i] ? 'visible' : 'hidden');
      tile.classList.toggle('last', now);
      var outline = tile.querySelector('.outline');
      if (outline) outline.setAttribute('visibility', now ? 'visible' : 'hidden');
    });
    var text = slider.getAttribute('data-start');
    rows.forEach(function (row) {
      var current = Number(row.getAttribute('data-turn')) === k;
      row.classList.toggle('current', current);
      if (current) {
        row.setAttribute('aria-current', 'step');
        text = row.getAttribute('data-caption');
      } else {
        row.removeAttribute('aria-current');
      }
    });
    caption.textContent = text;
    slider.setAttribute('aria-valuetext', text);
    keepInView(rows[k - 1]);
  }

  // The turn's row stays in view in the table's own scrolling region, never scrolling the page.
  var region = game.querySelector('.table-scroll');
  function keepInView(row) {
    if (!row || !region || region.scrollHeight <= region.clientHeight) return;
    var r = row.getBoundingClientRect();
    var box = region.getBoundingClientRect();
    var top = box.top + region.querySelector('thead').offsetHeight; // below the sticky head
    if (r.top < top) region.scrollTop -= top - r.top;
    else if (r.bottom > box.bottom) region.scrollTop += r.bottom - box.bottom;
  }

  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.getElementById('turn-prev').addEventListener('click', function () {
    show(Number(slider.value) - 1);
  });
  document.getElementById('turn-next').addEventListener('click', function () {
    show(Number(slider.value) + 1);
  });

  // Arrow keys anywhere but in a field that uses them itself (the slider moves on its own).
  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable) return;
    if (target.closest('.table-scroll')) return; // the table's region scrolls with them
    var steps = { ArrowLeft: -1, ArrowRight: 1 };
    var k = Number(slider.value);
    if (event.key in steps) k += steps[event.key];
    else if (event.key === 'Home') k = 0;
    else if (event.key === 'End') k = last;
    else return;
    event.preventDefault();
    show(k);
  });

  // A link to a turn (#turn-k) shows its board and keeps its row in view.
  game.addEventListener('click', function (event) {
    var link = event.target.closest('a[data-turn]');
    if (!link) return;
    show(Number(link.getAttribute('data-turn')));
  });

  show(last);
  // A game just checked: it, not the form above it, fills the screen (unless a link chose a spot).
  if (!location.hash) game.scrollIntoView({ block: 'start' });
})();
