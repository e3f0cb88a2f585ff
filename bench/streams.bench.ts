// Streamed answers under load, with a stub OpenAI-compatible LLM on 127.0.0.1
// (bench/servers/stub-llm.ts), each server in its own process; this process is the client.
//
// First token: POST /channel/init_questions, open the answer's SSE stream, time to the first
// `delta` event, against a direct client getting the stub's first chunk (measured alternately in
// the same run). Target: server overhead (first token minus direct first chunk) <= 30 ms p95.
//
// Concurrent streams: answers streaming one token every STREAMS_TOKEN_MS (default 100 ms, 10
// tokens/s) each, one SSE stream per answer, ramped STREAMS_LEVELS (default 250, 500, 750, … 4000: steps of 250 up to 1,500, so the ratio is not set by coarse steps).
// Each token carries the stub's wall-clock send time; lag = receive time - send time (same
// machine clock), which includes the stub's and this client's own delays, so it overstates the
// server's share. The largest level whose p95 lag < 100 ms is the figure, for CSAI and for a bare
// Node SSE relay without storage (bench/servers/bare-relay.ts) in the same run.
// Target: CSAI >= 0.5× the relay.
// Users: answers of one user are limited (CSAI_MAX_ANSWERS_PER_USER, raised to its maximum of 100
// here) and a user may have 20 queued, so the streams are spread over ceil(max level / 100) users.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { openDatabase } from '../src/server/db/database';
import { usersRepo } from '../src/server/auth/accounts';
import { hashPassword } from '../src/server/auth/crypto';
import { printFigures, processTree, profileMark, spawnServer, type Figure, type Spawned } from './lib';

const FIRST_TOKEN_ROUNDS = Number(process.env.FIRST_TOKEN_ROUNDS ?? 200);
const FIRST_TOKEN_WARMUP = 20;
const OVERHEAD_BUDGET_MS = 30;
const TOKEN_MS = Number(process.env.STREAMS_TOKEN_MS ?? 100);
const LEVELS = (process.env.STREAMS_LEVELS ?? '250,500,750,1000,1250,1500,2000,2500,3000,4000').split(',').map(Number);
/** CSAI holds at least this share of the streams a bare relay holds on the same machine. */
const STREAMS_SHARE = 0.5;
const LAG_LIMIT_MS = 100;
const PER_USER = 100;
const SETTLE_MS = 2000;
const MEASURE_MS = Number(process.env.STREAMS_MEASURE_MS ?? 5000);

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** A signed-in user of the CSAI server: cookies and the headers every write needs. */
interface User {
  cookie: string;
  headers: Record<string, string>;
  channelId: string;
}

async function signedInUsers(csai: Spawned, count: number): Promise<User[]> {
  const db = await openDatabase(csai.dataDir);
  const users = usersRepo(db);
  const hash = await hashPassword('bench-passw0rd', 10);
  for (let i = 0; i < count; i++) {
    await users.create({ email: `stream${i}@example.com`, phone: null, name: `压测${i}`, password_hash: hash, department_id: null, status: 'active' });
  }
  await db.destroy();
  const out: User[] = [];
  for (let i = 0; i < count; i++) {
    const jar = new Map<string, string>();
    const take = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    };
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = () => ({ cookie: cookie(), 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? '') });
    take(await fetch(`${csai.url}/api/v1/`));
    const signIn = await fetch(`${csai.url}/api/v1/auth/sign-in`, { method: 'POST', headers: headers(), body: JSON.stringify({ account: `stream${i}@example.com`, password: 'bench-passw0rd' }) });
    if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    take(signIn);
    const channel = await fetch(`${csai.url}/api/v1/channel`, { method: 'POST', headers: headers(), body: JSON.stringify({ name: `压测频道${i}` }) });
    const body = (await channel.json()) as { data?: { id?: string } };
    if (!channel.ok || !body.data?.id) throw new Error(`channel failed: ${channel.status}`);
    out.push({ cookie: cookie(), headers: headers(), channelId: body.data.id });
  }
  return out;
}

