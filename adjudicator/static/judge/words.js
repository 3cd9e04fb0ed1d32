/* The words being entered: a model of characters as typed, and its rendering.
 *
 * Nothing typed is dropped but a word past the ruleset's last: a character the service would
 * refuse stays in its word, marked, and every such character is explained in the ruleset's
 * language; JUDGE stays disabled until every word is fixed. Letters typed after "next word" on
 * the last word the ruleset allows are refused ("at most 8 words"), never joined onto it. Which characters are accepted, and the capital each lower-case one is shown
 * as, come from the server (cfg.word_characters and cfg.word_capitals are built from the
 * service's own query check); the page only names the kind of refusal. */
import { cfg, fmt, limits, t } from './config.js';
import { $, el } from './dom.js';

const allowed = new Set(Array.from(cfg.word_characters));
const capitals = new Map(Object.entries(cfg.word_capitals || {}));
let words = [[]];
let cur = 0;
let full = false; // "next word" was refused on the last word: what follows is not this word's
const listeners = [];
const FULL = () => ['words_full', { max: limits.max_words }];

/* Why a character cannot be in a word, as an i18n key; null when it can. */
export function refusal(ch) {
  if (allowed.has(ch)) return null;
  if (/\p{Nd}/u.test(ch)) return 'refused_digit';
  if (/\p{Pd}/u.test(ch)) return 'refused_hyphen';
  if (/\p{L}/u.test(ch)) return 'refused_foreign';
  return 'refused_other';
}

function shown(ch) { return ch === ' ' ? '␣' : ch; }

/* Why the word's characters are refused: each refused character once, in order ('' if none). */
export function explain(chars) {
  const seen = new Set();
  const reasons = [];
  chars.forEach((ch) => {
    const key = refusal(ch);
    if (key && !seen.has(ch)) {
      seen.add(ch);
      reasons.push(fmt(t[key], { char: shown(ch) }));
    }
  });
  return reasons.join(' ');
}

export function onChange(fn) { listeners.push(fn); }

function changed() {
  full = false;
  render();
  listeners.forEach((fn) => fn());
}

export const currentIndex = () => cur;
export const count = () => words.length;
export const isEmpty = () => words.length === 1 && words[0].length === 0;

/* The character as a word shows it: its capital by the server's map, else as typed. Never
 * toUpperCase, whose rules are not the service's: ſ → S and ı → I, look-alikes it refuses. */
export function capital(ch) {
  return capitals.has(ch) ? capitals.get(ch) : ch;
}

/* Type into the current word; an i18n message when it is refused (past the last word). */
export function type(text) {
  if (full) return FULL();
  Array.from(text.normalize('NFC')).forEach((ch) => words[cur].push(capital(ch)));
  changed();
  return null;
}

export function backspace() {
  if (words[cur].length) words[cur].pop();
  else if (words.length > 1) {
    words.splice(cur, 1);
    cur = Math.max(0, cur - 1);
  }
  changed();
}

/* Move on to the next word, adding one at the end; an i18n message key when it cannot. */
export function next() {
  if (!words[cur].length) return ['type_first', {}];
  if (cur + 1 < words.length) cur += 1;
  else if (words.length >= limits.max_words) {
    full = true;
    return FULL();
  }
  else {
    words.push([]);
    cur = words.length - 1;
  }
  changed();
  return null;
}

export function select(i) {
  cur = Math.max(0, Math.min(i, words.length - 1));
  changed();
}

export function remove(i) {
  words.splice(i, 1);
  if (!words.length) words = [[]];
  if (cur >= i && cur > 0) cur -= 1;
  cur = Math.min(cur, words.length - 1);
  changed();
}

export function clear() {
  words = [[]];
  cur = 0;
  changed();
}

export function load(list, index) {
  words = list.length ? list.map((w) => Array.from(w)) : [[]];
  cur = Math.max(0, Math.min(index || 0, words.length - 1));
  changed();
}

/* The words to judge: every word but an empty last one (a "next word" too many). */
function entered() {
  const last = words[words.length - 1];
  return words.length > 1 && !last.length ? words.slice(0, -1) : words;
}

/* The first problem of each word, in order: [{index, text}]. */
export function problems() {
  const found = [];
  entered().forEach((w, i) => {
    const n = i + 1;
    const reason = explain(w);
    if (reason) {
      found.push({ index: i, text: fmt(t.word_problem, { n, reason }) });
    } else if (w.length < limits.min_letters) {
      if (w.length) found.push({ index: i, text: fmt(t.word_short, { n, min: limits.min_letters }) });
      else found.push({ index: i, text: null }); // nothing typed yet: nothing to say
    } else if (w.length > limits.max_letters) {
      found.push({ index: i, text: fmt(t.word_long, { n, max: limits.max_letters }) });
    }
  });
  return found;
}

export function ready() { return problems().length === 0; }

export function toSend() { return entered().map((w) => w.join('')); }

function render() {
  const box = $('words');
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  const refocus = focused && (focused.dataset.index || focused.dataset.remove);
  const refocusKind = focused && (focused.dataset.index ? 'index' : 'remove');
  box.textContent = '';
  box.dataset.count = String(words.length);
  words.forEach((w, i) => {
    const item = el('li', 'word' + (i === cur ? ' current' : ''));
    item.appendChild(el('span', 'word-no', String(i + 1))).setAttribute('aria-hidden', 'true');
    const button = el('button', 'word-text');
    button.type = 'button';
    button.tabIndex = -1; // the keyboard reaches words through the capture field's arrows
    button.dataset.index = String(i);
    if (i === cur) button.setAttribute('aria-current', 'true');
    // The label holds the visible text as it is (voice control matches it), then what is wrong.
    const text = w.map(shown).join('');
    const reason = explain(w);
    let label = fmt(t.word_n, { n: i + 1 }) + ': ' + (text || t.word_empty);
    if (reason) label += ' — ' + reason;
    button.setAttribute('aria-label', label);
    if (i === cur) $('capture').setAttribute('aria-label', label);
    const letters = el('span', 'letters');
    letters.style.setProperty('--n', String(Math.max(w.length, 6)));
    w.forEach((ch) => {
      if (refusal(ch)) {
        const mark = el('mark', 'bad', shown(ch));
        mark.title = fmt(t[refusal(ch)], { char: shown(ch) });
        letters.appendChild(mark);
      } else {
        letters.appendChild(document.createTextNode(ch));
      }
    });
    if (i === cur) letters.appendChild(el('span', 'caret')).setAttribute('aria-hidden', 'true');
    button.appendChild(letters);
    item.appendChild(button);
    if (!(words.length === 1 && !w.length)) {
      const del = el('button', 'word-remove', '×');
      del.type = 'button';
      del.dataset.remove = String(i);
      del.setAttribute('aria-label', fmt(t.remove_word, { n: i + 1 }));
      item.appendChild(del);
    }
    box.appendChild(item);
  });
  if (refocus !== undefined && refocus !== null) {
    const sel = refocusKind === 'index' ? `[data-index="${cur}"]` : `[data-remove="${Math.min(Number(refocus), words.length - 1)}"]`;
    const target = box.querySelector(sel) || box.querySelector(`[data-index="${cur}"]`);
    if (target) target.focus({ preventScroll: true });
  }
}
