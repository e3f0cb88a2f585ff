// A stub OpenAI-compatible /chat/completions server for the streaming benchmarks.
// POST …/chat/completions answers with Server-Sent Events at once; the first chunk leaves
// immediately. STUB_INTERVAL_MS = 0 (default): a few chunks back to back, then [DONE].
// STUB_INTERVAL_MS > 0: one token every that many ms until STUB_TOKENS were sent or the client
// left. Every content token is " t<epoch ms>", the wall-clock time it was written, so a client on
// the same machine measures its lag as receive time minus that time. Any GET answers 200 (the
// readiness check of bench/lib.ts spawnServer).
import http from 'node:http';

const interval = Number(process.env.STUB_INTERVAL_MS ?? 0);
const tokens = Number(process.env.STUB_TOKENS ?? (interval > 0 ? 100_000 : 4));

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'stub', object: 'chat.completion.chunk', created: 1, model: 'stub', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const token = () => chunk({ content: ` t${Date.now()}` });

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('stub llm');
    return;
  }
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk({ role: 'assistant', content: '' }) + token());
    let sent = 1;
    if (interval <= 0) {
      for (; sent < tokens; sent++) res.write(token());
      res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
      return;
    }
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(token());
      if (++sent < tokens) return;
      clearInterval(timer);
      res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
    }, interval);
    res.on('close', () => clearInterval(timer));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
