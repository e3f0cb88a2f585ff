import { csrfToken, readCookie, XSRF_COOKIE } from './csrf';
import { acceptLanguage, credentialsFor, isCrossOrigin, REQUESTED_WITH } from './request';
import { API_ROOT } from './document-paths';

export { acceptLanguage } from './request';
import type { z } from 'zod';
import type { ToastStore } from './toast';
import type { i18n as I18n } from 'i18next';
import type { ProgressListener } from './xhr';
import { ApiError, type AnswerStreamHandlers } from './api-error';

export { ApiError, type AnswerStreamHandlers };

/** Loads the response parser (zod and the envelope schemas) on the first call, not with the page. */
const loadParser = () => import('./envelope-parse');

/**
 * A response schema that loads when its call is made, so a page's first load need not carry zod
 * and the contract (the schema arrives while the request is in flight).
 * @example api.get('/auth/me', lazySchema(() => import('../contract/auth').then((m) => m.userInfo)))
 */
export class LazySchema<T extends z.ZodType> {
  constructor(readonly load: () => Promise<T>) {}
}

/** See {@link LazySchema}. */
export const lazySchema = <T extends z.ZodType>(load: () => Promise<T>) => new LazySchema(load);

/** A response schema, or one loaded on demand ({@link lazySchema}). */
export type SchemaSource<T extends z.ZodType> = T | LazySchema<T>;

/** SPEC §8: the 401 messages that mean the session itself is no longer valid. */
export const SESSION_MESSAGES = ['Signature verification failed', 'Signature has expired'] as const;
/** SPEC §8: statuses that show the destructive "Error" toast. */
export const TOASTED_STATUSES = [502, 404, 500, 401] as const;
/** SPEC §8: an upload answered with this message (or 403) needs a new sign-in. */
export const UPLOAD_SESSION_MESSAGE = 'Invalid session key';
/** Where any 401 sends the user (SPEC §8). */
export const SIGN_IN_PATH = '/auth/sign-in';

/** What a page learns of a failure (an element's `csai-error` detail). */
export interface ErrorDetail {
  /** Text a user can read (the server's message, or the client's own). */
  message: string;
  /** Stable code: the server's envelope code, `network_error`, `unexpected_response`, or `fallback`. */
  code: string;
  /** HTTP status when the failure came from a call that got an answer. */
  status?: number;
}

/**
 * Any thrown value as an {@link ErrorDetail}: an {@link ApiError} keeps its code and status;
 * anything else is `fallback` with its message (or `fallbackMessage`).
 * @example emit(host, 'csai-error', toErrorDetail(error, 'send_failed', t('send_failed')))
 */
export function toErrorDetail(error: unknown, fallback = 'failed', fallbackMessage = ''): ErrorDetail {
  if (error instanceof ApiError) return { message: error.message || fallbackMessage, code: error.code, ...(error.status ? { status: error.status } : {}) };
  const message = error instanceof Error && error.message ? error.message : fallbackMessage;
  return { message, code: fallback };
}

/** Per-call options. */
export interface CallOptions {
  /**
   * The caller shows its own SPEC §8 row for this call (e.g. 创建频道失败, 发送失败) instead of the
   * generic "Error" toast. Everything else of the mapping still happens: the 401 handling, the
   * session toast is replaced by the caller's, and an embed's `csai-error`.
   */
  quiet?: boolean;
  /** Whether a 401 navigates to sign-in (on the site); default true. */
  redirect?: boolean;
  signal?: AbortSignal;
  /** An upload's progress (bytes of the body sent, of total); the upload then goes with XHR. */
  onProgress?: ProgressListener;
  /** An answer already requested for this call (a prefetch), read instead of asking again. */
  response?: Promise<Response>;
}

/** What the client needs from its page. */
export interface ApiClientOptions {
  /** Base URL of the API, e.g. `''` (same origin) or `https://csai.example.org`; `/api/v1` is appended. */
  apiBase?: string;
  /** Called with {@link SIGN_IN_PATH} on any 401 (on the site). */
  navigate: (path: string) => void;
  /** Called on any 401 before navigating (the page forgets its user). */
  onUnauthorized?: () => void;
  /**
   * Every failure (aborts aside), as an {@link ErrorDetail}: an element dispatches it as
   * `csai-error`. With `embed`, a 401 goes here instead of navigating the host page.
   */
  onError?: (detail: ErrorDetail) => void;
  /** The client serves an element on a page that is not CSAI's own site. */
  embed?: boolean;
  toasts: ToastStore;
  i18n: I18n;
  /** The language of the client's own messages (an element's `lang`); the i18n instance's by default. */
  lang?: string;
  /** The fetch to use; tests pass a fake. */
  fetch?: typeof globalThis.fetch;
  /** Reads the page cookies; defaults to `document.cookie`. */
  readCookies?: () => string;
}


