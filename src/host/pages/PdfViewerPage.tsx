import { useSearch } from 'wouter';
import { useT } from '../i18n';
import { CustomElement, usePageTitle } from '../shell/common';

/** /pdf_viewer (`docId`, `if_img`, `download_url`, `download_key`): the full-window document viewer. */
export default function PdfViewerPage() {
  const t = useT();
  usePageTitle(t('pdf_viewer.title'));
  const q = new URLSearchParams(useSearch());
  return (
    <main id="main" className="viewer-page">
      <h1 className="visually-hidden">{t('pdf_viewer.title')}</h1>
      <CustomElement
        tag="csai-pdf-viewer"
        pending={t('page_loading')}
        attrs={{
          'doc-id': q.get('docId') ?? undefined,
          'if-img': q.get('if_img') ?? undefined,
          'download-url': q.get('download_url') ?? undefined,
          'download-key': q.get('download_key') ?? undefined,
        }}
      />
    </main>
  );
}
