import { useId, useMemo, useState, type FormEvent } from 'react';
import { DOCKING_LIMITS, type DockingBatch as Batch, type DockingBatchInput } from '../../contract/docking';
import { createTasksApi } from '../../core/tasks-api';
import { BatchView } from '../channels/tool-cards/DockingBatchView';
import { TaskView } from '../channels/tool-cards/DockingCard';
import type { CommonProps } from '../shared/element';
import { useApi, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { dockingBatchStrings } from './docking-batch.strings';

addStrings('docking-batch', dockingBatchStrings);

export interface DockingBatchProps extends CommonProps {
  /** Comma-separated molecule ids of a molecule search's hits: the form docks these instead of a list or a file. */
  moleculeIds: string;
  /** The receptor filled in at first (PDB code or PDB document id). */
  receptor: string;
}

type BoxMode = 'ligand' | 'residues' | 'explicit';
const MAX = DOCKING_LIMITS.maxBatchLigands;

/** Molecules of a SMILES list as the server counts them: non-empty lines, # comments and a "smiles" header skipped. */
export const smilesLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l, i, all) => l && !l.startsWith('#') && !(i === all.findIndex((x) => x && !x.startsWith('#')) && /^smiles\b/i.test(l))).length;

/** "1, 2, 3" → [1, 2, 3], or null when it is not three numbers. */
const vector = (text: string): [number, number, number] | null => {
  const parts = text.split(/[,\s，]+/).filter(Boolean).map(Number);
  return parts.length === 3 && parts.every(Number.isFinite) ? [parts[0]!, parts[1]!, parts[2]!] : null;
};

/**
 * Batch docking: the molecules (a SMILES list, an SDF file, or the hits of a molecule
 * search given as `molecule-ids`), the receptor, the box and the settings a single docking takes;
 * submitted to POST /tasks/docking/batch, then the batch's ranked table follows it (`BatchView`).
 */
