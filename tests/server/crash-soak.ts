import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, openSqlite, registerDataDir, signUp } from './helpers';
import { KB, makePdf, upload } from './knowledge-helpers';
import { suiteOnPostgres, testDatabaseUrl } from './postgres-harness';
import { exited, freePort, startServerProcess } from './server-process';

// Crash safety: the real server in its own process under uploads, parses, questions and
// answer streams, killed with SIGKILL at a random moment, restarted, and checked. Shared by
// tests/server/crash-soak.test.ts (a few cycles) and `npm run bench -- crash` (30 cycles).

export interface SoakOptions {
  cycles: number;
  /** Seed of the random choices (kill moments, operations), so a failing run can be replayed. */
  seed?: number;
  /** Signed-in users working at once. */
  users?: number;
  /**
   * How the server runs: `tsx` (the sources, as the other process tests do) or `bundle`
   * (dist/server/main.js, built by the caller: starts about twice as fast).
   */
  entry?: 'tsx' | 'bundle';
  log?: (line: string) => void;
}

export interface SoakReport {
  cycles: number;
  seed: number;
  /** Records the server answered 200 for. */
  acknowledged: { uploads: number; questions: number; deletions: number };
  /** What was under way at the moments of the kills, summed over the cycles. */
  inFlight: { tempFiles: number; parsing: number; answering: number };
  /** Every broken promise found (empty when all is well). */
  problems: string[];
  /** Milliseconds from spawn to the first answered ping: the first start, then each restart after a kill. */
  firstStartMs: number;
  restartMs: number[];
  /** Milliseconds from the last restart until nothing was parsing, queued or answering. */
  settleMs: number;
}

/** A tiny deterministic generator. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Worker {
  client: Client;
  channel: string;
  docs: string[];
  questions: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the cycles; resolves with what was acknowledged, under way and found wrong. */
