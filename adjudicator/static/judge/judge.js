/* The judge's tablet: count → words → JUDGE → verdict → clear. Plain JS, no build, no network
 * but the service. Nothing is ever pushed onto the browser's history, and nothing of a
 * challenge outlives its verdict: the words leave the DOM as soon as they are sent. */
(function () {
  'use strict';

  // The set-up page: open a kiosk without leaving a history entry to come back to.
  if (!document.getElementById('judge-config')) {
    document.addEventListener('click', function (event) {
      var link = event.target.closest && event.target.closest('a.ruleset-link');
      if (link) {
        event.preventDefault();
        location.replace(link.href);
      }
    });
    return;
  }

  var cfg = JSON.parse(document.getElementById('judge-config').textContent);
  var t = cfg.strings;
  var lang = cfg.ruleset.language;
  var allowed = new Set(Array.from(cfg.word_characters));
  var timers = cfg.timers;

  function $(id) { return document.getElementById(id); }
  function fmt(text, vars) {
    return text.replace(/\{(\w+)\}/g, function (m, key) { return key in vars ? String(vars[key]) : m; });
  }
  function now() { return performance.now(); }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var SCREENS = ['count', 'enter', 'judging', 'result', 'error', 'pin', 'admin'];
  var IDLE_SCREENS = { enter: 1, error: 1, pin: 1, admin: 1 };
  var screen = 'count';
  var wordCount = 0;
  var current = 0;
  var pending = null; // the words of a challenge in flight or to retry: memory only, never DOM
  var busy = false;
  var resultShownAt = 0;
  var resultTimer = 0;
  var idleTimer = 0;

  function show(name, focusTarget) {
    SCREENS.forEach(function (s) { $('screen-' + s).hidden = s !== name; });
    document.body.dataset.screen = name;
    screen = name;
    armIdle();
    if (focusTarget) focusTarget.focus({ preventScroll: true });
  }

  // --- idle: half-entered words, PIN screens and errors clear themselves -------------------
  function armIdle() {
    clearTimeout(idleTimer);
    if (IDLE_SCREENS[screen]) idleTimer = setTimeout(reset, timers.idle_ms);
  }

  function reset() {
    clearTimeout(idleTimer);
    clearTimeout(resultTimer);
    pending = null;
    wordCount = 0;
    current = 0;
    $('words').textContent = '';
    $('enter-message').textContent = '';
    $('result-body').textContent = '';
    delete $('screen-result').dataset.ruling;
    $('countdown-bar').className = '';
    $('pin').value = '';
    $('pin-message').textContent = '';
    $('admin-rulesets').textContent = '';
    $('judge').disabled = true;
    show('count', $('count-title'));
  }

  // --- 2. how many words --------------------------------------------------------------------
  function startEntry(n, words) {
    wordCount = n;
    var box = $('words');
    box.textContent = '';
    for (var i = 0; i < n; i++) {
      var label = el('label', 'word');
      label.appendChild(el('span', 'word-label', String(i + 1)));
      var input = document.createElement('input');
      input.type = 'text';
      input.id = 'word-' + i;
      input.dataset.index = String(i);
      input.setAttribute('autocomplete', 'off');
      input.setAttribute('autocorrect', 'off');
      input.setAttribute('autocapitalize', 'characters');
      input.setAttribute('spellcheck', 'false');
      input.setAttribute('inputmode', 'none'); // the page's own keyboard, not the system's
      input.setAttribute('enterkeyhint', i + 1 < n ? 'next' : 'done');
      input.setAttribute('aria-label', fmt(t.word_n, { n: i + 1 }));
      input.maxLength = cfg.max_letters;
      if (words && words[i]) input.value = words[i];
      label.appendChild(input);
      box.appendChild(label);
    }
    $('enter-message').textContent = '';
    show('enter');
    selectWord(0);
    updateJudge();
  }

  function inputs() { return Array.from($('words').querySelectorAll('input')); }

  function selectWord(i) {
    var all = inputs();
    if (!all.length) return;
    current = Math.max(0, Math.min(i, all.length - 1));
    all.forEach(function (input, k) { input.parentNode.classList.toggle('current', k === current); });
    var input = all[current];
    if (document.activeElement !== input) input.focus();
    var end = input.value.length;
    input.setSelectionRange(end, end);
  }

  // --- 3. typing: upper-case as typed, refuse what can never be in a word ------------------
  function clean(text) {
    var kept = '';
    var refused = '';
    Array.from(text.normalize('NFC')).forEach(function (ch) {
      var up = ch.toUpperCase();
      if (up.length === 1 && allowed.has(up)) kept += up;
      else if (!refused) refused = ch;
    });
    return { text: Array.from(kept).slice(0, cfg.max_letters).join(''), refused: refused };
  }

  function refuse(input, ch) {
    var shown = ch === ' ' ? '␣' : ch;
    $('enter-message').textContent = fmt(t.refused, { char: shown });
    var box = input.parentNode;
    box.classList.remove('refused');
    void box.offsetWidth; // restart the shake
    box.classList.add('refused');
  }

  function onWordInput(event) {
    var input = event.target;
    var caret = input.selectionStart == null ? input.value.length : input.selectionStart;
    var whole = clean(input.value);
    var before = clean(input.value.slice(0, caret));
    if (whole.text !== input.value) {
      input.value = whole.text;
      var pos = Math.min(before.text.length, whole.text.length);
      input.setSelectionRange(pos, pos);
    }
    if (whole.refused) refuse(input, whole.refused);
    else $('enter-message').textContent = '';
    updateJudge();
    armIdle();
  }

  function typeLetter(letter) {
    var input = inputs()[current];
    if (!input) return;
    var start = input.selectionStart == null ? input.value.length : input.selectionStart;
    var end = input.selectionEnd == null ? start : input.selectionEnd;
    input.setRangeText(letter, start, end, 'end');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.focus({ preventScroll: true });
  }

  function backspace() {
    var input = inputs()[current];
    if (!input) return;
    var start = input.selectionStart == null ? input.value.length : input.selectionStart;
    var end = input.selectionEnd == null ? start : input.selectionEnd;
    if (start === end && start === 0) {
      if (current > 0) selectWord(current - 1);
      return;
    }
    if (start === end) start -= 1;
    input.setRangeText('', start, end, 'end');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.focus({ preventScroll: true });
  }

  function complete() {
    var all = inputs();
    return all.length === wordCount && all.every(function (i) {
      return Array.from(i.value).length >= cfg.min_letters;
    });
  }

  function updateJudge() { $('judge').disabled = !complete(); }

  function nextWord() {
    var all = inputs();
    var input = all[current];
    if (input && Array.from(input.value).length < cfg.min_letters) {
      $('enter-message').textContent = t.need_letters;
      return;
    }
    if (current + 1 < all.length) selectWord(current + 1);
    else if (complete()) $('judge').focus();
    else {
      $('enter-message').textContent = t.need_letters;
      var firstShort = all.findIndex(function (i) { return Array.from(i.value).length < cfg.min_letters; });
      selectWord(firstShort);
    }
  }

  // --- 4. JUDGE ----------------------------------------------------------------------------
  function judge() {
    if (busy || screen !== 'enter' || !complete()) return;
    pending = inputs().map(function (i) { return i.value; });
    $('words').textContent = ''; // the words leave the DOM once sent
    send();
  }

  // POST JSON to the service with the page's timeout; resolves to {response, body} (body null
  // when the answer is not JSON), rejects when there is no answer at all.
  function postJson(url, payload) {
    var controller = new AbortController();
    var timeout = setTimeout(function () { controller.abort(); }, timers.request_ms);
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload),
      cache: 'no-store',
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
      signal: controller.signal,
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (body) {
        return { response: response, body: body };
      });
    }).finally(function () { clearTimeout(timeout); });
  }

  function send() {
    if (!pending) return;
    busy = true;
    show('judging');
    var words = pending;
    postJson(cfg.endpoints.challenge, { words: words }).then(function (r) {
      busy = false;
      handleAnswer(r.response, r.body, words);
    }, function () {
      busy = false;
      showError('no_answer');
    });
  }

  function isRuling(body, words) {
    return body && (body.ruling === 'valid' || body.ruling === 'invalid') &&
      Array.isArray(body.words) && body.words.length === words.length &&
      body.consequence && body.consequence.text && body.lexicon && body.ruleset === cfg.ruleset.id;
  }

  function handleAnswer(response, body, words) {
    if (response.ok && isRuling(body, words)) return showResult(body);
    var error = body && body.code ? body : null; // an RFC 9457 problem document
    if (response.status === 400 && error && /^word_/.test(error.code || '')) {
      // A spelling the service cannot judge: back to the words, saying which one.
      var match = /^words\[(\d+)\]$/.exec(error.field || '');
      var index = match ? Number(match[1]) : 0;
      var key = { word_too_short: 'err_word_too_short', word_too_long: 'err_word_too_long' }[error.code] || 'err_word_form';
      pending = null;
      startEntry(words.length, words);
      selectWord(index);
      $('enter-message').textContent = fmt(t[key], { n: index + 1 });
      return;
    }
    if (response.status === 503 && error && error.code === 'ruleset_unavailable') return showError('unavailable');
    if (!body) return showError('no_answer'); // not the service answering (a proxy, a portal)
    return showError('service');
  }

  function showError(kind) {
    $('error-title').textContent = kind === 'no_answer' ? t.no_answer_title : t.service_error_title;
    $('error-body').textContent = kind === 'unavailable' ? t.unavailable : t.no_answer_body;
    document.body.dataset.error = kind;
    show('error', $('error-retry'));
  }

  // --- 5. the verdict ----------------------------------------------------------------------
  function showResult(body) {
    pending = null;
    var valid = body.ruling === 'valid';
    var section = $('screen-result');
    var box = $('result-body');
    box.textContent = '';
    section.dataset.ruling = body.ruling;
    show('result');

    var verdict = el('div', 'verdict');
    verdict.appendChild($(valid ? 'icon-valid' : 'icon-invalid').content.cloneNode(true));
    verdict.appendChild(el('p', 'verdict-word', valid ? t.valid : t.invalid));
    box.appendChild(verdict);

    var list = el('ul', 'result-words');
    list.setAttribute('aria-label', t.words_label);
    var perWord = cfg.ruleset.policy === 'word' && body.policy === 'word';
    body.words.forEach(function (w) {
      var item = el('li');
      // Only the word policy may mark a word, and only with what the service said about it.
      if (perWord && typeof w.valid === 'boolean') {
        item.className = w.valid ? 'word-valid' : 'word-invalid';
        item.appendChild(el('span', 'mark', w.valid ? '✓' : '✗')).setAttribute('aria-hidden', 'true');
        item.appendChild(el('span', 'w', String(w.input).toUpperCase()));
        item.appendChild(el('span', 'sr-only', ' ' + (w.valid ? t.word_valid : t.word_invalid)));
      } else {
        item.textContent = String(w.input).toUpperCase();
      }
      list.appendChild(item);
    });
    box.appendChild(list);
    if (!perWord) box.appendChild(el('p', 'play-note', t.play_note));

    var texts = body.consequence.text;
    var consequence = el('p', 'consequence');
    consequence.appendChild(el('span', 'sr-only', t.consequence_label + ': '));
    consequence.appendChild(document.createTextNode(texts[lang] || texts.en || ''));
    box.appendChild(consequence);

    var lex = body.lexicon;
    var lexicon = el('p', 'lexicon', t.lexicon_label + ': ' + lex.title + ' · ' + t.version_label + ' ' + lex.version);
    if (lex.stand_in) {
      var badge = el('span', 'badge', t.stand_in);
      badge.title = t.stand_in_note;
      lexicon.appendChild(badge);
    }
    box.appendChild(lexicon);

    var bar = $('countdown-bar');
    bar.className = '';
    bar.style.setProperty('--result-ms', timers.result_ms + 'ms');
    void bar.offsetWidth;
    bar.className = 'run';

    resultShownAt = now();
    clearTimeout(resultTimer);
    resultTimer = setTimeout(reset, timers.result_ms);
    section.focus({ preventScroll: true });
  }

  function dismissResult() {
    if (screen === 'result' && now() - resultShownAt >= timers.tap_guard_ms) reset();
  }

  // --- the director's PIN --------------------------------------------------------------------
  function openPin() {
    $('pin').value = '';
    $('pin-message').textContent = '';
    show('pin', $('pin'));
  }

  function submitPin() {
    var pin = $('pin').value;
    if (!pin || busy) return;
    $('pin').value = '';
    busy = true;
    postJson(cfg.endpoints.unlock, { pin: pin }).then(function (r) {
      var response = r.response, body = r.body;
      busy = false;
      if (screen !== 'pin') return;
      if (response.ok && body && body.unlocked) return openAdmin(body.rulesets || []);
      var code = body && body.code;
      var message = t.no_answer_title;
      if (code === 'wrong_pin') message = t.pin_wrong;
      else if (code === 'pin_not_set') message = t.pin_not_set;
      else if (code === 'too_many_attempts') {
        message = fmt(t.pin_wait, { s: response.headers.get('Retry-After') || '60' });
      }
      $('pin-message').textContent = message;
      $('pin').focus();
    }, function () {
      busy = false;
      if (screen === 'pin') $('pin-message').textContent = t.no_answer_title;
    });
  }

  function openAdmin(rulesets) {
    var box = $('admin-rulesets');
    box.textContent = '';
    rulesets.forEach(function (r) {
      var button = el('button', 'btn', r.name);
      button.type = 'button';
      button.dataset.ruleset = r.id;
      if (r.id === cfg.ruleset.id) button.setAttribute('aria-current', 'true');
      button.addEventListener('click', function () {
        location.replace('/judge/' + encodeURIComponent(r.id));
      });
      box.appendChild(button);
    });
    show('admin', $('admin-title'));
  }

  // --- wiring --------------------------------------------------------------------------------
  document.querySelectorAll('[data-count]').forEach(function (button) {
    button.addEventListener('click', function () { startEntry(Number(button.dataset.count)); });
  });

  var keyboard = $('keyboard');
  keyboard.addEventListener('pointerdown', function (event) { event.preventDefault(); }); // keep the caret
  keyboard.addEventListener('click', function (event) {
    var key = event.target.closest('button');
    if (!key || screen !== 'enter') return;
    if (key.dataset.letter) typeLetter(key.dataset.letter);
    else if (key.dataset.action === 'backspace') backspace();
    else if (key.dataset.action === 'next') nextWord();
    armIdle();
  });

  var words = $('words');
  words.addEventListener('input', onWordInput);
  words.addEventListener('focusin', function (event) {
    if (event.target.dataset.index) selectWord(Number(event.target.dataset.index));
  });
  words.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') {
      event.preventDefault();
      nextWord();
    } else if (event.key === 'Backspace' && event.target.value === '' && current > 0) {
      event.preventDefault();
      selectWord(current - 1);
    }
  });

  $('judge').addEventListener('click', judge);
  $('start-over').addEventListener('click', reset);
  $('error-retry').addEventListener('click', send);
  $('error-reset').addEventListener('click', reset);
  $('screen-result').addEventListener('click', dismissResult);
  $('director').addEventListener('click', openPin);
  $('pin-cancel').addEventListener('click', reset);
  $('admin-back').addEventListener('click', reset);
  $('admin-leave').addEventListener('click', function () { location.replace(cfg.endpoints.kiosk); });

  var pinpad = document.querySelector('.pinpad');
  pinpad.addEventListener('pointerdown', function (event) { event.preventDefault(); });
  pinpad.addEventListener('click', function (event) {
    var key = event.target.closest('button');
    if (!key || key.id === 'pin-cancel') return;
    var pin = $('pin');
    if (key.dataset.digit) pin.value += key.dataset.digit;
    else if (key.dataset.action === 'pin-backspace') pin.value = pin.value.slice(0, -1);
    else if (key.dataset.action === 'pin-submit') submitPin();
    armIdle();
  });
  $('pin').addEventListener('keydown', function (event) {
    if (event.key === 'Enter') {
      event.preventDefault();
      submitPin();
    }
  });

  document.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    armIdle();
    if (screen === 'result') {
      if (!/^(Shift|Control|Alt|Meta|CapsLock|Tab)$/.test(event.key)) {
        event.preventDefault();
        dismissResult();
      }
      return;
    }
    if (event.key === 'Escape' && screen !== 'count' && screen !== 'judging') {
      event.preventDefault();
      reset();
      return;
    }
    if (screen === 'count' && /^[1-8]$/.test(event.key) && Number(event.key) <= cfg.ruleset.max_words) {
      event.preventDefault();
      startEntry(Number(event.key));
      return;
    }
    // On the words screen, letters typed while a button has the focus still go to the word.
    if (screen === 'enter' && !(event.target instanceof HTMLInputElement)) {
      if (event.key.length === 1 && event.key !== ' ') {
        event.preventDefault();
        var input = inputs()[current];
        var c = clean(event.key);
        if (c.text) typeLetter(c.text);
        else if (input) refuse(input, event.key);
      } else if (event.key === 'Backspace') {
        event.preventDefault();
        backspace();
      }
    }
  });
  document.addEventListener('pointerdown', armIdle, true);
  document.addEventListener('contextmenu', function (event) { event.preventDefault(); });

  // Leaving the page (or the browser freezing it) wipes every word first.
  window.addEventListener('pagehide', reset);
  window.addEventListener('pageshow', function (event) { if (event.persisted) reset(); });
  if (history.replaceState) history.replaceState(null, '', location.pathname);

  reset();
})();
