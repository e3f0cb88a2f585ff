import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { finished, type Readable } from 'node:stream';
import { z } from 'zod';
import { AnswerError, citationTracker, type AnswerEngine, type AnswerInput, type AnswerSink, type NumberedHit, type NumberedPassage } from './engine';
import type { ChatCompletion } from '../llm/chat';
import { llmFetch, nodeBody } from '../net/llm-fetch';
import { citationGuard, removedCitationsNotice } from './citation-check';
import type { ToolResultPayload } from '../../contract/tools';
import type { OfferedTool, ToolRegistry } from '../tools/registry';
import { CITING_TOOLS, DOCUMENT_CITING_TOOLS, toolCitations } from './tool-citations';
import { citedByAnswer, subjectTokens, titleText } from './local-engine';
import { titleGuard } from './title-guard';

/** Rounds of tool calls an answer may make; one more round then offers no tools, so the model must answer. */
export const MAX_TOOL_ROUNDS = 8;

export interface OpenAiEngineConfig {
  baseURL: string;
  apiKey?: string | undefined;
  model?: string | undefined;
  reasoningModel?: string | undefined;
  /** A stream silent for this long is given up as stalled. */
  idleTimeoutMs: number;
}

// The chunk's delta as OpenAI-compatible servers send it; reasoning_content (DeepSeek, Qwen, vLLM) is not in the SDK's types.
const chunkDelta = z
  .object({
    content: z.string().nullish(),
    reasoning_content: z.string().nullish(),
    reasoning: z.string().nullish(),
    tool_calls: z
      .array(
        z.object({
          index: z.number().int().min(0).max(63),
          id: z.string().nullish(),
          function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
        }),
      )
      .nullish(),
  })
  .loose();

// A streamed chunk: its first choice's delta (checked by chunkDelta), or an error sent mid-stream.
const streamChunk = z
  .object({ error: z.record(z.string(), z.unknown()).nullish(), choices: z.array(z.object({ delta: z.unknown() }).loose()).nullish() })
  .loose();

/**
 * The text of the usual chunk, `{choices: [{delta: {content: "…"}}]}` with nothing else in its
 * delta (checked without zod: an answer has thousands); undefined for any other chunk.
 */
function plainText(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || 'error' in json || !('choices' in json)) return undefined;
  const choices = json.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (typeof choice !== 'object' || choice === null || !('delta' in choice)) return undefined;
  const delta = choice.delta;
  if (typeof delta !== 'object' || delta === null) return undefined;
  for (const key in delta) if (key !== 'content' && key !== 'role') return undefined;
  return 'content' in delta && typeof delta.content === 'string' ? delta.content : undefined;
}

/**
 * Reads the `data` payloads of a Server-Sent Events body, handing each to `onData` as soon as it is
 * complete (comments and other fields are skipped: chat completions use only `data`). `onData`
 * returns false to stop reading (the rest of the body is not handed on; see `drain`) and may throw, which ends the
 * read with its error. Read by 'data' events, not by an async iterator: an answer has thousands
 * of chunks and thousands of answers may stream at once.
 */
export function readSseData(body: Readable, onData: (data: string) => boolean | void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let buffer = '';
    let data: string[] = [];
    let over = false;
    const end = (err?: unknown) => {
      if (over) return;
      over = true;
      body.off('data', onText);
      stopWatching();
      if (err === undefined) resolve();
      else reject(err);
    };
    /** Hands on the payloads the text completes; false once onData asked to stop. */
    const take = (text: string): boolean => {
      buffer += text;
      let start = 0;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', start)) {
        const line = buffer.charCodeAt(nl - 1) === 13 && nl > start ? buffer.slice(start, nl - 1) : buffer.slice(start, nl);
        start = nl + 1;
        if (line === '') {
          if (!data.length) continue;
          const payload = data.length === 1 ? data[0]! : data.join('\n');
          data = [];
          if (onData(payload) === false) return false;
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5));
        }
      }
      buffer = buffer.slice(start);
      return true;
    };
    const onText = (text: string) => {
      try {
        if (take(text)) return;
      } catch (err) {
        end(err);
        body.destroy();
        return;
      }
      end();
      drain(body);
    };
    const stopWatching = finished(body, (err) => {
      if (err) return end(err);
      try {
        // A last event without its blank line.
        if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.charCodeAt(5) === 32 ? 6 : 5).replace(/\r$/, ''));
        if (data.length) onData(data.join('\n'));
        end();
      } catch (e) {
        end(e);
      }
    });
    body.setEncoding('utf8');
    body.on('data', onText);
  });
}

