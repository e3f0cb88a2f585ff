// `npm run dev`: the API with tsx watch and the Vite dev server (which proxies /api) side by side.
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const children = [
  spawn(bin('tsx'), ['watch', 'src/server/main.ts'], { stdio: 'inherit', env: { CSAI_DEV_OUTBOX: '1', ...process.env } }),
  spawn(bin('vite'), [], { stdio: 'inherit' }),
];
const stop = () => { for (const c of children) c.kill('SIGTERM'); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
