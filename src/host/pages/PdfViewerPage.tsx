import './PdfViewerPage.strings';
import { useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import './SarPage.strings';
import type { KbDocument } from '../../contract/knowledge';
import { useT } from '../i18n';
import { BackLink, CustomElement, usePageTitle } from '../shell/common';

type MoleculeModule = typeof import('./MoleculeDocument');

/**
 * /pdf_viewer (`docId`, `if_img`, `download_url`, `download_key`, and `page`/`highlight` for citations):
 * the full-window document viewer. SDF and PDB documents (the knowledge list's “3D 查看”) get their
 * 3D view and molecule list instead; the PDF viewer starts at once and is swapped out when the
 * record, read beside it, says the document is a molecule file.
 */
export default function PdfViewerPage() {
  const t = useT();
  usePageTitle(t('pdf_viewer.title'));
  const q = new URLSearchParams(useSearch());
  const docId = q.get('docId') ?? undefined;
  const downloadUrl = q.get('download_url');
  // The knowledge list says `type=5|6` for SDF/PDB documents: the PDF viewer (and its prefetch of
  // the file for pdf.js) is not started at all. Without it (citations, older links) the viewer
  // starts at once and its prefetch drops the file when the record says it is not a PDF.
  const knownMolecule = /^[567]$/.test(q.get('type') ?? '') && !!docId && !downloadUrl;
  const [molecule, setMolecule] = useState<{ doc: KbDocument; view: MoleculeModule['MoleculeDocument'] } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setMolecule(null);
    setFailed(false);
    if (!docId || downloadUrl) return;
    const controller = new AbortController();
    void import('./MoleculeDocument')
      .then(async (m) => {
        const doc = await m.loadDocument(docId, controller.signal);
        if (m.MOLECULE_TYPES.has(doc.type)) setMolecule({ doc, view: m.MoleculeDocument });
        else if (doc.type === 7) {
          const w = await import('./WebDocument');
          setMolecule({ doc, view: w.WebDocument });
        }
        else if (knownMolecule) setFailed(true); // not a molecule after all: the viewer takes it
      })
      // Without the PDF viewer beside it (a known molecule), the viewer shows the failure then.
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [docId, downloadUrl, knownMolecule]);
  const MoleculeView = molecule?.view;
  return (
    <main id="main" className="viewer-page">
      <h1 className="visually-hidden">{t('pdf_viewer.title')}</h1>
      <BackLink>
        {/* The document's structure–activity table, a link of the bar as the way back is. */}
        {docId && !downloadUrl && !knownMolecule && (
          <Link className="button button--ghost" data-testid="sar-link" href={`/sar?docId=${encodeURIComponent(docId)}`}>
            {t('sar.open_sar')}
          </Link>
        )}
      </BackLink>
      {molecule && MoleculeView ? (
        <MoleculeView doc={molecule.doc} />
      ) : knownMolecule && !failed ? (
        <p className="muted" role="status">{t('page_loading')}</p>
      ) : (
        <CustomElement
          tag="csai-pdf-viewer"
          pending={t('page_loading')}
          attrs={{
            'doc-id': docId,
            // A boolean attribute: present only when the query says yes (`if_img=false` must not turn it on).
            'if-img': /^(1|true|yes)$/i.test(q.get('if_img') ?? '') ? 'true' : undefined,
            'download-url': q.get('download_url') ?? undefined,
            'download-key': q.get('download_key') ?? undefined,
            // Citations open the viewer at a page with a highlighted box.
            page: q.get('page') ?? undefined,
            highlight: q.get('highlight') ?? q.get('bbox') ?? undefined,
            // A figure hit's review: that recognised structure opens beside its drawing.
            'structure-id': /^\d{1,12}$/.test(q.get('structure') ?? '') ? q.get('structure')! : undefined,
          }}
        />
      )}
    </main>
  );
}
