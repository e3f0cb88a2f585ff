import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a fake search service answers the next requests (in order; the last one repeats). */
export type Behaviour = 'ok' | 'empty' | 401 | 403 | 429 | 500 | 'malformed' | 'hang' | 'bad-shape' | 'body-error';

export interface FakeService {
  url: string;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }>;
  /** Sets how the following requests are answered. */
  set(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}

export type Protocol = 'searxng' | 'tavily' | 'bocha' | 'custom';

const pages = (tag: string) => [
  { url: `https://www.example.org/${tag}/aspirin`, title: `Aspirin <b>${tag}</b>`, text: `Aspirin (${tag}) inhibits COX-1 &amp; COX-2 irreversibly.`, site: `Example ${tag}` },
  { url: `https://pubs.example.com/${tag}/ibuprofen?utm_source=x`, title: `Ibuprofen ${tag}`, text: `Ibuprofen is a reversible COX inhibitor (${tag}).`, site: '' },
  { url: 'javascript:alert(1)', title: 'bad link', text: 'never shown', site: '' },
];

/** The body of a successful answer in the service's documented shape. */
function okBody(protocol: Protocol, tag: string, empty: boolean): unknown {
  const list = empty ? [] : pages(tag);
  switch (protocol) {
    case 'searxng':
      return { query: 'q', number_of_results: list.length, results: list.map((p) => ({ url: p.url, title: p.title, content: p.text, engine: 'bing', engines: ['bing'], score: 1, category: 'general' })), answers: [], suggestions: [], unresponsive_engines: [] };
    case 'tavily':
      return { query: 'q', answer: null, images: [], results: list.map((p, i) => ({ title: p.title, url: p.url, content: p.text, score: 0.9 - i / 10, raw_content: null })), response_time: 0.5 };
    case 'bocha':
      return {
        code: 200,
        log_id: 'abc',
        msg: null,
        data: {
          _type: 'SearchResponse',
          queryContext: { originalQuery: 'q' },
          webPages: {
            webSearchUrl: 'https://bochaai.com/search?q=q',
            totalEstimatedMatches: list.length,
            value: list.map((p, i) => ({ id: `https://api.bochaai.com/v1/#WebPages.${i}`, name: p.title, url: p.url, displayUrl: p.url, snippet: p.text.slice(0, 20), summary: p.text, siteName: p.site || null, siteIcon: null, dateLastCrawled: '2025-01-01T00:00:00Z' })),
          },
        },
      };
    case 'custom':
      return { results: list.map((p) => ({ url: p.url, title: p.title, snippet: p.text, ...(p.site ? { site: p.site } : {}) })) };
  }
}

/** A small HTTP server on 127.0.0.1 speaking one search service's protocol, including its errors. */
export async function startFakeService(protocol: Protocol, tag: string = protocol): Promise<FakeService> {
  let queue: Behaviour[] = ['ok'];
  const requests: FakeService['requests'] = [];
  const expectedPath = { searxng: '/search', tavily: '/search', bocha: '/v1/web-search', custom: '/hook' }[protocol];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const behaviour = queue.length > 1 ? queue.shift()! : queue[0]!;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof json === 'string' ? json : JSON.stringify(json));
      };
      if (url.pathname !== expectedPath) return send(404, { detail: 'Not Found' });
      if (protocol === 'searxng' && (req.method !== 'GET' || url.searchParams.get('format') !== 'json')) return send(403, 'Forbidden');
      if (protocol !== 'searxng' && req.method !== 'POST') return send(405, { detail: 'Method Not Allowed' });
      if ((protocol === 'tavily' || protocol === 'bocha') && !/^Bearer \S+/.test(req.headers.authorization ?? '')) return send(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
      switch (behaviour) {
        case 'ok':
        case 'empty':
          return send(200, okBody(protocol, tag, behaviour === 'empty'));
        case 401:
          return send(401, protocol === 'bocha' ? { code: '401', message: 'Invalid API KEY', log_id: 'x' } : { detail: { error: 'Unauthorized: missing or invalid API key.' } });
        case 403:
          return send(403, protocol === 'bocha' ? { code: '403', message: 'You do not have enough money', log_id: 'x' } : 'Forbidden');
        case 429:
          return send(429, { detail: { error: 'Rate limit exceeded' } });
        case 500:
          return send(500, 'Internal Server Error');
        case 'malformed':
          return send(200, '{"results": [ {"url": ');
        case 'bad-shape':
          return send(200, { hello: 'world' });
        case 'body-error':
          return send(200, { code: 429, msg: 'rate limited', data: null });
        case 'hang':
          return; // never answers
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: protocol === 'custom' ? `${base}/hook` : base,
    requests,
    set: (...b) => void (queue = b),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
