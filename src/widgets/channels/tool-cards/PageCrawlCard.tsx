import { pageCrawlOutput } from '../../../contract/crawl';
import { useHost, useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import type { ToolCardProps } from './types';
import { onlineCardStrings } from './online.strings';
import { SaveToKnowledgeBase } from './SaveToKnowledgeBase';

addStrings('tool-cards-online', onlineCardStrings);

/** The page_crawl result: title (opening the page in a new tab), site, fetch time, excerpt, and a button to keep it in a knowledge base. */
export default function PageCrawlCard({ ok, content, data }: ToolCardProps) {
  const t = useT('tool-cards-online');
  const { lang } = useHost();
  const parsed = pageCrawlOutput.safeParse(data);
  if (!ok || !parsed.success) return <p part="tool-card" className="m-0 text-sm text-ink whitespace-pre-wrap">{content}</p>;
  const page = parsed.data;
  const safeHref = /^https?:\/\//i.test(page.url) ? page.url : undefined;
  return (
    <section part="tool-card" aria-label={t('crawl_title', { title: page.title })} className="flex flex-col gap-1 text-sm text-ink">
      <h4 className="m-0 text-sm font-semibold">
        {safeHref ? (
          <a href={safeHref} target="_blank" rel="noopener noreferrer" className="text-accent break-all" title={t('open')}>
            {page.title}
          </a>
        ) : (
          page.title
        )}
      </h4>
      <p className="m-0 text-xs text-muted">
        {/* The time in the card's language, not the browser's (no “PM” in the Chinese card). */}
        <span data-field="site">{page.site}</span> · {t('fetched_at', { time: new Date(page.fetchedAt).toLocaleString(lang === 'en' ? 'en-GB' : 'zh-CN') })}
        {page.page_count ? ` · ${t('pdf_pages', { count: page.page_count })}` : ''}
      </p>
      {page.snippet && <p part="excerpt" className="m-0 text-sm">{page.snippet}</p>}
      {page.truncated && <p className="m-0 text-xs text-muted">{t('truncated')}</p>}
      <SaveToKnowledgeBase label={t('save')} save={(api, folderId) => api.savePage(page.url, folderId)} />
    </section>
  );
}
