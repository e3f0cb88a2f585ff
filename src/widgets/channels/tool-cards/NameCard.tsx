import { nameToSmilesOutput } from '../../../contract/names';
import { useT } from '../../shared/host-context';
import { addStrings } from '../../shared/i18n';
import type { ToolCardProps } from './types';
import { MoleculePicture } from './MoleculePicture';
import { nameCardStrings } from './tool-cards.strings';

addStrings('tool-cards-names', nameCardStrings);

/** The name_to_smiles result: canonical SMILES, InChIKey, source and the picture; an unknown name says so. */
export default function NameCard({ ok, content, data }: ToolCardProps) {
  const t = useT('tool-cards-names');
  const parsed = nameToSmilesOutput.safeParse(data);
  if (!ok || !parsed.success) return <p part="tool-card" className="m-0 text-sm text-ink">{content}</p>;
  const out = parsed.data;
  return (
    <section part="tool-card" aria-label={t('name_title', { name: out.name })} className="rounded-csai border border-line p-2 text-sm text-ink">
      <h4 className="m-0 mb-1 text-sm font-semibold">{t('name_title', { name: out.name })}</h4>
      {out.found ? (
        <div className="flex flex-wrap gap-3 items-start">
          <MoleculePicture smiles={out.canonical_smiles} />
          <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-2 gap-y-1">
            <dt className="text-muted">{t('smiles')}</dt>
            <dd className="m-0"><code className="font-mono break-all">{out.canonical_smiles}</code></dd>
            <dt className="text-muted">{t('inchi_key')}</dt>
            <dd className="m-0"><code className="font-mono">{out.inchi_key}</code></dd>
            <dt className="text-muted">{t('source')}</dt>
            <dd className="m-0">{t(`source_${out.source}`)}</dd>
          </dl>
        </div>
      ) : (
        <p part="not-found" role="status" className="m-0 text-muted">
          {t('not_found')}：{out.message}
        </p>
      )}
    </section>
  );
}
