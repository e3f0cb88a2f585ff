// Attributes can change at any time; the elements follow.
document.getElementById('toggle').addEventListener('click', () => {
  for (const el of document.querySelectorAll('csai-status')) {
    el.setAttribute('theme', el.getAttribute('theme') === 'dark' ? 'light' : 'dark');
  }
});
