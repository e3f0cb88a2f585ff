// The answer card of the `admet` tool: the table grouped as SwissADME groups it, the
// structure, the bioavailability radar per molecule, one BOILED-Egg for all, CSV/SDF export.
import { createElement, useState } from 'react';
import { ADMET_NOT_COMPUTED, admetResult, type AdmetField, type AdmetMolecule } from '../../../contract/admet';
import { createMoleculeApi } from '../../../core/molecule-api';
import { useApi, useHost, useT } from '../../shared/host-context';
import { saveBlob } from '../../shared/save-blob';
import { addStrings } from '../../shared/i18n';
import { admetStrings } from './admet.strings';
import { BioavailabilityRadar, BoiledEgg } from './AdmetCharts';
import { alertLabel } from './alert-names';
import type { ToolCardProps } from './types';

addStrings('admet', admetStrings);

type T = ReturnType<typeof useT>;

/** The rows of each group, in SwissADME's order. */
const GROUPS: [string, AdmetField[]][] = [
  ['group_physchem', ['formula', 'mw', 'heavy_atoms', 'aromatic_heavy_atoms', 'fraction_csp3', 'rotatable_bonds', 'hba', 'hbd', 'mr', 'tpsa', 'tpsa_sp']],
  ['group_lipo', ['wlogp', 'mlogp', 'consensus_logp']],
  ['group_solubility', ['esol_log_s', 'esol_mg_ml', 'esol_mol_l', 'esol_class']],
  ['group_pk', ['gi_absorption', 'bbb_permeant', 'log_kp']],
  ['group_druglike', ['lipinski', 'ghose', 'veber', 'egan', 'muegge', 'bioavailability_score']],
  ['group_medchem', ['pains', 'brenk', 'leadlikeness', 'sa_score', 'qed']],
];
/** A cell as a chemist reads it: rules as “符合” or their violations, alerts by name, classes in words. */
function cell(t: T, m: AdmetMolecule, field: AdmetField, lang: string | undefined): string {
  const v = m[field];
  if (Array.isArray(v)) {
    // An alert is named in the interface's language (its original name kept beside it).
    if (field === 'pains' || field === 'brenk') return v.length ? v.map((name) => alertLabel(field, name, lang)).join(t('list_separator')) : t('none');
    return v.length ? t('violations', { count: v.length, rules: v.join('，') }) : t('passes');
  }
  if (field === 'esol_class') return t(`class_${String(v)}`);
  if (field === 'gi_absorption') return t(String(v));
  if (typeof v === 'boolean') return t(v ? 'yes' : 'no');
  return String(v);
}

function MoleculeTable({ m, t }: { m: AdmetMolecule; t: T }) {
  const { lang } = useHost();
  return (
    <table part="admet-table" className="w-full border-collapse text-xs">
      {GROUPS.map(([group, fields]) => (
        <tbody key={group}>
          <tr>
            <th colSpan={2} scope="colgroup" className="bg-line/40 px-2 py-1 text-left font-semibold text-ink">
              {t(group)}
            </th>
          </tr>
          {fields.map((f) => (
            <tr key={f} className="border-b border-line" title={t('method_line', { method: t(`methods.${f}`) })}>
              <th scope="row" className="px-2 py-0.5 text-left font-normal text-muted">
                {t(f)}
              </th>
              <td className="px-2 py-0.5 tabular-nums text-ink" data-field={f}>
                {cell(t, m, f, lang)}
              </td>
            </tr>
          ))}
          {group === 'group_lipo' &&
            ADMET_NOT_COMPUTED.map((name) => (
              <tr key={name} className="border-b border-line">
                <th scope="row" className="px-2 py-0.5 text-left font-normal text-muted">{`Log Po/w (${name})`}</th>
                <td className="px-2 py-0.5 text-muted">{t('not_computed')}</td>
              </tr>
            ))}
        </tbody>
      ))}
    </table>
  );
}

