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

/* The pairing code on the director's screen: it polls where the code stands
 * (GET /director/pairings/<id>/state). Once a tablet has paired with it, the code and the QR code
 * leave the screen and "paired as …" is said in their place (a status, read out by a screen
 * reader); a code that ran out unused goes the same way, saying so. The devices list above
 * follows by its own poll. */
(function () {
  'use strict';
  var EVERY = 2000; // ms between polls
  var section = document.getElementById('pairing');
  if (!section || !window.fetch) return;
  var poll = section.getAttribute('data-poll');
  var shown = document.getElementById('pairing-shown');
  var status = document.getElementById('pairing-status');

  function settle(state) {
    var said = document.getElementById(state === 'paired' ? 'pairing-paired' : 'pairing-expired');
    if (shown) shown.remove();
    section.querySelectorAll('#pairing-title ~ p:not(#pairing-status)').forEach(function (p) {
      p.remove(); // "open … and enter the code": nothing to enter now
    });
    status.textContent = said.content.textContent;
    section.setAttribute('data-state', state);
  }

  function tick() {
    fetch(poll, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (body && (body.state === 'paired' || body.state === 'expired')) return settle(body.state);
        setTimeout(tick, EVERY);
      })
      .catch(function () { setTimeout(tick, EVERY); }); // the service away for a moment
  }
  setTimeout(tick, EVERY);
})();
