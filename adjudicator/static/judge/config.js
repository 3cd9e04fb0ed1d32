/* The page's one source of settings: the JSON block the server embeds (judge/config.py).
 * Limits, timers, letters and layouts all come from there; this file holds no rule. */
const node = document.getElementById('judge-config');

export const cfg = JSON.parse(node.textContent);
export const t = cfg.strings;
export const limits = cfg.limits;
export const timers = cfg.timers;
// The problem codes (adjudicator/problems.py) by name: compare `error.code === Problem.WRONG_PIN`.
export const Problem = Object.freeze(cfg.problems);
export const lang = cfg.ruleset.language;
export const juryMode = cfg.ruleset.mode === 'jury';

// A string with a count is an object of CLDR plural forms naming its count (`count`), as the
// service's `fill` reads it (adjudicator/pages/strings.py): the browser's CLDR rule picks the form.
const pluralRules = new Intl.PluralRules(lang);

export function form(text, vars) {
  if (typeof text === 'string') return text;
  const n = Number(vars[text.count]);
  return text[Number.isInteger(n) ? pluralRules.select(n) : 'other'] ?? text.other;
}

export function fmt(text, vars) {
  return form(text, vars).replace(/\{(\w+)\}/g, (m, key) => (key in vars ? String(vars[key]) : m));
}
