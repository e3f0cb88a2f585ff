// Serves demo/ on its own origin so the embedding examples load CSAI from another one, as a
// portal or an electronic lab notebook would. `{{CSAI_ORIGIN}}` in the pages becomes the CSAI
// server's origin.
//   CSAI_ORIGIN=http://127.0.0.1:8080 DEMO_PORT=8090 node scripts/demo-server.mjs
// Start CSAI with CSAI_CORS_ORIGINS=http://127.0.0.1:8090 so the elements may call its API.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const demoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../demo');
const types = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/** Starts the demo server; resolves to its URL and a close function. Port 0 lets the OS pick. */
export function startDemoServer({ port = 8090, host = '127.0.0.1', csaiOrigin = 'http://127.0.0.1:8080' } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://demo');
    const name = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = path.resolve(demoDir, name);
    const type = types[path.extname(file)];
    if (!file.startsWith(demoDir + path.sep) || !type || !fs.existsSync(file) || req.method !== 'GET') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    let body = fs.readFileSync(file, 'utf8');
    if (type.startsWith('text/html')) body = body.replaceAll('{{CSAI_ORIGIN}}', csaiOrigin);
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' }).end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
      resolve({ url, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const csaiOrigin = (process.env.CSAI_ORIGIN ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const { url } = await startDemoServer({ port: Number(process.env.DEMO_PORT ?? 8090), csaiOrigin });
  console.log(`Demo pages on ${url} (CSAI at ${csaiOrigin}; start it with CSAI_CORS_ORIGINS=${url})`);
}
