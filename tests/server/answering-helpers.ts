import { startChatServer, type ChatReply, type ChatRequest } from './fake-llm';
import { signedInUser, startServer, type Client } from './helpers';
import { makePdf, upload, waitParsed } from './knowledge-helpers';

export const CH = '/api/v1/channel';

export interface SseEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** Parses a text/event-stream body into events (comments skipped). */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split(/\n\n/)) {
    let id = 0;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || !line) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'id') id = Number(value);
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) out.push({ id, event, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return out;
}

/**
 * Opens the answer's event stream and reads it until it ends, or until `stopAfter` returns true
 * for an event (then the connection is dropped, like a reload).
 */
export async function readEvents(
  client: Client,
  questionId: string,
  opts: { lastEventId?: number; stopAfter?: (e: SseEvent, all: SseEvent[]) => boolean } = {},
) {
  const ctl = new AbortController();
  const headers: Record<string, string> = { cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') };
  if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
  const res = await fetch(`${client.base}${CH}/questions/${questionId}/events`, { headers, signal: ctl.signal });
  const events: SseEvent[] = [];
  if (!res.ok || !res.body) return { status: res.status, headers: res.headers, events, body: await res.text() };
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const cut = buffer.lastIndexOf('\n\n');
      if (cut < 0) continue;
      const fresh = parseSse(buffer.slice(0, cut + 2));
      buffer = buffer.slice(cut + 2);
      for (const e of fresh) {
        events.push(e);
        if (opts.stopAfter?.(e, events)) {
          ctl.abort();
          return { status: res.status, headers: res.headers, events, body: '' };
        }
      }
    }
  } catch (err) {
    if (!ctl.signal.aborted) throw err;
  }
  return { status: res.status, headers: res.headers, events, body: '' };
}

export const answerText = (events: SseEvent[]) => events.filter((e) => e.event === 'delta').map((e) => String(e.data.text)).join('');

/**
 * The answering model, on the OpenAI-compatible stand-in (fake-llm.ts). What it streams depends on a
 * tag in the question: [think] reasoning_content first; [tool] a function call, then (after the
 * tool message) an answer ([badtool], [bigtool]: with bad arguments; [loop]: a call in every round offering tools); [burst] fifty tokens in one write; [error] an error event mid-stream; [http500] a 500; [stall] a few
 * chunks, then silence; [hold] one chunk, then more only after release(); [echotitle] the first passage's title repeated; [cites] good, wrong and out-of-range citations of
 * the passages holding "IC50" and "Aspirin". Otherwise an answer
 * that cites [1] when the system prompt holds passages, in three pieces 5 ms apart ([paced]: 150 ms
 * apart, as a slow model streams, so that each piece is stored before the next comes even on a
 * loaded machine — the event writer merges deltas that wait for the same write). Deep research: the planner gets the
 * question's "||"-separated parts as JSON ([badplan]: prose; [holdplan]: held), the report writer
 * a short cited report ([hold]: held after its first paragraph; a continuation request: the rest).
 */
