import './PdfViewerPage.strings';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { KbDocument } from '../../contract/knowledge';
import { ApiError } from '../../core/api';
import { createKnowledgeApi } from '../../core/knowledge-api';
import { api } from '../../core/page';
import { useT } from '../i18n';
import { CustomElement } from '../shell/common';

/** SDF (5) and PDB (6) documents: what /pdf_viewer shows instead of the PDF viewer. */
export const MOLECULE_TYPES: ReadonlySet<number> = new Set([5, 6]);

/** The document's record (quiet: the PDF viewer beside it reports failures itself). */
export function loadDocument(docId: string, signal: AbortSignal): Promise<KbDocument> {
  return createKnowledgeApi(api()).doc(docId, { signal });
}

export interface MoleculeRow {
  idx: number;
  name: string;
  smiles: string;
}

/** The molecule table of a parsed SDF's text (columns #, 名称, SMILES, then properties). */
export function moleculeRows(markdown: string): MoleculeRow[] {
  const rows: MoleculeRow[] = [];
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line
      .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    const idx = Number(cells[0]);
    if (!Number.isInteger(idx) || idx < 1) continue; // the header and the --- line
    rows.push({ idx, name: cells[1] ?? '', smiles: cells[2] ?? '' });
  }
  return rows;
}

const PAGE = 30;

/**
 * A molecule document in the viewer route: its 3D view, and for an SDF the list of its molecules
 * (2D drawing, name, SMILES); choosing one shows that molecule in 3D.
 */
export function MoleculeDocument({ doc }: { doc: KbDocument }) {
  const t = useT();
  const [rows, setRows] = useState<MoleculeRow[] | 'loading' | 'error'>(doc.type === 5 ? 'loading' : []);
  // `mol=` (a molecule search hit) opens the viewer on that record.
  const wanted = Number(new URLSearchParams(useSearch()).get('mol'));
  const [chosen, setChosen] = useState<number | null>(Number.isInteger(wanted) && wanted > 0 ? wanted : null);
  const [shown, setShown] = useState(PAGE);
  useEffect(() => {
    if (doc.type !== 5) return;
    const controller = new AbortController();
    createKnowledgeApi(api())
      .docMarkdown(doc.docId, controller.signal)
      .then((md) => setRows(moleculeRows(md.markdown)))
      .catch((err: unknown) => {
        if (!(err instanceof ApiError && err.code === 'aborted')) setRows('error');
      });
    return () => controller.abort();
  }, [doc.docId, doc.type]);

  const current = Array.isArray(rows) ? rows.find((r) => r.idx === chosen) : undefined;
  return (
    <div className="mol-doc">
      <header className="mol-doc__header">
        <h2 className="mol-doc__title">{doc.title}</h2>
        <span className="muted">{doc.type === 5 ? t('pdf_viewer.sdf') : t('pdf_viewer.pdb')}</span>
        <a className="button" href={doc.download_url} download={doc.title}>{t('pdf_viewer.download')}</a>
      </header>
      <div className="mol-doc__body">
        <section className="mol-doc__view" aria-label={t('pdf_viewer.view_3d')}>
          {current && <p className="mol-doc__caption">{t('pdf_viewer.showing', { idx: current.idx, name: current.name || current.smiles })}</p>}
          <CustomElement
            tag="csai-molecule-3d"
            pending={t('page_loading')}
            attrs={current ? { 'mol-key': `${doc.docId}:${current.idx}` } : { 'doc-id': doc.docId }}
          />
        </section>
        {doc.type === 5 && (
          <section className="mol-doc__list" aria-label={t('pdf_viewer.molecules')}>
            <h3 className="card__title">
              {t('pdf_viewer.molecules')}
              {Array.isArray(rows) && <span className="muted"> {t('pdf_viewer.count', { count: rows.length })}</span>}
            </h3>
            {rows === 'loading' && <p className="muted" role="status">{t('page_loading')}</p>}
            {rows === 'error' && <p className="form-error" role="alert">{t('pdf_viewer.list_failed')}</p>}
            {Array.isArray(rows) && rows.length === 0 && <p className="muted">{t('pdf_viewer.no_molecules')}</p>}
            {Array.isArray(rows) && rows.length > 0 && (
              <ul className="mol-doc__items">
                {rows.slice(0, shown).map((r) => (
                  <li key={r.idx} className="mol-doc__item" data-chosen={r.idx === chosen || undefined}>
                    <CustomElement
                      tag="csai-molecule"
                      attrs={{ ...(r.smiles ? { smiles: r.smiles } : { 'mol-key': `${doc.docId}:${r.idx}` }), width: '200', height: '150', 'hide-copy': '' }}
                    />
                    <button type="button" className="mol-doc__name" aria-pressed={r.idx === chosen} onClick={() => setChosen(r.idx === chosen ? null : r.idx)}>
                      {r.idx}. {r.name || t('pdf_viewer.unnamed')}
                    </button>
                    <code className="mol-doc__smiles">{r.smiles}</code>
                  </li>
                ))}
              </ul>
            )}
            {Array.isArray(rows) && rows.length > shown && (
              <button type="button" className="button" onClick={() => setShown((n) => n + PAGE)}>
                {t('pdf_viewer.more', { count: rows.length - shown })}
              </button>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
