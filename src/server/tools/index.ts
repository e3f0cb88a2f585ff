import { admetTool } from './admet';
import { nameToSmilesTool } from './name-to-smiles';
import { smilesCompletionTool } from './smiles-completion';
import { intelligenceSearchTool } from './intelligence-search';
import { patentSearchTool } from './patent-search';
import { codeExecutionTool } from './code-execution';
import { webSearchTool } from './web-search';
import { pageCrawlTool } from './page-crawl';
import { dockingSubmitTool, taskQueryTool } from './docking';
import type { ToolDefinition } from './types';

/**
 * Every tool the server registers at start-up. A tool module exports one `ToolDefinition`
 * (`defineTool(name, factory)`); register it here and the registry offers it to GET /api/v1/tools,
 * the engines and MCP, in the catalogue's order (`TOOL_CATALOG`).
 */
export const toolDefinitions: readonly ToolDefinition[] = [
  intelligenceSearchTool,
  webSearchTool,
  pageCrawlTool,
  admetTool,
  patentSearchTool,
  nameToSmilesTool,
  smilesCompletionTool,
  dockingSubmitTool,
  taskQueryTool,
  codeExecutionTool,
];