async function ask(csai: Spawned, user: User, question: string): Promise<string> {
  const res = await fetch(`${csai.url}/api/v1/channel/init_questions`, { method: 'POST', headers: user.headers, body: JSON.stringify({ question, channel_id: user.channelId }) });
  const body = (await res.json()) as { data?: { question_id?: string }; message?: string };
  if (!res.ok || !body.data?.question_id) throw new Error(`init_questions failed: ${res.status} ${body.message ?? ''}`);
  return body.data.question_id;
}

/** Reads a stream until `onText` returns true or it ends; the body is read as text in chunks. */
async function readUntil(res: Response, onText: (text: string) => boolean): Promise<void> {
  if (!res.body) throw new Error(`no body (${res.status})`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    if (onText(decoder.decode(value, { stream: true }))) {
      await reader.cancel();
      return;
    }
  }
}

/** Server overhead to the first token: CSAI's first delta vs the stub's first chunk to a direct client. */
async function firstToken(): Promise<Figure[]> {
  const stub = await spawnServer('bench/servers/stub-llm.ts');
  let csai: Spawned | undefined;
  try {
    csai = await spawnServer('src/server/main.ts', { LLM_BASE_URL: `${stub.url}/v1`, LLM_MODEL: 'stub' });
    const [user] = await signedInUsers(csai, 1);
    const direct: number[] = [];
    const through: number[] = [];
    const overhead: number[] = [];
    for (let i = 0; i < FIRST_TOKEN_WARMUP + FIRST_TOKEN_ROUNDS; i++) {
      // Direct: the same request the engine sends, read until the first content token.
      let t0 = performance.now();
      const res = await fetch(`${stub.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        body: JSON.stringify({ model: 'stub', stream: true, messages: [{ role: 'user', content: `问题 ${i}` }] }),
      });
      let buffer = '';
      await readUntil(res, (t) => (buffer += t).includes(' t1'));
      const d = performance.now() - t0;

      // Through CSAI: ask, open the stream, wait for the first delta; then read to the end.
      t0 = performance.now();
      const questionId = await ask(csai, user!, `问题 ${i}`);
      const events = await fetch(`${csai.url}/api/v1/channel/questions/${questionId}/events`, { headers: { cookie: user!.cookie } });
      let first = 0;
      buffer = '';
      await readUntil(events, (t) => {
        buffer += t;
        if (!first && buffer.includes('event: delta\n')) first = performance.now() - t0;
        return /event: (done|error)\n/.test(buffer);
      });
      if (!first) throw new Error(`no delta: ${buffer.slice(0, 500)}`);
      if (i < FIRST_TOKEN_WARMUP) continue;
      direct.push(d);
      through.push(first);
      overhead.push(first - d);
    }
    const p95Direct = pct(direct, 95);
    const p95Through = pct(through, 95);
    return [
      {
        name: `first token through CSAI (${FIRST_TOKEN_ROUNDS} answers; server overhead budget ${OVERHEAD_BUDGET_MS} ms p95)`,
        value: `p50 ${ms(pct(through, 50))} / p95 ${ms(p95Through)}; overhead p50 ${ms(pct(overhead, 50))} / p95 ${ms(pct(overhead, 95))}`,
        baseline: `stub's first chunk direct p50 ${ms(pct(direct, 50))} / p95 ${ms(p95Direct)}`,
        ratio: p95Through / p95Direct,
        target: { op: '<=', ratio: (p95Direct + OVERHEAD_BUDGET_MS) / p95Direct },
      },
    ];
  } finally {
    await Promise.all([csai?.stop(), stub.stop()]);
  }
}

/** One open SSE stream: counts delta tokens and records each one's lag while `measuring`. */
interface Stream {
  req: http.ClientRequest;
  seen: boolean;
  ended: boolean;
}

