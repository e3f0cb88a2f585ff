import { z } from 'zod';

/** One online result as tools and answers carry it (src/server/online/hit.ts `OnlineHit`). */
export const onlineHitSchema = z.object({
  url: z.string(),
  title: z.string(),
  site: z.string(),
  snippet: z.string(),
  kind: z.enum(['web', 'literature', 'patent']),
  /** The citation number, when the answer cites it. */
  n: z.number().int().min(1).optional(),
});

/** `web_search` arguments: what to search the web for, and how many results at most. */
export const webSearchInput = z
  .object({
    query: z.string({ error: '请提供搜索关键词' }).trim().min(1, '搜索关键词不能为空').max(500, '搜索关键词不能超过500个字符'),
    limit: z.number({ error: 'limit 应为数字' }).int('limit 应为整数').min(1, 'limit 至少为1').max(20, 'limit 最多为20').optional(),
  })
  .strict();
export type WebSearchInput = z.infer<typeof webSearchInput>;

/** `web_search` result (and the online search made before an answer): the query and the hits, best first. */
export const webSearchOutput = z.object({
  query: z.string(),
  /** The search type of the question (all, web, paper, patent) for the search made before an answer. */
  search_type: z.string().optional(),
  hits: z.array(onlineHitSchema),
});
export type WebSearchOutput = z.infer<typeof webSearchOutput>;

/**
 * GET /api/v1/online/status: which online sources this server has, so the question box can say
 * before sending what a search type would miss. `missing` is the Chinese sentence of what to
 * configure, per source that is not configured.
 */
export const onlineStatus = z.object({
  web: z.boolean(),
  literature: z.boolean(),
  patents: z.boolean(),
  missing: z.object({ web: z.string().optional(), literature: z.string().optional(), patents: z.string().optional() }),
});
export type OnlineStatus = z.infer<typeof onlineStatus>;
