// The page listens to the elements' events the way a portal would: on any ancestor.
const list = document.getElementById('events');
const log = (text) => {
  const li = document.createElement('li');
  li.textContent = text;
  list.append(li);
};
document.addEventListener('csai-status-change', (e) => log(`csai-status-change: ${JSON.stringify(e.detail)}`));
document.addEventListener('csai-error', (e) => log(`csai-error: ${e.detail.code} ${e.detail.message}`));
