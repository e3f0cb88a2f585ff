// The streams benchmark's baseline: a bare Node SSE relay with no storage, no sign-in and no
// answer model. GET /events opens one streamed completion at the stub LLM (UPSTREAM) and passes
// each content token on as an SSE `delta` event, as CSAI does for an answer. What it holds is what
// this machine, the stub and the client allow; CSAI is measured against it in the same run.
import http from 'node:http';

const upstream = new URL(`${process.env.UPSTREAM ?? ''}/chat/completions`);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || !req.url?.startsWith('/events')) {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('bare relay');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const call = http.request(upstream, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (up) => {
    up.setEncoding('utf8');
    let tail = '';
    let seq = 0;
    up.on('data', (text: string) => {
      const all = tail + text;
      const cut = all.lastIndexOf('\n\n');
      tail = all.slice(cut + 2);
      for (const line of all.slice(0, cut + 2).split('\n')) {
        if (!line.startsWith('data: {')) continue;
        const content = (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content;
        if (content) res.write(`id: ${++seq}\nevent: delta\ndata: ${JSON.stringify({ text: content })}\n\n`);
      }
    });
    up.on('end', () => res.end('event: done\ndata: {}\n\n'));
  });
  call.on('error', () => res.destroy());
  call.end(JSON.stringify({ model: 'stub', stream: true, messages: [{ role: 'user', content: req.url }] }));
  res.on('close', () => call.destroy());
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
