import { z } from 'zod';

/**
 * The stable machine names of the tools (SPEC §9, DESIGN §3): the `value` of a tool entry, the
 * function name offered to a model, the MCP tool name and the `name` of tool_call/tool_result events.
 */
export const TOOL_NAMES = [
  'intelligence_search',
  'web_search',
  'page_crawl',
  'admet',
  'patent_search',
  'name_to_smiles',
  'smiles_completion',
  'docking_submit',
  'task_query',
  'code_execution',
] as const;
export const toolName = z.enum(TOOL_NAMES);
export type ToolName = z.infer<typeof toolName>;

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
