import { useEffect, useMemo } from 'react';
import { completeWith, smilesHintModel, type SmilesHintOptions } from '../../core/smiles-hint';
import { useApi, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { useSignalValue } from '../shared/use-signal';
import { smilesHintStrings } from './smiles-hint.strings';

addStrings('smiles-hint', smilesHintStrings);

export interface SmilesHintProps {
  /** The question as typed. */
  text: string;
  /** The asker chose a candidate: the question with the typed SMILES replaced by it. */
  onAccept(next: string): void;
  /** Tests pass a shorter delay. */
  options?: SmilesHintOptions;
}

/** Valid molecules for a malformed SMILES being typed in the question box. */
export function SmilesHint({ text, onAccept, options }: SmilesHintProps) {
  const t = useT('smiles-hint');
  const client = useApi();
  const model = useMemo(() => smilesHintModel({ complete: completeWith(client), ...options }), [client, options]);
  useEffect(() => () => model.dispose(), [model]);
  useEffect(() => model.input(text), [model, text]);
  const hint = useSignalValue(model.$hint);
  if (!hint) return null;
  return (
    <div part="smiles-hint" role="status" className="rounded-csai border border-line bg-surface p-2 text-xs text-ink">
      <div className="flex items-center justify-between gap-2">
        <span className="text-muted">{t('title')}</span>
        <button type="button" part="smiles-hint-dismiss" aria-label={t('dismiss')} className="cursor-pointer bg-transparent border-0 text-muted" onClick={() => model.dismiss()}>
          ×
        </button>
      </div>
      <ul className="m-0 mt-1 p-0 list-none flex flex-col gap-1">
        {hint.completion.candidates.map((c) => (
          <li key={c.smiles}>
            <button
              type="button"
              part="smiles-hint-candidate"
              title={t('use', { smiles: c.smiles })}
              className="w-full cursor-pointer text-left rounded-csai border border-line bg-transparent p-1 text-ink hover:border-accent"
              onClick={() => onAccept(model.accept(text, c.smiles))}
            >
              <code className="font-mono break-all">{c.smiles}</code>
              {c.changes.length > 0 && <span className="block text-muted">{c.changes.join('；')}</span>}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
