/* The on-screen keyboard: the layouts the server sends (national QWERTY first, then the
 * alphabet in order), switchable, the choice remembered on this tablet. */
import { cfg, t } from './config.js';
import { $, el } from './dom.js';

const STORE_KEY = 'judge.layout.' + cfg.ruleset.language;
const layouts = cfg.layouts;
let index = 0;

function remembered() {
  try {
    const id = window.localStorage.getItem(STORE_KEY);
    const found = layouts.findIndex((l) => l.id === id);
    return found < 0 ? 0 : found;
  } catch (e) {
    return 0; // storage off: the national layout
  }
}

export const layoutId = () => (layouts.length ? layouts[index].id : null);

export function useLayout(id) {
  const found = layouts.findIndex((l) => l.id === id);
  index = found < 0 ? 0 : found;
  try {
    window.localStorage.setItem(STORE_KEY, layouts[index].id);
  } catch (e) {
    /* not remembered; still switched */
  }
  render();
}

export function toggleLayout() {
  if (layouts.length) useLayout(layouts[(index + 1) % layouts.length].id);
}

function render() {
  // No layouts: the ruleset's word list is not loaded, and the page says so instead.
  $('keyboard').hidden = !layouts.length;
  if (!layouts.length) return;
  const layout = layouts[index];
  const box = $('keys');
  box.textContent = '';
  box.dataset.layout = layout.id;
  box.style.setProperty('--cols', String(Math.max(...layout.rows.map((r) => r.length))));
  layout.rows.forEach((row) => {
    const line = el('div', 'keyline');
    row.forEach((letter) => {
      const key = el('button', 'key', letter);
      key.type = 'button';
      key.tabIndex = -1; // a physical keyboard types letters directly
      key.dataset.letter = letter;
      line.appendChild(key);
    });
    box.appendChild(line);
  });
  const other = layouts[(index + 1) % layouts.length];
  const toggle = $('layout-switch');
  toggle.textContent = '⌨ ' + t['layout_' + other.id];
  toggle.setAttribute('aria-label', t.layout_label + ': ' + t['layout_' + other.id]);
  toggle.dataset.current = layout.id;
}

export function initKeyboard() {
  index = remembered();
  render();
}
