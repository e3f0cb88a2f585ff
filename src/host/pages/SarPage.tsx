import './SarPage.strings';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { LinkedActivity, SarResult, SarRow } from '../../contract/chemdocs';
import { ApiError } from '../../core/api';
import { api } from '../../core/page';
import { sarApi } from '../../core/sar-api';
import { saveBlob } from '../../widgets/shared/save-blob';
import { useT } from '../i18n';
import { BackLink, CustomElement, PageLoading, usePageTitle } from '../shell/common';

const SHOWN: Record<string, string> = { '<=': '≤', '>=': '≥', '=': '' };

/** A cell: relation and value in nM (% for inhibition), as printed when there is no nM value. */
function cell(a: LinkedActivity): string {
  const rel = SHOWN[a.relation] ?? a.relation;
  if (a.measure === 'inhibition') return `${rel}${a.value}%`;
  return a.value_nm !== null ? `${rel}${a.value_nm}` : `${rel}${a.value} ${a.unit}`;
}

/** A column's header: "CDK2 IC50 (nM)", "CDK2 抑制率（%，10 μM）". */
function header(t: ReturnType<typeof useT>, c: SarResult['columns'][number]): string {
  const target = c.target ? `${c.target} ` : '';
  if (c.measure === 'inhibition') return target + (c.concentration ? t('sar.inhibition_at', { concentration: c.concentration }) : t('sar.inhibition'));
  return `${target}${c.measure} (nM)`;
}

/** A row's structure: drawn by RDKit; a figure of the document links to the drawing and its review. */
function Structure({ row, review }: { row: SarRow; review: string | null }) {
  const t = useT();
  const drawn = <CustomElement tag="csai-molecule" attrs={{ smiles: row.smiles ?? '', width: '160', height: '120', 'hide-copy': '' }} />;
  if (!review) return drawn;
  return <Link href={review} className="sar__review" title={t('sar.review', { page: row.page })} aria-label={t('sar.review', { page: row.page })}>{drawn}</Link>;
}

const keyOf = (a: Pick<LinkedActivity, 'measure' | 'target' | 'concentration'>) => `${a.measure}|${a.target ?? ''}|${a.concentration ?? ''}`;

/**
 * /sar?docId=…: a document's structure–activity table: one row per compound label,
 * its structure drawn, each measure a column whose cells open the page the value was read from;
 * downloadable as CSV and SDF.
 */
export default function SarPage() {
  const t = useT();
  usePageTitle(t('sar.title'));
  const docId = new URLSearchParams(useSearch()).get('docId') ?? '';
  const calls = useMemo(() => sarApi(api()), []);
  const [sar, setSar] = useState<SarResult | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    setSar(null);
    setError('');
    calls.table(docId, controller.signal).then(
      (result) => !controller.signal.aborted && setSar(result),
      (err: unknown) => !controller.signal.aborted && setError(err instanceof ApiError ? err.message : String(err)),
    );
    return () => controller.abort();
  }, [calls, docId]);

  // The file the client fetched (with the session) is handed to the browser as a download.
  const save = async (format: 'csv' | 'sdf') => {
    const { blob, filename } = await calls.download(docId, format);
    saveBlob(document.body, blob, filename ?? `sar.${format}`);
  };

  if (error) return <div className="page"><BackLink /><p className="error" role="alert">{error}</p></div>;
  if (!sar) return <PageLoading />;
  return (
    <div className="page sar">
      <header className="page__header">
        <h1 className="page__title">{t('sar.title')}：{sar.title}</h1>
        <p className="muted">{t('sar.intro')}</p>
        <p>
          <Link href={calls.viewerPath({ doc_id: docId, doc_type: sar.doc_type, page: null })}>{t('sar.back')}</Link>{' '}
          <button type="button" className="btn" onClick={() => void save('csv').catch(() => undefined)}>{t('sar.export_csv')}</button>{' '}
          <button type="button" className="btn" onClick={() => void save('sdf').catch(() => undefined)}>{t('sar.export_sdf')}</button>
        </p>
      </header>
      {!sar.rows.length ? (
        <p className="muted">{t('sar.empty')}</p>
      ) : (
        <table className="sar__table">
          <thead>
            <tr>
              <th scope="col">{t('sar.label')}</th>
              <th scope="col">{t('sar.structure')}</th>
              {sar.columns.map((c) => <th scope="col" key={c.key}>{header(t, c)}</th>)}
            </tr>
          </thead>
          <tbody>
            {sar.rows.map((row) => (
              <tr key={row.label} data-label={row.label}>
                <th scope="row">{row.label}</th>
                <td>{row.smiles ? <Structure row={row} review={calls.reviewPath({ ...row, doc_id: docId, doc_type: sar.doc_type })} /> : <span className="muted">{t('sar.no_structure')}</span>}</td>
                {sar.columns.map((c) => {
                  const acts = row.activities.filter((a) => keyOf(a) === c.key);
                  return (
                    <td key={c.key}>
                      {acts.map((a) => (
                        <Link key={a.id} href={calls.viewerPath({ ...a, doc_type: sar.doc_type })} title={a.page ? t('sar.page', { page: a.page }) : undefined}>{cell(a)}</Link>
                      ))}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sar.unlabelled > 0 && <p className="muted">{t('sar.unlabelled', { count: sar.unlabelled })}</p>}
    </div>
  );
}
