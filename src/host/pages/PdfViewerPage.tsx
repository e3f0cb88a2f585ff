import { useSearch } from 'wouter';
import { useT } from '../i18n';
import { CustomElement, usePageTitle } from '../shell/common';

/** /pdf_viewer (`docId`, `if_img`, `download_url`, `download_key`, and `page`/`highlight` for citations): the full-window document viewer. */
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
          // A boolean attribute: present only when the query says yes (`if_img=false` must not turn it on).
          'if-img': /^(1|true|yes)$/i.test(q.get('if_img') ?? '') ? 'true' : undefined,
          'download-url': q.get('download_url') ?? undefined,
          'download-key': q.get('download_key') ?? undefined,
          // Citations open the viewer at a page with a highlighted box.
          page: q.get('page') ?? undefined,
          highlight: q.get('highlight') ?? q.get('bbox') ?? undefined,
        }}
      />
    </main>
  );
}