export function DockingBatch({ moleculeIds, receptor: initialReceptor }: DockingBatchProps) {
  const t = useT('docking-batch');
  const client = useApi();
  const api = useMemo(() => createTasksApi(client), [client]);
  const id = useId();
  const ids = useMemo(() => (moleculeIds ?? '').split(/[,\s]+/).filter(Boolean).map(Number).filter((n) => Number.isInteger(n) && n > 0), [moleculeIds]);
  const fromSearch = ids.length > 0;
  const [source, setSource] = useState<'smiles' | 'sdf'>('smiles');
  const [smiles, setSmiles] = useState('');
  const [sdf, setSdf] = useState<File | null>(null);
  const [receptor, setReceptor] = useState(initialReceptor ?? '');
  const [boxMode, setBoxMode] = useState<BoxMode>('ligand');
  const [referenceLigand, setReferenceLigand] = useState('');
  const [residues, setResidues] = useState('');
  const [center, setCenter] = useState('');
  const [size, setSize] = useState('');
  const [exhaustiveness, setExhaustiveness] = useState(8);
  const [numModes, setNumModes] = useState(9);
  const [seed, setSeed] = useState('');
  const [chains, setChains] = useState('');
  const [waters, setWaters] = useState(false);
  const [missingResidues, setMissingResidues] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [batch, setBatch] = useState<Batch | null>(null);

  const count = fromSearch ? ids.length : source === 'smiles' ? smilesLines(smiles) : null;
  const tooMany = count !== null && count > MAX ? t(fromSearch ? 'too_many_search' : 'too_many', { max: MAX, count }) : '';

  /** The request, or the first thing wrong with the form (said in the user's language). */
  async function request(): Promise<DockingBatchInput | string> {
    if (tooMany) return tooMany;
    if (!receptor.trim()) return t('receptor_missing');
    const settings: DockingBatchInput = { receptor: receptor.trim(), exhaustiveness, num_modes: numModes };
    if (boxMode === 'ligand' && referenceLigand.trim()) settings.reference_ligand = referenceLigand.trim();
    if (boxMode === 'residues') settings.residues = residues.split(/[,，;\s]+/).filter(Boolean);
    if (boxMode === 'explicit') {
      const c = vector(center);
      if (!c) return t('bad_vector', { field: t('center') });
      settings.center = c;
    }
    if (boxMode === 'explicit' || size.trim()) {
      const s = vector(size);
      if (!s) return t('bad_vector', { field: t('size') });
      settings.size = s;
    }
    if (seed.trim()) settings.seed = Number(seed);
    const chainList = chains.split(/[,，\s]+/).filter(Boolean);
    if (chainList.length || waters || missingResidues) settings.receptor_prep = { missing_residues: missingResidues, waters, ...(chainList.length ? { chains: chainList } : {}) };
    if (name.trim()) settings.name = name.trim();
    if (fromSearch) return { ...settings, molecule_ids: ids };
    if (source === 'smiles') return count ? { ...settings, file: smiles, file_format: 'smi' } : t('none');
    if (!sdf) return t('none');
    try {
      return { ...settings, file: await sdf.text(), file_format: 'sdf' };
    } catch (err) {
      return t('read_failed', { message: err instanceof Error ? err.message : String(err) });
    }
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      const input = await request();
      if (typeof input === 'string') {
        setError(input);
        return;
      }
      setBatch(await api.submitBatch(input));
    } catch (err) {
      setError(t('submit_failed', { message: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(false);
    }
  };

  const input = 'rounded-csai border border-line bg-surface px-2 py-1 text-sm text-ink';
  const label = 'flex flex-col gap-1 text-xs text-muted';
  const radio = 'flex items-center gap-1 text-sm text-ink';
  return (
    <div part="docking-batch-root" className="flex flex-col gap-3 font-csai text-ink">
      <form part="docking-batch-form" aria-label={t('heading')} className="flex flex-col gap-3 rounded-csai border border-line p-3" onSubmit={(e) => void submit(e)} noValidate>
        <strong>{t('heading')}</strong>
        <p className="m-0 text-xs text-muted">{t('intro', { max: MAX })}</p>
        {fromSearch ? (
          <p part="docking-batch-searched" className="m-0 text-sm">
            {t('searched', { count: ids.length })}
          </p>
        ) : (
          <fieldset className="flex flex-col gap-2 border-0 p-0 m-0">
            <legend className="text-xs text-muted">{t('source')}</legend>
            <span className="flex gap-3">
              {(['smiles', 'sdf'] as const).map((s) => (
                <label key={s} className={radio}>
                  <input type="radio" name={`${id}-source`} value={s} checked={source === s} onChange={() => setSource(s)} />
                  {t(`source_${s}`)}
                </label>
              ))}
            </span>
            {source === 'smiles' ? (
              <label className={label}>
                {t('smiles')}
                <textarea part="docking-batch-smiles" className={`${input} font-mono`} rows={6} value={smiles} placeholder={t('smiles_placeholder')} spellCheck={false} onChange={(e) => setSmiles(e.currentTarget.value)} />
              </label>
            ) : (
              <label className={label}>
                {t('sdf')}
                <input part="docking-batch-sdf" type="file" accept=".sdf,.sd,.mol,chemical/x-mdl-sdfile" className="text-sm" onChange={(e) => setSdf(e.currentTarget.files?.[0] ?? null)} />
                {sdf && <span>{t('sdf_chosen', { name: sdf.name })}</span>}
              </label>
            )}
          </fieldset>
        )}
        {count !== null && count > 0 && !tooMany && <span className="text-xs text-muted">{t('count', { count })}</span>}
        <label className={label}>
          {t('receptor')}
          <input part="docking-batch-receptor" className={input} value={receptor} placeholder="5DPV" title={t('receptor_hint')} onChange={(e) => setReceptor(e.currentTarget.value)} />
          <span>{t('receptor_hint')}</span>
        </label>
        <fieldset className="flex flex-col gap-2 border-0 p-0 m-0">
          <legend className="text-xs text-muted">{t('box')}</legend>
          <span className="flex flex-wrap gap-3">
            {(['ligand', 'residues', 'explicit'] as const).map((m) => (
              <label key={m} className={radio}>
                <input type="radio" name={`${id}-box`} value={m} checked={boxMode === m} onChange={() => setBoxMode(m)} />
                {t(`box_${m}`)}
              </label>
            ))}
          </span>
          {boxMode === 'ligand' && (
            <label className={label}>
              {t('reference_ligand')}
              <input className={input} value={referenceLigand} onChange={(e) => setReferenceLigand(e.currentTarget.value)} />
            </label>
          )}
          {boxMode === 'residues' && (
            <label className={label}>
              {t('residues')}
              <input className={input} value={residues} onChange={(e) => setResidues(e.currentTarget.value)} />
            </label>
          )}
          {boxMode === 'explicit' && (
            <label className={label}>
              {t('center')}
              <input className={input} value={center} placeholder="-6.9, -10.6, 13.1" onChange={(e) => setCenter(e.currentTarget.value)} />
            </label>
          )}
          <label className={label}>
            {boxMode === 'explicit' ? t('size') : t('size_optional')}
            <input className={input} value={size} placeholder="20, 20, 20" onChange={(e) => setSize(e.currentTarget.value)} />
          </label>
        </fieldset>
        <fieldset className="flex flex-wrap gap-3 border-0 p-0 m-0">
          <legend className="text-xs text-muted">{t('settings')}</legend>
          <label className={label}>
            {t('exhaustiveness')}
            <input className={input} type="number" min={1} max={DOCKING_LIMITS.schemaMaxExhaustiveness} value={exhaustiveness} onChange={(e) => setExhaustiveness(Math.max(1, Math.round(Number(e.currentTarget.value) || 1)))} />
          </label>
          <label className={label}>
            {t('num_modes')}
            <input className={input} type="number" min={1} max={DOCKING_LIMITS.maxModes} value={numModes} onChange={(e) => setNumModes(Math.min(DOCKING_LIMITS.maxModes, Math.max(1, Math.round(Number(e.currentTarget.value) || 1))))} />
          </label>
          <label className={label}>
            {t('seed')}
            <input className={input} type="number" step={1} value={seed} onChange={(e) => setSeed(e.currentTarget.value)} />
          </label>
          <label className={label}>
            {t('chains')}
            <input className={input} value={chains} onChange={(e) => setChains(e.currentTarget.value)} />
          </label>
          <label className={radio}>
            <input type="checkbox" checked={waters} onChange={(e) => setWaters(e.currentTarget.checked)} />
            {t('waters')}
          </label>
          <label className={radio}>
            <input type="checkbox" checked={missingResidues} onChange={(e) => setMissingResidues(e.currentTarget.checked)} />
            {t('missing_residues')}
          </label>
          <label className={label}>
            {t('name')}
            <input className={input} value={name} maxLength={100} onChange={(e) => setName(e.currentTarget.value)} />
          </label>
        </fieldset>
        {(error || tooMany) && (
          <p part="docking-batch-error" role="alert" className="m-0 text-sm text-danger">
            {error || tooMany}
          </p>
        )}
        <span>
          <button type="submit" part="docking-batch-submit" className="rounded-csai border border-accent bg-accent px-3 py-1 text-sm text-accent-fg disabled:opacity-50" disabled={busy || !!tooMany}>
            {busy ? t('submitting') : t('submit')}
          </button>
        </span>
      </form>
      {batch && <BatchView key={batch.id} initial={batch} TaskView={TaskView} />}
    </div>
  );
}

export const view = reactView<DockingBatchProps>(DockingBatch);
