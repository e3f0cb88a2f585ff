import { patentSearchInput, patentSearchOutput, type PatentSearchInput, type PatentSearchOutput } from '../../contract/patents';
import type { PatentSearch } from '../online/patents';
import { SOURCE_SETUP } from '../online/sources';
import { defineTool, ToolInputError, type Tool, type ToolServices } from './types';

const DESCRIPTION =
  '检索与分子相关的专利：按结构（SMILES 或 InChIKey，经 RDKit 规范化）或按文本（化合物名称、关键词），来源为已配置的 SureChEMBL 与 PubChem 专利交叉引用；返回专利号、标题、申请人、公开日与链接，查不到时如实说明。';

const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
const SOURCE_NAME = { surechembl: 'SureChEMBL', pubchem: 'PubChem' } as const;

/** Builds the tool over `search` (tests pass their own adapters; undefined: none configured). */
export function patentSearchDefinition({ chem }: Pick<ToolServices, 'chem'>, search: PatentSearch | undefined): Tool<PatentSearchInput, PatentSearchOutput> {
  return {
    input: patentSearchInput,
    output: patentSearchOutput,
    description: DESCRIPTION,
    availability: () => (search && search.adapters.length > 0 ? { enabled: true } : { enabled: false, reason: SOURCE_SETUP.patents }),
    async run(input, ctx) {
      if (!search) throw new ToolInputError(SOURCE_SETUP.patents);
      if (input.text) {
        const { hits, sources } = await search.search({ text: input.text }, input.limit, ctx.signal);
        return { query: { kind: 'text', value: input.text }, hits, sources };
      }
      const structure = input.structure ?? '';
      if (INCHIKEY.test(structure)) {
        const { hits, sources } = await search.search({ structure: { inchiKey: structure } }, input.limit, ctx.signal);
        return { query: { kind: 'structure', value: structure, inchi_key: structure }, hits, sources };
      }
      if (/^InChI=/i.test(structure)) throw new ToolInputError('请提供 SMILES 或标准 InChIKey（27 个字符，如 BSYNRYMUTXBXSQ-UHFFFAOYSA-N），不接受完整 InChI');
      const [id] = await chem.identify([structure]);
      if (!id) throw new ToolInputError(`无法识别的结构：“${structure.slice(0, 80)}”不是有效的 SMILES 或 InChIKey`);
      const query = { smiles: id.canonicalSmiles, ...(id.inchiKey ? { inchiKey: id.inchiKey } : {}) };
      const { hits, sources } = await search.search({ structure: query }, input.limit, ctx.signal);
      return { query: { kind: 'structure', value: structure, canonical_smiles: id.canonicalSmiles, ...(id.inchiKey ? { inchi_key: id.inchiKey } : {}) }, hits, sources };
    },
    summarize: patentLines,
    timeoutMs: 60_000,
  };
}

/** SPEC §9 patent_search: SureChEMBL and PubChem, as configured (the runtime's patent search). */
export const patentSearchTool = defineTool('patent_search', (services) => patentSearchDefinition(services, services.online?.patents));

/** The result as text for the model: each patent with its citation number when the answer cites it. */
export function patentLines(out: PatentSearchOutput): string {
  const failures = out.sources.filter((s) => !s.ok).map((s) => s.message ?? `${SOURCE_NAME[s.source]} 检索失败`);
  const what = out.query.kind === 'structure' ? `结构 ${out.query.canonical_smiles ?? out.query.value}` : `“${out.query.value}”`;
  if (out.hits.length === 0) {
    if (failures.length === out.sources.length) return `专利检索未能完成：${failures.join('；')}`;
    return `未找到与${what}相关的专利${failures.length ? `（部分来源失败：${failures.join('；')}）` : ''}`;
  }
  const lines = out.hits.map(
    (h, i) =>
      `${h.n ? `[${h.n}]` : `${i + 1}.`} ${h.number}${h.title ? ` ${h.title}` : ''}${h.assignee ? `；申请人：${h.assignee}` : ''}${h.date ? `；公开日：${h.date}` : ''}（${SOURCE_NAME[h.source]}，${h.url}）`,
  );
  return [`与${what}相关的专利 ${out.hits.length} 件：`, ...lines, ...(failures.length ? [`部分来源失败：${failures.join('；')}`] : [])].join('\n');
}
