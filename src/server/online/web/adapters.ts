import { z } from 'zod';
import type { OnlineHit, OnlineQuery } from '../hit';
import { serviceFailed, serviceJson, serviceShape } from '../../net/service';
import { isHttpUrl, plainText, siteOf } from './text';

/** One web search service: its id (as in WEB_SEARCH_ORDER), its name, and a search. */
export interface WebAdapter {
  id: WebServiceId;
  label: string;
  search(q: OnlineQuery): Promise<OnlineHit[]>;
}

export const WEB_SERVICE_IDS = ['searxng', 'tavily', 'bocha', 'custom'] as const;
export type WebServiceId = (typeof WEB_SERVICE_IDS)[number];

const trimBase = (url: string) => url.replace(/\/+$/, '');

/** The hits kept from a service's results: http(s) links only, each once, at most `limit`. */
function hitsOf(rows: Array<{ url: string; title: string; snippet: string; site?: string | null | undefined }>, limit: number): OnlineHit[] {
  const out: OnlineHit[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    if (out.length >= limit) break;
    if (!isHttpUrl(r.url) || seen.has(r.url)) continue;
    seen.add(r.url);
    const site = (r.site ?? '').trim() || siteOf(r.url);
    out.push({ url: r.url, title: plainText(r.title, 200) || site, site, snippet: plainText(r.snippet), kind: 'web' });
  }
  return out;
}

// SearXNG's JSON API (GET /search?q=…&format=json; the instance must list `json` in search.formats).
const searxngResponse = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().nullish(), content: z.string().nullish() }).loose()),
}).loose();

/** SearXNG (self-hosted metasearch): `GET {SEARXNG_URL}/search?q=…&format=json`. */
export function searxngAdapter(baseUrl: string, timeoutMs: number): WebAdapter {
  const label = 'SearXNG';
  return {
    id: 'searxng',
    label,
    async search({ query, limit, signal }) {
      const url = new URL(`${trimBase(baseUrl)}/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const json = await serviceJson({ service: label, url: url.href, signal, timeoutMs });
      const body = serviceShape(label, searxngResponse, json);
      return hitsOf(body.results.map((r) => ({ url: r.url, title: r.title ?? '', snippet: r.content ?? '' })), limit);
    },
  };
}

// Tavily's search API (POST /search, Bearer key; results [{title, url, content, score}]).
const tavilyResponse = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().nullish(), content: z.string().nullish() }).loose()),
}).loose();

/** Tavily: `POST {TAVILY_BASE_URL}/search` with `{query, max_results}` and `Authorization: Bearer {TAVILY_API_KEY}`. */
export function tavilyAdapter(baseUrl: string, apiKey: string, timeoutMs: number): WebAdapter {
  const label = 'Tavily';
  return {
    id: 'tavily',
    label,
    async search({ query, limit, signal }) {
      const json = await serviceJson({
        service: label,
        url: `${trimBase(baseUrl)}/search`,
        method: 'POST',
        json: { query, max_results: Math.min(limit, 20), search_depth: 'basic', include_answer: false },
        headers: { authorization: `Bearer ${apiKey}` },
        signal,
        timeoutMs,
      });
      const body = serviceShape(label, tavilyResponse, json);
      return hitsOf(body.results.map((r) => ({ url: r.url, title: r.title ?? '', snippet: r.content ?? '' })), limit);
    },
  };
}

// Bocha (博查) web search API: POST /v1/web-search, Bearer key; {code, msg, data: {webPages: {value: [...]}}}.
const bochaResponse = z.object({
  code: z.union([z.number(), z.string()]).nullish(),
  msg: z.string().nullish(),
  data: z
    .object({
      webPages: z
        .object({
          value: z.array(
            z.object({ url: z.string(), name: z.string().nullish(), snippet: z.string().nullish(), summary: z.string().nullish(), siteName: z.string().nullish() }).loose(),
          ),
        })
        .loose()
        .nullish(),
    })
    .loose()
    .nullish(),
}).loose();

/** Bocha (博查): `POST {BOCHA_BASE_URL}/v1/web-search` with `{query, count, summary}` and `Authorization: Bearer {BOCHA_API_KEY}`. */
export function bochaAdapter(baseUrl: string, apiKey: string, timeoutMs: number): WebAdapter {
  const label = '博查';
  return {
    id: 'bocha',
    label,
    async search({ query, limit, signal }) {
      const json = await serviceJson({
        service: label,
        url: `${trimBase(baseUrl)}/v1/web-search`,
        method: 'POST',
        json: { query, count: Math.min(limit, 50), summary: true, freshness: 'noLimit' },
        headers: { authorization: `Bearer ${apiKey}` },
        signal,
        timeoutMs,
      });
      const body = serviceShape(label, bochaResponse, json);
      // The API also reports failures in the body's code (200 = success).
      if (body.code !== undefined && body.code !== null && String(body.code) !== '200') {
        const code = Number(body.code);
        const detail = body.msg ? plainText(body.msg, 200) : '';
        if (code === 429) throw serviceFailed.rateLimited(label, detail);
        if (code === 401 || code === 403) throw serviceFailed.unauthorized(label, code, detail);
        throw serviceFailed.http(label, String(body.code), detail);
      }
      if (!body.data) throw serviceFailed.shape(label);
      const rows = body.data.webPages?.value ?? [];
      return hitsOf(rows.map((r) => ({ url: r.url, title: r.name ?? '', snippet: r.summary || r.snippet || '', site: r.siteName })), limit);
    },
  };
}

// The generic endpoint of README "Custom web search endpoint".
const customResponse = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().nullish(), snippet: z.string().nullish(), site: z.string().nullish() }).loose()),
}).loose();

/**
 * A custom endpoint (README): `POST {WEB_SEARCH_CUSTOM_URL}` with `{"query": "…", "limit": n}`
 * (and `Authorization: Bearer {WEB_SEARCH_CUSTOM_KEY}` when set) answering
 * `{"results": [{"url", "title", "snippet", "site"?}]}`.
 */
export function customAdapter(url: string, apiKey: string | undefined, timeoutMs: number): WebAdapter {
  const label = '自定义搜索服务';
  return {
    id: 'custom',
    label,
    async search({ query, limit, signal }) {
      const json = await serviceJson({
        service: label,
        url,
        method: 'POST',
        json: { query, limit },
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        signal,
        timeoutMs,
      });
      const body = serviceShape(label, customResponse, json);
      return hitsOf(body.results.map((r) => ({ url: r.url, title: r.title ?? '', snippet: r.snippet ?? '', site: r.site })), limit);
    },
  };
}
