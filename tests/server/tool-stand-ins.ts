import { z } from 'zod';
import { ChemInputError } from '../../src/server/chem/engine';
import { toolFactories } from '../../src/server/tools';
import { createPageCrawlTool, pageCrawlTool } from '../../src/server/tools/page-crawl';
import { ToolInputError, type ToolDefinition, type ToolFactory } from '../../src/server/tools/types';

/**
 * Small real tools (RDKit through the chemistry workers, the knowledge port, the name resolver)
 * under the stable names, for the runtime's tests while the real tools live on other branches.
 * `testTools()` gives the real factories once there are any, else these: every assertion that
 * uses them holds for the real tools too (names, schema round-trips, ok/failed cards).
 */
const smilesList = z.array(z.string().trim().min(1, 'SMILES 不能为空').max(500, 'SMILES 过长'), { error: '请提供 SMILES 列表' }).min(1, '请至少提供一个分子').max(50, '一次最多计算50个分子');

const admet: ToolFactory = ({ chem }): ToolDefinition<{ smiles: string[] }, { molecules: Array<{ smiles: string; formula: string; heavyAtoms: number }> }> => ({
  name: 'admet',
  input: z.object({ smiles: smilesList }).strict(),
  output: z.object({ molecules: z.array(z.object({ smiles: z.string(), formula: z.string(), heavyAtoms: z.number().int() })) }),
  description: '计算分子的理化性质（测试用）。',
  availability: () => ({ enabled: true }),
  async run({ smiles }) {
    const molecules = [];
    for (const s of smiles) {
      try {
        const m = await chem.describe({ smiles: s });
        molecules.push({ smiles: m.canonicalSmiles, formula: m.formula, heavyAtoms: m.numAtoms });
      } catch (err) {
        if (err instanceof ChemInputError) throw new ToolInputError(`无法解析 SMILES：${s}`);
        throw err;
      }
    }
    return { molecules };
  },
  summarize: ({ molecules }) => molecules.map((m) => `${m.smiles} ${m.formula} 重原子${m.heavyAtoms}`).join('\n'),
});

const nameToSmiles: ToolFactory = ({ names }): ToolDefinition<{ name: string }, { name: string; smiles: string | null }> => ({
  name: 'name_to_smiles',
  input: z.object({ name: z.string().trim().min(1, '请提供化学名称').max(300, '名称过长') }).strict(),
  output: z.object({ name: z.string(), smiles: z.string().nullable() }),
  description: '把化学名称转换为 SMILES（测试用）。',
  availability: () => names.availability(),
  async run({ name }, { signal }) {
    const found = await names.resolve(name, signal);
    return { name, smiles: found?.canonicalSmiles ?? null };
  },
  summarize: (o) => (o.smiles ? `${o.name}: ${o.smiles}` : `未找到 ${o.name}`),
});

const smilesCompletion: ToolFactory = ({ chem }): ToolDefinition<{ smiles: string }, { candidates: string[] }> => ({
  name: 'smiles_completion',
  input: z.object({ smiles: z.string().trim().min(1, '请提供 SMILES').max(500, 'SMILES 过长') }).strict(),
  output: z.object({ candidates: z.array(z.string()) }),
  description: '补全不完整的 SMILES（测试用：补上缺少的右括号）。',
  availability: () => ({ enabled: true }),
  async run({ smiles }) {
    const depth = [...smiles].reduce((d, c) => d + (c === '(' ? 1 : c === ')' ? -1 : 0), 0);
    const fixed = smiles + ')'.repeat(Math.max(0, depth));
    const m = await chem.describe({ smiles: fixed }).catch(() => undefined);
    return { candidates: m ? [m.canonicalSmiles] : [] };
  },
  summarize: (o) => o.candidates.join('\n') || '没有可行的补全',
});

const intelligenceSearch: ToolFactory = ({ knowledge }): ToolDefinition<{ query: string }, { hits: Array<{ docId: string; title: string; text: string }> }> => ({
  name: 'intelligence_search',
  input: z.object({ query: z.string().trim().min(1, '请提供检索词').max(1000, '检索词过长') }).strict(),
  output: z.object({ hits: z.array(z.object({ docId: z.string(), title: z.string(), text: z.string() })) }),
  description: '在所选文档中检索（测试用）。',
  availability: () => ({ enabled: true }),
  async run({ query }, { docIds }) {
    const hits = docIds.length ? await knowledge.search(docIds, query, 5) : [];
    return { hits: hits.map((h) => ({ docId: h.docId, title: h.title, text: h.text })) };
  },
  summarize: (o) => o.hits.map((h) => `${h.title}: ${h.text.slice(0, 80)}`).join('\n') || '没有找到',
});

export const standInTools: ToolFactory[] = [intelligenceSearch, admet, nameToSmiles, smilesCompletion];

/** The tools the runtime's tests run with: the real ones once merged in, else the stand-ins. */
export const testTools = (): ToolFactory[] =>
  // Page crawl may reach the test's own pages on 127.0.0.1 (production refuses loopback).
  toolFactories.length ? toolFactories.map((f) => (f === pageCrawlTool ? createPageCrawlTool({ fetch: { isAllowedAddress: (a) => a === '127.0.0.1' } }) : f)) : standInTools;
