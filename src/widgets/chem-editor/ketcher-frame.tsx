// The page inside <csai-chem-editor>'s iframe: Ketcher (ketcher-react with the standalone
// Indigo WebAssembly service) in its own document, so its styles, portals and global listeners
// never touch the embedding page or the element's shadow root. It talks to the element only
// through postMessage (protocol.ts).
import './frame-globals';
import 'ketcher-react/dist/index.css';
import { createRoot } from 'react-dom/client';
import { Editor } from 'ketcher-react';
import { StandaloneStructServiceProvider } from 'ketcher-standalone';
import type { Ketcher } from 'ketcher-core';
import { editorMessage, type FrameMessage } from './protocol';

let ketcher: Ketcher | null = null;
const reply = (msg: FrameMessage) => window.parent.postMessage(msg, '*');

window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const parsed = editorMessage.safeParse(event.data);
  if (!parsed.success || !ketcher) return;
  const msg = parsed.data;
  if (msg.type === 'csai-ketcher-set') {
    void ketcher.setMolecule(msg.smiles).catch(() => undefined);
    return;
  }
  ketcher.getSmiles().then(
    (smiles) => reply({ type: 'csai-ketcher-smiles', id: msg.id, smiles }),
    (error: unknown) => reply({ type: 'csai-ketcher-smiles', id: msg.id, error: String(error) }),
  );
});

const provider = new StandaloneStructServiceProvider();
const host = document.getElementById('csai-ketcher');
if (host) {
  createRoot(host).render(
    <Editor
      staticResourcesUrl=""
      structServiceProvider={provider}
      disableMacromoleculesEditor
      errorHandler={(message: string) => reply({ type: 'csai-ketcher-failed', message })}
      onInit={(k: Ketcher) => {
        ketcher = k;
        reply({ type: 'csai-ketcher-ready' });
      }}
    />,
  );
}
