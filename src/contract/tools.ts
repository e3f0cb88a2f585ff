import { z } from 'zod';

/** SPEC §9 groups of the tools panel, in their order. */
export const TOOL_GROUPS = [
  { id: 'search', label: '检索' },
  { id: 'molecule', label: '小分子与蛋白' },
  { id: 'other', label: '其他' },
] as const;
export type ToolGroupId = (typeof TOOL_GROUPS)[number]['id'];

/**
 * Each SPEC §9 tool, declared once (DESIGN §3): its stable machine name (the `value` of a tool
 * entry, the function name offered to a model, the MCP tool name and the `name` of
 * tool_call/tool_result events), its group, the label and icon of the question box's tools panel,
 * and the card that renders its result in an answer (`null`: its text). The server's
 * `ToolDefinition` (`src/server/tools/types.ts`) adds the factory; the browser's card index keys
 * its cards by `card`.
 */
export const TOOL_CATALOG = [
  { name: 'intelligence_search', group: 'search', label: '情报数据库检索', icon: 'database', card: 'intelligence' },
  { name: 'web_search', group: 'search', label: '联网搜索', icon: 'globe', card: null },
  { name: 'page_crawl', group: 'search', label: '网页抓取', icon: 'link', card: 'page' },
  { name: 'admet', group: 'molecule', label: 'ADMET计算', icon: 'flask', card: 'admet' },
  { name: 'patent_search', group: 'molecule', label: '分子专利检索', icon: 'file-search', card: 'patent' },
  { name: 'name_to_smiles', group: 'molecule', label: '化学名转SMILES', icon: 'atom', card: 'name' },
  { name: 'smiles_completion', group: 'molecule', label: 'SMILES补全', icon: 'wand', card: 'completion' },
  { name: 'docking_submit', group: 'molecule', label: '对接任务提交', icon: 'dock', card: 'docking' },
  { name: 'task_query', group: 'molecule', label: '任务查询', icon: 'list', card: 'task' },
  { name: 'code_execution', group: 'other', label: '代码生成与执行', icon: 'code', card: 'code' },
] as const satisfies ReadonlyArray<{ name: string; group: ToolGroupId; label: string; icon: string; card: string | null }>;

type Catalogued = (typeof TOOL_CATALOG)[number];
export type ToolName = Catalogued['name'];
/** The cards that render a tool's result (`src/widgets/channels/tool-cards`). */
export type ToolCardKind = Exclude<Catalogued['card'], null>;
/** One tool of the catalogue. */
export interface ToolCatalogEntry {
  name: ToolName;
  group: ToolGroupId;
  label: string;
  icon: string;
  card: ToolCardKind | null;
}

/** The stable machine names of the tools, in SPEC §9 order. */
export const TOOL_NAMES = TOOL_CATALOG.map((t) => t.name) as unknown as readonly [ToolName, ...ToolName[]];

/** A tool's catalogue entry by name. */
export const toolCatalogEntry = (name: ToolName): ToolCatalogEntry => TOOL_CATALOG.find((t) => t.name === name)!;

export const toolName = z.enum(TOOL_NAMES);

/**
 * What a tool gives back, as stored in a `tool_result` event: `content` is the text the model reads,
 * `data` the tool's structured output (validated by that tool's output schema) that the answer
 * renders as a card; `ok: false` carries a Chinese message in `content` and no `data`.
 */
export const toolResultPayload = z.object({
  ok: z.boolean(),
  content: z.string(),
  data: z.unknown().optional(),
});
export type ToolResultPayload = z.infer<typeof toolResultPayload>;
