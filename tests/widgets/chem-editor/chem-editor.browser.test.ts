// <csai-chem-editor> with a stand-in for the Ketcher page (same protocol, no Ketcher): readiness,
// the returned SMILES, the failure message, pasting, and use inside another shadow root.
import axe from 'axe-core';
import '../../../src/widgets/chem-editor/chem-editor.element';
import type { CsaiChemEditorElement } from '../../../src/widgets/chem-editor/chem-editor.element';
import { expect, failOnConsoleErrors, mount, part, waitFor } from '../harness';

/** A frame that reports ready (unless `ready` is false) and answers every request with `smiles`. */
function fakeKetcher({ ready = true, smiles = 'c1ccccc1O' }: { ready?: boolean; smiles?: string } = {}) {
  const html = `<!doctype html><html lang="zh"><title>fake</title><body><script>
    const loaded = [];
    addEventListener('message', (e) => {
      if (e.data && e.data.type === 'csai-ketcher-get') parent.postMessage({ type: 'csai-ketcher-smiles', id: e.data.id, smiles: ${JSON.stringify(smiles)} }, '*');
      if (e.data && e.data.type === 'csai-ketcher-set') { loaded.push(e.data.smiles); parent.postMessage({ type: 'csai-ketcher-loaded-echo', smiles: e.data.smiles }, '*'); }
    });
    ${ready ? "setTimeout(() => parent.postMessage({ type: 'csai-ketcher-ready' }, '*'), 250);" : ''}
  </script></body></html>`;
  return URL.createObjectURL(new Blob([html], { type: 'text/html' }));
}

describe('<csai-chem-editor>', () => {
  failOnConsoleErrors();
  let box: HTMLElement | undefined;
  afterEach(() => {
    box?.remove();
    box = undefined;
  });
  const show = (url: string) => {
    box = mount(`<csai-chem-editor editor-url="${url}"></csai-chem-editor>`);
    return box.querySelector('csai-chem-editor')!;
  };

  it('loads the editor only when opened, waits for it, and sends the drawn SMILES', async () => {
    const el = show(fakeKetcher());
    await waitFor(() => part(el, 'dialog'), 'the view');
    expect(part(el, 'frame')).to.equal(null); // nothing loaded before the first open
    const got: string[] = [];
    el.addEventListener('csai-chem-smiles', (e) => got.push(e.detail.smiles));
    el.open();
    const dialog = part(el, 'dialog') as HTMLDialogElement;
    await waitFor(() => dialog.open, 'the open dialog');
    const status = await waitFor(() => part(el, 'status'), 'the loading notice');
    expect(status.textContent).to.equal('正在加载化学编辑器…');
    expect(part(el, 'frame')).to.not.equal(null);
    await waitFor(() => !part(el, 'status'), 'Ketcher ready');
    part(el, 'insert')!.click();
    await waitFor(() => got.length === 1, 'the SMILES');
    expect(got).to.deep.equal(['c1ccccc1O']);
    await waitFor(() => !dialog.open, 'the closed dialog');
    expect(el.hasAttribute('opened')).to.equal(false);
  });

  it('says 获取SMILES失败 when no structure comes back, and stays open', async () => {
    const el = show(fakeKetcher({ smiles: '' }));
    const got: string[] = [];
    el.addEventListener('csai-chem-smiles', (e) => got.push(e.detail.smiles));
    await waitFor(() => part(el, 'dialog'), 'the view');
    el.open();
    await waitFor(() => !part(el, 'status') && part(el, 'frame'), 'Ketcher ready');
    part(el, 'insert')!.click();
    const err = await waitFor(() => part(el, 'error'), 'the failure');
    expect(err.textContent).to.equal('获取SMILES失败');
    expect(got).to.deep.equal([]);
    expect((part(el, 'dialog') as HTMLDialogElement).open).to.equal(true);
  });

  it('inserts a pasted SMILES while the editor is still loading', async () => {
    const el = show(fakeKetcher({ ready: false }));
    const got: string[] = [];
    el.addEventListener('csai-chem-smiles', (e) => got.push(e.detail.smiles));
    await waitFor(() => part(el, 'dialog'), 'the view');
    el.open('CC(=O)Oc1ccccc1C(=O)O');
    const paste = await waitFor(() => part(el, 'paste') as HTMLInputElement | null, 'the paste field');
    await waitFor(() => paste.value === 'CC(=O)Oc1ccccc1C(=O)O', 'the starting SMILES');
    expect(part(el, 'status')).to.not.equal(null);
    part(el, 'insert')!.click();
    await waitFor(() => got.length === 1, 'the SMILES');
    expect(got).to.deep.equal(['CC(=O)Oc1ccccc1C(=O)O']);
  });

  it('closes with cancel without sending anything', async () => {
    const el = show(fakeKetcher());
    const got: string[] = [];
    el.addEventListener('csai-chem-smiles', (e) => got.push(e.detail.smiles));
    await waitFor(() => part(el, 'dialog'), 'the view');
    el.open();
    await waitFor(() => (part(el, 'dialog') as HTMLDialogElement).open, 'the open dialog');
    part(el, 'cancel')!.click();
    await waitFor(() => !(part(el, 'dialog') as HTMLDialogElement).open, 'closed');
    expect(el.hasAttribute('opened')).to.equal(false);
    expect(got).to.deep.equal([]);
  });

  it('works inside another element’s shadow root, the event crossing it', async () => {
    box = mount('<div id="outer"></div>');
    const outer = box.querySelector('#outer')!;
    const shadow = outer.attachShadow({ mode: 'open' });
    const el = document.createElement('csai-chem-editor') as CsaiChemEditorElement;
    el.setAttribute('editor-url', fakeKetcher({ smiles: 'CCO' }));
    shadow.append(el);
    const got: string[] = [];
    box.addEventListener('csai-chem-smiles', (e) => got.push(e.detail.smiles));
    await waitFor(() => part(el, 'dialog'), 'the view');
    el.open();
    await waitFor(() => !part(el, 'status') && part(el, 'frame'), 'Ketcher ready');
    part(el, 'insert')!.click();
    await waitFor(() => got.length === 1, 'the SMILES outside');
    expect(got).to.deep.equal(['CCO']);
  });

  it('has no serious or critical axe violations when open', async () => {
    const el = show(fakeKetcher());
    await waitFor(() => part(el, 'dialog'), 'the view');
    el.open();
    await waitFor(() => !part(el, 'status') && part(el, 'frame'), 'Ketcher ready');
    const results = await axe.run(el, { resultTypes: ['violations'] });
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => v.id)).to.deep.equal([]);
  });
});