/** How long the rest of a body stopped early ([DONE]) may take to end before its connection is dropped. */
const DRAIN_MS = 1000;

/**
 * The rest of a body that was stopped early is read and dropped, so its keep-alive connection
 * can serve the next request (a new TLS handshake to a remote model service costs 100s of ms); a
 * body that does not end soon is destroyed.
 */
function drain(body: Readable) {
  body.on('error', () => undefined);
  const timer = setTimeout(() => body.destroy(), DRAIN_MS);
  timer.unref();
  body.once('close', () => clearTimeout(timer));
  body.resume();
}

/** The system prompt (DESIGN §4): the asker's language, cited passages as [n], tools only as offered. */
export function systemPrompt(input: AnswerInput, tools: OfferedTool[]): string {
  const lines = [
    '你是 CSAI，一名面向药物研发与化学研究的助手。',
    '始终使用提问者所用的语言回答：中文问题用中文回答，英文问题用英文回答。',
    '回答准确、简洁，使用 Markdown；SMILES 写在行内代码中；不确定时直接说明。',
  ];
  if (input.passages.length) {
    lines.push(
      '下面是从用户所选文档中检索到的段落，编号为 [n]。凡依据这些段落的陈述，都在句末用对应的 [n] 标注出处（可写作 [1][3]）；只使用下列编号，不要编造引用；段落中没有的信息要说明。',
      '',
      ...input.passages.map(passageBlock),
    );
  } else if (input.hasSources) {
    lines.push('在用户所选文档中没有检索到与问题相关的段落：先说明这一点，再谨慎地依据通用知识回答，不要编造引用。');
  } else {
    lines.push('用户没有选择文档：依据你的知识回答，不要编造引用或出处。');
  }
  const online = input.online ?? [];
  if (online.length) {
    lines.push(
      '',
      '下面是联网搜索到的结果（网页、文献或专利），编号为 [n]。依据它们的陈述同样在句末标注 [n]；这些是网上的摘要，可能不完整或有误，与所选文档冲突时以文档为准并指出分歧。',
      '',
      ...online.map(hitBlock),
    );
  }
  if (tools.length) lines.push('', `可以调用提供的工具（${tools.map((t) => t.label).join('、')}）；不要声称调用过未提供的工具。工具返回失败时，把原因告诉提问者。`);
  if (tools.some((t) => DOCUMENT_CITING_TOOLS.has(t.name))) lines.push('情报数据库检索按活性条件找到的化合物，其结构和活性表格行带有编号 [n]：陈述化合物及其活性时在句末标注对应的 [n]。');
  if (tools.some((t) => CITING_TOOLS.has(t.name))) lines.push('联网搜索或专利检索工具返回的每条结果带有编号 [n]：依据它们的陈述同样在句末标注对应的 [n]，只使用工具给出的编号。');
  return lines.join('\n');
}

const hitBlock = (h: NumberedHit) => `[${h.n}] ${h.title}（${h.site}，${h.url}）\n${h.snippet.trim()}\n`;

const passageBlock = (p: NumberedPassage) => `[${p.n}] 《${p.title}》${p.page ? ` 第${p.page}页` : ''}\n${p.text.trim()}\n`;

