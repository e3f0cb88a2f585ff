import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { errorResponses, ok as okSchema, paged } from '../../contract/envelope';
import {
  channel,
  channelIdParams,
  channelListQuery,
  channelNameBody,
  channelRefParams,
  deletedResult,
  effectBody,
  effectResult,
  initQuestionResult,
  question,
  questionIdParams,
  questionListQuery,
  questionRequest,
  stopResult,
  type AnswerEvent,
} from '../../contract/channel';
import { badRequest } from '../errors';
import { answerEventStore, dataJson } from '../answering/events';
import { followAnswer } from '../channels/answer-stream';
import { canAccessQuestion } from '../channels/service';
import { ok, type App, type Services } from './types';

const tags = ['channel'];
/** SSE comment lines keep proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
const lastEventId = z.coerce.number({ error: 'Last-Event-ID 无效' }).int('Last-Event-ID 无效').min(0, 'Last-Event-ID 无效').max(Number.MAX_SAFE_INTEGER);

/** The SSE frame of an event, built once however many streams (tabs) show it. */
const frames = new WeakMap<AnswerEvent, string>();
const frameOf = (e: AnswerEvent) => {
  let frame = frames.get(e);
  if (frame === undefined) frames.set(e, (frame = `id: ${e.id}\nevent: ${e.event}\ndata: ${dataJson.get(e) ?? JSON.stringify(e.data)}\n\n`));
  return frame;
};

/** Channels, questions and streamed answers (SPEC §7 Channels, DESIGN §3). */
export default async function channelRoutes(app: App, { db, runtime }: Services) {
  const { channels, answers, bus } = runtime.answering;
  const store = answerEventStore(db, answers.events);
  const openStreams = new Set<ServerResponse>();
  // Streams end before the server closes (they would keep it open); answers stop without an end event.
  app.addHook('preClose', async () => {
    for (const res of openStreams) res.end();
  });

  const user = async (req: FastifyRequest) => ({ userId: (await req.requireUser()).userId });

  app.get('/', {
    schema: { tags, summary: 'Your channels, most recently active first', querystring: channelListQuery, response: { 200: okSchema(paged(channel)), ...errorResponses } },
  }, async (req) => ok(await channels.list(await user(req), req.query)));

  app.post('/', {
    schema: { tags, summary: 'Create a channel; the name is cut to its first 50 characters', body: channelNameBody, response: { 200: okSchema(channel), ...errorResponses } },
  }, async (req) => ok(await channels.create(await user(req), req.body.name), '创建成功'));

  app.put('/:channel_id', {
    schema: { tags, summary: 'Rename a channel', params: channelIdParams, body: channelNameBody, response: { 200: okSchema(channel), ...errorResponses } },
  }, async (req) => ok(await channels.rename(await user(req), req.params.channel_id, req.body.name), '修改成功'));

  app.delete('/:channel_id', {
    schema: { tags, summary: 'Delete a channel with its questions and answers', params: channelIdParams, response: { 200: okSchema(deletedResult), ...errorResponses } },
  }, async (req) => ok(await channels.remove(await user(req), req.params.channel_id), '删除成功'));

  app.get('/channel_docs/:id', {
    schema: { tags, summary: 'Ids of the documents the channel\'s questions used', params: channelRefParams, response: { 200: okSchema(z.array(z.string())), ...errorResponses } },
  }, async (req) => ok(await channels.documents(await user(req), req.params.id)));

  app.post('/init_questions', {
    schema: { tags, summary: 'Ask a question in a channel; the answer is queued and streams from questions/{question_id}/events', body: questionRequest, response: { 200: okSchema(initQuestionResult), ...errorResponses } },
  }, async (req) => ok(await channels.ask(await user(req), req.body), '发送成功'));

  app.get('/questions/:channel_id', {
    schema: { tags, summary: 'The channel\'s questions, newest first, each with its answer so far', params: channelIdParams, querystring: questionListQuery, response: { 200: okSchema(paged(question)), ...errorResponses } },
  }, async (req) => ok(await channels.questions(await user(req), req.params.channel_id, req.query)));

  app.delete('/questions/:question_id', {
    schema: { tags, summary: 'Delete a question and its answer (a running answer stops)', params: questionIdParams, response: { 200: okSchema(deletedResult), ...errorResponses } },
  }, async (req) => ok(await channels.removeQuestion(await user(req), req.params.question_id), '删除成功'));

  app.put('/stop_questions/:id', {
    schema: { tags, summary: 'Stop an answer, keeping what was written', params: channelRefParams, response: { 200: okSchema(stopResult), ...errorResponses } },
  }, async (req) => {
    const stopped = await channels.stop(await user(req), req.params.id);
    // An answer that had already ended is left as it was, and said to be so.
    return ok(stopped, stopped.status === 'stopped' ? '已停止' : '回答已结束，无需停止');
  });

  app.post('/answer/effect', {
    schema: { tags, summary: 'Like, dislike (with an optional comment) or clear an answer', body: effectBody, response: { 200: okSchema(effectResult), ...errorResponses } },
  }, async (req) => ok(await channels.setEffect(await user(req), req.body.question_id, req.body.effect, req.body.comment), '感谢反馈'));

  app.get('/questions/:question_id/events', {
    schema: {
      tags,
      summary: 'The answer as Server-Sent Events (status, thinking, tool_call, tool_result, delta, citation, research_step, done, error); resumes after Last-Event-ID',
      params: questionIdParams,
      querystring: z.object({ last_event_id: z.string().max(20).optional() }),
    },
  }, async (req, reply) => {
    const viewer = await user(req);
    const q = await canAccessQuestion(db, viewer, req.params.question_id);
    const header = req.headers['last-event-id'];
    const rawLast = (typeof header === 'string' && header.trim()) || req.query.last_event_id || '0';
    const parsedLast = lastEventId.safeParse(rawLast);
    if (!parsedLast.success) throw badRequest('Last-Event-ID 无效', 'Last-Event-ID');

    reply.hijack();
    const res = reply.raw;
    // Headers set by hooks (CORS) are on the reply, which is bypassed from here on.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
      Connection: 'keep-alive',
    });
    openStreams.add(res);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    const close = () => {
      clearInterval(heartbeat);
      openStreams.delete(res);
      res.end();
    };
    let stop = close;
    res.on('close', () => stop());
    res.on('error', () => stop());
    if (res.destroyed) return close(); // the client left before the listeners were in place
    res.write(': stream\n\n');
    stop = followAnswer({ db, store, bus, log: req.log, questionId: q.id, after: parsedLast.data }, { event: (e) => res.write(frameOf(e)), end: close });
  });
}
