import { createElement, type MouseEvent } from 'react';
import { intelligenceSearchOutput, moleculeHitPath, type IntelligenceSearchOutput } from '../../../contract/molecules';
import { useHost, useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import { openProductPage } from '../../shared/site';
import type { ToolCardProps } from './types';

addStrings('intelligence', {
  zh: {
    title: '情报数据库检索',
    documents: '在 {{count}} 篇可读文档中检索',
    passages: '相关段落',
    no_passages: '没有找到相关段落',
    molecules: '分子（{{mode}}，查询 {{query}}）',
    no_molecules: '在 {{searched}} 个分子中没有找到匹配的分子',
    more: '还有更多匹配的分子',
    page: '第 {{page}} 页',
    score: '相似度 {{score}}',
    matched_parent: '按母体结构匹配',
    matched_stereo: '立体异构体',
    modes: { exact: '精确结构', substructure: '子结构', similarity: '相似性' },
  },
  en: {
    title: 'Intelligence database search',
    documents: 'Searched {{count}} readable documents',
    passages: 'Passages',
    no_passages: 'No passage found',
    molecules: 'Molecules ({{mode}}, query {{query}})',
    no_molecules: 'No match among {{searched}} molecules',
    more: 'More molecules match',
    page: 'page {{page}}',
    score: 'similarity {{score}}',
    matched_parent: 'matched by its parent',
    matched_stereo: 'a stereoisomer',
    modes: { exact: 'exact', substructure: 'substructure', similarity: 'similarity' },
  },
});

/** The `intelligence_search` result in an answer: passages and molecules, each linking to its document (and page). */
export default function IntelligenceCard({ content, data, ok }: ToolCardProps) {
  const parsed = ok ? intelligenceSearchOutput.safeParse(data) : undefined;
  if (!parsed?.success) return <p className="text-sm text-danger whitespace-pre-wrap" part="tool-error">{content}</p>;
  return <Result result={parsed.data} />;
}

function Result({ result }: { result: IntelligenceSearchOutput }) {
  const t = useT('intelligence');
  const { host, apiOrigin, lang } = useHost();
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    openProductPage(host, apiOrigin, e.currentTarget.getAttribute('href') ?? '/');
  };
  const link = 'text-accent font-semibold break-all';
  const m = result.molecules;
  return (
    <section className="flex flex-col gap-2 text-sm" aria-label={t('title')}>
      <p className="text-muted">{t('documents', { count: result.documents })}</p>
      <h4 className="font-semibold">{t('passages')}</h4>
      {result.passages.length === 0 ? (
        <p className="text-muted">{t('no_passages')}</p>
      ) : (
        <ol className="flex flex-col gap-1 pl-5 list-decimal">
          {result.passages.map((p, i) => (
            <li key={`${p.doc_id}-${i}`}>
              <a className={link} href={`/pdf_viewer?${new URLSearchParams({ docId: p.doc_id, ...(p.page !== null ? { page: String(p.page) } : {}) }).toString()}`} onClick={open}>
                {p.title}
              </a>
              {p.page !== null && <span className="text-muted"> · {t('page', { page: p.page })}</span>}
              <p className="text-ink line-clamp-3" data-quote="">{p.text}</p>
            </li>
          ))}
        </ol>
      )}
      {m && (
        <>
          <h4 className="font-semibold break-all">{t('molecules', { mode: t(`modes.${m.mode}`), query: m.query.text })}</h4>
          {m.hits.length === 0 ? (
            <p className="text-muted">{t('no_molecules', { searched: m.searched })}</p>
          ) : (
            <ul className="grid gap-2 grid-cols-[repeat(auto-fill,minmax(180px,1fr))]">
              {m.hits.map((h) => (
                <li key={h.molecule_id} className="flex flex-col items-center gap-1 rounded-csai border border-line p-2 min-w-0">
                  {createElement('csai-molecule', {
                    smiles: h.smiles,
                    width: '160',
                    height: '120',
                    'hide-copy': '',
                    ...(lang ? { lang } : {}),
                    // A substructure hit's matched atoms, highlighted in its picture.
                    ...(h.highlight?.atoms.length ? { 'highlight-atoms': h.highlight.atoms.join(','), 'highlight-bonds': h.highlight.bonds.join(',') } : {}),
                  })}
                  <a className={link} href={moleculeHitPath(h)} onClick={open}>
                    {h.doc_title}
                  </a>
                  <span className="text-muted text-xs">
                    {h.page !== null ? t('page', { page: h.page }) : h.name ?? ''}
                    {h.score !== null ? ` · ${t('score', { score: h.score.toFixed(2) })}` : ''}
                    {h.matched === 'parent' ? ` · ${t('matched_parent')}` : h.matched === 'stereo' ? ` · ${t('matched_stereo')}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {m.truncated && <p className="text-muted">{t('more')}</p>}
        </>
      )}
    </section>
  );
}
