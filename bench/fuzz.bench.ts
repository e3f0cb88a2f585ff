// The probe's fuzzing figure: FUZZ_REQUESTS (default 12,000) requests over every route
// the server registers (its own route table, src/server/route-table.ts), signed in and signed out,
// with random and malformed path parameters, query strings, headers and bodies (JSON of random
// shape, broken JSON, wrong content types, multipart with odd file names, byte ranges, bad cookies
// and tokens). The real server runs from its bundle in a process of its own. Figures: the 5xx
// answers (target 0; a 503 that names an unconfigured service — no language model, no docking
// tools, code execution off — is the documented answer and counted apart), and requests that got
// no answer within 30 s (target 0). Every 5xx is printed with the request that caused it.
//
//   FUZZ_REQUESTS=20000 FUZZ_SEED=7 npm run bench -- fuzz
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { routeTable } from '../src/server/route-table';
import { Client, registerDataDir, signUp, uniqueIp } from '../tests/server/helpers';
import { KB, makePdf, upload } from '../tests/server/knowledge-helpers';
import { freePort, startServerProcess } from '../tests/server/server-process';
import { root, type Figure } from './lib';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 12_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 100_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const USERS = 6;
const TIMEOUT_MS = 30_000;
/** 503 codes that mean "this service is not configured here" (the documented answer, not a failure). */
const UNCONFIGURED = new Set(['llm_not_configured', 'tool_disabled', 'docking_unavailable', 'directory_unavailable']);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const random = rng(SEED);
/** encodeURIComponent, with lone surrogates (random char codes make them) replaced first. */
const enc = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const chance = (p: number) => random() < p;

const JUNK: readonly string[] = [
  '', ' ', 'a', '0', '-1', '1.5', '1e309', '9223372036854775808', 'NaN', 'null', 'true', 'undefined', '[]', '{}', '[object Object]',
  '%00', '%', '%zz', '%E4%B8', '%ff%fe', '..', '../..', '..%2f..%2fpackage.json', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/etc/passwd', 'C:\\Windows',
  '化合物', '阿司匹林', '😀', '\u202e\u0000', '<script>alert(1)</script>', "' or 1=1 --", '${7*7}', '{{7*7}}', 'x'.repeat(300), 'y'.repeat(5000),
  '00000000-0000-0000-0000-000000000000', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O', 'http://127.0.0.1:1/x', 'file:///etc/passwd', 'a,b,c', '*', '\\',
];
const FIELDS: readonly string[] = [
  'id', 'name', 'title', 'content', 'question', 'channel_id', 'docId', 'docIdList', 'doc_ids', 'folder_id', 'folderId', 'parent_id', 'page', 'size',
  'page_size', 'keyword', 'smiles', 'sdf', 'molblock', 'files', 'code', 'language', 'is_show', 'token', 'email', 'phone', 'password', 'account',
  'old_password', 'new_password', 'url', 'transport', 'users', 'department', 'share_type', 'permission', 'engine', 'mode', 'limit', 'offset', 'sort',
  'order', 'target', 'receptor', 'ligand', 'center', 'box', 'exhaustiveness', 'passage', 'chunk', 'lang', 'query', 'q', 'expires_in', 'scopes',
];

function junkValue(depth = 0): unknown {
  switch (Math.floor(random() * (depth > 2 ? 6 : 9))) {
    case 0:
      return pick(JUNK);
    case 1:
      return pick([0, -1, 1, 2 ** 31, 2 ** 53 + 1, -1e308, 1e308, 0.5, Number.MAX_SAFE_INTEGER]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return pick(JUNK).repeat(1 + Math.floor(random() * 3));
    case 4:
      return String.fromCharCode(...Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * 0xffff)));
    case 5:
      return pick(['', 'x'.repeat(70_000)]);
    case 6:
      return Array.from({ length: Math.floor(random() * 4) }, () => junkValue(depth + 1));
    default:
      return junkObject(depth + 1);
  }
}
function junkObject(depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 6); i > 0; i--) out[chance(0.85) ? pick(FIELDS) : pick(JUNK)] = junkValue(depth);
  if (chance(0.05)) Object.defineProperty(out, '__proto__', { value: { admin: true }, enumerable: true });
  if (chance(0.05)) Object.defineProperty(out, 'constructor', { value: { prototype: { polluted: 1 } }, enumerable: true });
  return out;
}

