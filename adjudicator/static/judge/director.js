/* The director's PIN and the unlocked menu: switch the kiosk's ruleset, or leave it.
 * In tournament mode only a paired tablet may be unlocked (its cookie goes with net.js's
 * requests); wrong PINs are counted per tablet in the store. */
import { cfg, fmt, Problem, t, timers } from './config.js';
import { $, el } from './dom.js';
import { postJson } from './net.js';
import { current, show } from './screens.js';

let busy = false;

function openPin() {
  $('pin').value = '';
  $('pin-message').textContent = '';
  show('pin', $('pin'));
}

async function submitPin() {
  const pin = $('pin').value;
  if (!pin || busy) return;
  $('pin').value = '';
  busy = true;
  let answer;
  try {
    answer = await postJson(cfg.endpoints.unlock, { pin }, timers.request_ms);
  } catch (e) {
    busy = false;
    if (current() === 'pin') $('pin-message').textContent = t.no_answer_title;
    return;
  }
  busy = false;
  if (current() !== 'pin') return;
  const { response, body } = answer;
  if (response.ok && body && body.unlocked) {
    openAdmin(body.rulesets || []);
    return;
  }
  const code = body && body.code;
  let message = t.no_answer_title;
  if (code === Problem.WRONG_PIN) {
    // the tries this tablet has left before it must wait, as the service counts them
    const left = body.attempts_remaining;
    message = Number.isInteger(left) && left >= 0 ? fmt(t.pin_tries_left, { n: left }) : t.pin_wrong;
  }
  else if (code === Problem.PIN_NOT_SET) message = t.pin_not_set;
  else if (response.status === 401) message = t.not_paired;
  else if (code === Problem.TOO_MANY_ATTEMPTS) {
    // Minutes, rounded up: a lockout lasts up to a quarter of an hour, not "wait 897 s".
    const seconds = Number(response.headers.get('Retry-After')) || 60;
    message = fmt(t.pin_wait, { m: Math.max(1, Math.ceil(seconds / 60)) });
  }
  $('pin-message').textContent = message;
  $('pin').focus();
}

function openAdmin(rulesets) {
  const box = $('admin-rulesets');
  box.textContent = '';
  rulesets.forEach((r) => {
    const button = el('button', 'btn', r.name);
    button.type = 'button';
    button.lang = r.language;
    button.dataset.ruleset = r.id;
    if (r.id === cfg.ruleset.id) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => location.replace('/judge/' + encodeURIComponent(r.id)));
    box.appendChild(button);
  });
  show('admin', $('admin-title'));
}

export function clearDirector() {
  $('pin').value = '';
  $('pin-message').textContent = '';
  $('admin-rulesets').textContent = '';
}

export function initDirector(reset) {
  $('director').addEventListener('click', openPin);
  $('pin-cancel').addEventListener('click', reset);
  $('admin-back').addEventListener('click', reset);
  $('admin-leave').addEventListener('click', () => {
    location.replace(cfg.endpoints.kiosk + '?lang=' + encodeURIComponent(cfg.ruleset.language));
  });
  const pinpad = document.querySelector('.pinpad');
  pinpad.addEventListener('pointerdown', (event) => event.preventDefault());
  pinpad.addEventListener('click', (event) => {
    const key = event.target.closest('button');
    if (!key || key.id === 'pin-cancel') return;
    const pin = $('pin');
    if (key.dataset.digit) pin.value += key.dataset.digit;
    else if (key.dataset.action === 'pin-backspace') pin.value = pin.value.slice(0, -1);
    else if (key.dataset.action === 'pin-submit') submitPin();
  });
  $('pin').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submitPin();
    }
  });
}
