/* Tournament mode: whether this tablet is paired. Checked when the kiosk loads (GET
 * /auth/whoami with the tablet's cookie) and on every answer (a 401 from the challenge), so an
 * unpaired or revoked tablet says so, with the pairing link, before anyone types, instead of
 * looking ready and offering a RETRY that can never succeed. The paired device's name (its
 * table) shows in the bar. */
import { cfg, timers } from './config.js';
import { $ } from './dom.js';
import { getJson } from './net.js';

let unpaired = false;
const listeners = [];

export const isUnpaired = () => unpaired;

export function onPairing(fn) { listeners.push(fn); }

function showTable(name) {
  $('table-name').textContent = name || '';
  $('table-line').hidden = !name;
}

/* The service refused the tablet's credential (or has none): not paired, or revoked. */
export function markUnpaired() {
  unpaired = true;
  showTable('');
  $('pairing').hidden = false;
  listeners.forEach((fn) => fn());
}

export async function checkPairing() {
  if (cfg.service_mode !== 'tournament') return;
  let answer;
  try {
    answer = await getJson(cfg.endpoints.whoami, timers.request_ms);
  } catch (e) {
    return; // no answer: the challenge's own answer will tell
  }
  const { response, body } = answer;
  if (response.status === 401 || (response.ok && body && body.kind === 'anonymous')) {
    markUnpaired();
  } else if (response.ok && body && body.kind === 'device') {
    showTable(body.name);
  }
}
