import { webSearchInput, webSearchOutput, type WebSearchInput, type WebSearchOutput } from '../../contract/online';
import { ServiceError } from '../net/service';
import { SOURCE_SETUP } from '../online/sources';
import { defineTool, ToolInputError } from './types';

/** Results given when the caller does not say how many. */
const DEFAULT_RESULTS = 8;

/**
 * 联网搜索: the configured web search services (SearXNG, Tavily, Bocha, a custom
 * endpoint) tried in WEB_SEARCH_ORDER with failover, as the runtime built them. Enabled when at
 * least one is configured.
 */
export const webSearchTool = defineTool('web_search', ({ config, online }) => {
  const search = online?.web;
  return {
    input: webSearchInput,
    output: webSearchOutput,
    description: '在互联网上搜索（通过服务器配置的搜索服务），返回网页标题、网址、站点名和摘要；用于所选文档之外的最新或公开信息，回答时注明来源网址。',
    availability: () => (search ? { enabled: true } : { enabled: false, reason: SOURCE_SETUP.web }),
    // Every service may use its whole timeout before the next is tried.
    timeoutMs: Math.min((search?.adapters.length ?? 0) * config.WEB_SEARCH_TIMEOUT_MS + 5000, 120_000),
    async run(input: WebSearchInput, ctx): Promise<WebSearchOutput> {
      if (!search) throw new ToolInputError(SOURCE_SETUP.web);
      try {
        const hits = await search({ query: input.query, limit: input.limit ?? DEFAULT_RESULTS, signal: ctx.signal });
        return { query: input.query, hits };
      } catch (err) {
        // Every service failed: what each did is the caller's to read (not a crash of the tool).
        if (err instanceof ServiceError) throw new ToolInputError(err.message);
        throw err;
      }
    },
    summarize: (output: WebSearchOutput) => hitLines(output),
  };
});

/** The hits as text for the model: number (when cited), title, site, URL and snippet. */
export function hitLines(output: WebSearchOutput): string {
  if (!output.hits.length) return `联网搜索“${output.query}”没有找到结果。`;
  const lines = [`联网搜索“${output.query}”找到 ${output.hits.length} 条结果：`];
  output.hits.forEach((h, i) => lines.push(`${h.n ? `[${h.n}]` : `${i + 1}.`} ${h.title}（${h.site}）${h.url}\n${h.snippet}`));
  return lines.join('\n');
}