function MoleculePanel({ m, n, open, t }: { m: AdmetMolecule; n: number; open: boolean; t: T }) {
  const { lang } = useHost();
  const flags = [m.lipinski.length ? `Lipinski ${m.lipinski.length}` : '', m.pains.length ? `PAINS ${m.pains.length}` : ''].filter(Boolean).join(' · ');
  return (
    <details part="admet-molecule" open={open} className="rounded-csai border border-line">
      <summary className="cursor-pointer px-2 py-1 text-sm text-ink">
        <span className="font-semibold">{`${n}. ${m.name || m.input}`}</span>
        <span className="ml-2 text-xs text-muted">{`${m.formula} · ${m.mw} · ${t('gi_absorption')} ${t(m.gi_absorption)} · BBB ${t(m.bbb_permeant ? 'yes' : 'no')}${flags ? ` · ${flags}` : ''}`}</span>
      </summary>
      <div className="flex flex-wrap gap-3 p-2">
        <div className="flex flex-col items-center gap-2">
          {/* <csai-molecule> draws through POST /mol/draw_svg (src/widgets/molecule). */}
          {createElement('csai-molecule', { smiles: m.smiles, 'aria-label': t('structure'), ...(lang ? { lang } : {}) })}
          <BioavailabilityRadar molecule={m} label={t('radar')} axisLabel={(key) => t(`radar_${key}`)} axisHint={(key) => t(`radar_${key}_hint`)} />
          <span className="text-xs text-muted">{t('radar')}</span>
        </div>
        <div className="min-w-0 flex-1">
          <MoleculeTable m={m} t={t} />
        </div>
      </div>
    </details>
  );
}

/** The ADMET card; a failed call or data it cannot read shows the tool's message instead. */
export function AdmetCard({ ok, content, data }: ToolCardProps) {
  const t = useT('admet');
  const client = useApi();
  const { root } = useHost();
  const [busy, setBusy] = useState<'csv' | 'sdf' | null>(null);
  const [failure, setFailure] = useState('');
  const parsed = ok ? admetResult.safeParse(data) : undefined;
  if (!parsed?.success) {
    return (
      <p part="tool-error" role="alert" className="rounded-csai border border-danger px-3 py-2 text-sm text-danger">
        {content}
      </p>
    );
  }
  const { molecules, notes } = parsed.data;
  const download = async (format: 'csv' | 'sdf') => {
    setBusy(format);
    setFailure('');
    try {
      const body = { smiles: molecules.map((m) => m.smiles), names: molecules.map((m) => m.name || m.input), format };
      const file = await createMoleculeApi(client).admetExport(body, { quiet: true });
      saveBlob(root, file.blob, file.filename ?? `admet.${format}`);
    } catch (err) {
      setFailure(t('export_failed', { message: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section part="admet-card" aria-label={t('title', { count: molecules.length })} className="flex flex-col gap-2 rounded-csai border border-line p-3 text-ink">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <strong className="text-sm">{t('title', { count: molecules.length })}</strong>
        <span className="flex gap-2">
          {(['csv', 'sdf'] as const).map((f) => (
            <button key={f} type="button" part={`admet-download-${f}`} disabled={busy !== null} onClick={() => void download(f)} className="rounded-csai border border-line px-2 py-1 text-xs hover:border-accent disabled:opacity-50">
              {busy === f ? t('downloading') : t(f)}
            </button>
          ))}
        </span>
      </header>
      {failure && (
        <p role="alert" className="text-xs text-danger">
          {failure}
        </p>
      )}
      {notes.map((note) => (
        <p key={note} part="admet-note" className="text-xs text-warning">
          {note}
        </p>
      ))}
      <figure className="m-0 flex flex-col items-start gap-1">
        <BoiledEgg molecules={molecules} label={t('egg')} />
        <figcaption className="text-xs text-muted">{`${t('egg')} — ${t('egg_caption')}`}</figcaption>
      </figure>
      {molecules.map((m, i) => (
        <MoleculePanel key={`${i}-${m.smiles}`} m={m} n={i + 1} open={molecules.length === 1 || i === 0} t={t} />
      ))}
    </section>
  );
}

export default AdmetCard;
