// Ping and sign-in throughput of the real server, each as a ratio to a bare Fastify
// route measured in the same run. Target: ping >= 0.8x the bare route.
import { openDatabase } from '../src/server/db/database';
import { usersRepo } from '../src/server/auth/accounts';
import { hashPassword } from '../src/server/auth/crypto';
import { median, printFigures, spawnServer, throughput, type Figure } from './lib';

const ROUNDS = 3;

async function xsrfCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
  if (!cookie) throw new Error('no XSRF-TOKEN cookie');
  return cookie.split(';')[0]!;
}

export async function run(): Promise<Figure[]> {
  const bare = await spawnServer('bench/servers/bare.ts');
  // The default password cost (17) is what a real deployment pays per sign-in.
  const csai = await spawnServer('src/server/main.ts');
  try {
    const cookie = await xsrfCookie(csai.url);
    const bareRps: number[] = [];
    const pingRps: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRps.push((await throughput({ url: `${bare.url}/api/v1/` })).rps);
      // A browser sends its cookies with every call; so does this client.
      const ping = await throughput({ url: `${csai.url}/api/v1/`, headers: { cookie } });
      if (ping.non2xx || ping.errors) throw new Error(`ping failed: ${ping.non2xx} non-2xx, ${ping.errors} errors`);
      pingRps.push(ping.rps);
    }

    // Sign-in: 20 accounts at the real password cost.
    const db = await openDatabase(csai.dataDir);
    const users = usersRepo(db);
    const hash = await hashPassword('bench-passw0rd', 17);
    const accounts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const email = `bench${i}@example.com`;
      await users.create({ email, phone: null, name: `压测${i}`, password_hash: hash, department_id: null, status: 'active' });
      accounts.push(email);
    }
    await db.destroy();
    const token = decodeURIComponent(cookie.split('=')[1]!);
    const headers = { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': token };
    // 40 sign-ins: under both the per-account (10) and the per-address (50 per 15 min) limits.
    const total = 40;
    let next = 0;
    let failures = 0;
    const started = Date.now();
    // Four clients at once, each signing in the next account in turn (2 per account).
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < total) {
          const account = accounts[next++ % accounts.length];
          const res = await fetch(`${csai.url}/api/v1/auth/sign-in`, { method: 'POST', headers, body: JSON.stringify({ account, password: 'bench-passw0rd' }) });
          if (!res.ok) failures++;
          await res.arrayBuffer();
        }
      }),
    );
    const signInRps = total / ((Date.now() - started) / 1000);
    if (failures) throw new Error(`sign-in failed ${failures} times`);

    const bareMedian = median(bareRps);
    const pingMedian = median(pingRps);
    return [
      { name: 'ping GET /api/v1/ (req/s)', value: pingMedian.toFixed(0), baseline: `${bareMedian.toFixed(0)} bare Fastify route`, ratio: pingMedian / bareMedian, target: { op: '>=', ratio: 0.8 } },
      { name: 'sign-in POST /api/v1/auth/sign-in, scrypt N=2^17 (req/s)', value: signInRps.toFixed(1), baseline: `${bareMedian.toFixed(0)} bare Fastify route`, ratio: signInRps / bareMedian },
    ];
  } finally {
    await Promise.all([bare.stop(), csai.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printFigures('Server', await run());
