/* The verdict fills the screen: word, icon and colour, the words, the consequence, the word list
 * and the ruling id. Under the `play` policy nothing marks which word failed: the page cannot
 * know, the service does not say. */
import { cfg, fmt, juryMode, lang, t, timers } from './config.js';
import { $, el } from './dom.js';
import { remaining } from './jury.js';
import { current, reset, show } from './screens.js';

let shownAt = 0;
let timer = 0;

export function isRuling(body, words) {
  return Boolean(
    body && (body.ruling === 'valid' || body.ruling === 'invalid') &&
    Array.isArray(body.words) && body.words.length === words.length &&
    body.consequence && body.consequence.text && body.lexicon && body.ruleset === cfg.ruleset.id,
  );
}

/* An edition as the entry screen names it: title, version and the date it is in force from. */
function editionNamed(lex) {
  let named = t.lexicon_label + ': ' + lex.title + ' · ' + t.version_label + ' ' + lex.version;
  if (lex.in_force_from) named += ' · ' + fmt(t.edition_in_force_from, { date: lex.in_force_from });
  return named;
}

/* The service switches editions at the event's midnight without a restart (000 §2.1a): a kiosk
 * opened the day before learns of the new edition from its first ruling under it, and its entry
 * screen names that edition from then on. The text before any badge is the page's own line. */
function showEditionOnEntry(lex) {
  const line = $('enter-lexicon');
  if (!line || !line.firstChild) return;
  const badges = line.firstChild.nextSibling ? ' ' : '';
  line.firstChild.textContent = editionNamed(lex) + badges;
}

/* 32 hex digits in groups of four, easier to read out and to copy into a report. */
function groupedId(id) { return String(id || '').replace(/(.{4})(?=.)/g, '$1 '); }

export function showResult(body, jury) {
  const valid = body.ruling === 'valid';
  const section = $('screen-result');
  const box = $('result-body');
  box.textContent = '';
  section.dataset.ruling = body.ruling;
  show('result');

  const verdict = el('div', 'verdict');
  verdict.appendChild($(valid ? 'icon-valid' : 'icon-invalid').content.cloneNode(true));
  const word = juryMode ? (valid ? t.jury_valid : t.jury_invalid) : (valid ? t.valid : t.invalid);
  const verdictWord = el('p', 'verdict-word', word);
  verdictWord.style.setProperty('--n', String(Array.from(word).length));
  verdict.appendChild(verdictWord);
  box.appendChild(verdict);

  if (jury && (jury.player || jury.game)) {
    box.appendChild(el('p', 'jury-for', fmt(t.jury_for, { player: jury.player || '–', game: jury.game || '–' })));
  }

  const list = el('ul', 'result-words' + (body.words.length > 3 ? ' many' : ''));
  list.setAttribute('aria-label', t.words_label);
  const perWord = cfg.ruleset.policy === 'word' && body.policy === 'word';
  body.words.forEach((w) => {
    const item = el('li');
    // The form the service judged and logged (IDÉ is judged as IDE), not the one typed.
    const text = String(typeof w.word === 'string' ? w.word : w.input).toUpperCase();
    item.style.setProperty('--n', String(Math.max(Array.from(text).length, 6)));
    // Only the word policy may mark a word, and only with what the service said about it.
    if (perWord && typeof w.valid === 'boolean') {
      item.className = w.valid ? 'word-valid' : 'word-invalid';
      item.appendChild(el('span', 'mark', w.valid ? '✓' : '✗')).setAttribute('aria-hidden', 'true');
      item.appendChild(el('span', 'w', text));
      item.appendChild(el('span', 'sr-only', ' ' + (w.valid ? t.word_valid : t.word_invalid)));
    } else {
      item.appendChild(el('span', 'w', text));
    }
    list.appendChild(item);
  });
  box.appendChild(list);
  if (!perWord) box.appendChild(el('p', 'play-note', t.play_note));

  // A jury query costs nothing (003): a rejected word's penalty is what placing it would cost.
  const texts = juryMode && !valid && body.if_placed ? body.if_placed.text : body.consequence.text;
  const consequence = el('p', 'consequence');
  consequence.appendChild(el('span', 'sr-only', t.consequence_label + ': '));
  if (juryMode) consequence.appendChild(el('span', 'jury-note', (valid ? t.jury_valid_note : t.jury_invalid_note) + ' '));
  if (!(juryMode && valid)) consequence.appendChild(document.createTextNode(texts[lang] || texts.en || ''));
  box.appendChild(consequence);

  const left = juryMode ? remaining(body) : null;
  if (left !== null) box.appendChild(el('p', 'jury-remaining', fmt(t.jury_remaining, { n: left })));

  const lex = body.lexicon;
  // The edition the ruling rests on: its name, its date (where it has one) and its checksum.
  let named = editionNamed(lex);
  if (lex.sha256) named += ' · ' + t.checksum_label + ' ' + lex.sha256.slice(0, 12) + '…';
  showEditionOnEntry(lex);
  const lexicon = el('p', 'lexicon', named);
  if (lex.stand_in) {
    const badge = el('span', 'badge', t.stand_in);
    badge.title = t.stand_in_note;
    lexicon.appendChild(document.createTextNode(' '));
    lexicon.appendChild(badge);
  }
  box.appendChild(lexicon);
  box.appendChild(el('p', 'ruling-id', t.ruling_id_label + ' ' + groupedId(body.ruling_id)));

  const bar = $('countdown-bar');
  bar.className = '';
  bar.style.setProperty('--result-ms', timers.result_ms + 'ms');
  void bar.offsetWidth; // restart the animation
  bar.className = 'run';

  shownAt = performance.now();
  clearTimeout(timer);
  timer = setTimeout(reset, timers.result_ms);
  section.focus({ preventScroll: true });
}

export function dismissResult() {
  if (current() === 'result' && performance.now() - shownAt >= timers.tap_guard_ms) reset();
}

export function clearResult() {
  clearTimeout(timer);
  $('result-body').textContent = '';
  delete $('screen-result').dataset.ruling;
  $('countdown-bar').className = '';
}
