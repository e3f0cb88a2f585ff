import { toolDefinitions } from '../../src/server/tools';
import { createPageCrawlTool, pageCrawlTool } from '../../src/server/tools/page-crawl';
import type { ToolDefinition } from '../../src/server/tools/types';

/**
 * The tools the runtime's tests run with: every registered tool, with page crawl allowed to reach
 * the test's own pages on 127.0.0.1 (production refuses loopback).
 */
export const testTools = (): ToolDefinition[] =>
  toolDefinitions.map((d) => (d === pageCrawlTool ? createPageCrawlTool({ fetch: { isAllowedAddress: (a) => a === '127.0.0.1' } }) : d));
