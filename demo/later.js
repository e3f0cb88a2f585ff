document.getElementById('add').addEventListener('click', () => {
  const el = document.createElement('csai-status');
  el.setAttribute('api-base', document.body.dataset.csaiOrigin);
  document.getElementById('slot').append(el);
});
