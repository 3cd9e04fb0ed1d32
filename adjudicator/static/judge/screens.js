/* Which screen shows, and the idle timer that clears half-done input, PIN and error screens.
 * Its last seconds count down on the screen (timers.idle_warning_ms, from the page's config),
 * so nothing vanishes unannounced; any touch or key restarts it (main.js). */
import { fmt, t, timers } from './config.js';
import { $ } from './dom.js';

const SCREENS = ['enter', 'judging', 'result', 'error', 'pin', 'admin'];
const IDLE_SCREENS = new Set(['enter', 'error', 'pin', 'admin']);
const LOCK_SCREENS = new Set(['pin', 'admin']); // the director's: locked again sooner, unannounced
const resetters = [];
let screen = 'enter';
let idleTimer = 0;
let warnTimer = 0;
let tick = 0;
let deadline = 0;
let worthWarning = () => true; // whether an idle reset would clear anything

export const current = () => screen;

export function show(name, focusTarget) {
  SCREENS.forEach((s) => { $('screen-' + s).hidden = s !== name; });
  document.body.dataset.screen = name;
  screen = name;
  armIdle();
  if (focusTarget) focusTarget.focus({ preventScroll: true });
}

/* Whether the countdown is worth showing: an empty entry screen has nothing to lose. */
export function setIdleCheck(fn) { worthWarning = fn; }

function stopCountdown() {
  clearTimeout(warnTimer);
  clearInterval(tick);
  $('idle-countdown').hidden = true;
}

function showCountdown() {
  const box = $('idle-countdown');
  const s = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  box.textContent = fmt(t.idle_countdown, { s });
  box.hidden = false;
}

export function armIdle() {
  clearTimeout(idleTimer);
  stopCountdown();
  if (!IDLE_SCREENS.has(screen)) return;
  if (LOCK_SCREENS.has(screen)) {
    idleTimer = setTimeout(() => reset(false), timers.lock_ms);
    return;
  }
  deadline = Date.now() + timers.idle_ms;
  idleTimer = setTimeout(() => reset(false), timers.idle_ms);
  warnTimer = setTimeout(() => {
    if (!worthWarning()) return;
    showCountdown();
    tick = setInterval(showCountdown, 1000);
  }, Math.max(0, timers.idle_ms - timers.idle_warning_ms));
}

/* Each concern registers what it clears; reset runs them all and shows a fresh entry screen.
 * `full` (START OVER, Escape, leaving the page) clears the jury's player and game too; the end
 * of a verdict or an idle minute clears only the query (the next is often the same game's). */
export function onReset(fn) { resetters.push(fn); }

export function reset(full = false) {
  clearTimeout(idleTimer);
  stopCountdown();
  resetters.forEach((fn) => fn(full === true));
  show('enter', $('capture'));
}
