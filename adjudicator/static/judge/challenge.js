/* JUDGE: send the words, then show the ruling, a spelling problem, or "no answer" — never a
 * verdict the service did not give. The words leave the DOM as soon as they are sent and live
 * in memory only until the ruling (or a retry) is done. */
import { cfg, fmt, limits, Problem, t, timers } from './config.js';
import { $ } from './dom.js';
import { restore } from './entry.js';
import { JURY_FIELDS, context, noteLeft, payload, remaining } from './jury.js';
import { postJson } from './net.js';
import { markUnpaired } from './pairing.js';
import { isRuling, showResult } from './result.js';
import { show } from './screens.js';
import * as words from './words.js';

let pending = null; // {words, jury, key}: a challenge in flight or to retry
let busy = false;

/* A challenge's own Idempotency-Key, made when it is judged and sent again with every retry of
 * it: when an answer is lost on the way (flaky Wi-Fi) after the service ruled, the retry gets
 * that ruling and its id back, instead of a second ruling (in jury mode, a second query counted
 * against the player). getRandomValues, not randomUUID, which needs HTTPS or localhost. */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const FORM_ERRORS = {
  [Problem.WORD_TOO_SHORT]: 'err_word_too_short',
  [Problem.WORD_TOO_LONG]: 'err_word_too_long',
  [Problem.WORD_HAS_DIGIT]: 'refused_digit',
  [Problem.WORD_HAS_HYPHEN]: 'refused_hyphen',
  [Problem.WORD_HAS_FOREIGN_LETTER]: 'refused_foreign',
  [Problem.WORD_HAS_NON_LETTER]: 'refused_other',
};

export function judge(list) {
  if (busy) return;
  pending = { words: list, jury: context(), key: newKey() };
  words.clear(); // the words leave the DOM once sent
  send();
}

export async function send() {
  if (!pending || busy) return;
  busy = true;
  show('judging');
  const { words: list, jury, key } = pending;
  let answer;
  try {
    answer = await postJson(cfg.endpoints.challenge, payload(list, jury), timers.request_ms, {
      'Idempotency-Key': key,
    });
  } catch (e) {
    busy = false;
    showError('no_answer');
    return;
  }
  busy = false;
  handle(answer.response, answer.body, list, jury);
}

/* Why the service refused the words' characters: every word, and every character in it, the
 * page itself would refuse (the service names its first); the service's word when the page
 * finds none. */
function refusedReasons(list, index, key) {
  const texts = [];
  list.forEach((word, i) => {
    const reason = words.explain(Array.from(word.normalize('NFC')).map(words.capital));
    if (reason) texts.push(fmt(t.word_problem, { n: i + 1, reason }));
  });
  return texts.length ? texts.join(' ') : fmt(t.word_problem, { n: index + 1, reason: fmt(t[key], { char: '?' }) });
}

function handle(response, body, list, jury) {
  if (response.ok && isRuling(body, list)) {
    pending = null;
    noteLeft(jury, body);
    showResult(body, jury);
    return;
  }
  const error = body && body.code ? body : null; // an RFC 9457 problem document
  if (response.status === 400 && error && /^word_/.test(error.code || '')) {
    // A spelling the service cannot judge: back to the words, saying which one and why.
    const match = /^words\[(\d+)\]$/.exec(error.field || '');
    const index = match ? Number(match[1]) : 0;
    const n = index + 1;
    const key = FORM_ERRORS[error.code];
    let text;
    if (key && key.startsWith('refused_')) {
      text = refusedReasons(list, index, key);
    } else if (key) {
      text = fmt(t[key], { n, min: limits.min_letters, max: limits.max_letters });
    } else {
      text = fmt(t.err_word_form, { n });
    }
    backToWords(list, index, text);
    return;
  }
  if (response.status === 400 && error && jury && JURY_FIELDS.includes(error.field)) {
    // The player or the game the store counts by is missing (tournament mode) or cannot be
    // recorded: back to the words, kept, with that field focused.
    const missing = error.code === Problem.MISSING_FIELD;
    let text = missing ? t.jury_missing : t.jury_field_refused;
    if (error.code === Problem.LABEL_DISALLOWED_CHARACTER && error.character) {
      // an invisible character (a variation selector, a Hangul filler) is named, never dropped
      text = fmt(t.jury_label_character, { char: `${error.character} ${error.character_name}` });
    }
    backToWords(list, 0, text);
    $('jury-' + error.field).focus();
    return;
  }
  if (error && error.code === Problem.JURY_LIMIT_REACHED && jury) {
    // The store counts words: the problem says how many the player may still put to the jury.
    const left = remaining(error);
    noteLeft(jury, error);
    if (left) {
      // fewer words would be judged: back to the words, kept, to keep at most `left` of them
      const text = fmt(t.jury_too_many_words, { ...jury, left, words: list.length });
      backToWords(list, 0, text);
      return;
    }
    pending = null; // none left: the same query would be refused again, so no RETRY
    const n = cfg.jury.submissions_per_player;
    showError('jury_limit', fmt(t.jury_limit_reached, { player: jury.player, game: jury.game, n }));
  } else if (error && error.code === Problem.RATE_LIMITED) {
    showError('busy', fmt(t.too_many_rulings, { s: response.headers.get('Retry-After') || '60' }));
  } else if (response.status === 401 && error) {
    // tournament mode: not paired, or revoked while the page was open; RETRY cannot help
    pending = null;
    markUnpaired();
    showError('not_paired');
  }
  else if (error && REFUSALS.has(error.code)) showError(REFUSALS.get(error.code));
  else if (!body) showError('no_answer'); // not the service answering (a proxy, a portal)
  else showError('service');
}

function backToWords(list, index, text) {
  pending = null;
  show('enter');
  restore(list, index, text);
}

// The error screen: its title and text by kind (`showError` may be given the text instead).
const ERROR_TITLES = {
  no_answer: t.no_answer_title,
  jury_limit: t.jury_limit_title,
  not_paired: t.not_paired_title,
  house: t.house_refused_title,
};
const ERROR_TEXTS = {
  no_answer: t.no_answer_body,
  unavailable: t.unavailable,
  store: t.store_unavailable, // RETRY sends the same Idempotency-Key: never a second ruling
  store_refused: t.store_refused, // a damaged log or a full disk: the director must act first
  service: t.service_error_body,
  not_paired: t.not_paired,
  wrong_ruleset: t.wrong_ruleset,
  house: t.house_refused, // a house variant (004) on a tablet of a tournament: never ruled
};
// Refusals with a screen of their own, by the problem's code.
const REFUSALS = new Map([
  [Problem.RULESET_UNAVAILABLE, 'unavailable'],
  [Problem.STORE_UNAVAILABLE, 'store'],
  [Problem.STORE_REFUSES_WRITES, 'store_refused'],
  [Problem.OUT_OF_SCOPE, 'wrong_ruleset'],
  [Problem.HOUSE_RULESET, 'house'],
]);
const FINAL = new Set(['jury_limit', 'not_paired', 'house']); // nothing to retry: only START OVER

function showError(kind, text = ERROR_TEXTS[kind]) {
  $('error-title').textContent = ERROR_TITLES[kind] || t.service_error_title;
  $('error-body').textContent = text;
  document.body.dataset.error = kind;
  const final = FINAL.has(kind);
  $('error-retry').hidden = final;
  $('error-pair').hidden = kind !== 'not_paired'; // the way out: pair the tablet again
  show('error', final ? $('error-reset') : $('error-retry'));
}

export function clearChallenge() {
  pending = null;
  delete document.body.dataset.error;
}
