import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import { boundedLogStream } from './log-stream';
import { clusterOf } from './db/cluster';
import { openDatabase, type Db } from './db/database';
import { languageOfTag, localizeMessage, requestLanguage } from './i18n';
import { AppError, DomainError, toAppError } from './errors';
import { loadSecret } from './auth/secret';
import { sessionsRepo } from './auth/sessions';
import { installHttpSession } from './auth/http-session';
import { firstPaints } from './first-paint';
import { databaseRateLimitStore } from './auth/shared-limits';
import { createNotifier } from './notify/notifier';
import authRoutes from './routes/auth';
import generalRoutes from './routes/general';
import peopleRoutes from './routes/people';
import devRoutes from './routes/dev';
import knowledgeBaseRoutes from './routes/knowledge_base';
import sarRoutes from './routes/knowledge_base-sar';
import structureRoutes from './routes/structures';
import diagnosticsRoutes from './routes/diagnostics';
import molRoutes from './routes/mol';
import channelRoutes from './routes/channel';
import taskRoutes from './routes/tasks';
import toolsRoutes from './routes/tools';
import codeRoutes from './routes/code';
import mcpRoutes from './routes/mcp';
import mcpServersRoutes from './routes/mcp_servers';
import onlineRoutes from './routes/online';
import type { OnlineSources } from './online/sources';
import type { ReadPage } from './answering/online-search';
import crawlRoutes from './routes/crawl';
import literatureRoutes from './routes/literature';
import type { App, Services } from './routes/types';
import { startRuntime, STOP_BUDGET_MS, type RuntimeOptions } from './runtime';
import type { ToolDefinition } from './tools/types';
import type { OutboundOverrides } from './routes/types';
import { validationFailure } from './validation';
import { serializerCompiler } from './serializer';
import { collectRoutes } from './route-table';

export interface BuildOptions {
  config: Config;
  version?: string;
  /** Fastify logger options; tests pass false. */
  logger?: FastifyServerOptions['logger'];
  /** The tools to build (default: every factory of src/server/tools/index.ts). */
  tools?: readonly ToolDefinition[];
  /** Online sources besides the configured web search (literature, patents; tests), and the page reader of deep research. */
  online?: OnlineSources;
  readPage?: ReadPage;
  /** Parts run beside the server, stopped with it (RuntimeOptions.parts), and how long one part may take to stop. */
  parts?: RuntimeOptions['parts'];
  stopBudgetMs?: number;
  /** Tests only: the address policy and name resolution of fetches users ask for (saving a page or a paper). */
  outbound?: OutboundOverrides;
}

/**
 * A request Node's HTTP parser refused (headers or URL over its 16 KB limit, a timeout, bytes that
 * are not HTTP): answered with the API envelope and the connection closed, as Fastify's own
 * handler does with its own body.
 */
function unparsableRequest(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'header_too_large', '请求的网址或请求头过长']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', '请求超时，请重试']
        : [400, 'bad_request', '请求格式不正确'];
  const body = JSON.stringify({ success: false, message, code });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/** Builds the whole server: plugins, routes, error handling. The caller listens and closes. */