/** What the server holds that path parameters may name: real ids of the fuzzing user, and strangers'. */
interface Things {
  ids: string[];
}

function pathParam(things: Things): string {
  if (chance(0.45) && things.ids.length) return enc(pick(things.ids));
  const v = String(junkValue(3));
  // Raw (path tricks) or encoded.
  return chance(0.3) ? v.replace(/[/?#]/g, '') : enc(v);
}

function queryString(): string {
  if (chance(0.3)) return '';
  const parts: string[] = [];
  for (let i = 1 + Math.floor(random() * 5); i > 0; i--) {
    const key = chance(0.8) ? pick(FIELDS) : pick(JUNK);
    if (chance(0.1)) parts.push(enc(key));
    else if (chance(0.15)) parts.push(`${key}=${pick(['%', '%zz', '%E4%B8', '&&', '=='])}`);
    else parts.push(`${enc(key)}=${enc(String(junkValue(3)))}`);
    if (chance(0.1)) parts.push(`${enc(key)}[]=1&${enc(key)}[x]=2`);
  }
  return `?${parts.join('&')}`;
}

interface Built {
  headers: Record<string, string>;
  body?: Buffer | string;
  /** For the report. */
  describe: string;
}

function multipart(): Built {
  const boundary = `----fuzz${Math.floor(random() * 1e9)}`;
  const parts: string[] = [];
  for (let i = Math.floor(random() * 3); i >= 0; i--) {
    const name = pick(['files', 'file', 'folder_id', 'data', pick(FIELDS)]);
    const filename = pick(['a.pdf', 'x.sdf', 'm.pdb', 'i.png', '../../etc/passwd', '', 'x'.repeat(400) + '.pdf', '化合物.pdf', 'a\u202egpj.exe', 'noext', '.pdf']);
    const content = pick(['%PDF-1.4\n%%EOF', '', 'not a pdf', String(junkValue(2)), '\x89PNG\r\n\x1a\n', 'x'.repeat(10_000)]);
    parts.push(
      chance(0.5)
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${pick(['application/pdf', 'image/png', 'text/plain', 'a/b'])}\r\n\r\n${content}\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(junkValue(2))}\r\n`,
    );
  }
  const end = chance(0.85) ? `--${boundary}--\r\n` : '';
  const type = chance(0.9) ? `multipart/form-data; boundary=${boundary}` : pick(['multipart/form-data', 'multipart/form-data; boundary=', `multipart/form-data; boundary="${boundary}"x`]);
  return { headers: { 'content-type': type }, body: parts.join('') + end, describe: `multipart (${parts.length} parts${end ? '' : ', unterminated'})` };
}

function body(method: string): Built {
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
    if (chance(0.9)) return { headers: {}, describe: 'no body' };
  }
  const kind = random();
  if (kind < 0.55) {
    const value = chance(0.85) ? junkObject() : junkValue();
    return { headers: { 'content-type': pick(['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1']) }, body: JSON.stringify(value) ?? 'null', describe: 'json' };
  }
  if (kind < 0.7) {
    const raw = pick(['{', '{"a":', '[', '"', 'nul', '{"a":1}}', '\ufeff{}', '{"a":"\\ud800"}', '[' .repeat(5000), '{"a":' + '['.repeat(3000), '\u0000', '1'.repeat(400)]);
    return { headers: { 'content-type': 'application/json' }, body: raw, describe: 'malformed json' };
  }
  if (kind < 0.82) return multipart();
  if (kind < 0.9) {
    return { headers: { 'content-type': pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'a/b;;;', 'application/octet-stream']) }, body: String(junkValue()), describe: 'other content type' };
  }
  if (kind < 0.95) return { headers: { 'content-type': 'application/json' }, body: Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0x7b, 0x7d]), describe: 'invalid UTF-8' };
  return { headers: {}, body: String(junkValue()), describe: 'body without content type' };
}

function extraHeaders(): Record<string, string> {
  const h: Record<string, string> = {};
  if (chance(0.15)) h.range = pick(['bytes=0-', 'bytes=999999999-', 'bytes=-0', 'bytes=5-1', 'bytes=0-1,2-3,4-5', 'bytes=abc', 'items=0-1']);
  if (chance(0.1)) h['accept-language'] = pick(['en', 'zh-CN', 'xx;q=2', ',,,', '*']);
  if (chance(0.1)) h.accept = pick(['text/event-stream', 'application/xml', '*/*', '']);
  if (chance(0.05)) h['if-none-match'] = pick(['*', '"x"', 'W/"y"']);
  if (chance(0.05)) h['if-modified-since'] = pick(['yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT']);
  if (chance(0.05)) h.authorization = pick(['Bearer ', 'Bearer x', 'Basic Og==', 'Bearer csai_' + 'a'.repeat(60), 'Digest x']);
  if (chance(0.05)) h['content-encoding'] = pick(['gzip', 'br', 'identity', 'x']);
  if (chance(0.03)) h['x-http-method-override'] = 'DELETE';
  return h;
}

interface Session {
  client: Client;
  account?: string;
  password?: string;
}

interface Outcome {
  status: number;
  code?: string;
  text: string;
}

async function send(base: string, session: Session, method: string, url: string, built: Built, csrf: boolean): Promise<Outcome> {
  const c = session.client;
  const headers: Record<string, string> = { 'x-forwarded-for': chance(0.5) ? c.ip : uniqueIp() };
  if (c.cookies.size) headers.cookie = chance(0.03) ? 'csai_session=garbage; XSRF-TOKEN=' : [...c.cookies].map(([k, v]) => `${k}=${enc(v)}`).join('; ');
  if (method !== 'GET' && method !== 'HEAD' && csrf) {
    headers['x-requested-with'] = 'XMLHttpRequest';
    headers['x-csrf-token'] = c.csrf ?? '';
  }
  Object.assign(headers, built.headers, extraHeaders());
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
  try {
    const res = await fetch(base + url, { method, headers, body: Buffer.isBuffer(built.body) ? new Uint8Array(built.body) : built.body, signal: ctrl.signal });
    // An answer stream (SSE) is read for a moment only.
    const text = res.headers.get('content-type')?.includes('event-stream') ? '' : await res.text();
    if (res.headers.get('content-type')?.includes('event-stream')) ctrl.abort();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { code?: string }).code;
    } catch {
      // not JSON
    }
    return { status: res.status, code, text };
  } catch (err) {
    // fetch refusing to send it (a URL or header it cannot write) is no request at all.
    if (err instanceof TypeError && err.message !== 'fetch failed') return { status: -2, text: err.message };
    return { status: ctrl.signal.aborted ? -1 : 0, text: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

export async function run(): Promise<Figure[]> {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  // The routes, from the server's own table (an app built in this process, never listening).
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-fuzz-routes-'));
  const app = await buildApp({
    config: loadConfig({ CSAI_DATA_DIR: scratch, CSAI_WEB_DIR: path.join(scratch, 'no-web'), CSAI_LOG_LEVEL: 'silent', PORT: '0' }),
    version: 'bench',
    logger: false,
  });
  await app.ready();
  const routes = routeTable(app).filter((r) => r.method !== 'OPTIONS');
  await app.close();
  fs.rmSync(scratch, { recursive: true, force: true });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-fuzz-'));
  const port = await freePort();
  const server = await startServerProcess({ dataDir, port, entry: 'bundle', env: { CSAI_LOG_LEVEL: 'error' } });
  const base = server.url;
  registerDataDir(base, dataDir);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const unconfigured = new Map<string, number>();
  let noAnswer = 0;
  /** Requests fetch would not send (a URL or header it cannot write): drawn again. */
  let unsent = 0;
  /** Sessions a fuzzed call ended (sign-out, a revoked session), signed in again. */
  let resignIns = 0;
  try {
    // Signed-in users, each with a channel, a question and parsed documents for path parameters to name.
    const things: Things = { ids: [] };
    const users: Session[] = [];
    for (let i = 0; i < USERS; i++) {
      const client = new Client(base);
      const { account, password } = await signUp(client);
      const res = await client.post<{ id: string }>('/api/v1/auth/sign-in', { account, password });
      if (res.status !== 200) throw new Error(`sign-in: ${JSON.stringify(res.body)}`);
      things.ids.push(res.body.data.id);
      const channel = await client.post<{ id: string }>('/api/v1/channel', { name: `模糊测试${i}` });
      things.ids.push(channel.body.data.id);
      const up = await upload(client, [{ name: `fuzz-${i}.pdf`, data: makePdf([[`Fuzz document ${i}`, 'Aspirin and ibuprofen.']]) }]);
      for (const { docId } of up.body.data.name_id) things.ids.push(docId);
      const q = await client.post<{ question_id: string }>('/api/v1/channel/init_questions', { question: '阿司匹林的作用是什么？', channel_id: channel.body.data.id, docIdList: [] });
      if (q.status === 200) things.ids.push(q.body.data.question_id);
      const folder = await client.post<{ id: string }>(`${KB}/folder`, { name: `模糊${i}` });
      if (folder.status === 200 && folder.body.data?.id) things.ids.push(folder.body.data.id);
      users.push({ client, account, password });
    }
    const anonymous: Session = { client: new Client(base) };
    await anonymous.client.get('/api/v1/');

    console.log(`fuzz: ${routes.length} routes, ${REQUESTS} requests, seed ${SEED}, ${CONCURRENCY} at once`);
    let done = 0;
    const started = Date.now();
    const one = async () => {
      const route = pick(routes);
      const session = chance(0.3) ? anonymous : pick(users);
      const method = chance(0.03) ? pick(['HEAD', 'OPTIONS', 'PATCH']) : route.method;
      const url = route.url.replace(/:[A-Za-z_]+/g, () => pathParam(things)).replace(/\*$/, () => pathParam(things)) + queryString();
      const built = body(method);
      const outcome = await send(base, session, method, url, built, chance(0.9));
      if (outcome.status === -2) {
        unsent++;
        return;
      }
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.status === 503 && outcome.code && UNCONFIGURED.has(outcome.code)) {
        unconfigured.set(`${route.method} ${route.url} (${outcome.code})`, (unconfigured.get(`${route.method} ${route.url} (${outcome.code})`) ?? 0) + 1);
      } else if (outcome.status >= 500 || outcome.status <= 0) {
        if (outcome.status <= 0) noAnswer++;
        const bodyText = built.body === undefined ? '' : (Buffer.isBuffer(built.body) ? built.body.toString('hex') : built.body).slice(0, 300);
        failures.push(`${outcome.status} ${method} ${url.slice(0, 300)} [${built.describe}; ${JSON.stringify(built.headers)}] ${bodyText} → ${outcome.text.slice(0, 300)}`);
      }
      // A fuzzed call may end the session (sign-out, a revoked token): sign in again.
      if (session.account && outcome.status === 401 && (await session.client.get('/api/v1/auth/me')).status === 401) {
        await session.client.post('/api/v1/auth/sign-in', { account: session.account, password: session.password });
        resignIns++;
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next - unsent < REQUESTS) {
          next++;
          await one();
          if (++done % 2000 === 0) console.log(`  ${done} requests, ${failures.length} 5xx or unanswered, ${Math.round(done / ((Date.now() - started) / 1000))}/s`);
        }
      }),
    );
    // Every user can still work afterwards.
    for (const u of users) {
      const me = await u.client.get('/api/v1/auth/me');
      if (me.status !== 200) await u.client.post('/api/v1/auth/sign-in', { account: u.account, password: u.password });
      const list = await u.client.get(`${KB}/all_docs?show_my_kb=1`);
      if (list.status !== 200) failures.push(`after fuzzing: the document list answered ${list.status}`);
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => (server.child.exitCode !== null ? r(undefined) : server.child.once('exit', r)));
  }
  for (const f of failures) console.log(`5XX: ${f}`);
  const stderr = server.stderr();
  if (failures.length && stderr) console.log(`server stderr (end):\n${stderr.slice(-3000)}`);
  console.log(`not sent (fetch refused the URL or a header; drawn again): ${unsent}; sessions ended by a fuzzed call and signed in again: ${resignIns}`);
  console.log(`statuses: ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(', ')}`);
  if (unconfigured.size) console.log(`503 for an unconfigured service: ${[...unconfigured].map(([k, n]) => `${k} ×${n}`).join('; ')}`);
  if (!failures.length) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`data kept in ${dataDir}`);
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  return [
    // 1 + failures over 1: a ratio of 1 is none.
    { name: `5xx answers (other than 503 for an unconfigured service) in ${total} fuzzed requests over ${routes.length} routes`, value: String(failures.length - noAnswer), baseline: '0', ratio: 1 + failures.length - noAnswer, target: { op: '<=', ratio: 1 } },
    { name: `requests without an answer within ${TIMEOUT_MS / 1000} s`, value: String(noAnswer), baseline: '0', ratio: 1 + noAnswer, target: { op: '<=', ratio: 1 } },
  ];
}