/**
 * The API client (fetch): same-origin cookies (or `include` for another api-base), the
 * X-Requested-With and X-CSRF-TOKEN headers on every call, envelopes parsed with the contract
 * schemas, failures as {@link ApiError} run through the one SPEC §8 mapping. Uploads with
 * progress, prefetched answers and the answer event stream take the same path.
 * @example const me = await api.get('/auth/me', userInfo);
 */
export function createApiClient(options: ApiClientOptions) {
  const base = (options.apiBase ?? '').replace(/\/+$/, '');
  const root = `${base}${API_ROOT}`;
  const credentials = credentialsFor(base);
  const readCookies = options.readCookies ?? (() => (typeof document === 'undefined' ? '' : document.cookie));
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const t = options.lang ? options.i18n.getFixedT(options.lang) : options.i18n.t.bind(options.i18n);


  /** Writes carry the CSRF token: the cookie's on this origin, the server's answer on another (csrf.ts). */
  const tokenFor = (method: string) =>
    method === 'GET' ? Promise.resolve(readCookie(readCookies(), XSRF_COOKIE) ?? '') : csrfToken(root, { fetch: doFetch, cookies: readCookies });

  const errorToast = (error: ApiError) =>
    options.toasts.toast({ variant: 'destructive', title: t('core:error_title'), description: t('core:error_description', { url: error.url, message: error.message }) });

  /** SPEC §8: the one mapping of a failure to what the user and the page see. */
  const report = (error: ApiError, opts: CallOptions) => {
    if (error.code === 'aborted') return;
    if (!opts.quiet && ((TOASTED_STATUSES as readonly number[]).includes(error.status) || error.code === 'unexpected_response')) errorToast(error);
    if (error.status === 401) {
      options.onUnauthorized?.();
      if (!opts.quiet && (SESSION_MESSAGES as readonly string[]).includes(error.message)) {
        // Shown last so it is the one toast left (SPEC §9 holds one at a time).
        options.toasts.toast({ variant: 'destructive', title: t('core:session_expired') });
      }
      // An element on another site's page reports the 401 (csai-error) instead of leaving the page.
      if (opts.redirect !== false && !options.embed) options.navigate(SIGN_IN_PATH);
    }
    options.onError?.(toErrorDetail(error));
  };

  /** A call that got no answer: the caller's abort, or the network. */
  const unanswered = (url: string, opts: CallOptions) =>
    opts.signal?.aborted ? new ApiError(0, 'aborted', 'aborted', url) : new ApiError(0, t('core:network_error'), 'network_error', url);

  /** The transport of one call: fetch, XHR for an upload with progress, or a prefetched answer. */
  const transport = async (opts: CallOptions): Promise<(url: string, init: RequestInit) => Promise<Response>> => {
    const started = opts.response;
    if (started) return () => started;
    if (opts.onProgress) return (await import('./xhr')).xhrFetch(opts.onProgress);
    return (url, init) => doFetch(url, init);
  };

  async function call(method: string, path: string, body: unknown, opts: CallOptions, headers: Record<string, string> = {}): Promise<Response> {
    const url = `${root}${path}`;
    let res: Response;
    try {
      const send = await transport(opts);
      const sent: Record<string, string> = {
        ...REQUESTED_WITH,
        Accept: 'application/json',
        // The server writes its messages in the language shown (a signed-out page, an element's `lang`).
        'Accept-Language': acceptLanguage(options.lang ?? options.i18n.language),
        'X-CSRF-TOKEN': opts.response ? '' : await tokenFor(method),
        ...headers,
      };
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        sent['Content-Type'] = 'application/json';
      }
      res = await send(url, { method, credentials, headers: sent, body: payload, signal: opts.signal });
    } catch {
      const error = unanswered(url, opts);
      report(error, opts);
      throw error;
    }
    // Aborted meanwhile (a transport that does not watch the signal): never reported.
    if (opts.signal?.aborted) throw unanswered(url, opts);
    if (res.ok) return res;
    // A failure envelope gives the message, code and field; anything else (a proxy's page) its text.
    const text = await res.text().catch(() => '');
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    const parsed = await loadParser().then((p) => p.parseFailure(answer), () => undefined);
    const error = parsed ? new ApiError(res.status, parsed.message, parsed.code, url, parsed.field) : new ApiError(res.status, text.slice(0, 200) || `HTTP ${res.status}`, `http_${res.status}`, url);
    report(error, opts);
    throw error;
  }

  async function envelope<T extends z.ZodType>(method: string, path: string, body: unknown, schema: SchemaSource<T>, opts: CallOptions) {
    // The parser and a lazy schema load while the request is in flight.
    const parsing = Promise.all([loadParser(), schema instanceof LazySchema ? schema.load() : schema]);
    parsing.catch(() => undefined);
    const res = await call(method, path, body, opts);
    const payload: unknown = await res.json().catch(() => undefined);
    let parsed: { data: z.output<T>; message: string } | undefined;
    try {
      const [parser, target] = await parsing;
      parsed = parser.parseEnvelope(payload, target);
    } catch {
      // The parser's code could not load (network gone): report it like a failed call.
      const error = new ApiError(0, t('core:network_error'), 'network_error', `${root}${path}`);
      report(error, opts);
      throw error;
    }
    if (!parsed) {
      const error = new ApiError(res.status, t('core:unexpected_response'), 'unexpected_response', `${root}${path}`);
      report(error, opts);
      throw error;
    }
    return parsed;
  }

  const json = async <T extends z.ZodType>(method: string, path: string, body: unknown, schema: SchemaSource<T>, opts: CallOptions) =>
    (await envelope(method, path, body, schema, opts)).data;

  return {
    /** The URL prefix every path is appended to. */
    root,
    /** Whether calls go to another origin (with `credentials: 'include'`). */
    crossOrigin: isCrossOrigin(base),
    /** GET a JSON envelope; returns its parsed `data`. */
    get: <T extends z.ZodType>(path: string, schema: SchemaSource<T>, opts: CallOptions = {}) => json('GET', path, undefined, schema, opts),
    /** POST JSON (or FormData for uploads); returns the parsed `data`. */
    post: <T extends z.ZodType>(path: string, body: unknown, schema: SchemaSource<T>, opts: CallOptions = {}) => json('POST', path, body, schema, opts),
    /** PUT JSON; returns the parsed `data`. */
    put: <T extends z.ZodType>(path: string, body: unknown, schema: SchemaSource<T>, opts: CallOptions = {}) => json('PUT', path, body, schema, opts),
    /** DELETE; returns the parsed `data`. */
    delete: <T extends z.ZodType>(path: string, schema: SchemaSource<T>, opts: CallOptions = {}) => json('DELETE', path, undefined, schema, opts),
    /** POST JSON and return the envelope's message too (for success toasts). */
    postWithMessage: <T extends z.ZodType>(path: string, body: unknown, schema: SchemaSource<T>, opts: CallOptions = {}) => envelope('POST', path, body, schema, opts),
    /**
     * SPEC §7/§8: a multipart upload (with `onProgress`, through XHR). A 403 or "Invalid session
     * key" goes to sign-in with the toast "需要登录" / "请先登录后再试"; any other failure toasts
     * "上传失败" / "文件上传过程中发生错误".
     */
    upload: async <T extends z.ZodType>(path: string, form: FormData, schema: SchemaSource<T>, opts: CallOptions = {}) => {
      try {
        return await json('POST', path, form, schema, { ...opts, quiet: true, redirect: false });
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'aborted') throw err;
        if (err.status === 403 || err.status === 401 || err.message === UPLOAD_SESSION_MESSAGE) {
          options.toasts.toast({ variant: 'destructive', title: t('core:need_login_title'), description: t('core:need_login_description') });
          if (opts.redirect !== false && !options.embed) options.navigate(SIGN_IN_PATH);
        } else if (!opts.quiet) {
          options.toasts.toast({ variant: 'destructive', title: t('core:upload_failed_title'), description: t('core:upload_failed_description') });
        }
        throw err;
      }
    },
    /**
     * SPEC §7: a download as a Blob, with the file name from Content-Disposition when given. With
     * `body` the request is a POST of that JSON (an export built from what the page holds).
     */
    download: async (path: string, opts: CallOptions & { body?: unknown } = {}) => {
      const res = await call(opts.body === undefined ? 'GET' : 'POST', path, opts.body, opts, { Accept: '*/*' });
      const disposition = res.headers.get('Content-Disposition') ?? '';
      const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
      const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
      try {
        return { blob: await res.blob(), filename: star ? decodeURIComponent(star) : plain };
      } catch {
        const error = unanswered(`${root}${path}`, opts);
        report(error, opts);
        throw error;
      }
    },
    /**
     * GET and return the answer itself once its status passed the mapping, body unread (a
     * prefetched file whose bytes another reader takes: pass it as `opts.response`).
     */
    response: (path: string, opts: CallOptions = {}) => call('GET', path, undefined, opts, { Accept: '*/*' }),
    /**
     * GET /channel/questions/{id}/events: the answer's events after `lastEventId`, parsed with the
     * contract. A dropped connection resumes with Last-Event-ID; the stream ends after `done` or
     * `error`, on a failed request (reported through the mapping), or on `close()`.
     */
    answerEvents(questionId: string, lastEventId: number, handlers: AnswerStreamHandlers, opts: Pick<CallOptions, 'quiet' | 'redirect'> = {}) {
      const controller = new AbortController();
      const path = `/channel/questions/${encodeURIComponent(questionId)}/events`;
      void import('./answer-stream').then(
        (m) => m.followAnswer((after) => call('GET', path, undefined, { ...opts, signal: controller.signal }, { Accept: 'text/event-stream', 'Last-Event-ID': String(after) }), lastEventId, handlers, controller.signal),
        () => handlers.onEnd?.(new ApiError(0, t('core:network_error'), 'network_error', `${root}${path}`)),
      );
      return { close: () => controller.abort() };
    },
  };
}
/** The API client's methods. */
export type ApiClient = ReturnType<typeof createApiClient>;

export { csrfToken, readCookie, XSRF_COOKIE };