export async function buildApp({ config, version = '0.0.0', logger, tools, online, readPage, outbound, parts, stopBudgetMs }: BuildOptions) {
  const app = Fastify({
    logger: logger ?? {
      level: config.CSAI_LOG_LEVEL,
      // Never blocks the event loop on a stdout nobody reads; drops (and counts) what it cannot hold.
      stream: boundedLogStream(),
      redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
    },
    // One hop: the address our proxy appended, not the left-most X-Forwarded-For entry a client
    // can write itself (that would let anyone dodge the per-address rate limits).
    trustProxy: config.CSAI_TRUST_PROXY ? (_address: string, hop: number) => hop === 0 : false,
    bodyLimit: 1024 * 1024,
    // Ids travel in URLs and logs: keep them short and free of secrets.
    requestIdHeader: false,
    // A malformed URL ('/api/v1/%') is answered before routing: give it the envelope too.
    frameworkErrors: badUrl,
    // So is what Node's HTTP parser refuses before Fastify sees a request (a URL or headers too large).
    clientErrorHandler: unparsableRequest,
  }).withTypeProvider<ZodTypeProvider>();
  collectRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db: Db = await openDatabase(config.dataDir, config.DATABASE_URL);
  app.addHook('onClose', async () => db.destroy());
  const secret = loadSecret(config.dataDir, config.CSAI_SECRET);
  const smtp = config.SMTP_URL ? { url: config.SMTP_URL, from: config.SMTP_FROM ?? 'CSAI <no-reply@localhost>' } : undefined;
  const notifier = createNotifier(db, app.log, smtp);
  const cluster = clusterOf(config);
  const runtime = await startRuntime({ config, cluster, db, log: app.log, secret, ...(tools ? { tools } : {}), ...(online ? { online } : {}), ...(readPage ? { readPage } : {}), ...(parts ? { parts } : {}), ...(stopBudgetMs ? { stopBudgetMs } : {}) });
  // Requests still in progress when the server closes get the stop budget to finish; then their
  // connections are closed. Node stops timing requests out once its server closes, so a client that
  // never finishes sending a request would otherwise hold the close, and everything stopped after it, forever.
  const budgetMs = stopBudgetMs ?? STOP_BUDGET_MS;
  let cutOff: NodeJS.Timeout | undefined;
  // Node closes the connections that are idle when its server closes, not those that become idle
  // after: a response still being sent then (a file whose stream ends a moment after its last byte
  // reached the client, a code run) left its keep-alive connection open until the client's next
  // request or the keep-alive timeout (72 s), and the close waited for it. Each response that
  // finishes while the server closes closes the connections idle by then.
  let closing = false;
  app.server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    res.once('finish', () => {
      if (closing) app.server.closeIdleConnections();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    cutOff = setTimeout(() => {
      app.server.getConnections((_err, open) => app.log.error({ part: 'HTTP connections', open, budgetMs }, 'HTTP connections did not stop in time; closing them'));
      app.server.closeAllConnections();
    }, budgetMs);
  });
  // Registered after the database's hook, so it runs first on close: answers and workers stop before the database closes.
  // The onClose hooks run once the HTTP server has closed.
  app.addHook('onClose', async () => {
    clearTimeout(cutOff);
    await runtime.close();
  });
  const services: Services = { config, cluster, db, secret, notifier, version, runtime, ...(outbound ? { outbound } : {}) };

  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    errorResponseBuilder: () => new AppError(429, 'rate_limited', '请求过于频繁，请稍后再试'),
    // Several nodes over PostgreSQL count one client together; one SQLite process counts in memory.
    ...(cluster.several ? { store: databaseRateLimitStore(db) } : {}),
  });
  installHttpSession(app, { config, secret, sessions: sessionsRepo(db), db, tokenOnly: ['/mcp'] });

  // A response sent before its request's body was read (an upload refused at its first part, a 401
  // before the body) would leave the rest of the body in a keep-alive connection, where it stalls the
  // next request until a reset. Such connections are closed after the answer instead.
  // A request without a body is complete however early the answer is (Node sets `complete` only
  // after the handler's turn, so a page answered at once closed its connection).
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete && hasBody(request.headers)) reply.header('Connection', 'close');
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'CSAI API', version, description: 'Envelope: {success, data, message}; failures {success:false, message, code, field?}.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'csai_session' }, token: { type: 'http', scheme: 'bearer', description: 'A personal API token (POST /api/v1/auth/tokens); no CSRF headers needed without cookies' } } },
    },
    transform: jsonSchemaTransform,
  });
  // The API documentation (Swagger UI) under a policy of its own: the plugin's (its inline script
  // and style by hash), without the outside sources it allows (any https style or font, the online
  // validator's badge), and framed by no other site.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.headers({ 'X-Frame-Options': 'SAMEORIGIN', 'Referrer-Policy': 'strict-origin-when-cross-origin', 'X-Content-Type-Options': 'nosniff' });
    });
    // The plugin redirects /static/index.html to the page by rewriting the URL's end, so with a
    // query string it redirected to itself without end (found by bench/fuzz.bench.ts).
    docs.addHook('onRequest', async (request, reply) => {
      const [pathname, query] = request.url.split(/\?(.*)/s, 2);
      if (query !== undefined && pathname === '/api/docs/static/index.html') return reply.redirect(`/api/docs/?${query}`);
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, transformStaticCSP: docsPolicy, uiConfig: { validatorUrl: null } });
  });

  /** Whether the failure is the request's connection going away (ECONNRESET, "aborted") rather than the server's. */
  const clientLeft = (raw: IncomingMessage, error: Error) =>
    (raw.destroyed || raw.socket?.destroyed === true) && ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || error.message === 'aborted');

  app.setErrorHandler(async (thrown: FastifyError | AppError | DomainError, request, reply) => {
    const error = thrown instanceof DomainError ? toAppError(thrown) : thrown;
    // The message in the language of the one asking (Chinese as written, else English).
    const lang = await requestLanguage(request, db).catch(() => 'zh' as const);
    const say = (message: string) => localizeMessage(message, lang);
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ success: false, message: say(error.message), code: error.code, ...(error.field ? { field: error.field } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const failure = validationFailure(error.validation, error.validationContext);
      return reply.status(400).send({ success: false, code: 'invalid_input', ...failure, message: say(failure.message) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const failure = clientErrorText(error);
      return reply.status(status).send({ success: false, ...failure, message: say(failure.message) });
    }
    if (clientLeft(request.raw, error)) {
      // The client closed the connection mid-request (a cancelled upload, a closed tab): not a
      // server failure, and there is no one left to answer.
      request.log.info({ code: (error as NodeJS.ErrnoException).code, message: error.message }, 'client left before the request was read');
      return reply.status(400).send({ success: false, message: say('请求在发送完成前被中断'), code: 'request_aborted' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ success: false, message: say('服务器内部错误，请稍后重试'), code: 'internal_error' });
  });

  await app.register(async (api) => {
    // Portals on other origins (CSAI_CORS_ORIGINS) may call the API with cookies; others get no CORS headers.
    // Without any allowed origin nothing needs CORS handling, and every call is spared the hook.
    const allowed = new Set(config.CSAI_CORS_ORIGINS);
    if (allowed.size > 0) {
      await api.register(cors, {
        origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
        credentials: true,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Content-Type', 'Accept', 'X-Requested-With', 'X-CSRF-TOKEN', 'Last-Event-ID'],
        maxAge: 600,
      });
    }
    await api.register((i) => generalRoutes(i.withTypeProvider<ZodTypeProvider>(), services));
    await api.register((i) => peopleRoutes(i.withTypeProvider<ZodTypeProvider>(), services));
    await api.register((i) => diagnosticsRoutes(i.withTypeProvider<ZodTypeProvider>(), services));
    await api.register((i) => authRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/auth' });
    await api.register((i) => knowledgeBaseRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/knowledge_base' });
    await api.register((i) => sarRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/knowledge_base' });
    await api.register((i) => structureRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/knowledge_base' });
    await api.register((i) => molRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/mol' });
    await api.register((i) => channelRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/channel' });
    await api.register((i) => toolsRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/tools' });
    await api.register((i) => mcpServersRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/mcp_servers' });
    await api.register((i) => codeRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/code' });
    await api.register((i) => onlineRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/online' });
    await api.register((i) => crawlRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/crawl' });
    await api.register((i) => literatureRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/literature' });
    await api.register((i) => taskRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/tasks' });
    if (config.CSAI_DEV_OUTBOX) await api.register((i) => devRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/dev' });
  }, { prefix: '/api/v1' });
  // The Model Context Protocol endpoint for MCP clients (Bearer token only).
  await app.register((i) => mcpRoutes(i.withTypeProvider<ZodTypeProvider>(), services), { prefix: '/mcp' });

  await registerWeb(app, config.webDir, config.CSAI_CORS_ORIGINS);
  return app;
}

/**
 * Headers of the site's HTML pages: a strict CSP (the build has no inline script or
 * style; WebAssembly for RDKit/Indigo and blob workers for pdf.js are allowed), framing limited to the
 * site itself — and, for the chemical editor's frame, the embedding origins that show it — no
 * referrer to other sites, and no powerful browser features.
 */
export function pageHeaders(kind: 'site' | 'editor-frame', embedOrigins: readonly string[], styleHash?: string): Record<string, string> {
  const ancestors = ["'self'", ...(kind === 'editor-frame' ? embedOrigins : [])].join(' ');
  const csp = [
    "default-src 'self'",
    // Ketcher's frame (its own origin-isolated page, no user content) evaluates generated code
    // while drawing, and writes <style> elements (React + CSS-in-JS); the site itself needs neither.
    kind === 'editor-frame' ? "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'" : "script-src 'self' 'wasm-unsafe-eval'",
    // `styleHash`: home's first paint, whose question box carries its one style element (first-paint.ts).
    kind === 'editor-frame' ? "style-src 'self' 'unsafe-inline'" : `style-src 'self'${styleHash ? ` ${styleHash}` : ''}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    ...(kind === 'site' ? { 'X-Frame-Options': 'SAMEORIGIN' } : {}),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** The Swagger UI page's policy: the hashes of its inline scripts (from the plugin's own policy), nothing from elsewhere. */
export function docsPolicy(pluginPolicy: string): string {
  const hashes = (directive: string) =>
    (new RegExp(`(?:^|;)\\s*${directive}\\s+([^;]*)`).exec(pluginPolicy)?.[1] ?? '').split(/\s+/).filter((s) => /^'sha(256|384|512)-[A-Za-z0-9+/=]+'$/.test(s));
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes('script-src').join(' ')}`.trim(),
    "script-src-attr 'none'",
    // Swagger UI writes <style> elements and style attributes as it runs (its animations and code
    // highlighting). Styles run no code, and the page shows only the server's own API description
    // (no user text whose styling could be abused), so inline styles are allowed here, not scripts.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The built site: hashed assets cached for a year, everything else revalidated; SPA fallback. */
async function registerWeb(app: App, webDir: string, embedOrigins: readonly string[]) {
  const sitePage = pageHeaders('site', embedOrigins);
  const editorFrame = pageHeaders('editor-frame', embedOrigins);
  const indexFile = path.join(webDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br/.gz copies of its text files; browsers that accept them get those.
      preCompressed: true,
      setHeaders(res, file) {
        const hashed = /[\\/]assets[\\/]/.test(file);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.header('X-Content-Type-Options', 'nosniff');
        // HTML built beside the site (the chemical editor's frame page).
        if (file.endsWith('.html')) for (const [name, value] of Object.entries(file.endsWith('ketcher.html') ? editorFrame : sitePage)) res.header(name, value);
        // Module scripts on foreign pages load in CORS mode: the loader and its chunks are public.
        if (/[\\/](assets|widgets)[\\/]/.test(file)) {
          res.header('Access-Control-Allow-Origin', '*');
          res.header('Cross-Origin-Resource-Policy', 'cross-origin');
        }
      },
    });
  }
  // index.html from memory (every page load asks for it); read again when a build replaces it
  // (one stat per page request; size and inode too, in case two writes share an mtime).
  let index: { stamp: string; body: Buffer; etag: string } | undefined;
  const indexPage = () => {
    try {
      const stat = fs.statSync(indexFile);
      const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      if (index?.stamp !== stamp) {
        const body = fs.readFileSync(indexFile);
        index = { stamp, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
      }
      return index;
    } catch {
      return undefined; // a build is replacing the folder right now
    }
  };
  // @fastify/static (wildcard: false) routes only the files present at start. A rebuild while the
  // server runs brings new hashed assets: serve a file that exists now, inside the web folder.
  const builtFile = async (url: string) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.split('?')[0]!);
    } catch {
      return undefined;
    }
    if (pathname.includes('\0') || pathname.includes('\\') || pathname.split('/').slice(1).some((seg) => seg === '' || seg === '.' || seg === '..')) return undefined;
    const full = path.join(webDir, pathname);
    if (!full.startsWith(webDir + path.sep)) return undefined;
    const stat = await fs.promises.stat(full).catch(() => undefined);
    return stat?.isFile() ? pathname : undefined;
  };
  const paints = firstPaints(webDir);
  /** Home's page with its first paint, for a browser signed in with a session cookie. */
  const firstPaintPage = async (request: FastifyRequest, index: Buffer) => {
    const auth = await request.auth();
    if (auth.kind !== 'user' || !auth.sessionId) return undefined;
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const question = new URLSearchParams(query).get('q') ?? undefined;
    return paints.page(index, request.cookies, question);
  };
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url.startsWith('/api/');
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    const hasExtension = !!path.extname(request.url.split('?')[0]!);
    // HEAD answers as GET does, without the body (Node's response writes none for HEAD).
    const wantsPage = isRead && !isApi && /text\/html|\*\/\*/.test(request.headers.accept ?? '');
    if (hasWeb && wantsPage && !hasExtension) {
      const page = indexPage();
      if (!page) {
        // Mid-build: neither the old page (its assets are gone) nor a 500.
        return reply.status(503).header('Retry-After', '2').header('Cache-Control', 'no-store').headers(sitePage).type('text/html; charset=utf-8')
          .send('<!doctype html><html lang="zh"><meta charset="utf-8"><title>CSAI</title><p>网站正在更新，请稍后刷新页面。</p></html>');
      }
      if (request.url === '/' || request.url.startsWith('/?')) {
        // Home differs by session and cookies (the first paint's language and sidebar).
        reply.header('Vary', 'Cookie');
        const first = await firstPaintPage(request, page.body);
        if (first) {
          const etag = `"${createHash('sha1').update(first.body).digest('base64url')}"`;
          reply.header('Cache-Control', 'no-cache').header('ETag', etag).headers(pageHeaders('site', embedOrigins, first.styleHash));
          if (request.headers['if-none-match'] === etag) return reply.status(304).send();
          return reply.type('text/html; charset=utf-8').send(first.body);
        }
      }
      reply.header('Cache-Control', 'no-cache').header('ETag', page.etag).headers(sitePage);
      if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
      return reply.type('text/html; charset=utf-8').send(page.body);
    }
    if (hasWeb && isRead && !isApi && hasExtension) {
      const file = await builtFile(request.url);
      if (file) return reply.sendFile(file);
    }
    const message = isApi ? '接口不存在' : '页面不存在';
    return reply.status(404).send({ success: false, message: localizeMessage(message, languageOfTag(request.headers['accept-language'])), code: 'not_found' });
  });
}

/** Whether a request announces a body (RFC 9112 §6.3: Transfer-Encoding, or a Content-Length above 0). */
function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/** Errors Fastify raises before routing (a malformed URL), as the envelope. */
function badUrl(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  void reply.status(400).send({ success: false, message: '请求地址无效', code: error.code === 'FST_ERR_BAD_URL' ? 'bad_url' : 'bad_request' });
}

/** Readable text for Fastify's own 4xx errors (bad JSON, wrong content type, too large). */
function clientErrorText(error: FastifyError): { message: string; code: string; field?: string } {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case undefined:
      if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return { message: '请求体不是合法的 JSON', code: 'invalid_json', field: 'body' };
      break;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { message: '请求体不能为空', code: 'empty_body', field: 'body' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { message: '不支持的请求内容类型', code: 'unsupported_media_type' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { message: '请求体过大', code: 'body_too_large' };
  }
  return { message: '请求无效', code: 'bad_request' };
}
