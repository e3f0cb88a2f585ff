import { csrfToken, readCookie, XSRF_COOKIE } from './csrf';
import wretch, { type Wretch } from 'wretch';
import type { z } from 'zod';
import type { ToastStore } from './toast';
import type { i18n as I18n } from 'i18next';

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

/**
 * A failed call: HTTP status (0 when the network failed), the server's message and code, and
 * the URL asked. Every failure of {@link ApiClient} is one of these.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly url: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Per-call options. */
export interface CallOptions {
  /** Skip the catalogue toasts (the 401 redirect still happens unless `redirect` is false). */
  quiet?: boolean;
  /** Whether a 401 navigates to sign-in; default true. */
  redirect?: boolean;
  signal?: AbortSignal;
}

/** What the client needs from its page. */
export interface ApiClientOptions {
  /** Base URL of the API, e.g. `''` (same origin) or `https://csai.example.org`; `/api/v1` is appended. */
  apiBase?: string;
  /** Called with {@link SIGN_IN_PATH} on any 401. */
  navigate: (path: string) => void;
  /** Called on any 401 before navigating (the page forgets its user). */
  onUnauthorized?: () => void;
  toasts: ToastStore;
  i18n: I18n;
  /** The fetch to use; tests pass a fake. */
  fetch?: typeof globalThis.fetch;
  /** Reads the page cookies; defaults to `document.cookie`. */
  readCookies?: () => string;
}

/**
 * The API client (wretch): same-origin cookies (or `include` for another api-base), the
 * X-Requested-With and X-CSRF-TOKEN headers on every call, envelopes parsed with the contract
 * schemas, failures as {@link ApiError} run through the SPEC §8 catalogue.
 * @example const me = await api.get('/auth/me', userInfo);
 */
export function createApiClient(options: ApiClientOptions) {
  const base = (options.apiBase ?? '').replace(/\/+$/, '');
  const root = `${base}/api/v1`;
  const crossOrigin = base !== '' && typeof location !== 'undefined' && new URL(base, location.href).origin !== location.origin;
  const readCookies = options.readCookies ?? (() => (typeof document === 'undefined' ? '' : document.cookie));
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const t = options.i18n.t.bind(options.i18n);

  const w: Wretch = wretch(root, { credentials: crossOrigin ? 'include' : 'same-origin' })
    .fetchPolyfill((url, opts) => doFetch(url, opts))
    .headers({ 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' });

  /** Writes carry the CSRF token: the cookie's on this origin, the server's answer on another (csrf.ts). */
  const tokenFor = (method: string) =>
    method === 'GET' ? Promise.resolve(readCookie(readCookies(), XSRF_COOKIE) ?? '') : csrfToken(root, { fetch: doFetch, cookies: readCookies });

  /** SPEC §8: the catalogue rows this client owns. */
  const report = (error: ApiError, opts: CallOptions) => {
    if (!opts.quiet && (TOASTED_STATUSES as readonly number[]).includes(error.status)) {
      options.toasts.toast({ variant: 'destructive', title: t('core:error_title'), description: t('core:error_description', { url: error.url, message: error.message }) });
    }
    if (error.status === 401) {
      options.onUnauthorized?.();
      if (!opts.quiet && (SESSION_MESSAGES as readonly string[]).includes(error.message)) {
        // Shown last so it is the one toast left (SPEC §9 holds one at a time).
        options.toasts.toast({ variant: 'destructive', title: t('core:session_expired') });
      }
      if (opts.redirect !== false) options.navigate(SIGN_IN_PATH);
    }
  };

  const toApiError = async (err: unknown, url: string): Promise<ApiError> => {
    if (err instanceof ApiError) return err;
    if (err instanceof DOMException && err.name === 'AbortError') return new ApiError(0, err.message, 'aborted', url);
    if (err instanceof wretch.WretchError) {
      let body: unknown;
      try {
        body = JSON.parse(err.message);
      } catch {
        body = undefined;
      }
      const parsed = await loadParser().then((p) => p.parseFailure(body), () => undefined);
      if (parsed) return new ApiError(err.status, parsed.message, parsed.code, url, parsed.field);
      return new ApiError(err.status, err.message.slice(0, 200) || `HTTP ${err.status}`, `http_${err.status}`, url);
    }
    return new ApiError(0, t('core:network_error'), 'network_error', url);
  };

  async function call(method: string, path: string, body: unknown, opts: CallOptions): Promise<Response> {
    const url = `${root}${path}`;
    try {
      let req = w.url(path).headers({ 'X-CSRF-TOKEN': await tokenFor(method) });
      if (opts.signal) req = req.options({ signal: opts.signal });
      if (body instanceof FormData) req = req.body(body);
      else if (body !== undefined) req = req.json(body as object);
      return await req.fetch(method).res();
    } catch (err) {
      const error = await toApiError(err, url);
      if (error.code !== 'aborted') report(error, opts);
      throw error;
    }
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
      if (!opts.quiet) options.toasts.toast({ variant: 'destructive', title: t('core:error_title'), description: t('core:error_description', { url: error.url, message: error.message }) });
      throw error;
    }
    return parsed;
  }

  const json = async <T extends z.ZodType>(method: string, path: string, body: unknown, schema: SchemaSource<T>, opts: CallOptions) =>
    (await envelope(method, path, body, schema, opts)).data;

  return {
    /** The URL prefix every path is appended to. */
    root,
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
     * SPEC §7/§8: a multipart upload. A 403 or "Invalid session key" goes to sign-in with the toast
     * "需要登录" / "请先登录后再试"; any other failure toasts "上传失败" / "文件上传过程中发生错误".
     */
    upload: async <T extends z.ZodType>(path: string, form: FormData, schema: SchemaSource<T>, opts: CallOptions = {}) => {
      try {
        return await json('POST', path, form, schema, { ...opts, quiet: true });
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'aborted') throw err;
        if (err.status === 403 || err.message === UPLOAD_SESSION_MESSAGE) {
          options.toasts.toast({ variant: 'destructive', title: t('core:need_login_title'), description: t('core:need_login_description') });
          if (err.status !== 401 && opts.redirect !== false) options.navigate(SIGN_IN_PATH);
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
      const res = await call(opts.body === undefined ? 'GET' : 'POST', path, opts.body, opts);
      const disposition = res.headers.get('Content-Disposition') ?? '';
      const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
      const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
      return { blob: await res.blob(), filename: star ? decodeURIComponent(star) : plain };
    },
  };
}
/** The API client's methods. */
export type ApiClient = ReturnType<typeof createApiClient>;

export { csrfToken, readCookie, XSRF_COOKIE };
