import { useEffect, useLayoutEffect, useMemo, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { ApiError } from '../../core/api';
import { structureReview } from '../../core/structure-review';
import { structuresApi } from '../../core/structures-api';
import { viewerModel } from '../../core/viewer-model';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { documentSource, type PdfDocument } from './document-source';
import { ImageView, MarkdownPanel, OutlinePanel } from './DocumentPanels';
import { PageColumn } from './PageColumn';
import { StructurePanel } from './StructurePanel';
import type { PageLabels } from './PdfPage';
import { pdfViewerStrings } from './pdf-viewer.strings';
import { downloadPath } from './prefetch';
import { Toolbar } from './Toolbar';
import { useValue } from './use-value';
import { adoptViewerCss } from './viewer-css';

addStrings('pdfViewer', pdfViewerStrings);

export interface PdfViewerProps extends CommonProps {
  docId: string | undefined;
  ifImg: boolean;
  downloadUrl: string | undefined;
  downloadKey: string | undefined;
  page: number | undefined;
  highlight: string | undefined;
  structureId: number | undefined;
}

type Translate = ReturnType<typeof useT>;

/**
 * A failure as the message shown in the viewer. A failed call reached the page as the client's
 * `csai-error`; a pdf.js failure is told here.
 */
function failure(host: HTMLElement, t: Translate, error: unknown, key: 'load_failed' | 'download_failed' | 'markdown_failed'): string {
  const known = error instanceof ApiError ? error : null;
  const message = known ? (known.code === 'network_error' ? t('network_error') : known.message) : t('pdf_failed');
  if (!known) emit(host, 'csai-error', { message, code: 'pdf_failed' });
  return key === 'load_failed' && !known ? t('pdf_failed') : t(key, { message });
}

/** The full-document viewer: a view of the core's viewer model (src/core/viewer-model.ts). */
export function PdfViewer(props: PdfViewerProps) {
  const { docId: rawId, ifImg, downloadUrl, downloadKey, page: startPage, highlight, structureId } = props;
  const docId = rawId ?? downloadKey;
  const { host, root, apiOrigin } = useHost();
  const client = useApi();
  const t = useT('pdfViewer');
  const tRef = useRef(t);
  tRef.current = t;
  const model = useMemo(() => viewerModel<PdfDocument>({ fail: (error, key) => failure(host, tRef.current, error, key) }, { startPage, highlight }), [host]);
  const searchInput = useRef<HTMLInputElement>(null);
  // The structures recognised in the document's drawings (a document of the knowledge base only).
  const review = useMemo(() => (docId && !downloadUrl ? structureReview(structuresApi(client)) : null), [client, docId, downloadUrl]);

  useEffect(() => adoptViewerCss(root), [root]);
  useLayoutEffect(() => model.target(startPage, highlight), [model, startPage, highlight]);
  // A document: the record, then the PDF bytes or the image (document-source.ts).
  useEffect(() => {
    const save = (blob: Blob, name: string) => {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.rel = 'noopener';
      root.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    };
    return model.open(documentSource({ apiOrigin, client, docId, downloadUrl, ifImg }, save), tRef.current('no_doc'));
    // `page` and `highlight` apply when a document opens; a later page scrolls (below).
  }, [model, root, apiOrigin, client, docId, downloadUrl, ifImg]);
  const load = useValue(model.$load);
  const isPdf = load.state === 'pdf';
  const isImage = load.state === 'image';
  const picture = useMemo(() => (load.state === 'image' ? { image: load.src } : null), [load]);
  useEffect(() => (review && (isPdf || isImage) && docId ? review.load(docId) : undefined), [review, isPdf, isImage, docId]);
  // `structure-id` opens that structure's review (a figure hit of the molecule search).
  useEffect(() => {
    if (review && structureId !== undefined) review.select(structureId);
  }, [review, structureId]);
  const record = useValue(model.$record);
  const downloadError = useValue(model.$downloadError);
  const pdf = load.state === 'pdf' ? load.document : null;
  useEffect(() => model.followStartPage(), [model, pdf, startPage]);

  const labels = useMemo<PageLabels>(() => {
    // One translation per text, the page number put in after: a 500-page document would
    // otherwise translate 500 labels on every render of the view.
    const slot = '\u0001';
    const page = t('page_label', { page: slot });
    const loading = t('loading_page', { page: slot });
    const structure = t('structure_box');
    return {
      page: (n) => page.replace(slot, String(n)),
      loading: (n) => loading.replace(slot, String(n)),
      citation: t('citation'),
      structure: (label) => (label ? t('structure_box_label', { label }) : structure),
    };
  }, [t]);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    const done = model.key(e.key, { ctrl: e.ctrlKey || e.metaKey, inField: target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' });
    if (!done) return;
    e.preventDefault();
    if (done === 'search') {
      searchInput.current?.focus();
      searchInput.current?.select();
    }
  };

  return (
    <section part="base" aria-label={t('label')} className="csai-pdf-base flex flex-col h-full font-csai bg-surface text-ink" onKeyDown={onKeyDown}>
      <Toolbar model={model} review={review} searchInput={searchInput} hasMarkdown={Boolean(docId)} canDownload={Boolean(downloadPath(docId, downloadUrl))} />
      {downloadError && (
        <p part="download-error" role="alert" className="px-3 py-1 text-sm text-danger">
          {downloadError}
        </p>
      )}
      {load.state === 'loading' || load.state === 'idle' ? (
        <p part="status" role="status" className="p-6 text-center text-muted">
          {t('loading')}
        </p>
      ) : load.state === 'error' ? (
        <p part="error" role="alert" className="p-6 text-center text-danger">
          {load.message}
        </p>
      ) : load.state === 'other' ? (
        <p part="status" role="status" className="p-6 text-center text-muted">
          {t('not_pdf')}
        </p>
      ) : load.state === 'image' ? (
        <div className="csai-pdf-body flex flex-1 min-h-0">
          <ImageView model={model} src={load.src} title={record?.title ?? ''} review={review} labels={labels} />
          {review && picture && <StructurePanel model={model} review={review} document={picture} />}
        </div>
      ) : (
        <div className="csai-pdf-body flex flex-1 min-h-0">
          <OutlinePanel model={model} />
          {pdf && <PageColumn model={model} review={review} document={pdf} labels={labels} />}
          <MarkdownPanel model={model} labels={labels} />
          {pdf && review && <StructurePanel model={model} review={review} document={pdf} />}
        </div>
      )}
    </section>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<PdfViewerProps>(PdfViewer);
