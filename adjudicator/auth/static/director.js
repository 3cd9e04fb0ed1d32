/* The director's screen keeps its list of judge devices current, so a tablet just paired shows
 * up without a reload (which would re-send the pairing form and lose the code on screen). It
 * polls the list's digest (GET /director/devices/state) and, when that changes, fetches this
 * screen again and swaps in its list only. While the director is in the list (a revoke question
 * open, the focus inside) it waits for the next turn. */
(function () {
  'use strict';
  var EVERY = 3000; // ms between polls
  var section = document.getElementById('devices-section');
  if (!section || !window.fetch || !window.DOMParser) return;
  var poll = section.getAttribute('data-poll');
  var home = section.getAttribute('data-home');

  function busy() {
    return section.querySelector('details[open]') !== null ||
      section.contains(document.activeElement);
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, 'text/html')
      .getElementById('devices-section');
    if (!fresh || busy()) return;
    section.replaceChildren.apply(section, Array.prototype.slice.call(fresh.childNodes));
    section.setAttribute('data-devices-state', fresh.getAttribute('data-devices-state'));
  }

  function tick() {
    if (document.hidden || busy()) return schedule();
    fetch(poll, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || body.state === section.getAttribute('data-devices-state')) return null;
        return fetch(home, { credentials: 'same-origin', cache: 'no-store' })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) { if (html) swap(html); });
      })
      .catch(function () { /* the service away for a moment, or the session over: next turn */ })
      .then(schedule);
  }

  function schedule() { setTimeout(tick, EVERY); }
  schedule();
})();
