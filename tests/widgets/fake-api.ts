// An in-memory CSAI API for the widget tests and the models' unit tests (tests/core, under vitest),
// on the one fetch stand-in (../fake-fetch): routes by method and path under /api/v1, answers in the
// API's envelope, records every request; and the XMLHttpRequest stand-in uploads go through. Each
// widget's data and routes live beside its tests (ask/fake-csai.ts, knowledge/fake-server.ts); this
// is the machinery they share.
import { fakeFetch, jsonResponse } from '../fake-fetch';

/** One request the page sent, as the routes and the tests read it. */
export interface ApiRequest {
  /** Upper case. */
  method: string;
  /** The URL as the page passed it. */
  url: string;
  origin: string;
  /** Path and query as sent: `/api/v1/channel?page=1`. */
  target: string;
  /** Path and query under /api/v1: `/channel?page=1` (the whole path for a request outside the API). */
  path: string;
  /** Path under /api/v1, without the query: `/channel` (the whole path outside the API). */
  pathname: string;
  query: URLSearchParams;
  /** The body parsed as JSON (the text when it is not JSON; undefined when there is none). */
  body: unknown;
  headers: Headers;
  signal: AbortSignal | undefined;
}

/** A route's answer; undefined hands the request on to the next route. */
export type Answer = Response | undefined;
/** `params` holds a RegExp route's groups, URI-decoded. */
export type RouteHandler = (req: ApiRequest, params: string[]) => Answer | Promise<Answer>;
/** A route: method (or '*'), path under /api/v1 (see fakeApi), handler. */
export type Route = [method: string, path: string | RegExp, handler: RouteHandler];

/** The success envelope. */
export const ok = (data: unknown, message = '') => jsonResponse(200, { success: true, data, message });
/** A page of a list in the success envelope. */
export const okPage = <T>(items: T[], page = 1, size = 20) => ok({ items: items.slice((page - 1) * size, page * size), total: items.length, page, size });
/** The failure envelope; `field` names the request field a 400 is about. */
export const fail = (status: number, message: string, code = 'bad_request', field?: string) =>
  jsonResponse(status, { success: false, message, code, ...(field === undefined ? {} : { field }) });
/** What the server answers for a path it does not have. */
export const notFound = () => fail(404, '接口不存在', 'not_found');
/** The server's answer to GET /api/v1/ (the ping the page sends first, and for its CSRF cookie). */
export const ping = (version = '1') => ok({ name: 'csai', version, time: '' });

const API_PREFIX = /^\/api\/v1(?=\/|$)/;

function parseBody(body: RequestInit['body']): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Replaces the page's fetch with the fake API until `restore()`. Routes match a method (or '*')
 * and a path under /api/v1 (whatever the origin; `req.origin` tells them apart): a string is the
 * whole path without the query, a RegExp is tested against it. The route added last is asked
 * first, so a test's own route overrides the usual one; a request no route answers, and any
 * request outside /api/v1, gets the server's 404, so an unexpected call fails loudly (a test's
 * own files are read with realFetch). `initial` routes are added in order.
 */
export function fakeApi(initial: Route[] = []) {
  const routes: { method: string; path: string | RegExp; handler: RouteHandler }[] = [];
  const calls: ApiRequest[] = [];
  const fetch = fakeFetch(async (url, init) => {
    const u = new URL(url, location.href);
    const inApi = API_PREFIX.test(u.pathname);
    const pathname = u.pathname.replace(API_PREFIX, '');
    const req: ApiRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      origin: u.origin,
      target: u.pathname + u.search,
      path: pathname + u.search,
      pathname,
      query: u.searchParams,
      body: parseBody(init.body),
      headers: new Headers(init.headers),
      signal: init.signal ?? undefined,
    };
    calls.push(req);
    if (!inApi) return notFound();
    for (let i = routes.length - 1; i >= 0; i--) {
      const route = routes[i]!;
      if (route.method !== '*' && route.method !== req.method) continue;
      const match = typeof route.path === 'string' ? (route.path === pathname ? [] : null) : route.path.exec(pathname)?.slice(1).map((p) => decodeURIComponent(p ?? ''));
      if (!match) continue;
      const answer = await route.handler(req, match);
      if (answer) return answer;
    }
    return notFound();
  });
  const api = {
    /** Every request, in the order sent. */
    calls,
    /** The URLs of those requests, as the page passed them. */
    urls: () => calls.map((c) => c.url),
    /** Adds a route (see above); returns the API for chaining. */
    on(method: string, path: string | RegExp, handler: RouteHandler) {
      routes.push({ method: method.toUpperCase(), path, handler });
      return api;
    },
    restore: fetch.restore,
  };
  for (const route of initial) api.on(...route);
  return api;
}

export type FakeApi = ReturnType<typeof fakeApi>;

type Listener = (e: ProgressEvent) => void;

/** The XMLHttpRequest stand-in uploads go through: the test drives the progress and the answer. */
export class FakeXhr {
  /** Every request sent since `installFakeXhr()`. */
  static sent: FakeXhr[] = [];
  static get last(): FakeXhr | undefined {
    return FakeXhr.sent.at(-1);
  }
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  status = 0;
  responseText = '';
  withCredentials = false;
  private listeners: Record<string, Listener[]> = {};
  private uploadListeners: Record<string, Listener[]> = {};
  upload = { addEventListener: (type: string, fn: Listener) => void (this.uploadListeners[type] ??= []).push(fn) };
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  addEventListener(type: string, fn: Listener) {
    (this.listeners[type] ??= []).push(fn);
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.fire('abort');
  }
  /** The files of the form sent. */
  files(): File[] {
    return (this.body?.getAll('files') ?? []).filter((f): f is File => f instanceof File);
  }
  progress(loaded: number, total: number) {
    for (const fn of this.uploadListeners.progress ?? []) fn(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.fire('load');
  }
  private fire(type: string) {
    for (const fn of this.listeners[type] ?? []) fn(new ProgressEvent(type));
  }
}

/** Puts FakeXhr in the page with no requests sent yet; returns the function that puts back the real one. */
export function installFakeXhr() {
  const real = globalThis.XMLHttpRequest;
  FakeXhr.sent = [];
  Object.defineProperty(globalThis, 'XMLHttpRequest', { value: FakeXhr, configurable: true, writable: true });
  return () => void Object.defineProperty(globalThis, 'XMLHttpRequest', { value: real, configurable: true, writable: true });
}
