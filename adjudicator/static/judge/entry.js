/* The entry screen: words typed on the on-screen or a physical keyboard, edited, then JUDGE.
 * A 3-word challenge takes its letters plus 3 taps: "next word" twice, then JUDGE.
 *
 * Typing lands in one visually hidden field (#capture) that holds the focus: it receives what
 * keyboards, dead keys, IMEs and pasted text produce, each character is moved into the word
 * model at once, and the field is emptied again. Space means "next word". */
import { fmt, t } from './config.js';
import { $ } from './dom.js';
import { blocked, juryField, nextJuryField } from './jury.js';
import { toggleLayout } from './keyboard.js';
import { isUnpaired } from './pairing.js';
import { armIdle, current } from './screens.js';
import * as words from './words.js';

let judgeAction = () => {};
let message = null; // a message from an action ("type the word first"); cleared by the next input

function say(text) { $('enter-message').textContent = text || ''; }

/* The message line: an action's message, else every word's problem, said at once, else why
 * the jury cannot take this query (no words left for the player, or fewer than typed). */
function update() {
  const problems = words.problems().filter((p) => p.text);
  const refused = blocked(words.toSend().filter((w) => w).length);
  $('judge').disabled = !words.ready() || isUnpaired() || Boolean(refused);
  say(message || problems.map((p) => p.text).join(' ') || refused || '');
}

function act(result) {
  message = result ? fmt(t[result[0]], result[1]) : null;
  update();
}

function typeText(text) {
  message = null;
  text.split(/(\s+)/u).forEach((part) => {
    if (!part) return;
    if (/^\s+$/u.test(part)) nextWord();
    else {
      const refused = words.type(part);
      if (refused) act(refused);
    }
  });
}

/* An on-screen key while the jury's player or game field has the focus: it types there, at
 * the caret, as a physical key would. "Next word" moves on to the next field, then the words. */
function keyInField(field, key) {
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? start;
  if (key.dataset.letter) {
    if (field.value.length - (end - start) + 1 > field.maxLength) return;
    field.setRangeText(key.dataset.letter, start, end, 'end');
  } else if (key.dataset.action === 'backspace') {
    if (start === end && start > 0) field.setRangeText('', start - 1, end, 'end');
    else field.setRangeText('', start, end, 'end');
  } else if (key.dataset.action === 'next') {
    const next = nextJuryField(field);
    if (next) next.focus({ preventScroll: true });
    else focusWords();
    return;
  } else return;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function nextWord() { act(words.next()); }

function backspace() {
  message = null;
  words.backspace();
}

function focusWords() {
  const capture = $('capture');
  if (document.activeElement !== capture) capture.focus({ preventScroll: true });
}

/* Enter: to JUDGE when every word is ready (a second Enter judges), else say what is missing. */
function toJudge() {
  if (words.ready()) {
    $('judge').focus();
    return;
  }
  const first = words.problems()[0];
  if (first && !first.text) act(['type_first', {}]);
  else update();
}

function flushCapture() {
  const capture = $('capture');
  const text = capture.value;
  capture.value = '';
  if (text) typeText(text);
}

/* Keys on the entry screen; returns true when handled. */
export function handleKey(event) {
  if (current() !== 'enter') return false;
  const target = event.target;
  const inCapture = target === $('capture');
  if (target instanceof HTMLInputElement && !inCapture) return false; // the jury's fields
  const onButton = target instanceof HTMLButtonElement;
  const key = event.key;
  if (key === 'Enter' || key === ' ') {
    if (onButton) return false; // the button's own action
    event.preventDefault();
    if (key === 'Enter') toJudge();
    else nextWord();
  } else if (key === 'Backspace') {
    event.preventDefault();
    backspace();
    focusWords();
  } else if (inCapture && (key === 'ArrowUp' || key === 'ArrowLeft')) {
    event.preventDefault();
    words.select(words.currentIndex() - 1);
  } else if (inCapture && (key === 'ArrowDown' || key === 'ArrowRight')) {
    event.preventDefault();
    words.select(words.currentIndex() + 1);
  } else if (Array.from(key).length === 1 && !inCapture) {
    // A letter typed while a button has the focus still goes to the word.
    event.preventDefault();
    typeText(key);
    focusWords();
  } else {
    return false; // letters in the capture field arrive as its input event
  }
  armIdle();
  return true;
}

export function startFresh() {
  message = null;
  $('capture').value = '';
  words.clear();
}

/* Back from the service with a spelling it cannot judge: the words again, that one selected. */
export function restore(list, index, text) {
  words.load(list, index);
  message = text;
  update();
  focusWords();
}

/* Whether JUDGE can be pressed changed from outside the words (the pairing). */
export const refresh = () => update();

export function initEntry(onJudge) {
  judgeAction = onJudge;
  words.onChange(update);
  const capture = $('capture');
  capture.addEventListener('input', (event) => {
    if (!event.isComposing) flushCapture();
  });
  capture.addEventListener('compositionend', flushCapture);
  capture.addEventListener('focus', () => $('words').classList.add('typing'));
  capture.addEventListener('blur', () => $('words').classList.remove('typing'));
  const keyboard = $('keyboard');
  keyboard.addEventListener('pointerdown', (event) => event.preventDefault()); // keep the focus
  keyboard.addEventListener('click', (event) => {
    const key = event.target.closest('button');
    if (!key || current() !== 'enter') return;
    const field = juryField(document.activeElement);
    if (field && key.id !== 'layout-switch') keyInField(field, key);
    else if (key.dataset.letter) typeText(key.dataset.letter);
    else if (key.dataset.action === 'backspace') backspace();
    else if (key.dataset.action === 'next') nextWord();
    else if (key.id === 'layout-switch') toggleLayout();
    armIdle();
  });
  const list = $('words');
  list.addEventListener('pointerdown', (event) => {
    if (event.target.closest('.word-text')) event.preventDefault();
  });
  list.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    message = null;
    if (button.dataset.remove !== undefined) words.remove(Number(button.dataset.remove));
    else if (button.dataset.index !== undefined) {
      words.select(Number(button.dataset.index));
      focusWords();
    }
    armIdle();
  });
  $('judge').addEventListener('click', () => {
    if (current() !== 'enter' || !words.ready() || isUnpaired()) return;
    const list = words.toSend();
    if (!blocked(list.length)) judgeAction(list);
  });
}
