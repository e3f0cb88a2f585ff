import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { buildApp, type BuildOptions } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openSqliteConnection } from '../../src/server/db/database';
import { leftServers as left } from './left-servers';
import { queryTestDatabase, SUITE_SERVER_ENV, syncTestDatabase, testDatabaseUrl, type TestSqlDb } from './postgres-harness';

export type TestServer = Awaited<ReturnType<typeof startServer>>;

/**
 * Starts the real server on 127.0.0.1 with a port the OS picks and a fresh SQLite file in a
 * temp folder. `dataDir` may be passed to reopen the same data (restart tests).
 * The server trusts X-Forwarded-For, and every Client sends its own made-up address, so the
 * per-address rate limits see each client as a different visitor (tests that check a limit
 * use one client, or give two clients the same `ip`).
 */
export async function startServer(env: Record<string, string> = {}, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-test-')), build: Pick<BuildOptions, 'tools' | 'online' | 'readPage' | 'outbound' | 'logger' | 'parts' | 'stopBudgetMs'> = {}) {
  const databaseUrl = await testDatabaseUrl(dataDir);
  const config = loadConfig({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    CSAI_DATA_DIR: dataDir,
    CSAI_WEB_DIR: path.join(dataDir, 'no-web'),
    CSAI_PASSWORD_COST: '12',
    CSAI_LOG_LEVEL: 'silent',
    CSAI_TRUST_PROXY: '1',
    PORT: '0',
    // Reading structure drawings with osra costs seconds a page: on only where a test is about it
    // (tests/server/chemdocs/structures.test.ts); the product's default is on.
    CSAI_STRUCTURE_RECOGNITION: '0',
    ...env,
  });
  // Warnings are kept in memory (not printed): a server that is slow to stop names its part in them.
  const warnings: string[] = [];
  const logger = { level: 'warn', stream: { write: (line: string) => void warnings.push(line) } };
  const app = await buildApp({ config, version: 'test', logger, ...build });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  dataDirs.set(url, dataDir);
  const close = () => {
    left.delete(close);
    return closeWithin(app, url, warnings);
  };
  left.set(close, url);
  return {
    app,
    url,
    dataDir,
    client: (ip?: string) => new Client(url, ip),
    close,
    /** The server's log lines of level warn and above so far (JSON, one per line). */
    warnings: () => warnings.map((line) => JSON.parse(line) as { level: number; msg: string; part?: string; err?: { message?: string } }),
    /** Opens the server's SQLite file directly (WAL lets it read and write beside the server). */
    sqlite: () => openSqlite(dataDir),
  };
}

/** How long a test server may take to stop before the test is told what is still open. */
const CLOSE_BUDGET_MS = 45_000;

/**
 * Stops an in-process server; one that takes longer than CLOSE_BUDGET_MS fails with what this
 * process still has open (child processes, sockets, timers), instead of a bare hook timeout.
 */
