/* The one way the page talks to the service: POST JSON with the page's timeout.
 *
 * A paired tablet's credential is an HttpOnly cookie set at /judge/pair (the page never sees
 * the token): the browser sends it with every request, challenge and PIN alike. The service
 * believes a cookie on a POST only with the X-Requested-With header, which no cross-site page
 * can send, so it is always here. setHeader adds others (a bearer token, for a non-browser). */
const extraHeaders = { 'X-Requested-With': 'judge' };

export function setHeader(name, value) {
  if (value == null) delete extraHeaders[name];
  else extraHeaders[name] = String(value);
}

/* Resolves to {response, body} (body null when the answer is not JSON); rejects when there is
 * no answer at all (network down, timeout). `headers`: this request's own (an Idempotency-Key). */
export function postJson(url, payload, timeoutMs, headers = {}) {
  return request(url, timeoutMs, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
}

/* GET, as postJson (the tablet's pairing: /auth/whoami). */
export function getJson(url, timeoutMs) {
  return request(url, timeoutMs, { method: 'GET', headers: {} });
}

async function request(url, timeoutMs, { method, headers, body }) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method,
      headers: { Accept: 'application/json', ...extraHeaders, ...headers },
      body,
      cache: 'no-store',
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
      signal: controller.signal,
    });
    let answer = null;
    try {
      answer = await response.json();
    } catch (e) {
      answer = null;
    }
    return { response, body: answer };
  } finally {
    clearTimeout(timer);
  }
}