export async function startFakeLlm() {
  const held = new Set<() => void>();

  async function handle(body: ChatRequest, reply: ChatReply) {
    const users = body.messages.filter((m) => m.role === 'user');
    const question = users[users.length - 1]?.content ?? '';
    const last = body.messages[body.messages.length - 1]!;
    const system = body.messages[0]?.content ?? '';
    if (question.includes('[http500]')) return reply.fail(500, 'model overloaded', 'server_error');
    const { chunk: send, finish } = reply;
    // Deep research (deep-research.ts): the planner asks for {"sub_questions": [...]}, the writer for a report.
    if (system.includes('"sub_questions"')) {
      if (question.includes('[holdplan]')) {
        const keepAlive = setInterval(() => send({}), 100);
        await new Promise<void>((resolve) => held.add(resolve));
        clearInterval(keepAlive);
      }
      if (question.includes('[think]')) send({ role: 'assistant', content: '', reasoning_content: '先拆解问题。' });
      // The sub-questions are the parts of the question between "||" (tags removed).
      const parts = question.replace(/\[[a-z0-9]+\]/g, '').split('||').map((p) => p.trim()).filter(Boolean);
      const plan = question.includes('[badplan]') ? '好的，我把问题拆成两部分：第一，……' : `\`\`\`json\n${JSON.stringify({ sub_questions: parts })}\n\`\`\``;
      for (const piece of [plan.slice(0, 10), plan.slice(10)]) send({ content: piece });
      finish();
      return;
    }
    // Follow-up rounds: [followup] asks for one more sub-question per round (its text names the
    // round), [badfollowup] answers prose; otherwise nothing is missing.
    if (system.includes('"follow_ups"')) {
      const round = (question.match(/^子问题 \d+：/gm) ?? []).length;
      // A follow-up repeating the first sub-question is offered too (it must be dropped).
      const repeat = question.match(/^子问题 1：(.+)$/m)?.[1] ?? '';
      const answer = question.includes('[badfollowup]')
        ? '资料看起来已经比较全面了。'
        : JSON.stringify({ follow_ups: question.includes('[followup]') ? [`compound X kinase B selectivity round ${round}`, repeat] : [] });
      send({ content: answer });
      finish();
      return;
    }
    if (system.includes('深度研究报告')) {
      if (question.includes('[think]')) send({ role: 'assistant', content: '', reasoning_content: '组织报告结构。' });
      if (last.role === 'user' && (last.content ?? '').includes('中断')) {
        send({ content: '第二段，接着写 [2]。\n\n## 结论\n综上 [1][2]。' });
        finish();
        return;
      }
      if (question.includes('[hold]')) {
        send({ content: '# 报告\n\n第一段 [1]。' });
        const keepAlive = setInterval(() => send({}), 100);
        await new Promise<void>((resolve) => held.add(resolve));
        clearInterval(keepAlive);
        send({ content: '第二段 [2]。' });
        finish();
        return;
      }
      const report = ['# 报告', '', '## 引言', '研究思路。', '', '## 子问题一', '结合力为纳摩尔级 [1]。', '', '## 结论', '综上 [1][2]。'].join('\n');
      for (let i = 0; i < report.length; i += 12) send({ content: report.slice(i, i + 12) });
      finish();
      return;
    }
    // [loop]: a new call in every round that offers tools; an answer once none are offered.
    if (question.includes('[loop]') && body.tools?.length) {
      const n = body.messages.filter((m) => m.role === 'tool').length + 1;
      send({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_${n}`, type: 'function', function: { name: 'admet', arguments: '{"molecules":["CCO"]}' } }] });
      finish('tool_calls');
      return;
    }
    // [tool]: admet on ethanol; [badtool]: admet with no molecule; [bigtool]: a 1 MB argument.
    const toolArgs = question.includes('[badtool]') ? '{"molecules":[]}' : question.includes('[bigtool]') ? JSON.stringify({ molecules: ['C'.repeat(1024 * 1024)] }) : '{"molecules":["CCO"]}';
    if (/\[(?:tool|badtool|bigtool)\]/.test(question) && last.role !== 'tool') {
      send({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'admet', arguments: '' } }] });
      send({ tool_calls: [{ index: 0, function: { arguments: toolArgs } }] });
      finish('tool_calls');
      return;
    }
    if (question.includes('[think]')) {
      send({ role: 'assistant', content: '', reasoning_content: '先想一想，' });
      send({ reasoning_content: '再回答。' });
    }
    if (question.includes('[error]')) {
      send({ content: '部分' });
      send({ content: '内容' });
      reply.write(`data: ${JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } })}\n\n`);
      reply.end();
      return;
    }
    if (question.includes('[burst]')) {
      // Fifty tokens in one write: the server reads them in one go (one event-loop turn).
      reply.write(Array.from({ length: 50 }, (_, i) => reply.frame({ content: `${i} ` })).join(''));
      finish();
      return;
    }
    if (question.includes('[stall]')) {
      send({ content: '开始回答' });
      return; // never another byte
    }
    if (question.includes('[hold]')) {
      send({ content: '第一段。' });
      // Empty chunks keep the stream alive (under the idle timeout) while held.
      const keepAlive = setInterval(() => send({}), 100);
      await new Promise<void>((resolve) => held.add(resolve));
      clearInterval(keepAlive);
      send({ content: '第二段。' });
      finish();
      return;
    }
    if (question.includes('[echotitle]')) {
      // A model repeating the first passage's title as the prompt gives it, in small pieces.
      const title = /^\[1\] 《(.*)》/m.exec(system)?.[1] ?? '';
      const answer = `据《${title}》所述，答案如下。`;
      for (let i = 0; i < answer.length; i += 3) send({ content: answer.slice(i, i + 3) });
      finish();
      return;
    }
    if (question.includes('[cites]')) {
      // Good, wrong and out-of-range citations (citation-check.ts): the passages are found by their text.
      const numberOf = (word: string) => [...system.matchAll(/\[(\d+)\] 《[^》]*》[^\n]*\n([\s\S]*?)(?=\n\n|\n?$)/g)].find((m) => m[2]!.includes(word))?.[1] ?? '0';
      const [k, a] = [numberOf('IC50'), numberOf('Aspirin')];
      const beyond = Math.max(0, ...[...system.matchAll(/^\[(\d+)\] 《/gm)].map((m) => Number(m[1]))) + 1;
      const answer = `Compound X binds the kinase with an IC50 of 4.2 nM [${k}]. Aspirin irreversibly acetylates cyclooxygenase in platelets [${a}, ${k}]. `
        + `Compound X binds the kinase with nanomolar affinity [${a}]. Its IC50 was 42 nM [${k}]. See also [${beyond}].`;
      for (let i = 0; i < answer.length; i += 7) send({ content: answer.slice(i, i + 7) });
      finish();
      return;
    }
    const cites = system.includes('[1]') ? '根据文献，答案如下 [1]。' : '这是回答。';
    const gap = question.includes('[paced]') ? 150 : 5;
    for (const piece of [cites.slice(0, 4), cites.slice(4, 9), cites.slice(9)]) {
      send({ content: piece });
      await new Promise((r) => setTimeout(r, gap));
    }
    if (last.role === 'tool') send({ content: `工具说：${last.content ?? ''}` });
    finish();
  }

  const chat = await startChatServer(handle);
  return {
    url: chat.url,
    requests: chat.requests,
    /** Lets every held answer finish. */
    release() {
      for (const r of held) r();
      held.clear();
    },
    get heldCount() {
      return held.size;
    },
    async close() {
      for (const r of held) r();
      await chat.close();
    },
  };
}

/**
 * The openai engine on the answering model (startFakeLlm): a server with a chat and a reasoning
 * model and a 2 s idle limit, and alice with the kinase paper parsed (uploadKinasePaper). For a
 * file's beforeAll; close the server, then the model.
 */
export async function openAiWithKinasePaper() {
  const llm = await startFakeLlm();
  const server = await startServer({ LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model', LLM_REASONING_MODEL: 'reasoning-model', LLM_IDLE_TIMEOUT_MS: '2000' });
  const alice = (await signedInUser(server)).client;
  return { llm, server, alice, docId: await uploadKinasePaper(alice) };
}

/** Uploads the three-page kinase paper (title, results, selectivity) and waits until it is parsed; returns its id. */
export async function uploadKinasePaper(client: Client) {
  const up = await upload(client, [
    {
      name: 'kinase.pdf',
      data: makePdf([['Title page'], ['Results', 'Compound X binds the kinase with nanomolar affinity.'], ['Selectivity', 'Compound X is selective for kinase A over kinase B.']]),
      type: 'application/pdf',
    },
  ]);
  const docId = up.body.data.name_id[0]!.docId;
  await waitParsed(client, docId);
  return docId;
}

/** Creates a channel named after the question and asks it; returns the ids. */
export async function ask(client: Client, question: string, extra: Record<string, unknown> = {}, channelId?: string) {
  let channel = channelId;
  if (!channel) {
    const created = await client.post<{ id: string }>(CH, { name: question });
    if (created.status !== 200) throw new Error(`create channel: ${JSON.stringify(created.body)}`);
    channel = created.body.data.id;
  }
  // SPEC §4 turns thinking and online search on by default; tests ask for them when they test them.
  const res = await client.post<{ question_id: string }>(`${CH}/init_questions`, { question, channel_id: channel, if_search_online: false, if_thinking: false, ...extra });
  if (res.status !== 200) throw new Error(`init_questions: ${res.status} ${JSON.stringify(res.body)}`);
  return { channelId: channel, questionId: res.body.data.question_id };
}

/** Polls until `check` holds (for states that have no event to wait on). */
export async function until<T>(fn: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (check(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
