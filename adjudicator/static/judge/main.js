/* The judge's kiosk: type the words → JUDGE → verdict → clear. ES modules, no build step, no
 * network but the service. Nothing is ever pushed onto the browser's history, and nothing of a
 * challenge outlives its verdict.
 *
 * Modules: config (server settings), dom, net (fetch helper), screens (which screen, idle),
 * words (the typed words), keyboard (layouts), entry (the entry screen), jury (jury mode),
 * challenge (JUDGE and the answer), result (the verdict), director (PIN, unlocked menu),
 * pairing (tournament mode: is this tablet paired, and its table's name). */
import { clearChallenge, judge, send } from './challenge.js';
import { $ } from './dom.js';
import { clearDirector, initDirector } from './director.js';
import { handleKey, initEntry, refresh, startFresh } from './entry.js';
import { clearJury, initJury, onWordsLeft } from './jury.js';
import { initKeyboard } from './keyboard.js';
import { checkPairing, onPairing } from './pairing.js';
import { clearResult, dismissResult } from './result.js';
import { armIdle, current, onReset, reset, setIdleCheck } from './screens.js';
import { isEmpty } from './words.js';

onReset(clearChallenge);
onReset(clearResult);
onReset(clearDirector);
onReset(clearJury);
onReset(startFresh);

initKeyboard();
initEntry(judge);
initDirector(reset);
initJury();
onPairing(refresh);
onWordsLeft(refresh);
setIdleCheck(() => current() !== 'enter' || !isEmpty());

const startOver = () => reset(true); // forgets the jury's player and game too
$('start-over').addEventListener('click', startOver);
$('error-retry').addEventListener('click', send);
$('error-reset').addEventListener('click', startOver);
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
    startOver();
    return;
  }
  handleKey(event);
});
document.addEventListener('pointerdown', armIdle, true);
document.addEventListener('input', armIdle, true);
document.addEventListener('contextmenu', (event) => event.preventDefault());

// Leaving the page (or the browser freezing it) wipes every word first.
window.addEventListener('pagehide', startOver);
window.addEventListener('pageshow', (event) => { if (event.persisted) startOver(); });
if (history.replaceState) history.replaceState(null, '', location.pathname);

startOver();
checkPairing();
document.body.dataset.ready = 'true';
