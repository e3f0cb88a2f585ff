// The one OpenAI-compatible /chat/completions stand-in of the server tests: a small HTTP server on
// 127.0.0.1 that records each request and streams what the test's script writes as the real
// protocol does (Server-Sent Events of chat.completion.chunk, a closing chunk, [DONE]; or a JSON
// error). What a model says is each test's own: the answering model (answering-helpers.ts), a
// translator, a name resolver, tool-calling models.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ChatMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
}

/** A /chat/completions request as the server sent it. */
export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: Array<{ function: { name: string } }>;
}

/** What a script answers one request with. Nothing written after the response is gone. */
export interface ChatReply {
  /** The response itself, for what the helpers do not cover (noticing the client went away). */
  readonly res: http.ServerResponse;
  /** One chat.completion.chunk carrying `delta` (the first write starts the event stream). */
  chunk(delta: Record<string, unknown>, finish?: string | null): void;
  /** The text of that chunk's event, not written (to put several in one write). */
  frame(delta: Record<string, unknown>, finish?: string | null): string;
  /** Text written into the event stream as it is: several chunks in one write, an error event. */
  write(text: string): void;
  /** The closing chunk with this finish reason, [DONE], and the end of the response. */
  finish(reason?: string): void;
  /** The end of the response, with nothing more. */
  end(): void;
  /** A JSON error answer ({ error: { message, type } }) instead of a stream. */
  fail(status: number, message: string, type?: string): void;
}

/** A chat script: reads the request, answers through `reply` (it may keep the stream open). */
export type ChatScript = (request: ChatRequest, reply: ChatReply) => void | Promise<void>;

/** Starts the stand-in; `url` is the base URL a client is configured with (…/v1). */
export async function startChatServer(script: ChatScript) {
  const requests: ChatRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const reply = chatReply(request, res);
      Promise.resolve()
        .then(() => script(request, reply))
        .catch((err: unknown) => (res.headersSent ? res.destroy() : reply.fail(500, `the test's model script failed: ${String(err)}`)));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    /** Every request, in the order received. */
    requests,
    /** Stops the server, cutting the streams still open. */
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function chatReply(request: ChatRequest, res: http.ServerResponse): ChatReply {
  const write = (text: string) => {
    if (res.destroyed || res.writableEnded) return;
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(text);
  };
  const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: request.model ?? 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => write(frame(delta, finish));
  const end = () => {
    if (res.destroyed || res.writableEnded) return;
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end();
  };
  return {
    res,
    chunk,
    frame,
    write,
    finish(reason = 'stop') {
      chunk({}, reason);
      write('data: [DONE]\n\n');
      end();
    },
    end,
    fail(status, message, type) {
      if (res.destroyed || res.headersSent) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message, ...(type ? { type } : {}) } }));
    },
  };
}
