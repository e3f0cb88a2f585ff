import { patentSearchOutput } from '../../../contract/patents';
import { useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import type { ToolCardProps } from './types';
import { patentCardStrings } from './patent-card.strings';

addStrings('tool-cards-patents', patentCardStrings);

const SOURCE_NAME = { surechembl: 'SureChEMBL', pubchem: 'PubChem' } as const;

/** The patent_search result: a table of patents (number, title, assignee, date, source) linking out, and any source that failed. */
export default function PatentCard({ ok, content, data }: ToolCardProps) {
  const t = useT('tool-cards-patents');
  const parsed = patentSearchOutput.safeParse(data);
  if (!ok || !parsed.success) return <p part="tool-card" className="m-0 text-sm text-ink">{content}</p>;
  const out = parsed.data;
  const title = out.query.kind === 'structure' ? t('title_structure', { value: out.query.canonical_smiles ?? out.query.value }) : t('title_text', { value: out.query.value });
  return (
    <section part="tool-card" aria-label={title} className="rounded-csai border border-line p-2 text-sm text-ink">
      <h4 className="m-0 mb-1 text-sm font-semibold break-all">
        {title} <span className="font-normal text-muted">{t('count', { count: out.hits.length })}</span>
      </h4>
      {out.hits.length === 0 ? (
        <p part="not-found" role="status" className="m-0 text-muted">{t('none')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left">
            <thead>
              <tr className="text-muted">
                <th scope="col" className="pr-2 font-normal">{t('number')}</th>
                <th scope="col" className="pr-2 font-normal">{t('patent_title')}</th>
                <th scope="col" className="pr-2 font-normal">{t('assignee')}</th>
                <th scope="col" className="pr-2 font-normal">{t('date')}</th>
                <th scope="col" className="font-normal">{t('source')}</th>
              </tr>
            </thead>
            <tbody>
              {out.hits.map((hit) => (
                <tr key={hit.number} className="border-t border-line align-top">
                  <td className="pr-2 whitespace-nowrap">
                    {/^https?:\/\//.test(hit.url) ? (
                      <a href={hit.url} target="_blank" rel="noopener noreferrer" className="text-accent hover:underline" aria-label={t('open', { number: hit.number, source: SOURCE_NAME[hit.source] })}>
                        {hit.number}
                      </a>
                    ) : (
                      hit.number
                    )}
                  </td>
                  <td className="pr-2">{hit.title ?? t('unknown')}</td>
                  <td className="pr-2">{hit.assignee ?? t('unknown')}</td>
                  <td className="pr-2 whitespace-nowrap">{hit.date ?? t('unknown')}</td>
                  <td>{SOURCE_NAME[hit.source]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {out.sources
        .filter((s) => !s.ok)
        .map((s) => (
          <p key={s.source} role="status" className="m-0 mt-1 text-muted">
            {t('failed', { source: SOURCE_NAME[s.source], message: s.message ?? '' })}
          </p>
        ))}
    </section>
  );
}
