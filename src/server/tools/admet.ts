import { ADMET_LIMITS, ADMET_NOT_COMPUTED, admetResult, admetToolInput, type AdmetMolecule, type AdmetResult, type AdmetToolInput } from '../../contract/admet';
import { admetRows, AdmetInputError } from '../chem/admet/table';
import type { AdmetItem } from '../chem/admet/protocol';
import { docReadable } from '../access/access';
import { serverT } from '../i18n';
import { ToolInputError, type ToolContext, type ToolServices, type Tool, defineTool } from './types';

/** SPEC §3 document type of SDF files. */
const SDF_TYPE = 5;

/** Text that can only be a SMILES (no spaces, SMILES characters only, and a bond, ring, branch or bracket). */
const looksLikeSmiles = (s: string) => /^[A-Za-z0-9@+\-[\]()=#$:./\\%*]+$/.test(s) && /[=#()[\]0-9@/\\]/.test(s);

/** The molecules of the SDF documents among the question's documents, in document and record order. */
async function sdfMolecules(services: ToolServices, ctx: ToolContext, room: number): Promise<{ items: AdmetItem[]; total: number }> {
  if (ctx.docIds.length === 0) return { items: [], total: 0 };
  const base = services.db
    .selectFrom('kb_molecules')
    .innerJoin('kb_documents', 'kb_documents.id', 'kb_molecules.doc_id')
    .where('kb_documents.id', 'in', ctx.docIds)
    .where('kb_documents.type', '=', SDF_TYPE)
    .where(docReadable(ctx.viewer.userId));
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  if (total === 0 || room <= 0) return { items: [], total };
  const rows = await base
    .select(['kb_molecules.idx', 'kb_molecules.name', 'kb_molecules.molfile', 'kb_documents.title'])
    .orderBy('kb_documents.title')
    .orderBy('kb_molecules.doc_id')
    .orderBy('kb_molecules.idx')
    .limit(room)
    .execute();
  return {
    items: rows.map((r) => ({
      input: { molfile: r.molfile },
      label: `${r.title} #${r.idx}`,
      name: r.name ?? '',
      source: 'sdf' as const,
    })),
    total,
  };
}

const unknown = (text: string) => new ToolInputError(`无法识别“${text}”：既不是有效的 SMILES，也不是已知的化合物名称`);

/**
 * Turns the typed molecules into items: SMILES as given, names through the name resolver. A word
 * the resolver does not know that could still be a SMILES (e.g. "CCO") is tried as one; its
 * position goes into `guessed` so a refusal names both readings.
 */
async function typedItems(services: ToolServices, molecules: string[], signal: AbortSignal) {
  const items: AdmetItem[] = [];
  const guessed = new Set<number>();
  for (const text of molecules) {
    if (looksLikeSmiles(text)) {
      items.push({ input: { smiles: text }, label: text, name: '', source: 'smiles' });
      continue;
    }
    const resolved = await services.names.resolve(text, signal);
    if (resolved) {
      items.push({ input: { smiles: resolved.canonicalSmiles }, label: text, name: resolved.name || text, source: 'name' });
    } else if (/^[\x21-\x7e]+$/.test(text)) {
      guessed.add(items.length);
      items.push({ input: { smiles: text }, label: text, name: '', source: 'smiles' });
    } else throw unknown(text);
  }
  return { items, guessed };
}

const yes = (b: boolean) => (b ? '是' : '否');
const SOLUBILITY: Record<AdmetMolecule['esol_class'], string> = {
  insoluble: '不溶',
  poorly: '难溶',
  moderately: '中等可溶',
  soluble: '可溶',
  very: '易溶',
  highly: '极易溶',
};
const violations = (xs: string[]) => (xs.length ? `${xs.length}（${xs.join('，')}）` : '0');

/** The result as a compact table for the model (Markdown), with every method named once. */
export function summarizeAdmet(result: AdmetResult): string {
  const head =
    '| 分子 | 分子式 | MW | WLOGP | MLOGP | TPSA | HBA/HBD | 可旋转键 | ESOL logS | GI 吸收 | BBB | log Kp | Lipinski 违规 | PAINS | Brenk | SA | QED | 生物利用度 |';
  const sep = `|${' --- |'.repeat(18)}`;
  const line = (m: AdmetMolecule) =>
    `| ${m.name || m.input} (${m.smiles}) | ${m.formula} | ${m.mw} | ${m.wlogp} | ${m.mlogp} | ${m.tpsa} | ${m.hba}/${m.hbd} | ${m.rotatable_bonds} | ${m.esol_log_s}（${SOLUBILITY[m.esol_class]}） | ${m.gi_absorption === 'high' ? '高' : '低'} | ${yes(m.bbb_permeant)} | ${m.log_kp} | ${violations(m.lipinski)} | ${m.pains.join('，') || '无'} | ${m.brenk.join('，') || '无'} | ${m.sa_score} | ${m.qed} | ${m.bioavailability_score} |`;
  const rules = (m: AdmetMolecule) =>
    `${m.name || m.input}：Ghose ${violations(m.ghose)}；Veber ${violations(m.veber)}；Egan ${violations(m.egan)}；Muegge ${violations(m.muegge)}；先导化合物相似性 ${violations(m.leadlikeness)}`;
  return [
    head,
    sep,
    ...result.molecules.map(line),
    '',
    ...result.molecules.map(rules),
    '',
    `方法：WLOGP（Wildman–Crippen 1999）、MLOGP（Moriguchi 1992/1994）、TPSA（Ertl 2000，N/O）、ESOL（Delaney 2004，以 WLOGP 计）、BOILED-Egg（Daina & Zoete 2016）、log Kp（Potts & Guy 1992，cm/s）、SA（Ertl & Schuffenhauer 2009，1 易 – 10 难）、QED（Bickerton 2012）。${ADMET_NOT_COMPUTED.join('、')} 未计算。`,
    ...result.notes,
  ].join('\n');
}

/** The `admet` tool: SwissADME-style properties of 1–50 molecules. */
export const admetTool = defineTool('admet', (services): Tool<AdmetToolInput, AdmetResult> => ({
  input: admetToolInput,
  output: admetResult,
  description:
    '计算 1–50 个分子的 ADMET 性质（SwissADME 式）：理化性质、脂溶性（WLOGP、MLOGP）、ESOL 水溶性、BOILED-Egg 胃肠吸收与血脑屏障、皮肤渗透、Lipinski 等类药规则、PAINS/Brenk 警示结构、合成可及性与 QED。输入 SMILES 或化合物名称；提问附带的 SDF 文件中的分子也会计算。',
  availability: () => ({ enabled: true }),
  timeoutMs: 90_000,
  async run(input, ctx) {
    const typed = await typedItems(services, input.molecules, ctx.signal);
    const sdf = await sdfMolecules(services, ctx, ADMET_LIMITS.molecules - typed.items.length);
    const items = [...typed.items, ...sdf.items];
    if (items.length === 0) throw new ToolInputError('请提供至少 1 个分子（SMILES 或化合物名称），或在提问时附带 SDF 分子文件');
    const notes: string[] = [];
    if (sdf.total > sdf.items.length) {
      // The card shows the notes: in the asker's language.
      notes.push(serverT(ctx.viewer.lang)('admet.sdf_limited', { total: sdf.total, limit: ADMET_LIMITS.molecules, count: sdf.items.length }));
    }
    try {
      return { molecules: await admetRows(services.chem, items), notes };
    } catch (err) {
      if (err instanceof AdmetInputError) {
        if (err.index !== undefined && typed.guessed.has(err.index)) throw unknown(items[err.index]!.label);
        throw new ToolInputError(err.message);
      }
      throw err;
    }
  },
  summarize: summarizeAdmet,
}));
