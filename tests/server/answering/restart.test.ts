import { afterAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { CH, answerText, ask, readEvents } from '../answering-helpers';

let server: TestServer | undefined;
afterAll(async () => server?.close());

describe('answer jobs across a restart', () => {
  it('mark an answer that was running as failed with a clear message, and run queued ones', async () => {
    server = await startServer();
    const { client, email, password } = await signedInUser(server);
    const running = await ask(client, '重启时正在回答的问题');
    const queued = await ask(client, '重启时排队的问题');
    const written = answerText((await readEvents(client, running.questionId)).events);
    expect(written).not.toBe('');
    await readEvents(client, queued.questionId);
    // Put the database in the state a crash leaves: one answer mid-way, one never started.
    const db = server.sqlite();
    db.prepare("update questions set status = 'running', finished_at = null, answer = null where id = ?").run(running.questionId);
    db.prepare("delete from question_events where question_id = ? and type in ('done', 'error')").run(running.questionId);
    // The answer's events after the first were still in the answer event log (they move at its end).
    db.prepare('insert into answer_event_log (question_id, seq, type, data, created_at) select question_id, seq, type, data, created_at from question_events where question_id = ? and seq > 1 order by seq').run(running.questionId);
    db.prepare('delete from question_events where question_id = ? and seq > 1').run(running.questionId);
    db.prepare("update questions set status = 'queued', finished_at = null, started_at = null, answer = null where id = ?").run(queued.questionId);
    db.prepare("delete from question_events where question_id = ? and seq > 1").run(queued.questionId);
    db.close();
    const dataDir = server.dataDir;
    await server.close();

    server = await startServer({}, dataDir);
    const again = server.client();
    await again.post('/api/v1/auth/sign-in', { account: email, password });
    const interrupted = await readEvents(again, running.questionId);
    const partial = answerText(interrupted.events);
    expect(partial).toBe(written);
    expect(interrupted.events.at(-1)?.data).toEqual({ status: 'failed', message: '服务重启，回答被中断，请重新提问' });
    const resumed = await readEvents(again, queued.questionId);
    expect(resumed.events.at(-1)?.event).toBe('done');
    expect(answerText(resumed.events)).toContain('未配置大语言模型');
    const list = await again.get<{ items: Array<{ question_id: string; status: string; answer: string; error: string | null }> }>(`${CH}/questions/${running.channelId}`);
    expect(list.body.data.items[0]).toMatchObject({ status: 'failed', answer: partial, error: '服务重启，回答被中断，请重新提问' });
    // The log was emptied at start-up: its events are in question_events for good.
    const reopened = server.sqlite();
    await expect.poll(() => reopened.prepare('select count(*) as n from answer_event_log').get()).toEqual({ n: 0 });
    reopened.close();
  });
});
