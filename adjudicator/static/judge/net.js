/* The one way the page talks to the service: POST JSON with the page's timeout.
 *
 * Pairing (the tournament store) plugs in here: once a tablet is paired with a director, call
 * setHeader('Authorization', 'Bearer ' + token) (or the header the store defines) and every
 * request, challenge and PIN alike, carries it. Nothing else in the page needs to change. */
const extraHeaders = {};

export function setHeader(name, value) {
  if (value == null) delete extraHeaders[name];
  else extraHeaders[name] = String(value);
}

/* Resolves to {response, body} (body null when the answer is not JSON); rejects when there is
 * no answer at all (network down, timeout). */
export async function postJson(url, payload, timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...extraHeaders },
      body: JSON.stringify(payload),
      cache: 'no-store',
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
      signal: controller.signal,
    });
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    return { response, body };
  } finally {
    clearTimeout(timer);
  }
}
