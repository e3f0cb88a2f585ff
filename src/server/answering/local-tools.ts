import type { ToolName, ToolResultPayload } from '../../contract/tools';
import { looksLikeStructure, smilesInText } from '../../contract/smiles';
import { ChemInputError } from '../chem/engine';
import type { ChemService } from '../chem/service';
import type { Db } from '../db/database';
import type { NameResolver } from '../tools/types';
import type { ToolRegistry } from '../tools/registry';
import type { AnswerInput, AnswerSink } from './engine';
import { activityQuestion } from '../chemdocs/activity-answer';
import { localizeMessage, serverT, toolText, type Lang } from '../i18n';

/** A tool call the local engine makes for a question that plainly asks for it. */
export interface PlannedCall {
  name: ToolName;
  input: Record<string, unknown>;
}

/** The calls to make, and lines for the answer about what could not be called (a name not resolved). */
export interface LocalToolPlan {
  calls: PlannedCall[];
  notes: string[];
}

/** SPEC §9 limit of the ADMET table: at most this many molecules in one call. */
const MAX_ADMET_MOLECULES = 50;

const ADMET_INTENT = /ADMET|性质|理化|成药|类药|溶解度|脂溶|log\s*[PS]\b|吸收|代谢|毒性|PAINS|Lipinski|drug[- ]?likeness|properties/i;
const STRUCTURE_INTENT = /SMILES|结构式|结构|分子式|structure/i;
const SEARCH_INTENT = /检索|查找|查询|搜索|找一下|找找|search|look\s*up/i;
const SUBSTRUCTURE_INTENT = /子结构|亚结构|substructure/i;
const EXACT_INTENT = /精确|完全相同|同一(?:个)?(?:分子|结构)|exact/i;
const COMPLETION_INTENT = /补全|修正|修复|纠正|complete|fix/i;
const DOCKING_INTENT = /对接|docking|\bdock\b/i;
const TASK_INTENT = /任务(?:状态|进度|结果|列表)|查询任务|查看任务|我的任务|对接结果/i;
/** A PDB id written in the question (outside its SMILES). */
const PDB_CODE = /\b[0-9][A-Za-z0-9]{3}\b/;
/** Words around a name in a question ("阿司匹林的ADMET性质是什么？"): removed to leave the name. */
const FILLER = /ADMET|SMILES|InChIKey|的|是什么|是多少|有哪些|如何|怎么|怎样|请|帮我|帮忙|给出|计算|预测|分析|查询|查看|一下|性质|理化|成药性|类药性|结构式|结构|分子式|化学名|名称|转换|转为|转成|\b(?:what|is|are|the|of|for|compute|calculate|show|me|please|properties|structure)\b|[？?。，,：:！!、；;（）()“”"'\s]/gi;
/** Characters a SMILES may hold (organic subset, brackets, bonds, rings, branches, attachment points). */
const SMILES_ALPHABET = /^[A-Za-z0-9@+\-=#$:/\\().%[\]*]+$/;

/** Tokens that were meant as SMILES but do not parse (unclosed ring or branch, unbalanced brackets). */
async function brokenSmiles(question: string, chem: Pick<ChemService, 'describe'>, signal: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  for (const m of question.matchAll(/[!-~]+/g)) {
    const token = m[0].replace(/^[`'"]+|[`'",;:!?.。]+$/g, '');
    if (token.length < 3 || token.length > 500 || !SMILES_ALPHABET.test(token) || !/[A-Za-z]/.test(token) || !/[()[\]=#*0-9]/.test(token)) continue;
    if (/^[A-Za-z]+\d*$/.test(token)) continue; // a word with a number ("COVID19") is not a structure
    // A formula or a measure written with element symbols (H2O, CO2, IC50, C9H8O4) is not a SMILES to repair.
    if (/^([A-Z][a-z]?\d*)+$/.test(token) && (/H/.test(token) || /\d{2,}/.test(token) || token.length <= 4)) continue;
    if (looksLikeStructure(token)) {
      if (signal.aborted) break;
      const parses = await chem.describe({ smiles: token }).then(
        () => true,
        (err: unknown) => (err instanceof ChemInputError ? false : true),
      );
      if (parses) continue;
    }
    out.push(token);
    if (out.length >= 3) break;
  }
  return out;
}

/** The first fenced ```python (or ```py) block of a question, when it holds code. */
export function pythonBlock(question: string): string | undefined {
  // A block pasted without its closing fence runs to the end of the question.
  const m = /```[ \t]*(?:python3?|py)[ \t]*\r?\n([\s\S]*?)(?:\r?\n?```|$)/i.exec(question);
  const code = m?.[1];
  return code && code.trim() ? code : undefined;
}

/** The name a question is about once the intent words are removed ("阿司匹林的ADMET性质" → "阿司匹林"). */
export function nameInQuestion(question: string): string | undefined {
  const rest = question.replace(FILLER, ' ').trim().split(/\s+/).filter((w) => w.length >= 2);
  if (!rest.length || rest.length > 3) return undefined;
  const name = rest.join(' ');
  return [...name].length <= 100 ? name : undefined;
}

export interface LocalToolDeps {
  chem: Pick<ChemService, 'describe'>;
  names: NameResolver;
  db?: Db;
}

/**
 * The tool calls a question plainly asks for (DESIGN §4 local engine), among the tools the asker
 * left on and this server offers: SMILES or a name with an ADMET word → `admet` (a name is resolved
 * first); an attached SDF with such a word → `admet` over its molecules; a name asked for its
 * structure → `name_to_smiles`; a SMILES that does not parse → `smiles_completion`; "检索/查找 …" →
 * `intelligence_search`; a fenced ```python block → `code_execution` of that code alone; a SMILES
 * with "对接" → `docking_submit` (into the PDB id named, else the attached PDB file); "我的任务/任务进度 …"
 * → `task_query`.
 */
export async function planLocalTools(input: Pick<AnswerInput, 'question' | 'docIds' | 'signal'> & { viewer?: AnswerInput['viewer'] }, usable: ReadonlySet<string>, { chem, names, db }: LocalToolDeps): Promise<LocalToolPlan> {
  const { question, signal } = input;
  const lang = input.viewer?.lang ?? 'zh';
  const t = serverT(lang);
  // Python the asker typed in a fenced block runs in the sandbox, with the question's documents under /input; nothing else.
  const code = pythonBlock(question);
  if (code !== undefined && usable.has('code_execution')) return { calls: [{ name: 'code_execution', input: { code } }], notes: [] };
  const calls: PlannedCall[] = [];
  const notes: string[] = [];
  const wantsAdmet = ADMET_INTENT.test(question);
  const valid: string[] = [];
  for (const smiles of smilesInText(question, 8)) {
    if (signal.aborted) return { calls, notes };
    const ok = await chem.describe({ smiles }).then(
      (s) => s.numAtoms > 0,
      () => false,
    );
    if (ok) valid.push(smiles);
  }
  const broken = await brokenSmiles(question, chem, signal);

  // "把 <SMILES> 对接到 5DPV 的口袋里": a docking job (the receptor is the PDB id named, else the attached PDB file).
  if (DOCKING_INTENT.test(question) && valid.length && usable.has('docking_submit')) {
    const code = PDB_CODE.exec(valid.reduce((text, s) => text.split(s).join(' '), question))?.[0];
    calls.push({ name: 'docking_submit', input: { smiles: valid[0]!, ...(code ? { receptor: code.toUpperCase() } : {}) } });
    return { calls, notes };
  }
  if (TASK_INTENT.test(question) && usable.has('task_query')) {
    calls.push({ name: 'task_query', input: {} });
    return { calls, notes };
  }
  if (broken.length && usable.has('smiles_completion')) {
    for (const smiles of broken) calls.push({ name: 'smiles_completion', input: { smiles } });
  }
  if (wantsAdmet && usable.has('admet')) {
    const molecules = [...valid];
    // The attached SDF files' molecules are read by the tool itself (with their names, up to its limit,
    // saying how many it left out); passing them here as well would use up the limit.
    const sdfAttached =
      !molecules.length && input.docIds.length > 0 && !!db && !!(await db.selectFrom('kb_molecules').select('doc_id').where('doc_id', 'in', input.docIds).limit(1).executeTakeFirst());
    if (sdfAttached) calls.push({ name: 'admet', input: { molecules: [] } });
    if (!molecules.length && !broken.length && !sdfAttached) {
      const name = nameInQuestion(question);
      const state = names.availability();
      if (name && !state.enabled) notes.push(t('answer.name_unavailable', { name, reason: localizeMessage(state.reason, lang) }));
      else if (name) {
        const resolved = await names.resolve(name, signal).catch(() => null);
        if (resolved) {
          if (usable.has('name_to_smiles')) calls.push({ name: 'name_to_smiles', input: { name } });
          molecules.push(resolved.canonicalSmiles);
        } else {
          notes.push(t('answer.name_not_found', { name }));
        }
      }
    }
    if (molecules.length) calls.push({ name: 'admet', input: { molecules: molecules.slice(0, MAX_ADMET_MOLECULES) } });
  } else if (!valid.length && !broken.length && STRUCTURE_INTENT.test(question) && usable.has('name_to_smiles') && !COMPLETION_INTENT.test(question)) {
    const name = nameInQuestion(question);
    if (name) calls.push({ name: 'name_to_smiles', input: { name } });
  }
  // "哪些化合物对 CDK2 的 IC50 小于 100 nM 且含磺酰胺": the activity filter and the group's substructure.
  const asked = !calls.length && usable.has('intelligence_search') ? activityQuestion(question) : null;
  if (asked) {
    const structure = valid[0] ?? asked.group?.smarts;
    calls.push({ name: 'intelligence_search', input: { query: question, activity: asked.activity, top_k: 50, ...(structure ? { structure, mode: valid[0] && !SUBSTRUCTURE_INTENT.test(question) ? 'similarity' : 'substructure' } : {}) } });
  }
  if (SEARCH_INTENT.test(question) && usable.has('intelligence_search') && !calls.length) {
    const query = question.replace(/请|帮我|帮忙|在情报数据库中|情报数据库|检索|查找|查询|搜索|找一下|找找|一下|[？?。！!]/g, ' ').replace(/\s+/g, ' ').trim();
    // The structure written in the question is searched the way the words say (子结构 / 精确 / 相似).
    const mode = SUBSTRUCTURE_INTENT.test(question) ? 'substructure' : EXACT_INTENT.test(question) ? 'exact' : 'similarity';
    const structure = valid[0];
    calls.push({ name: 'intelligence_search', input: { query: query || question, ...(structure ? { structure, mode } : {}) } });
  }
  return { calls, notes };
}

/** One finished call of the local engine, for its short text. */
export interface LocalToolRun {
  name: string;
  label: string;
  result: ToolResultPayload;
}

/** Runs the planned calls one after another, each as a tool_call and a tool_result event. */
export async function runLocalTools(calls: PlannedCall[], tools: ToolRegistry, input: Pick<AnswerInput, 'viewer' | 'docIds' | 'signal' | 'questionId'>, sink: AnswerSink): Promise<LocalToolRun[]> {
  const labels = new Map(tools.groups().flatMap((g) => g.tools.map((t) => [t.value, t.label] as const)));
  const runs: LocalToolRun[] = [];
  for (const [i, call] of calls.entries()) {
    if (input.signal.aborted) break;
    const callId = `local_${i + 1}`;
    sink.toolCall({ call_id: callId, name: call.name, arguments: JSON.stringify(call.input) });
    const result = await tools.run(call.name, call.input, { viewer: input.viewer, docIds: input.docIds, signal: input.signal, questionId: input.questionId });
    sink.toolResult({ call_id: callId, name: call.name, ...result });
    runs.push({ name: call.name, label: labels.get(call.name) ?? call.name, result });
  }
  return runs;
}

/** The answer's lines about the tools it ran (what each gave, or why it could not) and the calls it could not make. */
export function toolRunLines(runs: LocalToolRun[], notes: string[] = [], lang: Lang = 'zh'): string[] {
  if (!runs.length && !notes.length) return [];
  const t = serverT(lang);
  const lines = [t('answer.tool_results'), ...notes.map((n) => `- ${n.replace(/\[/g, '［').replace(/\]/g, '］')}`)];
  for (const { name, label: zhLabel, result } of runs) {
    const label = (lang === 'en' && toolText('labels', name)) || zhLabel;
    // A docking job runs on after the answer: its state is the live card's to tell, not a sentence written now.
    if (name === 'docking_submit' && result.ok) {
      lines.push(`- ${t('answer.tool_submitted', { label })}`);
      continue;
    }
    // A table row (a tool's text for the model) reads badly in a sentence: the card shows the table.
    // The tool's own line is Chinese (the model reads it): said in the asker's language, before it is cut.
    const first = localizeMessage(result.content.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('|')) ?? '', lang);
    // Full-width brackets: a "[3]" of a tool's text is never taken for a citation.
    const cut = [...first].length > 200 ? `${[...first].slice(0, 200).join('')}…` : first;
    const brief = cut.replace(/\[/g, '［').replace(/\]/g, '］');
    lines.push(`- ${t(result.ok ? 'answer.tool_done' : 'answer.tool_failed', { label, brief })}`.trimEnd());
  }
  lines.push('');
  return lines;
}
