import type { ToolEntry, ToolGroup } from '../../contract/channel';

/** What a tool gives back to the answer: text for the model, and whether it worked. */
export interface ToolOutput {
  ok: boolean;
  content: string;
}

/** A tool the answer engines may call (offered to the model as a function). */
export interface Tool {
  entry: ToolEntry;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  run(args: unknown, ctx: { signal: AbortSignal }): Promise<ToolOutput>;
}

/** The tools the server knows: the listing of GET /api/v1/tools and the callable ones. */
export interface ToolRegistry {
  groups(): ToolGroup[];
  /** The enabled tools among the names a question asked for (by value or id). */
  resolve(names: string[]): Tool[];
}

const NOT_YET = '尚未提供：此工具还没有在本服务器上实现，暂不可用。';

/** SPEC §9 tool groups. Every entry is listed; only implemented ones are enabled. */
const CATALOG: Array<{ id: string; label: string; tools: Array<Omit<ToolEntry, 'enabled' | 'ldap_disabled' | 'description'> & { what: string }> }> = [
  {
    id: 'search',
    label: '检索',
    tools: [
      { id: 'intelligence_search', value: 'intelligence_search', label: '情报数据库检索', icon: 'database', what: '检索医药情报数据库' },
      { id: 'web_search', value: 'web_search', label: '联网搜索', icon: 'globe', what: '在互联网上搜索相关信息' },
      { id: 'page_crawl', value: 'page_crawl', label: '网页抓取', icon: 'link', what: '读取指定网页的内容' },
    ],
  },
  {
    id: 'molecule',
    label: '小分子与蛋白',
    tools: [
      { id: 'admet', value: 'admet', label: 'ADMET计算', icon: 'flask', what: '计算分子的理化性质与ADMET性质' },
      { id: 'patent_search', value: 'patent_search', label: '分子专利检索', icon: 'file-search', what: '检索与分子相关的专利' },
      { id: 'name_to_smiles', value: 'name_to_smiles', label: '化学名转SMILES', icon: 'atom', what: '把化学名称转换为SMILES' },
      { id: 'smiles_completion', value: 'smiles_completion', label: 'SMILES补全', icon: 'wand', what: '补全或修正SMILES字符串' },
      { id: 'docking_submit', value: 'docking_submit', label: '对接任务提交', icon: 'dock', what: '提交分子对接任务' },
      { id: 'task_query', value: 'task_query', label: '任务查询', icon: 'list', what: '查询已提交任务的状态与结果' },
    ],
  },
  {
    id: 'other',
    label: '其他',
    tools: [{ id: 'code_execution', value: 'code_execution', label: '代码生成与执行', icon: 'code', what: '生成并在沙箱中运行代码' }],
  },
];

/**
 * The registry over the catalog: `implemented` tools (by entry id) replace their placeholder and
 * are enabled; the others stay listed, disabled, saying they are not available yet.
 */
export function toolRegistry(implemented: Tool[] = []): ToolRegistry {
  const byId = new Map(implemented.map((t) => [t.entry.id, t]));
  const groups: ToolGroup[] = CATALOG.map((g) => ({
    id: g.id,
    label: g.label,
    tools: g.tools.map(({ what, ...t }) => byId.get(t.id)?.entry ?? { ...t, description: `${what}。${NOT_YET}`, enabled: false, ldap_disabled: false }),
  }));
  const known = new Set(groups.flatMap((g) => g.tools.map((t) => t.id)));
  const extra = implemented.filter((t) => !known.has(t.entry.id));
  if (extra.length) groups.push({ id: 'extra', label: '扩展工具', tools: extra.map((t) => t.entry) });
  return {
    groups: () => groups,
    resolve(names) {
      const wanted = new Set(names);
      return implemented.filter((t) => t.entry.enabled && (wanted.has(t.entry.value) || wanted.has(t.entry.id)));
    },
  };
}