/** CPU seconds used so far and resident memory (MB) of a process tree, from /proc. */
function usage(pid: number | undefined): { cpuS: number; rssMb: number } {
  let cpuS = 0;
  let rssMb = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuS += (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100 Hz)
      rssMb += (Number(fields[21]) * 4096) / 1024 / 1024; // rss in pages
    } catch {
      // gone meanwhile
    }
  }
  return { cpuS, rssMb };
}

interface Level { n: number; p50: number; p95: number; p99: number; tokens: number; rss: number; cpu: number; ended: number }

/**
 * Ramps SSE streams opened by `openOne(i)` (a path and headers on 127.0.0.1:`port`) through
 * LEVELS and returns the largest level held with p95 lag < LAG_LIMIT_MS, no stream ended early
 * and at least 90 % of the tokens received. Streams stay open until `close()`.
 */
async function holdStreams(label: string, port: number, serverPid: number | undefined, stubPid: number | undefined, mark: () => void, openOne: (i: number) => Promise<{ path: string; headers: Record<string, string> }>) {
  const streams: Stream[] = [];
  let lags: number[] = [];
  let measuring = false;
  const tokenAt = /t(\d{13})/g;
  const open = (path: string, headers: Record<string, string>) =>
    new Promise<void>((resolve, reject) => {
      const stream: Stream = { req: undefined!, seen: false, ended: false };
      stream.req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events: ${res.statusCode}`));
        res.setEncoding('utf8');
        let tail = '';
        let head = '';
        const timer = setTimeout(() => reject(new Error(`no delta after 60 s: ${head}`)), 60_000);
        res.on('data', (text: string) => {
          const now = Date.now();
          if (!stream.seen && head.length < 2000) head += text;
          const all = tail + text;
          // A token cut between two reads is read whole with the next one.
          const cut = all.lastIndexOf('\n');
          tail = all.slice(cut + 1);
          const whole = all.slice(0, cut + 1);
          if (!stream.seen && whole.includes('event: delta')) {
            stream.seen = true;
            clearTimeout(timer);
            resolve();
          }
          if (!measuring) return;
          tokenAt.lastIndex = 0;
          for (let m = tokenAt.exec(whole); m; m = tokenAt.exec(whole)) lags.push(now - Number(m[1]));
        });
        res.on('end', () => (stream.ended = true));
      });
      stream.req.on('error', (err) => (stream.seen ? (stream.ended = true) : reject(err)));
      streams.push(stream);
    });

  const levels: Level[] = [];
  try {
    for (const level of LEVELS) {
      const start = streams.length;
      const started = performance.now();
      // Opened 50 at a time.
      for (let i = start; i < level; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, level - i) }, async (_, k) => {
            const { path, headers } = await openOne(i + k);
            await open(path, headers);
          }),
        );
      }
      const rampS = (performance.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      lags = [];
      const before = usage(serverPid);
      const stubBefore = usage(stubPid);
      const clientBefore = process.cpuUsage();
      mark();
      measuring = true;
      await new Promise((r) => setTimeout(r, MEASURE_MS));
      measuring = false;
      mark();
      const after = usage(serverPid);
      // The stub and this client share the machine: their load is printed to judge the lag.
      const others = `stub CPU ${((100 * (usage(stubPid).cpuS - stubBefore.cpuS)) / (MEASURE_MS / 1000)).toFixed(0)} %, client CPU ${(Object.values(process.cpuUsage(clientBefore)).reduce((a, b) => a + b, 0) / 1e4 / (MEASURE_MS / 1000)).toFixed(0)} %`;
      const result: Level = {
        n: level,
        p50: pct(lags, 50),
        p95: pct(lags, 95),
        p99: pct(lags, 99),
        tokens: lags.length,
        rss: after.rssMb,
        cpu: (after.cpuS - before.cpuS) / (MEASURE_MS / 1000),
        ended: streams.filter((s) => s.ended).length,
      };
      levels.push(result);
      console.log(
        `  ${label}: ${level} streams (opened in ${rampS.toFixed(1)} s): lag p50 ${ms(result.p50)} / p95 ${ms(result.p95)} / p99 ${ms(result.p99)}, ` +
          `${(result.tokens / (MEASURE_MS / 1000)).toFixed(0)} tokens/s received (expected ${((level * 1000) / TOKEN_MS).toFixed(0)}), server CPU ${(result.cpu * 100).toFixed(0)} % (${((result.cpu * 1e6) / (result.tokens / (MEASURE_MS / 1000))).toFixed(0)} µs per token), RSS ${result.rss.toFixed(0)} MB; ${others}; ${result.ended} ended early`,
      );
      if (!(result.p95 < LAG_LIMIT_MS) || result.ended) break;
    }
  } finally {
    for (const s of streams) s.req.destroy();
  }
  const held = levels.filter((l) => l.p95 < LAG_LIMIT_MS && l.ended === 0 && l.tokens >= 0.9 * ((l.n * MEASURE_MS) / TOKEN_MS)).reduce((m, l) => Math.max(m, l.n), 0);
  return { held, at: levels.find((l) => l.n === held) };
}

/**
 * Concurrent streams through CSAI against a bare relay (bench/servers/bare-relay.ts) on the same
 * stub, one after the other in this run. Target: CSAI holds at least half of what the relay holds.
 */
async function concurrentStreams(): Promise<Figure[]> {
  const maxLevel = Math.max(...LEVELS);
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
  if (limit < maxLevel * 2 + 200) throw new Error(`open-file limit ${limit} is too low for ${maxLevel} streams (raise it with ulimit -n)`);
  const stub = await spawnServer('bench/servers/stub-llm.ts', { STUB_INTERVAL_MS: String(TOKEN_MS) });
  let relay: Spawned | undefined;
  let csai: Spawned | undefined;
  try {
    relay = await spawnServer('bench/servers/bare-relay.ts', { UPSTREAM: `${stub.url}/v1` });
    const bare = await holdStreams('bare relay', Number(new URL(relay.url).port), relay.child.pid, stub.child.pid, () => {}, async (i) => ({ path: `/events?n=${i}`, headers: {} }));
    await relay.stop();
    relay = undefined;

    csai = await spawnServer('src/server/main.ts', {
      LLM_BASE_URL: `${stub.url}/v1`,
      LLM_MODEL: 'stub',
      CSAI_MAX_ANSWERS_PER_USER: String(PER_USER),
      LLM_IDLE_TIMEOUT_MS: '600000',
    });
    const server = csai;
    const users = await signedInUsers(server, Math.ceil(maxLevel / PER_USER));
    const through = await holdStreams('CSAI', Number(new URL(server.url).port), server.child.pid, stub.child.pid, () => profileMark(server), async (i) => {
      const user = users[i % users.length]!;
      return { path: `/api/v1/channel/questions/${await ask(server, user, `并发问题 ${i}`)}/events`, headers: { cookie: user.cookie } };
    });
    const detail = (r: typeof through) => `${r.held}${r.at ? ` (p95 lag ${ms(r.at.p95)}, RSS ${r.at.rss.toFixed(0)} MB)` : ''}`;
    return [
      {
        name: `concurrent SSE answer streams held with p95 event lag < ${LAG_LIMIT_MS} ms (a token every ${TOKEN_MS} ms each; levels ${LEVELS.join(' → ')}; CSAI at least ${STREAMS_SHARE}× a bare relay)`,
        value: detail(through),
        baseline: `bare Node SSE relay ${detail(bare)}`,
        ratio: bare.held ? through.held / bare.held : 0,
        target: { op: '>=', ratio: STREAMS_SHARE },
      },
    ];
  } finally {
    await Promise.all([csai?.stop(), relay?.stop(), stub.stop()]);
  }
}

/** STREAMS_PART=first or =streams runs one half (while tuning). */
export async function run(): Promise<Figure[]> {
  const part = process.env.STREAMS_PART;
  return [...(part === 'streams' ? [] : await firstToken()), ...(part === 'first' ? [] : await concurrentStreams())];
}

if (import.meta.url === `file://${process.argv[1]}`) printFigures('Streams', await run());
