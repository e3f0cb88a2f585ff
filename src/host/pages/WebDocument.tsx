import { useEffect, useRef, useState } from 'react';
import type { KbDocument } from '../../contract/knowledge';
import { ApiError } from '../../core/api';
import { createKnowledgeApi } from '../../core/knowledge-api';
import { api } from '../../core/page';
import { markdownFragment } from '../../widgets/pdf-viewer/markdown';
import { useT } from '../i18n';

/** Web pages saved from page crawl (type 7): their readable text as markdown, with where and when they were read. */
export const WEB_TYPES: ReadonlySet<number> = new Set([7]);

/** A saved web page in the viewer route: title, source link, fetch time, and the page's text. */
export function WebDocument({ doc }: { doc: KbDocument }) {
  const t = useT();
  const body = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  useEffect(() => {
    const controller = new AbortController();
    setState('loading');
    createKnowledgeApi(api())
      .docMarkdown(doc.docId, controller.signal)
      .then((md) => {
        body.current?.replaceChildren(markdownFragment(md.markdown));
        setState('ready');
      })
      .catch((err: unknown) => {
        if (!(err instanceof ApiError && err.code === 'aborted')) setState('error');
      });
    return () => controller.abort();
  }, [doc.docId]);
  return (
    <article className="mol-doc" aria-label={doc.title}>
      <header className="mol-doc__header">
        <h2 className="mol-doc__title">{doc.title}</h2>
        <span className="muted">{t('pdf_viewer.web_page')}</span>
        {doc.source_url && (
          <a className="button" href={doc.source_url} target="_blank" rel="noopener noreferrer">
            {t('pdf_viewer.open_source')}
          </a>
        )}
        <a className="button" href={doc.download_url} download={doc.title}>
          {t('pdf_viewer.download')}
        </a>
      </header>
      {doc.fetched_at && <p className="muted">{t('pdf_viewer.fetched_at', { time: new Date(doc.fetched_at).toLocaleString() })}</p>}
      {state === 'loading' && <p className="muted" role="status">{t('page_loading')}</p>}
      {state === 'error' && <p className="form-error" role="alert">{t('pdf_viewer.text_failed')}</p>}
      <div ref={body} className="web-doc__text" />
    </article>
  );
}
