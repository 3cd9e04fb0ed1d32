/* Jury mode (sbnl-punten: no challenges; before placing, a player submits words to the jury).
 * The jury notes the player and the game; both show on the ruling, and are sent to the service
 * as soon as its challenge endpoint takes them (cfg.challenge_fields: the tournament store
 * counts each player's queries there, and answers how many are left). Player and game stay
 * from one query to the next (the same game's), until START OVER; before a query is sent the
 * page says whether it will be counted and, where it is, how many words the player has left
 * (read from the service, GET cfg.endpoints.jury_left, once player and game are filled in, and
 * from each ruling's `queries_remaining`). A query of more words than are left, or any query
 * once none are, is refused on the tablet (`blocked`); the service refuses it too. */
import { cfg, fmt, juryMode, t, timers } from './config.js';
import { $ } from './dom.js';
import { getJson } from './net.js';

const READ_DELAY_MS = 400; // typing a name: read the count once the jury pauses
let left = null; // {key, n}: the words left for the player and game of `key`, as last told
let readTimer = 0;
const leftListeners = [];

export const JURY_FIELDS = ['player', 'game']; // what the store counts a query by

export function context() {
  if (!juryMode) return null;
  const found = {};
  JURY_FIELDS.forEach((f) => { found[f] = $('jury-' + f).value.trim(); });
  return found;
}

/* The request body: the words, plus the jury's fields the endpoint accepts. */
export function payload(words, ctx) {
  const body = { words };
  if (ctx) {
    JURY_FIELDS.forEach((f) => {
      if (cfg.challenge_fields.includes(f) && ctx[f]) body[f] = ctx[f];
    });
  }
  return body;
}

/* The words the service says the player may still put to the jury (in a ruling, or in the
 * problem refusing a query that would pass the limit), under either name the store may use;
 * null when it says nothing. */
export function remaining(body) {
  const n = body && (body.queries_remaining ?? body.remaining);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/* The player and game as one key: a count read for one pair is never shown for another. */
function keyOf(ctx) {
  return ctx ? JSON.stringify([ctx.player, ctx.game]) : '';
}

/* Whether queries are counted here and the page sends the labels the count is kept by. */
function countedHere() {
  const takes = JURY_FIELDS.every((f) => cfg.challenge_fields.includes(f));
  return cfg.jury.submissions_per_player != null && takes;
}

/* The words left for the player and game now in the fields; null when not known. */
export function wordsLeft() {
  const ctx = context();
  return left && ctx && left.key === keyOf(ctx) ? left.n : null;
}

export function onWordsLeft(fn) { leftListeners.push(fn); }

function setLeft(ctx, n) {
  left = Number.isInteger(n) && n >= 0 ? { key: keyOf(ctx), n } : null;
  updateCountNote();
  leftListeners.forEach((fn) => fn());
}

/* What the service said of the words left after a query (a ruling, or its refusal). */
export function noteLeft(ctx, body) {
  if (juryMode && ctx) setLeft(ctx, remaining(body));
}

/* Ask the service how many words the player has left in the game (no ruling: it counts
 * nothing). Without an answer the page says nothing of the count; the service still refuses a
 * query past the limit. */
async function readLeft() {
  const ctx = context();
  if (!countedHere() || JURY_FIELDS.some((f) => !ctx[f])) return;
  const query = new URLSearchParams({ game: ctx.game, player: ctx.player });
  let answer;
  try {
    answer = await getJson(cfg.endpoints.jury_left + '?' + query, timers.request_ms);
  } catch (e) {
    return;
  }
  if (keyOf(context()) !== keyOf(ctx)) return; // the fields changed meanwhile
  if (answer.response.ok) setLeft(ctx, remaining(answer.body));
}

function scheduleRead() {
  clearTimeout(readTimer);
  setLeft(null, null); // another player or game: the old count no longer holds
  readTimer = setTimeout(readLeft, READ_DELAY_MS);
}

/* Why a query of `count` words cannot be sent, or null: none are left, or fewer than it has. */
export function blocked(count) {
  const n = wordsLeft();
  if (!juryMode || n === null) return null;
  const ctx = context();
  if (n === 0) return fmt(t.jury_none_left, ctx);
  if (count > n) return fmt(t.jury_over_left, { ...ctx, left: n, words: count });
  return null;
}

/* The jury's field `node` is, or null: the on-screen keys type into it when it has the focus. */
export function juryField(node) {
  return juryMode && node && JURY_FIELDS.some((f) => node.id === 'jury-' + f) ? node : null;
}

/* The field after `field`, or null after the last. */
export function nextJuryField(field) {
  const i = JURY_FIELDS.findIndex((f) => field.id === 'jury-' + f);
  return i >= 0 && i + 1 < JURY_FIELDS.length ? $('jury-' + JURY_FIELDS[i + 1]) : null;
}

/* Whether this query will be counted, said before it is sent, as the service decides it
 * (adjudicator/audit/jury.py): never where the event does not count (cfg.jury's limit is null) or
 * where the endpoint does not take the labels; without a player or a game, the tournament
 * refuses the query and an open event answers it uncounted. */
function countNote() {
  const ctx = context();
  if (!countedHere()) return t.jury_uncounted_event;
  if (JURY_FIELDS.some((f) => !ctx[f])) {
    return cfg.service_mode === 'tournament' ? t.jury_missing : t.jury_uncounted_labels;
  }
  const n = wordsLeft();
  return n === null ? t.jury_counted : t.jury_counted + ' ' + fmt(t.jury_words_left, { n });
}

export function updateCountNote() {
  if (juryMode) $('jury-count').textContent = countNote();
}

/* START OVER (`full`) forgets the player and the game; the end of a query keeps them. */
export function clearJury(full) {
  if (!juryMode) return;
  if (full) {
    JURY_FIELDS.forEach((f) => { $('jury-' + f).value = ''; });
    clearTimeout(readTimer);
    setLeft(null, null);
  } else {
    readLeft(); // before the next query: read afresh (another tablet may have asked for them)
  }
  updateCountNote();
}

export function initJury() {
  if (!juryMode) return;
  JURY_FIELDS.forEach((f) => $('jury-' + f).addEventListener('input', scheduleRead));
  updateCountNote();
}
