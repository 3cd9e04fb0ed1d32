/* Which screen shows, and the idle timer that clears half-done input, PIN and error screens. */
import { timers } from './config.js';
import { $ } from './dom.js';

const SCREENS = ['enter', 'judging', 'result', 'error', 'pin', 'admin'];
const IDLE_SCREENS = new Set(['enter', 'error', 'pin', 'admin']);
const resetters = [];
let screen = 'enter';
let idleTimer = 0;

export const current = () => screen;

export function show(name, focusTarget) {
  SCREENS.forEach((s) => { $('screen-' + s).hidden = s !== name; });
  document.body.dataset.screen = name;
  screen = name;
  armIdle();
  if (focusTarget) focusTarget.focus({ preventScroll: true });
}

export function armIdle() {
  clearTimeout(idleTimer);
  if (IDLE_SCREENS.has(screen)) idleTimer = setTimeout(reset, timers.idle_ms);
}

/* Each concern registers what it clears; reset runs them all and shows a fresh entry screen. */
export function onReset(fn) { resetters.push(fn); }

export function reset() {
  clearTimeout(idleTimer);
  resetters.forEach((fn) => fn());
  show('enter', $('capture'));
}
