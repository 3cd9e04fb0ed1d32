/* The set-up page: open a kiosk without leaving a history entry to come back to. */
document.addEventListener('click', (event) => {
  const link = event.target.closest && event.target.closest('a.ruleset-link');
  if (link) {
    event.preventDefault();
    location.replace(link.href);
  }
});
