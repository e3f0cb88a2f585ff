import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, uniqueEmail, uniqueIp } from '../helpers';
import { CH, answerText, ask, readEvents, until, type SseEvent } from '../answering-helpers';
import { hasPostgres } from '../postgres-harness';
import { exited } from '../server-process';
import { startTwoNodes, type ServerNode, type TwoNodes } from '../two-nodes';
import { RESTART_MESSAGE } from '../../../src/server/answering/answers';
import { CHANNEL, LISTENER_NAME } from '../../../src/server/answering/pg-bus';

// postgres: itself — both nodes run on the PostgreSQL it opens itself (two-nodes.ts, postgres-harness.ts fileDatabase).
/** Short, so a killed node's answers are taken over within seconds (CSAI_NODE_LEASE_MS). */
const LEASE_MS = 3000;

/**
 * Two real server processes on two ports over one PostgreSQL and one data folder,
 * as behind a load balancer. A client signs in on one and carries on on the other; answers
 * written by one node stream from the other; limits count across both; a node killed mid-answer
 * leaves nothing running.
 */
describe.skipIf(!hasPostgres())('two app nodes over one PostgreSQL', () => {
  let nodes: TwoNodes;
  let sql: pg.Client;
  let llm: TwoNodes['llm'];
  let a: ServerNode;
  let b: ServerNode;

  beforeAll(async () => {
    nodes = await startTwoNodes({ name: 'multinode', env: { CSAI_NODE_LEASE_MS: String(LEASE_MS) } });
    ({ a, b, sql, llm } = nodes);
  }, 180_000);

  afterAll(() => nodes?.close());

  const outbox = async (recipient: string) => {
    const { rows } = await sql.query<{ body: string }>('select body from outbox where recipient = $1 order by id desc limit 1', [recipient]);
    return rows[0]?.body ?? '';
  };

  /** Signs up and in on node A; returns the client (cookies of A). */
  async function signedInOnA() {
    const client = new Client(a.url);
    const email = uniqueEmail('multi');
    expect((await client.post('/api/v1/auth/sign-up', { email, password: 'passw0rd-ok', name: '多节点用户' })).status).toBe(200);
    const token = /activate_transit=([A-Za-z0-9_-]+)/.exec(await outbox(email))?.[1];
    expect((await client.post('/api/v1/auth/activate', { token })).status).toBe(200);
    expect((await client.post('/api/v1/auth/sign-in', { account: email, password: 'passw0rd-ok' })).status).toBe(200);
    return { client, email };
  }

  const question = async (id: string) =>
    (await sql.query<{ status: string; error: string | null; node_id: string | null }>('select status, error, node_id from questions where id = $1', [id])).rows[0]!;

  /**
   * The node running a held answer, and the other one. Either node may claim a queued question —
   * the one it was asked on, or the other at its periodic look at the queue — so the tests that
   * need "the node running it" ask the database rather than assume the node asked.
   */
  async function runnerOf(questionId: string) {
    const { node_id: id } = await until(() => question(questionId), (q) => q.status === 'running' && q.node_id !== null, 20_000);
    const runner = [a, b].find((n) => id!.endsWith(`:${new URL(n.url).port}`))!;
    expect(runner).toBeDefined();
    return { runner, other: runner === a ? b : a, id: id! };
  }

  /** The answer's stream on `node`, its events collected as they come; resolves once the first part has come. */
  async function followToFirstPart(client: Client, node: ServerNode, questionId: string) {
    const seen: SseEvent[] = [];
    const streamed = readEvents(client.at(node.url), questionId, {
      stopAfter: (e) => {
        seen.push(e);
        return false;
      },
    });
    await until(async () => seen.some((e) => e.event === 'delta'), Boolean, 20_000);
    return { seen, streamed };
  }

  /** Ids 1..n, each once, in order. */
  const numberedWithoutGaps = (events: SseEvent[]) => events.map((e) => e.id).every((id, i) => id === i + 1);

  it('a session and CSRF token made on node A work on node B; a forged token is refused there', async () => {
    const { client, email } = await signedInOnA();
    const onB = client.at(b.url);
    const me = await onB.get<{ email: string; name: string }>('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email, name: '多节点用户' });
    const made = await onB.post<{ id: string; name: string }>(CH, { name: '在B节点创建' });
    expect(made.status).toBe(200);
    // Listed on A as well: one database.
    const listed = await client.get<{ items: Array<{ name: string }> }>(CH);
    expect(listed.body.data.items.map((c) => c.name)).toContain('在B节点创建');
    // A token that is not A's (nor B's) signature is refused on B.
    const forged = await onB.post(CH, { name: 'x' }, { headers: { 'x-csrf-token': `${client.csrf!.split('.')[0]}.AAAA` } });
    expect(forged.status).toBe(403);
    // Signed out on B: the session is gone on A too.
    expect((await onB.post('/api/v1/auth/sign-out')).status).toBe(200);
    expect((await client.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('an answer written by one node streams to a client of the other, live, whole and numbered without gaps', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 跨节点流式回答');
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const { other } = await runnerOf(questionId);
    // The other node shows the first part while the runner's model is still held.
    const { streamed } = await followToFirstPart(client, other, questionId);
    expect(llm.heldCount).toBe(1);
    llm.release();
    const { events, status } = await streamed;
    expect(status).toBe(200);
    expect(answerText(events)).toBe('第一段。第二段。');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    expect(numberedWithoutGaps(events)).toBe(true);
    expect((await question(questionId)).status).toBe('done');
    // Nothing of it is left in the answer event log.
    expect((await sql.query('select 1 from answer_event_log where question_id = $1', [questionId])).rowCount).toBe(0);
  });

  it('a stream cut on node A resumes on node B with Last-Event-ID: no event twice, none missing', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 刷新后换节点续传');
    const first = await readEvents(client, questionId, { stopAfter: (e) => e.event === 'delta' });
    const lastId = first.events.at(-1)!.id;
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const resumed = readEvents(client.at(b.url), questionId, { lastEventId: lastId });
    llm.release();
    const rest = (await resumed).events;
    expect(rest[0]!.id).toBe(lastId + 1);
    const all = [...first.events, ...rest];
    expect(numberedWithoutGaps(all)).toBe(true);
    expect(answerText(all)).toBe('第一段。第二段。');
    expect(all.at(-1)!.event).toBe('done');
    // A Last-Event-ID that is not a number is refused on B as on A.
    const bad = await client.at(b.url).get(`${CH}/questions/${questionId}/events`, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Last-Event-ID 无效');
  });

  it('stopping on one node an answer running on the other stops it there, keeping what was written', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 在另一节点停止');
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const { other } = await runnerOf(questionId);
    const stopped = await client.at(other.url).request('PUT', `${CH}/stop_questions/${questionId}`);
    expect(stopped.status).toBe(200);
    expect((await question(questionId)).status).toBe('stopped');
    const { events } = await readEvents(client.at(other.url), questionId);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'stopped' } });
    expect(answerText(events)).toBe('第一段。');
    llm.release();
  });

  it('deleting on one node a question answered on the other ends its streams and leaves nothing of it', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 在另一节点删除');
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const { runner, other } = await runnerOf(questionId);
    const streamed = readEvents(client.at(runner.url), questionId);
    expect((await client.at(other.url).request('DELETE', `${CH}/questions/${questionId}`)).status).toBe(200);
    // The stream on the runner ends (deleted), without an end event.
    const { events } = await streamed;
    expect(events.some((e) => e.event === 'done' || e.event === 'error')).toBe(false);
    llm.release();
    // The run stops writing: nothing of the question is left (a row it wrote before it heard of the
    // delete, on a busy machine, is dropped by the next sweep).
    const left = async () => (await sql.query('select 1 from answer_event_log where question_id = $1 union all select 1 from question_events where question_id = $1', [questionId])).rowCount;
    await until(left, (n) => n === 0, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await left()).toBe(0);
    expect((await client.at(other.url).get(`${CH}/questions/${questionId}/events`)).status).toBe(404);
  });

  it('notices of two nodes crossing: a stream never skips an event, whatever order the notices come in', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 通知顺序');
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const { other, id: runnerId } = await runnerOf(questionId);
    // Opened on the other node once the first part is stored: it has it from the database, none of it over the bus.
    const { seen, streamed } = await followToFirstPart(client, other, questionId);
    const k = seen.at(-1)!.id;
    // A third node stores two events, and the notice of the first is overtaken by the second's
    // (two notices committed in the other order): the node streaming hears of k + 2 alone.
    for (const [seq, text] of [[k + 1, '（其一）'], [k + 2, '（其二）']] as const) {
      await sql.query('insert into answer_event_log (question_id, seq, type, data, created_at, node_id) values ($1, $2, $3, $4, $5, $6)',
        [questionId, seq, 'delta', JSON.stringify({ text }), new Date().toISOString(), runnerId]);
    }
    await sql.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ n: 'another-node', e: [[questionId, k + 2, k + 2]] })]);
    await until(async () => seen.filter((e) => e.id > k).length, (n) => n >= 2, 10_000).catch(() => undefined);
    expect(seen.filter((e) => e.id > k).map((e) => [e.id, e.data.text])).toEqual([[k + 1, '（其一）'], [k + 2, '（其二）']]);
    // Done with it: deleted, the stream ends and the runner stops.
    expect((await client.at(other.url).request('DELETE', `${CH}/questions/${questionId}`)).status).toBe(200);
    await streamed;
    expect(numberedWithoutGaps(seen)).toBe(true);
    llm.release();
  });

  it('rate limits and the code cooldown count requests to both nodes together', async () => {
    const ip = uniqueIp();
    const account = uniqueEmail('limit');
    const tries: number[] = [];
    // Sign-in: 10 per 15 minutes per address and account, alternating nodes.
    for (let i = 0; i < 11; i++) {
      const node = i % 2 ? b : a;
      tries.push((await new Client(node.url, ip).post('/api/v1/auth/sign-in', { account, password: 'wrong-passw0rd' })).status);
    }
    expect(tries.slice(0, 10).filter((s) => s === 429)).toEqual([]);
    const limited = await new Client(a.url, ip).post('/api/v1/auth/sign-in', { account, password: 'wrong-passw0rd' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('请求过于频繁，请稍后再试');
    expect(tries[10]).toBe(429);
    // One-time code: asked on A, asked again at once on B.
    const phoneless = uniqueEmail('otp');
    expect((await new Client(a.url).post('/api/v1/auth/otp/send', { account: phoneless })).status).toBe(200);
    const again = await new Client(b.url).post('/api/v1/auth/otp/send', { account: phoneless });
    expect(again.status).toBe(429);
    expect(again.body.message).toBe('验证码发送过于频繁，请60秒后再试');
  });

  it('a node whose listening connection is cut opens it again and its streams miss nothing', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 监听连接中断');
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const { streamed } = await followToFirstPart(client, b, questionId);
    // Both nodes lose their LISTEN connection; the rest of the answer is written meanwhile. Only
    // this database's: on a PostgreSQL shared by test files running in parallel, every other
    // file's server listens too.
    const cut = await sql.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()', [LISTENER_NAME]);
    expect(cut.rowCount).toBe(2);
    llm.release();
    const { events } = await streamed;
    expect(answerText(events)).toBe('第一段。第二段。');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    expect(numberedWithoutGaps(events)).toBe(true);
    await until(async () => (await sql.query('select 1 from pg_stat_activity where application_name = $1 and datname = current_database()', [LISTENER_NAME])).rowCount, (n) => n === 2, 20_000);
  });

  it('the node running an answer killed mid-answer: the other marks it failed once the lease ran out, and nothing stays running', async () => {
    const { client } = await signedInOnA();
    const { questionId } = await ask(client, '[hold] 节点宕机');
    await until(async () => llm.heldCount, (n) => n === 1, 20_000);
    const { runner, other, id: runnerId } = await runnerOf(questionId);
    const { streamed } = await followToFirstPart(client, other, questionId);
    const done = exited(runner.child);
    runner.child.kill('SIGKILL');
    await done;
    const { events } = await streamed;
    // Taken over once the runner's lease had run out (a sweep runs every third of the lease) — not
    // before, and not only at a restart. Read from the database rather than timed here: on a busy
    // machine timers run late, and the order of the two moments is what the lease promises.
    const { rows: [taken] } = await sql.query<{ finished_at: string; expires_at: string }>(
      'select q.finished_at, n.expires_at from questions q, nodes n where q.id = $1 and n.id = $2', [questionId, runnerId]);
    expect(Date.parse(taken!.finished_at)).toBeGreaterThanOrEqual(Date.parse(taken!.expires_at));
    expect(Date.parse(taken!.finished_at) - Date.parse(taken!.expires_at)).toBeLessThan(LEASE_MS * 5);
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { status: 'failed', message: RESTART_MESSAGE } });
    expect(numberedWithoutGaps(events)).toBe(true);
    expect(answerText(events)).toBe('第一段。');
    expect(await question(questionId)).toMatchObject({ status: 'failed', error: RESTART_MESSAGE });
    expect((await sql.query("select 1 from questions where status = 'running'")).rowCount).toBe(0);
    expect((await sql.query('select 1 from answer_event_log')).rowCount).toBe(0);
    // The folded answer keeps what the runner wrote; the other node still answers new questions.
    const channelId = (await sql.query<{ channel_id: string }>('select channel_id from questions where id = $1', [questionId])).rows[0]!.channel_id;
    const list = await client.at(other.url).get<{ items: Array<{ question_id: string; answer: string; status: string }> }>(`${CH}/questions/${channelId}`);
    expect(list.body.data.items.find((q) => q.question_id === questionId)).toMatchObject({ status: 'failed', answer: '第一段。' });
    llm.release();
    const next = await ask(client.at(other.url), '节点B继续回答');
    const answered = await readEvents(client.at(other.url), next.questionId);
    expect(answered.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });
});