export async function crashSoak(opts: SoakOptions): Promise<SoakReport> {
  const seed = opts.seed ?? Date.now() % 100_000;
  const random = rng(seed);
  const log = opts.log ?? (() => {});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-soak-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  registerDataDir(url, dataDir);
  const report: SoakReport = {
    cycles: opts.cycles,
    seed,
    acknowledged: { uploads: 0, questions: 0, deletions: 0 },
    inFlight: { tempFiles: 0, parsing: 0, answering: 0 },
    problems: [],
    firstStartMs: 0,
    restartMs: [],
    settleMs: 0,
  };
  // Acknowledged state: documents that must exist, documents that must not, questions that must exist.
  const liveDocs = new Set<string>();
  const deletedDocs = new Set<string>();
  const askedQuestions = new Set<string>();
  // Under CSAI_TEST_DB=postgres, the data folder's PostgreSQL database (what openSqlite reads too).
  const databaseUrl = await testDatabaseUrl(dataDir);
  const env = { CSAI_LOG_LEVEL: 'error', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  let server = await startServerProcess({ dataDir, port, entry: opts.entry ?? 'tsx', env });
  report.firstStartMs = server.ms;
  try {
    const workers: Worker[] = [];
    for (let i = 0; i < (opts.users ?? 4); i++) {
      const client = new Client(url);
      const { account, password } = await signUp(client);
      const signIn = await client.post('/api/v1/auth/sign-in', { account, password });
      if (signIn.status !== 200) throw new Error(`sign-in: ${JSON.stringify(signIn.body)}`);
      const channel = await client.post<{ id: string }>('/api/v1/channel', { name: `崩溃测试${i}` });
      workers.push({ client, channel: channel.body.data.id, docs: [], questions: [] });
    }

    let serial = 0;
    for (let cycle = 1; cycle <= opts.cycles; cycle++) {
      let stop = false;
      const operate = async (w: Worker) => {
        while (!stop) {
          const pick = random();
          try {
            if (pick < 0.35) {
              // 1–2 PDFs of 2–12 pages, each unique (so each is a new stored file).
              const files = Array.from({ length: 1 + Math.floor(random() * 2) }, () => {
                const n = ++serial;
                const pages = Array.from({ length: 2 + Math.floor(random() * 11) }, (_, p) => [`Soak document ${n} page ${p + 1}`, `Aspirin ibuprofen paracetamol ${n}-${p} ${seed}`]);
                return { name: `soak-${n}.pdf`, data: makePdf(pages) };
              });
              const res = await upload(w.client, files);
              if (res.status === 200) {
                for (const { docId } of res.body.data.name_id) {
                  liveDocs.add(docId);
                  w.docs.push(docId);
                }
                report.acknowledged.uploads += files.length;
              }
            } else if (pick < 0.65) {
              // With one of the user's documents once it is parsed (a parsing one is refused with 409), else without.
              const candidate = w.docs.length ? w.docs[Math.floor(random() * w.docs.length)]! : undefined;
              const state = candidate ? await w.client.get<{ parseStatus: number }>(`${KB}/doc/${candidate}`) : undefined;
              const docIdList = candidate && state?.status === 200 && state.body.data.parseStatus === 2 ? [candidate] : [];
              const res = await w.client.post<{ question_id: string }>('/api/v1/channel/init_questions', { question: '阿司匹林的作用是什么？', channel_id: w.channel, docIdList });
              if (res.status === 200) {
                askedQuestions.add(res.body.data.question_id);
                w.questions.push(res.body.data.question_id);
                report.acknowledged.questions++;
              }
            } else if (pick < 0.75 && w.docs.length > 2) {
              const id = w.docs.splice(Math.floor(random() * w.docs.length), 1)[0]!;
              // Until the answer arrives the deletion may or may not have happened: neither is promised.
              liveDocs.delete(id);
              const res = await w.client.request('DELETE', `${KB}/${id}`);
              if (res.status === 200) {
                deletedDocs.add(id);
                report.acknowledged.deletions++;
              } else {
                liveDocs.add(id);
                w.docs.push(id);
              }
            } else if (pick < 0.9 && w.questions.length) {
              // Follow an answer stream for a moment.
              const q = w.questions[Math.floor(random() * w.questions.length)]!;
              const ctrl = new AbortController();
              const timer = setTimeout(() => ctrl.abort(), 300);
              try {
                const res = await fetch(`${url}/api/v1/channel/questions/${q}/events`, {
                  headers: { cookie: [...w.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '), 'x-forwarded-for': w.client.ip },
                  signal: ctrl.signal,
                });
                await res.text();
              } catch {
                // aborted, or the server is gone
              } finally {
                clearTimeout(timer);
              }
            } else {
              await w.client.get(`${KB}/all_docs?show_my_kb=1`);
              await w.client.get('/api/v1/channel');
            }
          } catch {
            // The server was killed under this request: it was never acknowledged.
            if (!stop) await sleep(20);
          }
        }
      };
      const running = workers.map((w) => operate(w));
      // Kill at a random moment once the restarted server is doing work (at least two acknowledged
      // operations this cycle, or 60 s), so no cycle is spent on a server still warming up.
      const acked = () => report.acknowledged.uploads + report.acknowledged.questions + report.acknowledged.deletions;
      const start = acked();
      for (let waited = 0; acked() - start < 2 && waited < 60_000; waited += 50) await sleep(50);
      await sleep(random() * 2500);
      server.child.kill('SIGKILL');
      await exited(server.child);
      stop = true;
      await Promise.all(running);

      // With the server dead: the database is whole and holds everything acknowledged.
      const runningAnswers = checkDatabase(dataDir, { liveDocs, deletedDocs, askedQuestions }, report, `cycle ${cycle}`);
      const restarted = await startServerProcess({ dataDir, port, entry: opts.entry ?? 'tsx', env });
      server = restarted;
      report.restartMs.push(restarted.ms);
      checkFiles(dataDir, report, `cycle ${cycle}`);
      // The recovery pass at start marked the answers that were running as interrupted.
      const db = openSqlite(dataDir);
      try {
        for (const id of runningAnswers) {
          const row = db.prepare('select status from questions where id = ?').get(id) as { status: string } | undefined;
          if (row?.status === 'running' || row?.status === 'queued') report.problems.push(`cycle ${cycle}: answer ${id} still ${row.status} after the restart`);
        }
      } finally {
        db.close();
      }
      log(`cycle ${cycle}/${opts.cycles}: ${liveDocs.size} documents, ${askedQuestions.size} questions, restart ${restarted.ms} ms, problems ${report.problems.length}`);
    }

    // Let the last restart finish what was interrupted: nothing may stay parsing, queued or answering.
    const settleStart = Date.now();
    for (;;) {
      const db = openSqlite(dataDir);
      let busy: { docs: number; answers: number; jobs: number };
      try {
        busy = {
          docs: (db.prepare('select count(*) as n from kb_documents where parse_status = 1').get() as { n: number }).n,
          answers: (db.prepare(`select count(*) as n from questions where status in ('queued', 'running')`).get() as { n: number }).n,
          jobs: (db.prepare(`select count(*) as n from jobs where state in ('queued', 'running')`).get() as { n: number }).n,
        };
      } finally {
        db.close();
      }
      if (!busy.docs && !busy.answers && !busy.jobs) break;
      if (Date.now() - settleStart > 240_000) {
        report.problems.push(`after the last restart, still busy after 240 s: ${JSON.stringify(busy)}`);
        break;
      }
      await sleep(250);
    }
    report.settleMs = Date.now() - settleStart;
    checkFiles(dataDir, report, 'end');
  } finally {
    server.child.kill('SIGTERM');
    const done = exited(server.child);
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(timer);
  }
  if (!report.problems.length) fs.rmSync(dataDir, { recursive: true, force: true });
  else report.problems.push(`data kept in ${dataDir}`);
  return report;
}

/**
 * SQLite's integrity and foreign-key checks, and every acknowledged record in place. Returns the
 * answers that were running at the kill (the restart must not leave them running).
 */
function checkDatabase(
  dataDir: string,
  want: { liveDocs: Set<string>; deletedDocs: Set<string>; askedQuestions: Set<string> },
  report: SoakReport,
  where: string,
): string[] {
  const tmp = path.join(dataDir, 'files', '.tmp');
  report.inFlight.tempFiles += fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0;
  const db = openSqlite(dataDir);
  try {
    // SQLite's own checks of its file (PostgreSQL enforces foreign keys itself and has no such pragma).
    if (!suiteOnPostgres()) {
      const integrity = db.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') report.problems.push(`${where}: integrity_check says ${String(integrity)}`);
      const fk = db.pragma('foreign_key_check') as unknown[];
      if (fk.length) report.problems.push(`${where}: ${fk.length} foreign key violations`);
    }
    const docs = new Set((db.prepare('select id from kb_documents').all() as Array<{ id: string }>).map((r) => r.id));
    for (const id of want.liveDocs) if (!docs.has(id)) report.problems.push(`${where}: acknowledged document ${id} lost`);
    for (const id of want.deletedDocs) if (docs.has(id)) report.problems.push(`${where}: deleted document ${id} came back`);
    const questions = new Set((db.prepare('select id from questions').all() as Array<{ id: string }>).map((r) => r.id));
    for (const id of want.askedQuestions) if (!questions.has(id)) report.problems.push(`${where}: acknowledged question ${id} lost`);
    report.inFlight.parsing += (db.prepare('select count(*) as n from kb_documents where parse_status = 1').get() as { n: number }).n;
    const running = (db.prepare(`select id from questions where status = 'running'`).all() as Array<{ id: string }>).map((r) => r.id);
    report.inFlight.answering += running.length;
    return running;
  } finally {
    db.close();
  }
}

/** After a start: no temp file left, every stored file a document names is there, and no file nobody names. */
function checkFiles(dataDir: string, report: SoakReport, where: string) {
  const root = path.join(dataDir, 'files');
  const tmp = path.join(root, '.tmp');
  const temps = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
  const db = openSqlite(dataDir);
  let named: Set<string>;
  try {
    named = new Set((db.prepare('select distinct storage_name from kb_documents').all() as Array<{ storage_name: string }>).map((r) => r.storage_name));
  } finally {
    db.close();
  }
  // Nothing is uploading between a start and this check: every temp file is a leftover.
  if (temps.length) report.problems.push(`${where}: ${temps.length} temp files left`);
  const stored = fs.readdirSync(root).filter((d) => /^[0-9a-f]{2}$/.test(d)).flatMap((d) => fs.readdirSync(path.join(root, d)));
  for (const name of named) if (!stored.includes(name)) report.problems.push(`${where}: stored file ${name} of a document is missing`);
  for (const name of stored) if (!named.has(name)) report.problems.push(`${where}: stored file ${name} belongs to no document`);
}
