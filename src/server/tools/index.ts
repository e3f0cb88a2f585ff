import { admetTool } from './admet';
import { nameToSmilesTool } from './name-to-smiles';
import { smilesCompletionTool } from './smiles-completion';
import { intelligenceSearchTool } from './intelligence-search';
import { patentSearchTool } from './patent-search';
import { codeExecutionTool } from './code-execution';
import { webSearchTool } from './web-search';
import { pageCrawlTool } from './page-crawl';
import { dockingSubmitTool, taskQueryTool } from './docking';
import type { ToolFactory } from './types';

/**
 * Every tool the server builds at start-up, in SPEC §9 order. A tool module exports one
 * `ToolFactory`; add it here and the registry offers it to GET /api/v1/tools, the engines and MCP.
 */
export const toolFactories: ToolFactory[] = [
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