/** DESIGN §4 `openai`: any OpenAI-compatible /chat/completions, streamed. */
export function openAiEngine(config: OpenAiEngineConfig): AnswerEngine {
  // Loaded on first use: servers with the local engine never pay for the SDK at start-up.
  let loaded: Promise<{ sdk: typeof import('openai'); client: OpenAI }> | undefined;
  const load = () =>
    (loaded ??= import('openai').then((sdk) => ({
      sdk,
      // `timeout` bounds each attempt until the response starts (one retry for 429/5xx/timeouts);
      // once it streams, the idle timer below watches the gaps between chunks.
      client: new sdk.OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? 'not-needed', maxRetries: 1, timeout: config.idleTimeoutMs, fetch: llmFetch }),
    })));

  const modelFor = (thinking: boolean) => {
    const model = (thinking ? config.reasoningModel : undefined) ?? config.model ?? config.reasoningModel;
    if (!model) throw new AnswerError('未配置语言模型名称（LLM_MODEL），无法生成回答');
    return model;
  };

  /** One streamed completion: content and reasoning go to the handlers as they come; tool calls are gathered. */
  async function streamRound(
    model: string,
    msgs: ChatCompletionMessageParam[],
    offered: ChatCompletionTool[] | undefined,
    signal: AbortSignal,
    on: { content?(text: string): void; reasoning?(text: string): void },
  ) {
    const { sdk, client } = await load();
    const ctl = new AbortController();
    let idle = false;
    const onAbort = () => ctl.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    // One timer watches the gaps between chunks (re-armed when it fires early), not one per chunk.
    let timer: NodeJS.Timeout | undefined;
    let lastChunk = 0;
    const watch = (ms: number) => {
      timer = setTimeout(() => {
        const quiet = Date.now() - lastChunk;
        if (quiet < config.idleTimeoutMs) return watch(config.idleTimeoutMs - quiet);
        idle = true;
        ctl.abort();
      }, ms);
    };
    let content = '';
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    try {
      // The SDK sends the request (retries, errors, timeout until it starts); the streamed body is
      // read here, each chunk as its network read brings it (the SDK's stream costs several async
      // steps per chunk, which adds up over thousands of concurrent answers).
      const response = await client.chat.completions
        .create({ model, messages: msgs, stream: true, ...(offered ? { tools: offered } : {}) }, { signal: ctl.signal })
        .asResponse();
      // The client's fetch is llmFetch, so every body with content has its Node stream.
      const body = nodeBody(response);
      if (!body) throw new AnswerError('与语言模型服务的连接意外中断');
      lastChunk = Date.now();
      watch(config.idleTimeoutMs);
      await readSseData(body, (data) => {
        lastChunk = Date.now();
        if (data.startsWith('[DONE]')) return false;
        const json: unknown = JSON.parse(data);
        const text = plainText(json);
        if (text !== undefined) {
          content += text;
          if (text) on.content?.(text);
          return;
        }
        const chunk = streamChunk.safeParse(json);
        if (!chunk.success) return;
        if (chunk.data.error) throw new sdk.APIError(undefined, chunk.data.error, undefined, response.headers);
        const parsed = chunkDelta.safeParse(chunk.data.choices?.[0]?.delta ?? {});
        if (!parsed.success) return;
        const d = parsed.data;
        const reasoning = d.reasoning_content ?? d.reasoning;
        if (reasoning) on.reasoning?.(reasoning);
        if (d.content) {
          content += d.content;
          on.content?.(d.content);
        }
        for (const t of d.tool_calls ?? []) {
          const call = (calls[t.index] ??= { id: '', name: '', arguments: '' });
          if (t.id) call.id = t.id;
          if (t.function?.name) call.name += t.function.name;
          if (t.function?.arguments) call.arguments += t.function.arguments;
        }
      });
    } catch (err) {
      if (signal.aborted) throw err;
      if (idle) throw stalled();
      throw describe(sdk, err);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) throw new Error('stopped');
    if (idle) throw stalled();
    return { content, calls: calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` })) };
  }

  const chat: ChatCompletion = async ({ messages, thinking, signal }, on) =>
    (await streamRound(modelFor(thinking), messages, undefined, signal, { content: on.content, reasoning: thinking ? on.reasoning : undefined })).content;

  return {
    name: 'openai',
    chat,
    async answer(input: AnswerInput, sink: AnswerSink, registry: ToolRegistry) {
      const model = modelFor(input.options.if_thinking);
      const tools = input.options.tools_name.length ? registry.select(input.options.tools_name) : [];
      const offered = new Set<string>(tools.map((t) => t.name));
      const toolParams: ChatCompletionTool[] = tools.map(functionTool);
      const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt(input, tools) }];
      for (const h of input.history) messages.push({ role: 'user', content: h.question }, { role: 'assistant', content: h.answer });
      messages.push({ role: 'user', content: input.question });
      const citable = [...input.passages, ...(input.online ?? [])];
      const tracker = citationTracker(citable, sink);
      // Every [n] is checked against its passage before it is shown (citation-check.ts).
      const guard = citationGuard(citable, (text) => {
        sink.delta(text);
        tracker.push(text);
      });
      // Online results of the tools the model calls are numbered after these and cited the same way.
      // A source title the model copies is shown as text, never as markdown of its own.
      const titles = titleGuard(citable.flatMap((c) => ('url' in c ? [c.title, c.site] : [c.title])), (text) => guard.push(text));
      const cited = toolCitations(citable, (hits) => {
        tracker.add(hits);
        guard.add(hits);
        titles.add(hits.flatMap((h) => ('url' in h ? [h.title, h.site] : [h.title])));
      });
      const on = {
        content: (text: string) => titles.push(text),
        reasoning: (text: string) => input.options.if_thinking && sink.thinking(text),
      };

      // Up to MAX_TOOL_ROUNDS rounds may call tools; the round after them offers none.
      for (let round = 1; ; round++) {
        const offer = toolParams.length > 0 && round <= MAX_TOOL_ROUNDS;
        const { content, calls } = await streamRound(model, messages, offer ? toolParams : undefined, input.signal, on);
        titles.end();
        const removed = guard.end();
        if (!calls.length || !offer) {
          // Retrieval's best passages the model left uncited are listed after its answer and cited there.
          const rest = uncitedBest(input, tracker.cited);
          if (rest) {
            sink.delta(rest);
            tracker.push(rest);
          }
          if (removed.length) sink.notice(removedCitationsNotice(removed));
          return;
        }
        messages.push({
          role: 'assistant',
          content: content || null,
          tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
        });
        for (const call of calls) {
          sink.toolCall({ call_id: call.id, name: call.name, arguments: call.arguments });
          const result = offered.has(call.name)
            ? cited.cite(call.name, await runCall(registry, call.name, call.arguments, input))
            : { ok: false, content: `没有提供名为“${call.name.slice(0, 100)}”的工具` };
          sink.toolResult({ call_id: call.id, name: call.name, ...result });
          messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
        }
        if (round === MAX_TOOL_ROUNDS) sink.notice(`工具调用已达${MAX_TOOL_ROUNDS}轮上限，直接给出回答`);
      }
    },
  };
}

export const OTHER_PASSAGES_HEADING = '**所选文档中的其他相关段落**';
export const PASSAGES_HEADING = '**所选文档中的相关段落**';

/**
 * The passages an answer without a model would cite (retrieval's best, local-engine.ts
 * `citedByAnswer`) that the model's answer did not cite (or whose citation the check removed),
 * as lines to end the answer with, each citing its passage: an answer never loses what retrieval
 * found. Undefined when the model cited them all or nothing was relevant.
 */
export function uncitedBest(input: Pick<AnswerInput, 'question' | 'passages'>, cited: readonly number[]): string | undefined {
  const done = new Set(cited);
  const rest = citedByAnswer(input.passages, subjectTokens(input.question)).filter((p) => !done.has(p.n));
  if (!rest.length) return undefined;
  const heading = input.passages.some((p) => done.has(p.n)) ? OTHER_PASSAGES_HEADING : PASSAGES_HEADING;
  return ['', '', heading, ...rest.map((p) => `- 《${titleText(p.title)}》${p.page ? `第${p.page}页` : ''} [${p.n}]`)].join('\n');
}

/** A registry tool as an OpenAI function: the same JSON Schema MCP lists. */
export const functionTool = (t: OfferedTool): ChatCompletionTool => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.inputSchema },
});

const stalled = () => new AnswerError('语言模型服务长时间没有响应，已停止生成');

function describe({ APIConnectionError, APIConnectionTimeoutError, APIError }: typeof import('openai'), err: unknown): AnswerError {
  if (err instanceof AnswerError) return err;
  if (err instanceof APIConnectionTimeoutError) return stalled();
  if (err instanceof APIConnectionError) return new AnswerError('无法连接语言模型服务，请检查 LLM_BASE_URL 或稍后重试');
  if (err instanceof APIError) {
    const detail = err.message.replace(/^\d{3}\s*/, '').slice(0, 300);
    return new AnswerError(err.status ? `语言模型服务返回错误（${err.status}）：${detail}` : `语言模型服务出错：${detail}`);
  }
  return new AnswerError('与语言模型服务的连接意外中断');
}

/** One function call: its JSON arguments parsed, then run through the registry (schema, time limit, stop). */
async function runCall(registry: ToolRegistry, name: string, args: string, input: AnswerInput): Promise<ToolResultPayload> {
  let parsed: unknown;
  try {
    parsed = args.trim() ? JSON.parse(args) : {};
  } catch {
    return { ok: false, content: '工具参数不是合法的 JSON' };
  }
  return registry.run(name, parsed, { viewer: input.viewer, docIds: input.docIds, signal: input.signal, questionId: input.questionId });
}
