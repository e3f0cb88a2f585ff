import type { LiteratureHit } from '../../../contract/literature';
import { useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import { onlineCardStrings } from './online.strings';
import { SaveToKnowledgeBase } from './SaveToKnowledgeBase';

addStrings('tool-cards-online', onlineCardStrings);

const MAX_AUTHORS = 3;
const httpOnly = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : undefined);

/**
 * Papers found by literature search: title (a link out, new tab), authors, journal, year, DOI and
 * PMID, the abstract folded, and — for an open-access PDF — a button that adds it to a knowledge
 * base. For the web-search card's 文献 results and any list of `LiteratureHit`s.
 */
export function LiteratureHits({ hits }: { hits: readonly LiteratureHit[] }) {
  const t = useT('tool-cards-online');
  if (!hits.length) return <p className="m-0 text-sm text-muted">{t('literature_empty')}</p>;
  return (
    <ol part="literature-hits" className="m-0 pl-5 flex flex-col gap-2 list-decimal text-sm text-ink">
      {hits.map((hit, i) => {
        const names = hit.authors.slice(0, MAX_AUTHORS).join(', ');
        const more = hit.authors.length > MAX_AUTHORS ? ` ${t('authors_more', { count: hit.authors.length - MAX_AUTHORS })}` : '';
        const href = httpOnly(hit.url);
        const pdf = httpOnly(hit.pdfUrl);
        return (
          <li key={`${hit.url}-${i}`} part="literature-hit" className="flex flex-col gap-1">
            <span className="font-semibold" data-field="title">
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer" className="text-accent">
                  {hit.title}
                </a>
              ) : (
                hit.title
              )}
            </span>
            {names && (
              <span className="text-xs">
                <span data-field="authors">{names}</span>
                {more}
              </span>
            )}
            <span className="text-xs text-muted">
              <span data-field="source">{[hit.journal, hit.year, hit.site].filter(Boolean).join(' · ')}</span>
              {hit.doi && (
                <>
                  {' · DOI '}
                  <a href={`https://doi.org/${encodeURI(hit.doi)}`} target="_blank" rel="noopener noreferrer" className="text-accent">
                    {hit.doi}
                  </a>
                </>
              )}
              {hit.pmid && (
                <>
                  {' · PMID '}
                  <a href={`https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(hit.pmid)}/`} target="_blank" rel="noopener noreferrer" className="text-accent">
                    {hit.pmid}
                  </a>
                </>
              )}
              {pdf && ` · ${t('open_access')}`}
            </span>
            <details className="text-xs">
              <summary className="cursor-pointer text-muted">{t('abstract')}</summary>
              {hit.abstract ? <p className="m-0 mt-1 whitespace-pre-wrap" data-field="abstract">{hit.abstract}</p> : <p className="m-0 mt-1">{t('no_abstract')}</p>}
            </details>
            {pdf && <SaveToKnowledgeBase label={t('save_paper')} save={(api, folderId) => api.savePaper(pdf, hit.title, folderId)} />}
          </li>
        );
      })}
    </ol>
  );
}
