// Batch docking: reading the molecules of a batch (a list, a SMILES file or an SDF),
// the ranked table of its tasks, and its CSV and SDF exports.
import fsp from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DOCKING_LIMITS, type BatchEntry, type BatchLigand, type DockingResult, type PoseInteraction, type TaskState } from '../../contract/docking';
import { DOCKING_PYTHON, runProgram } from './programs';
import { DockingInputError } from './structure';

/** Beside this module; copied next to main.js by scripts/build-server.mjs. */
export const LIGANDS_SCRIPT = fileURLToPath(new URL('./read_ligands.py', import.meta.url));

const sdfRecords = z.object({ records: z.array(z.object({ name: z.string(), smiles: z.string().optional(), error: z.string().optional() })) });

/** A molecule of the batch as read, or why its record could not be read. */
export type ReadLigand = BatchLigand & { error?: string };

const looksLikeSdf = (text: string) => /^M {2}END\s*$/m.test(text) || /^\$\$\$\$\s*$/m.test(text) || /V[23]000/.test(text);

/** A SMILES file: one molecule a line, "SMILES name" (tab, comma or spaces); blank lines and # comments skipped, a "smiles" header too. */
export function smilesFile(text: string): ReadLigand[] {
  const out: ReadLigand[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [smiles = '', ...rest] = line.split(/[\t,]|\s+/);
    if (out.length === 0 && /^smiles$/i.test(smiles)) continue;
    out.push({ smiles, name: rest.join(' ').trim().replace(/^"|"$/g, '').slice(0, 100) || undefined });
  }
  return out;
}

/** The molecules of an SDF (RDKit, Debian's Python), each record with its name or the reason it is unreadable. */
export async function sdfFile(text: string, signal: AbortSignal): Promise<ReadLigand[]> {
  const out = await runProgram(DOCKING_PYTHON, ['-I', LIGANDS_SCRIPT], { input: text, signal });
  const { records } = sdfRecords.parse(JSON.parse(out.stdout.trim().split('\n').pop() ?? '{}'));
  // RDKit gives no name for a record it cannot read: its title line, read here.
  const titles = text.split(/^\$\$\$\$[ \t]*\r?$/m).map((block) => block.replace(/^\r?\n/, '').split(/\r?\n/)[0]?.trim().slice(0, 100) ?? '');
  return records.map((r, i) =>
    r.smiles !== undefined ? { smiles: r.smiles, name: r.name || undefined } : { smiles: '', name: titles[i] || undefined, error: `RDKit 无法读取这一记录（${r.error ?? ''}）` },
  );
}

/** The batch's molecules from `ligands` or `file`; refuses none, both, or more than a batch docks. */
export async function batchLigands(input: { ligands?: BatchLigand[]; file?: string; file_format?: 'sdf' | 'smi' }, signal: AbortSignal): Promise<ReadLigand[]> {
  if (input.ligands && input.file !== undefined) throw new DockingInputError('ligands 与 file 只能给出其中一个', 'ligands');
  let list: ReadLigand[];
  if (input.ligands) list = input.ligands;
  else if (input.file !== undefined) {
    const format = input.file_format ?? (looksLikeSdf(input.file) ? 'sdf' : 'smi');
    list = format === 'sdf' ? await sdfFile(input.file, signal) : smilesFile(input.file);
    if (list.length === 0) throw new DockingInputError(format === 'sdf' ? 'SDF 文件中没有分子' : 'SMILES 文件中没有分子（每行写一个“SMILES 名称”）', 'file');
  } else throw new DockingInputError('请提供要对接的分子：ligands（SMILES 列表）或 file（SDF 或 SMILES 文件）', 'ligands');
  if (list.length > DOCKING_LIMITS.maxBatchLigands) {
    throw new DockingInputError(`一批最多对接 ${DOCKING_LIMITS.maxBatchLigands} 个分子，这里有 ${list.length} 个：请分成几批提交`, input.ligands ? 'ligands' : 'file');
  }
  return list;
}

