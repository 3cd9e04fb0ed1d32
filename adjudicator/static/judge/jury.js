/* Jury mode (sbnl-punten: no challenges; before placing, a player submits words to the jury).
 * The jury notes the player and the game; both show on the ruling, and are sent to the service
 * as soon as its challenge endpoint takes them (cfg.challenge_fields: the tournament store
 * counts each player's queries there, and answers how many are left). Player and game stay
 * from one query to the next (the same game's), until START OVER; before a query is sent the
 * page says whether it will be counted. */
import { cfg, juryMode, t } from './config.js';
import { $ } from './dom.js';

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
  const takes = JURY_FIELDS.every((f) => cfg.challenge_fields.includes(f));
  if (cfg.jury.submissions_per_player == null || !takes) return t.jury_uncounted_event;
  if (JURY_FIELDS.some((f) => !ctx[f])) {
    return cfg.service_mode === 'tournament' ? t.jury_missing : t.jury_uncounted_labels;
  }
  return t.jury_counted;
}

export function updateCountNote() {
  if (juryMode) $('jury-count').textContent = countNote();
}

/* START OVER (`full`) forgets the player and the game; the end of a query keeps them. */
export function clearJury(full) {
  if (!juryMode) return;
  if (full) JURY_FIELDS.forEach((f) => { $('jury-' + f).value = ''; });
  updateCountNote();
}

export function initJury() {
  if (!juryMode) return;
  JURY_FIELDS.forEach((f) => $('jury-' + f).addEventListener('input', updateCountNote));
  updateCountNote();
}
