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
export async function postJson(url, payload, timeoutMs, headers = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...extraHeaders,
        ...headers,
      },
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
