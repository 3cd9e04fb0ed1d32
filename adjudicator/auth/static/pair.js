/* A scanned QR code opens /judge/pair#code=…: fill the code in and pair at once. The code rides
 * in the fragment, which the browser never sends, so it stays out of every access log. */
(function () {
  'use strict';
  var match = /(?:^#|&)code=([A-Za-z0-9-]{4,32})/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, '', location.pathname);
  document.getElementById('code').value = match[1];
  document.getElementById('pair-form').submit();
})();
