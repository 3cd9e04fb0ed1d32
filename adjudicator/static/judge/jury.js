/* Jury mode (sbnl-punten: no challenges; before placing, a player submits words to the jury).
 * The jury notes the player and the game; both show on the ruling, and are sent to the service
 * as soon as its challenge endpoint takes them (cfg.challenge_fields: the tournament store
 * counts each player's queries there, and answers how many are left). */
import { cfg, juryMode } from './config.js';
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

export function clearJury() {
  if (!juryMode) return;
  JURY_FIELDS.forEach((f) => { $('jury-' + f).value = ''; });
}
