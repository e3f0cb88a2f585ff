import { smilesCompletionOutput } from '../../../contract/names';
import { useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import type { ToolCardProps } from './types';
import { MoleculePicture } from './MoleculePicture';
import { nameCardStrings } from './tool-cards.strings';

addStrings('tool-cards-names', nameCardStrings);

/** The smiles_completion result: each proposed molecule with its picture, SMILES, InChIKey and what was changed. */
export default function CompletionCard({ ok, content, data }: ToolCardProps) {
  const t = useT('tool-cards-names');
  const parsed = smilesCompletionOutput.safeParse(data);
  if (!ok || !parsed.success) return <p part="tool-card" className="m-0 text-sm text-ink">{content}</p>;
  const out = parsed.data;
  return (
    <section part="tool-card" aria-label={t('completion_title', { input: out.input })} className="rounded-csai border border-line p-2 text-sm text-ink">
      <h4 className="m-0 mb-1 text-sm font-semibold break-all">{t('completion_title', { input: out.input })}</h4>
      <p className="m-0 mb-2 text-muted">{out.message}</p>
      {out.candidates.length === 0 ? (
        <p part="not-found" role="status" className="m-0 text-muted">{t('no_candidates')}</p>
      ) : (
        <ol className="m-0 p-0 list-none flex flex-col gap-2">
          {out.candidates.map((c) => (
            <li key={c.smiles} className="flex flex-wrap gap-3 items-start border-t border-line pt-2">
              <MoleculePicture smiles={c.smiles} />
              <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-2 gap-y-1">
                <dt className="text-muted">{t('smiles')}</dt>
                <dd className="m-0"><code className="font-mono break-all">{c.smiles}</code></dd>
                <dt className="text-muted">{t('inchi_key')}</dt>
                <dd className="m-0"><code className="font-mono">{c.inchi_key || t('no_inchi_key')}</code></dd>
                <dt className="text-muted">{t('changes')}</dt>
                <dd className="m-0">{c.changes.length ? c.changes.join('；') : out.valid ? t('valid') : t('no_change')}</dd>
              </dl>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
