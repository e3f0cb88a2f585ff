// Every element on one page, as a portal would place them. The documents to show come from the
// query (`?pdf=<doc-id>&sdf=<doc-id>`, ids of the signed-in user's documents); events are logged.
const list = document.getElementById('events');
const log = (text) => {
  const li = document.createElement('li');
  li.textContent = text;
  list.append(li);
};
for (const type of ['csai-submitted', 'csai-navigate', 'csai-error', 'csai-chem-smiles']) {
  document.addEventListener(type, (e) => log(`${type}: ${JSON.stringify(e.detail)}`));
}
// Links of the knowledge list and the conversation stay on this page in the demo.
document.addEventListener('csai-navigate', (e) => e.preventDefault());

const query = new URLSearchParams(location.search);
const place = (slot, tag, attrs) => {
  const box = document.getElementById(slot);
  const el = document.createElement(tag);
  el.setAttribute('api-base', box.dataset.apiBase);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  box.append(el);
};
if (query.get('pdf')) place('viewer-slot', 'csai-pdf-viewer', { id: 'viewer', 'doc-id': query.get('pdf') });
if (query.get('sdf')) place('molecule3d-slot', 'csai-molecule-3d', { id: 'molecule3d', 'doc-id': query.get('sdf') });
