// The page listens to <csai-ask>'s events the way a portal would: on any ancestor.
const list = document.getElementById('events');
const log = (text) => {
  const li = document.createElement('li');
  li.textContent = text;
  list.append(li);
};
document.addEventListener('csai-submitted', (e) => log(`csai-submitted: ${JSON.stringify(e.detail)}`));
document.addEventListener('csai-navigate', (e) => log(`csai-navigate: ${e.detail.path}`));
document.addEventListener('csai-error', (e) => log(`csai-error: ${e.detail.code} ${e.detail.message}`));