async function closeWithin(app: Awaited<ReturnType<typeof buildApp>>, url: string, warnings: readonly string[]) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const open: Record<string, number> = {};
      for (const kind of process.getActiveResourcesInfo()) open[kind] = (open[kind] ?? 0) + 1;
      const slow = warnings.filter((line) => line.includes('slow to stop') || line.includes('did not stop in time')).map((line) => (JSON.parse(line) as { part?: string }).part);
      reject(new Error(`the server at ${url} did not stop within ${CLOSE_BUDGET_MS / 1000} s; parts slow to stop: ${JSON.stringify(slow)}; this process still has open: ${JSON.stringify(open)}`));
    }, CLOSE_BUDGET_MS);
  });
  try {
    await Promise.race([app.close(), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: { success: boolean; data: T; message: string; code?: string; field?: string };
  headers: Headers;
}

/** Opens the SQLite file of a data folder with better-sqlite3; close it when done. */
export function openSqlite(dataDir: string): TestSqlDb {
  // The suite on PostgreSQL: the same calls, run on the folder's database (postgres-harness.ts).
  if (process.env[SUITE_SERVER_ENV]) return syncTestDatabase(dataDir);
  // While a server runs in this process, statements go through its own connection: a second
  // connection here would wait for the server's write lock synchronously, blocking the event loop
  // the server needs to finish the transaction that holds it ("database is locked"). When no
  // server has the file open (it runs elsewhere, or stopped meanwhile), through one of our own.
  let own: SQLite.Database | undefined;
  const conn = () => {
    const shared = openSqliteConnection(dataDir);
    if (shared) return shared;
    if (!own) {
      own = new SQLite(path.join(dataDir, 'csai.sqlite'));
      // Long enough for another process's write transaction on a loaded machine (a parse stored in one).
      own.pragma('busy_timeout = 30000');
    }
    return own;
  };
  return {
    prepare: (text) => conn().prepare(text),
    exec: (text) => conn().exec(text),
    pragma: (text, options) => conn().pragma(text, options),
    transaction: (fn) => conn().transaction(fn),
    close: () => own?.close(),
  };
}

/** A stack frame as Node prints it ("at fn (/path/file.ts:12:3)"): never allowed in a response. */
export const STACK_FRAME = /\bat (?:[^\s()]+ )?\(?(?:file:\/\/|node:|\/)[^)\s]*:\d+:\d+/;

let ipCounter = 1;
/** A made-up client address, unique in this test process. */
export const uniqueIp = () => `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

/**
 * A browser-like client: keeps cookies, sends the CSRF headers the way the web client does,
 * and presents itself from its own address (X-Forwarded-For). Every response body is checked
 * for stack traces; one found fails the test at once.
 */
export class Client {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly ip: string = uniqueIp(),
  ) {}

  get csrf() {
    return this.cookies.get('XSRF-TOKEN');
  }

  /** The same browser (its cookies and address) pointed at another server: a restarted one, another node. */
  at(base: string): Client {
    const moved = new Client(base, this.ip);
    for (const [k, v] of this.cookies) moved.cookies.set(k, v);
    return moved;
  }

  private store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = decodeURIComponent(pair!.slice(eq + 1).trim());
      const expired = attrs.some((a) => /max-age=0\b/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /**
   * Any call. `csrf: false` omits the CSRF headers; `headers` adds or overrides; a string `body`
   * is sent as it is (for malformed JSON tests).
   */
  async request<T = unknown>(
    method: string,
    url: string,
    opts: { body?: unknown; csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    if (method !== 'GET' && opts.csrf !== false && !this.csrf) await this.request('GET', '/api/v1/');
    const headers: Record<string, string> = { 'x-forwarded-for': this.ip };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    if (method !== 'GET' && opts.csrf !== false) {
      headers['x-requested-with'] = 'XMLHttpRequest';
      headers['x-csrf-token'] = this.csrf ?? '';
    }
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    Object.assign(headers, opts.headers);
    const res = await fetch(this.base + url, { method, headers, body });
    this.store(res.headers);
    const text = await res.text();
    if (STACK_FRAME.test(text)) throw new Error(`${method} ${url} answered with a stack trace: ${text.slice(0, 500)}`);
    let parsed: ApiResponse<T>['body'];
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { success: false, data: undefined as T, message: text };
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get = <T = unknown>(url: string, opts: { headers?: Record<string, string> } = {}) => this.request<T>('GET', url, opts);
  post = <T = unknown>(url: string, body?: unknown, opts: { csrf?: boolean; headers?: Record<string, string> } = {}) =>
    this.request<T>('POST', url, { ...opts, body });
}

let counter = 0;
/** A unique e-mail for this test run. */
export const uniqueEmail = (prefix = 'user') => `${prefix}${Date.now().toString(36)}${counter++}@example.com`;

/** The data folder of each test server by its URL (the outbox is read from its SQLite file). */
const dataDirs = new Map<string, string>();
/** Tells {@link latestMessage} where the server at `url` keeps its data (servers started as processes). */
export const registerDataDir = (url: string, dataDir: string) => void dataDirs.set(url, dataDir);

/**
 * Reads the newest outbox message to a recipient (the notifier's table, straight from the server's
 * SQLite file: test servers trust X-Forwarded-For, which the dev outbox route refuses to run with)
 * and pulls the token or code out of it.
 */
export async function latestMessage(client: Client, recipient: string) {
  const dataDir = dataDirs.get(client.base);
  if (!dataDir) throw new Error(`no test server at ${client.base}`);
  let msg: { body: string; kind: string } | undefined;
  if (await testDatabaseUrl(dataDir)) {
    [msg] = await queryTestDatabase<{ body: string; kind: string }>(dataDir, 'select body, kind from outbox where recipient = $1 order by id desc limit 1', [recipient.toLowerCase()]);
  } else {
    const db = openSqlite(dataDir);
    try {
      msg = db.prepare('select body, kind from outbox where recipient = ? order by id desc limit 1').get(recipient.toLowerCase()) as typeof msg;
    } finally {
      db.close();
    }
  }
  if (!msg) throw new Error(`no message to ${recipient}`);
  return {
    ...msg,
    token: /(?:activate_transit|pswd_transit)=([A-Za-z0-9_-]+)/.exec(msg.body)?.[1],
    code: /\b(\d{6})\b/.exec(msg.body)?.[1],
  };
}

/** Signs up, activates and signs in a fresh user; returns the signed-in client. */
export async function signedInUser(server: TestServer, opts: { email?: string; name?: string; password?: string } = {}) {
  const client = server.client();
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? 'passw0rd-ok';
  const up = await client.post('/api/v1/auth/sign-up', { email, password, name: opts.name ?? '测试用户' });
  if (up.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(up.body)}`);
  const { token } = await latestMessage(client, email);
  await client.post('/api/v1/auth/activate', { token });
  const res = await client.post<{ id: string }>('/api/v1/auth/sign-in', { account: email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return { client, email, password, id: res.body.data.id };
}

/** Makes a signed-up user an administrator (who alone sees how to enable a tool that is off). */
export function makeAdmin(server: TestServer, email: string) {
  const db = server.sqlite();
  try {
    db.prepare('update users set is_admin = 1 where email = ?').run(email);
  } finally {
    db.close();
  }
}

let phoneCounter = 0;
/** A unique mainland mobile number (11 digits starting 13x) for this test run. */
export const uniquePhone = () =>
  `13${1 + Math.floor(Math.random() * 9)}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}${String(phoneCounter++ % 1e4).padStart(4, '0')}`;

/**
 * Signs up by e-mail or phone and activates through the outbox link (unless `activate: false`);
 * returns the normalised account (what the outbox and the database hold).
 */
export async function signUp(
  client: Client,
  opts: { email?: string; phone?: string; name?: string; password?: string; activate?: boolean } = {},
) {
  const password = opts.password ?? 'passw0rd-ok';
  const name = opts.name ?? '测试用户';
  const email = opts.phone ? undefined : (opts.email ?? uniqueEmail());
  const up = await client.post('/api/v1/auth/sign-up', email ? { email, password, name } : { phone: opts.phone, password, name });
  if (up.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(up.body)}`);
  const account = email ? email.toLowerCase() : (opts.phone ?? '').replace(/[\s-]/g, '').replace(/^\+?86(?=1\d{10}$)/, '');
  const { token } = await latestMessage(client, account);
  if (opts.activate !== false) {
    const res = await client.post('/api/v1/auth/activate', { token });
    if (res.status !== 200) throw new Error(`activation failed: ${JSON.stringify(res.body)}`);
  }
  return { account, password, token: token! };
}
