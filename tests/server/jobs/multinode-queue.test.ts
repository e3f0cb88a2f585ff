import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../helpers';
import { CH, answerText, ask, readEvents, until, type SseEvent } from '../answering-helpers';
import { hasPostgres } from '../postgres-harness';
import { startTwoNodes, type ServerNode, type TwoNodes } from '../two-nodes';
import { queuedMessage } from '../../../src/server/answering/answers';
import { MAX_QUEUED_PER_USER } from '../../../src/server/channels/service';

// postgres: itself — both nodes run on the PostgreSQL it opens itself (two-nodes.ts, postgres-harness.ts fileDatabase).

/** CSAI_MAX_ANSWERS_PER_USER of both nodes. */
const LIMIT = 2;

/**
 * The per-user limits with several nodes: two real server processes over one
 * PostgreSQL claim one user's queued answers at the same moments. The limit of answers running at
 * once, the 排队中 notice (once per waiting answer) and the cap of questions waiting hold for both
 * nodes together, as on one.
 */
describe.skipIf(!hasPostgres())('per-user answer limits over two app nodes', () => {
  let nodes: TwoNodes;
  let sql: pg.Client;
  let llm: TwoNodes['llm'];
  let a: ServerNode;
  let b: ServerNode;

  beforeAll(async () => {
    nodes = await startTwoNodes({ name: 'multinode_queue', env: { CSAI_NODE_LEASE_MS: '3000', CSAI_MAX_ANSWERS_PER_USER: String(LIMIT) } });
    ({ a, b, sql, llm } = nodes);
  }, 180_000);

  afterAll(() => nodes?.close());

  /** Signs up and in on node A; returns the client (cookies of A), with the same browser on node B, and the user's id. */
  async function signedIn() {
    const client = new Client(a.url);
    const email = uniqueEmail('queue');
    expect((await client.post('/api/v1/auth/sign-up', { email, password: 'passw0rd-ok', name: '排队用户' })).status).toBe(200);
    const { rows } = await sql.query<{ body: string }>('select body from outbox where recipient = $1 order by id desc limit 1', [email]);
    const token = /activate_transit=([A-Za-z0-9_-]+)/.exec(rows[0]?.body ?? '')?.[1];
    expect((await client.post('/api/v1/auth/activate', { token })).status).toBe(200);
    expect((await client.post('/api/v1/auth/sign-in', { account: email, password: 'passw0rd-ok' })).status).toBe(200);
    const userId = (await sql.query<{ id: string }>('select id from users where email = $1', [email])).rows[0]!.id;
    return { onA: client, onB: client.at(b.url), userId };
  }

  const countOf = async (text: string, params: unknown[]) => Number((await sql.query<{ n: string }>(text, params)).rows[0]!.n);
  const isNotice = (e: SseEvent) => e.event === 'status' && e.data.message === queuedMessage(LIMIT);

  it('questions of one user posted to both nodes at once: never more than the limit running, all finish, each that waited says 排队中 once on either node', async () => {
    const { onA, onB, userId } = await signedIn();
    const N = 16;
    // Sampled without pause for the whole test: the most answers of the user running at one moment.
    const sampled = { most: 0, count: 0, on: true };
    const sampler = (async () => {
      while (sampled.on) {
        const n = await countOf("select count(*) as n from questions where user_id = $1 and status = 'running'", [userId]);
        sampled.most = Math.max(sampled.most, n);
        sampled.count++;
      }
    })();
    const channels = await Promise.all(Array.from({ length: N }, (_, i) => onA.post<{ id: string }>(CH, { name: `同时提问${i}` })));
    // All at once, every other one to node B; each answer is held by the model until released.
    const asked = await Promise.all(channels.map((c, i) => ask(i % 2 ? onB : onA, `[hold] 同时提问${i}`, {}, c.body.data.id)));
    // Each browser follows its answer live on the other node than the one it asked.
    const live = asked.map((q, i) => readEvents(i % 2 ? onA : onB, q.questionId));
    const unfinished = () => countOf("select count(*) as n from questions where user_id = $1 and status in ('queued', 'running')", [userId]);
    // Every question that waits has been told so before anything ends.
    await until(
      () => countOf("select count(*) as n from questions q where user_id = $1 and status = 'queued' and not exists (select 1 from question_events e where e.question_id = q.id and e.data like '%排队中%')", [userId]),
      (n) => n === 0,
      20_000,
    );
    // Rounds: the running answers are held, then let go together, so both nodes claim at once.
    for (let round = 0; round < N && (await unfinished()) > 0; round++) {
      await until(async () => ({ held: llm.heldCount, left: await unfinished() }), (v) => v.left === 0 || v.held >= Math.min(LIMIT, v.left), 30_000);
      await new Promise((r) => setTimeout(r, 300)); // room for a claim beyond the limit, were one possible
      llm.release();
    }
    await until(unfinished, (n) => n === 0, 30_000);
    sampled.on = false;
    await sampler;
    expect(sampled.count).toBeGreaterThan(50);
    expect(sampled.most).toBe(LIMIT);
    const streams = await Promise.all(live);
    for (const s of streams) {
      expect(s.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
      expect(answerText(s.events)).toBe('第一段。第二段。');
    }
    expect(await countOf("select count(*) as n from questions where user_id = $1 and status = 'done'", [userId])).toBe(N);
    // The notice, read live and afterwards from each node: once for each answer that waited, never twice.
    const told: number[] = [];
    for (const [i, q] of asked.entries()) {
      const fromA = (await readEvents(onA, q.questionId)).events;
      const fromB = (await readEvents(onB, q.questionId)).events;
      expect(fromB).toEqual(fromA);
      expect(streams[i]!.events).toEqual(fromA);
      told.push(fromA.filter(isNotice).length);
    }
    expect(told.filter((n) => n > 1)).toEqual([]);
    expect(told.filter((n) => n === 1)).toHaveLength(N - LIMIT);
  }, 180_000);

  it('waiting answers stopped on either node while both nodes claim: each ends stopped, once, and nothing stays queued or running', async () => {
    const { onA, onB, userId } = await signedIn();
    const N = 12;
    const channels = await Promise.all(Array.from({ length: N }, (_, i) => onA.post<{ id: string }>(CH, { name: `停止排队${i}` })));
    const asked = await Promise.all(channels.map((c, i) => ask(i % 2 ? onB : onA, `[hold] 停止排队${i}`, {}, c.body.data.id)));
    await until(async () => llm.heldCount, (n) => n >= LIMIT, 20_000);
    const statusOf = async (id: string) => (await sql.query<{ status: string }>('select status from questions where id = $1', [id])).rows[0]!.status;
    const waiting: string[] = [];
    for (const q of asked) if ((await statusOf(q.questionId)) === 'queued') waiting.push(q.questionId);
    expect(waiting).toHaveLength(N - LIMIT);
    // The running answers end while the waiting ones are stopped, half on each node: the nodes
    // claim waiting answers at the moment they are stopped.
    llm.release();
    const stops = await Promise.all(waiting.map((id, i) => (i % 2 ? onA : onB).request('PUT', `${CH}/stop_questions/${id}`)));
    expect(stops.map((r) => r.status)).toEqual(waiting.map(() => 200));
    await until(async () => Promise.all(waiting.map(statusOf)), (all) => all.every((st) => st === 'stopped'), 20_000);
    const unfinished = () => countOf("select count(*) as n from questions where user_id = $1 and status in ('queued', 'running')", [userId]);
    await until(unfinished, (n) => n === 0, 20_000);
    await new Promise((r) => setTimeout(r, 500)); // nothing starts afterwards
    expect(await unfinished()).toBe(0);
    llm.release(); // a model request of a stopped answer may still be held
    for (const id of waiting) {
      const { events } = await readEvents(onB, id);
      expect(events.filter((e) => e.event === 'done' || e.event === 'error')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    }
  }, 120_000);

  it(`questions posted to both nodes at once never leave more than ${MAX_QUEUED_PER_USER} waiting; the others are refused and nothing of them is stored`, async () => {
    const { onA, onB, userId } = await signedIn();
    const channelId = (await onA.post<{ id: string }>(CH, { name: '很多问题同时提' })).body.data.id;
    const N = MAX_QUEUED_PER_USER + LIMIT + 8;
    const posted = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        (i % 2 ? onB : onA).post<{ question_id: string }>(`${CH}/init_questions`, { question: `[hold] 排队上限${i}`, channel_id: channelId, if_search_online: false, if_thinking: false }),
      ),
    );
    const accepted = posted.filter((r) => r.status === 200).map((r) => r.body.data.question_id);
    const refused = posted.filter((r) => r.status !== 200);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.message).toBe(`排队中的问题已有${MAX_QUEUED_PER_USER}个，请等待前面的回答完成后再提问`);
    }
    await until(async () => llm.heldCount, (n) => n >= LIMIT, 20_000);
    const queued = await countOf("select count(*) as n from questions where user_id = $1 and status = 'queued'", [userId]);
    const running = await countOf("select count(*) as n from questions where user_id = $1 and status = 'running'", [userId]);
    expect(queued).toBeLessThanOrEqual(MAX_QUEUED_PER_USER);
    expect(running).toBe(LIMIT);
    expect(accepted.length).toBeGreaterThanOrEqual(MAX_QUEUED_PER_USER);
    expect(accepted.length).toBe(queued + running);
    // Nothing is stored for a refused question.
    expect(await countOf('select count(*) as n from questions where channel_id = $1', [channelId])).toBe(accepted.length);
    for (const id of accepted) expect((await onB.request('PUT', `${CH}/stop_questions/${id}`)).status).toBe(200);
    llm.release();
    await until(() => countOf("select count(*) as n from questions where user_id = $1 and status in ('queued', 'running')", [userId]), (n) => n === 0, 20_000);
  }, 120_000);
});
