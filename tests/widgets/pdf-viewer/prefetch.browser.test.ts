// The viewer's prefetch (prefetch.ts) with the API faked: a PDF opens without waiting for the
// record; an SDF/PDB never reaches pdf.js (its download stops when the record says so, and bytes
// that are not a PDF are not opened while the record is still on its way).
import { looksLikePdf, prefetch, prefetchKey, takePrefetch } from '../../../src/widgets/pdf-viewer/prefetch';
import { expect, nextFrame, realFetch, restoreFetch } from '../harness';
import { fakeApi, ok } from '../fake-api';

const DOCS = '/.tmp/test-docs';
const SDF = 'ZINC01\n  RDKit          3D\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n$$$$\n';

const record = (docId: string, type: 1 | 5 | 6) => ({
  docId, title: `${docId}.x`, type, parseStatus: 2, parse_progress: 100, progress_texts: [], img_id: null,
  download_url: `/api/v1/knowledge_base/download/${docId}`, download_key: docId, folder_id: 'f1', size: 1, page_count: null,
  owner_id: 'u1', owner_name: '张三', is_owner: true, created_at: '2026-01-01T00:00:00Z',
});

async function until<T>(check: () => T | undefined | null | false, what: string): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() - started > 15000) throw new Error(`timed out waiting for ${what}`);
    await nextFrame();
  }
}

/** A gate the test opens by hand. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('prefetch of <csai-pdf-viewer>', () => {
  afterEach(restoreFetch);

  /** Fakes the API: the record and the bytes of `docId`, each answered when its gate opens. */
  function fake(docId: string, type: 1 | 5 | 6, bytes: () => Promise<Response>, gates: { record: Promise<void>; bytes: Promise<void> }) {
    const signals: AbortSignal[] = [];
    fakeApi([
      ['GET', `/knowledge_base/doc/${docId}`, async () => {
        await gates.record;
        return ok(record(docId, type));
      }],
      ['GET', `/knowledge_base/download/${docId}`, ({ signal }) => {
        if (signal) signals.push(signal);
        return new Promise<Response>((resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          void gates.bytes.then(bytes).then(resolve, reject);
        });
      }],
    ]);
    const host = document.createElement('div');
    host.setAttribute('doc-id', docId);
    prefetch(host);
    const entry = takePrefetch(prefetchKey('', docId, `/api/v1/knowledge_base/download/${docId}`));
    expect(entry, 'a prefetch').not.to.equal(undefined);
    return { entry: entry!, signals };
  }

  it('opens a PDF as soon as its bytes arrive, without waiting for the record', async () => {
    const rec = gate();
    const { entry } = fake('p1', 1, () => realFetch(`${DOCS}/zhlipsum.pdf`), { record: rec.opened, bytes: Promise.resolve() });
    const doc = await entry.pdf;
    expect(doc.numPages).to.be.greaterThan(1);
    rec.open();
    await doc.destroy();
  });

  it('stops the download of an SDF when the record says so, and never opens it', async () => {
    const bytesGate = gate();
    const { entry, signals } = fake('s1', 5, async () => new Response(SDF), { record: Promise.resolve(), bytes: bytesGate.opened });
    await until(() => signals[0]?.aborted, 'the download stopped');
    let failure = '';
    await entry.pdf.catch((e: unknown) => (failure = String(e)));
    expect(failure).not.to.equal('');
    bytesGate.open();
  });

  it('does not hand bytes that are not a PDF to pdf.js while the record is still on its way', async () => {
    const rec = gate();
    const { entry } = fake('b1', 6, async () => new Response('HEADER    PROTEIN\nATOM      1  N   MET A   1\n'), { record: rec.opened, bytes: Promise.resolve() });
    let failure = '';
    await entry.pdf.catch((e: unknown) => (failure = String(e)));
    expect(failure).to.contain('not a PDF');
    rec.open();
  });

  it('tells PDF bytes from others', () => {
    const enc = new TextEncoder();
    expect(looksLikePdf(enc.encode('%PDF-1.7\n…'))).to.equal(true);
    expect(looksLikePdf(enc.encode('\n\n  %PDF-1.4'))).to.equal(true);
    expect(looksLikePdf(enc.encode(SDF))).to.equal(false);
    expect(looksLikePdf(new Uint8Array())).to.equal(false);
  });
});
