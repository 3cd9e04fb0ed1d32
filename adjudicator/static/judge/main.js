/* The judge's kiosk: type the words → JUDGE → verdict → clear. ES modules, no build step, no
 * network but the service. Nothing is ever pushed onto the browser's history, and nothing of a
 * challenge outlives its verdict.
 *
 * Modules: config (server settings), dom, net (fetch helper), screens (which screen, idle),
 * words (the typed words), keyboard (layouts), entry (the entry screen), jury (jury mode),
 * challenge (JUDGE and the answer), result (the verdict), director (PIN, unlocked menu). */
import { clearChallenge, judge, send } from './challenge.js';
import { $ } from './dom.js';
import { clearDirector, initDirector } from './director.js';
import { handleKey, initEntry, startFresh } from './entry.js';
import { clearJury } from './jury.js';
import { initKeyboard } from './keyboard.js';
import { clearResult, dismissResult } from './result.js';
import { armIdle, current, onReset, reset } from './screens.js';

onReset(clearChallenge);
onReset(clearResult);
onReset(clearDirector);
onReset(clearJury);
onReset(startFresh);

initKeyboard();
initEntry(judge);
initDirector(reset);

$('start-over').addEventListener('click', reset);
$('error-retry').addEventListener('click', send);
$('error-reset').addEventListener('click', reset);
$('screen-result').addEventListener('click', dismissResult);

const MODIFIER = /^(Shift|Control|Alt|AltGraph|Meta|CapsLock|Tab|Dead)$/;

document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || (event.altKey && !event.getModifierState('AltGraph'))) return;
  armIdle();
  const screen = current();
  if (screen === 'result') {
    if (!MODIFIER.test(event.key)) {
      event.preventDefault();
      dismissResult();
    }
    return;
  }
  if (event.key === 'Escape' && screen !== 'judging') {
    event.preventDefault();
    reset();
    return;
  }
  handleKey(event);
});
document.addEventListener('pointerdown', armIdle, true);
document.addEventListener('input', armIdle, true);
document.addEventListener('contextmenu', (event) => event.preventDefault());

// Leaving the page (or the browser freezing it) wipes every word first.
window.addEventListener('pagehide', reset);
window.addEventListener('pageshow', (event) => { if (event.persisted) reset(); });
if (history.replaceState) history.replaceState(null, '', location.pathname);

reset();
document.body.dataset.ready = 'true';