/** What the table needs of one task of the batch. */
export interface BatchTaskRow {
  id: string;
  index: number;
  name: string;
  smiles: string;
  docked_smiles: string;
  state: TaskState;
  progress: number;
  message: string;
  result: DockingResult | null;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** The ranked table: docked molecules by best Vina score (ties by position), then the others in submission order. */
export function rankedEntries(rows: BatchTaskRow[]): BatchEntry[] {
  const entries: BatchEntry[] = rows.map((r) => {
    const best = r.state === 'done' ? r.result?.poses[0] : undefined;
    const heavy = r.state === 'done' ? (r.result?.heavy_atoms ?? null) : null;
    return {
      index: r.index,
      rank: null,
      name: r.name,
      smiles: r.smiles,
      docked_smiles: r.docked_smiles,
      task_id: r.id,
      state: r.state,
      progress: r.progress,
      message: r.message,
      score: best ? best.score : null,
      ligand_efficiency: best && heavy ? round3(-best.score / heavy) : null,
      heavy_atoms: heavy,
      interactions: best ? (best.interactions ?? null) : null,
      sanity_passed: best?.sanity ? best.sanity.passed : null,
    };
  });
  const scored = entries.filter((e) => e.score !== null).sort((a, b) => a.score! - b.score! || a.index - b.index);
  scored.forEach((e, i) => (e.rank = i + 1));
  return [...scored, ...entries.filter((e) => e.score === null).sort((a, b) => a.index - b.index)];
}

const KIND: Record<PoseInteraction['type'], string> = { hbond: 'hbond', salt_bridge: 'salt_bridge', halogen_bond: 'halogen_bond', pi_stacking: 'pi_stacking', pi_cation: 'pi_cation', water_bridge: 'water_bridge', metal_complex: 'metal', hydrophobic: 'hydrophobic' };
/** The polar and aromatic interactions with residue and distance, then the residues of hydrophobic contacts (files for other programs: English words). */
export function interactionSummary(list: PoseInteraction[] | null): string {
  if (!list) return '';
  const polar = list.filter((i) => i.type !== 'hydrophobic').map((i) => `${KIND[i.type]} ${i.residue} ${i.distance.toFixed(2)}`);
  const hydrophobic = [...new Set(list.filter((i) => i.type === 'hydrophobic').map((i) => i.residue))];
  return [...polar, ...(hydrophobic.length ? [`hydrophobic ${hydrophobic.join('/')}`] : [])].join('; ');
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const CSV_COLUMNS = ['rank', 'index', 'name', 'smiles', 'docked_smiles', 'state', 'vina_score_kcal_mol', 'ligand_efficiency', 'heavy_atoms', 'hbonds', 'salt_bridges', 'pi_interactions', 'hydrophobic_contacts', 'key_interactions', 'pose_sanity', 'message', 'task_id'];

/** The table as CSV (RFC 4180, UTF-8 with BOM so spreadsheet programs read the Chinese messages): one row per molecule, ranked. */
export function batchCsv(entries: BatchEntry[]): string {
  const count = (e: BatchEntry, ...types: PoseInteraction['type'][]) => (e.interactions ? e.interactions.filter((i) => types.includes(i.type)).length : null);
  const rows = entries.map((e) =>
    [
      e.rank,
      e.index,
      e.name,
      e.smiles,
      e.docked_smiles,
      e.state,
      e.score,
      e.ligand_efficiency,
      e.heavy_atoms,
      count(e, 'hbond'),
      count(e, 'salt_bridge'),
      count(e, 'pi_stacking', 'pi_cation'),
      count(e, 'hydrophobic'),
      interactionSummary(e.interactions),
      e.sanity_passed === null ? '' : e.sanity_passed ? 'pass' : 'fail',
      e.state === 'done' ? '' : e.message,
      e.task_id,
    ]
      .map(csvCell)
      .join(','),
  );
  return `\uFEFF${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

/** A property line pair of an SDF record (no blank lines inside a value). */
const sdfProperty = (name: string, value: string | number) => `>  <${name}>\n${String(value).replace(/\r?\n\s*\n/g, '\n')}\n\n`;

/**
 * The best pose of every docked molecule, ranked, as one SDF: each record is the first of its task's
 * poses.sdf (the molecule with bond orders, charges and hydrogens, its Vina score, sanity and PLIP
 * properties) with the batch's properties added: rank, name, ligand efficiency, key interactions.
 */
export async function batchSdf(entries: BatchEntry[], poseFile: (taskId: string) => string): Promise<string> {
  const parts: string[] = [];
  for (const e of entries) {
    if (e.rank === null) continue;
    const text = await fsp.readFile(poseFile(e.task_id), 'utf8').catch(() => '');
    const first = text.split(/^\$\$\$\$\r?$/m)[0]?.replace(/^\r?\n/, '') ?? '';
    if (!/M {2}END/.test(first)) continue;
    const body = first.endsWith('\n') ? first : `${first}\n`;
    const props = [
      sdfProperty('BATCH_RANK', e.rank),
      sdfProperty('BATCH_INDEX', e.index),
      ...(e.name ? [sdfProperty('LIGAND_NAME', e.name)] : []),
      sdfProperty('INPUT_SMILES', e.smiles),
      sdfProperty('LIGAND_EFFICIENCY', e.ligand_efficiency ?? ''),
      sdfProperty('KEY_INTERACTIONS', interactionSummary(e.interactions) || 'none'),
      sdfProperty('TASK_ID', e.task_id),
    ].join('');
    // Properties follow the molecule's own (after M  END); a record without any gets them after M  END.
    parts.push(`${body}${props}$$$$\n`);
  }
  return parts.join('');
}
