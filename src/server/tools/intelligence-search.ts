import {
  intelligenceSearchInput,
  intelligenceSearchOutput,
  type IntelligenceSearchInput,
  type IntelligenceSearchOutput,
  type MolSearchResult,
} from '../../contract/molecules';
import { smilesInText } from '../../contract/smiles';
import { ChemInputError } from '../chem/engine';
import { moleculeSearch, readableDocumentIds } from '../molecules/search';
import { defineTool, ToolInputError } from './types';
import { activityFilterText, activityLines } from '../chemdocs/activity-answer';

/** Readable documents the text search covers at most (the viewer's own and the newest first). */
const MAX_DOCUMENTS = 5000;
const PASSAGES = 8;
const DEFAULT_MOLECULES = 10;
/** Characters of a passage kept in the result (the card and the model see this much). */
const PASSAGE_CHARS = 600;

const MODE_NAMES = { exact: '精确结构', substructure: '子结构', similarity: '相似性' } as const;

/**
 * 情报数据库检索 (SPEC §9): the organisation's own database — every document the
 * user may read (own, shared, public folders), not only the question's — searched by text (the
 * passage retrieval) and by structure (the molecule table: exact, substructure or similarity).
 */
export const intelligenceSearchTool = defineTool('intelligence_search', ({ db, chem, knowledge }) => {
  const molecules = moleculeSearch({ db, chem });
  return {
    input: intelligenceSearchInput,
    output: intelligenceSearchOutput,
    description:
      '检索用户有权阅读的全部知识库文档（自己的、共享的和公开的）：按文本检索相关段落，并按结构（SMILES 或 SMARTS）检索 SDF、PDB 配体和文献中出现的分子，支持精确结构、子结构和相似性（Morgan 指纹 Tanimoto）检索，结果附文档和页码。' +
      '可用 activity 按文献表格和正文中读到的活性筛选化合物（靶点 target、指标 measure：IC50/Ki/Kd/EC50/inhibition、关系 relation、数值 value：IC50 等以 nM 计，抑制率以 % 计），例如含磺酰胺且 CDK2 IC50 < 100 nM：structure 为 SMARTS [#16X4](=O)(=O)[#7]、mode 为 substructure、activity 为 {"target":"CDK2","measure":"IC50","relation":"<","value":100}；结果中的化合物带标签和活性，各附文档页码。',
    availability: () => ({ enabled: true }),
    async run(input: IntelligenceSearchInput, ctx): Promise<IntelligenceSearchOutput> {
      const docIds = await readableDocumentIds(db, ctx.viewer, MAX_DOCUMENTS);
      const found = docIds.length ? await knowledge.search(docIds, input.query, PASSAGES) : [];
      const passages = found.map((p) => ({ doc_id: p.docId, title: p.title, page: p.page, text: p.text.slice(0, PASSAGE_CHARS), score: p.score }));
      const mode = input.mode ?? 'similarity';
      const options = { mode, threshold: input.threshold, topK: input.top_k ?? DEFAULT_MOLECULES, activity: input.activity };
      let result: MolSearchResult | null = null;
      if (input.structure) {
        // A structure given on purpose: a bad one is the caller's to fix.
        try {
          result = await molecules.search(ctx.viewer, { query: input.structure, ...options });
        } catch (err) {
          if (err instanceof ChemInputError) throw new ToolInputError(err.message);
          throw err;
        }
      } else if (input.activity) {
        // Activities alone: every molecule linked to a matching activity.
        result = { mode, query: { form: 'mol', text: '', parent: null }, ...(await molecules.linked(ctx.viewer, input.activity, options.topK)), took_ms: 0 };
      } else {
        // A SMILES written in the words: searched when RDKit reads it, else the text search stands alone.
        for (const candidate of smilesInText(input.query, 3)) {
          if (ctx.signal.aborted) break;
          try {
            result = await molecules.search(ctx.viewer, { query: candidate, ...options });
            break;
          } catch (err) {
            if (!(err instanceof ChemInputError)) throw err;
          }
        }
      }
      return { query: input.query, documents: docIds.length, passages, molecules: result, ...(input.activity ? { activity: input.activity } : {}) };
    },
    summarize(output: IntelligenceSearchOutput): string {
      const lines = [`在用户可读的 ${output.documents} 篇文档中检索“${output.query}”。`];
      if (output.passages.length) {
        lines.push(`相关段落 ${output.passages.length} 条：`);
        output.passages.forEach((p, i) => lines.push(`[${i + 1}] 《${p.title}》${p.page ? `第 ${p.page} 页` : ''}：${p.text.replace(/\s+/g, ' ').slice(0, 300)}`));
      } else {
        lines.push('没有找到相关段落。');
      }
      const m = output.molecules;
      if (m) {
        const filter = output.activity ? `，活性条件 ${activityFilterText(output.activity)}` : '';
        const head = m.query.text ? `${MODE_NAMES[m.mode]}检索（查询 ${m.query.text}${filter}，共检索 ${m.searched} 个分子）` : `按活性条件 ${activityFilterText(output.activity ?? {})} 检索（${m.searched} 个化合物满足）`;
        if (!m.hits.length) lines.push(`${head}：没有找到匹配的分子。`);
        else {
          lines.push(`${head}：找到 ${m.hits.length}${m.truncated ? '+' : ''} 个分子：`);
          for (const h of m.hits) {
            const where = `《${h.doc_title}》${h.page ? `第 ${h.page} 页` : ''}${h.name ? `（${h.name}）` : ''}`;
            // A salt or mixture found by its parent says so: the stored record is not the query itself.
            const parent =
              h.matched === 'parent'
                ? `，按母体结构匹配（母体 ${h.parent_smiles ?? m.query.parent ?? m.query.text}）`
                : h.matched === 'stereo'
                  ? '，为查询结构的立体异构体（查询未指定立体构型）'
                  : '';
            lines.push(`- ${h.smiles}，${where}${h.score !== null ? `，相似度 ${h.score.toFixed(2)}` : ''}${parent}`);
            lines.push(...activityLines(h));
          }
        }
      }
      return lines.join('\n');
    },
  };
});
