import { readFileSync } from 'node:fs';
import { buildApp } from './app';
import { loadConfig } from './config';
import { DatabaseOpenError } from './db/database';
import { STOP_BUDGET_MS } from './runtime';

/** Owns the process: configuration, listening, and a graceful close on SIGINT/SIGTERM. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const version = readPackageVersion();
  const app = await buildApp({ config, version });
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // The HTTP connections and each runtime part get STOP_BUDGET_MS before they are logged and cut
    // off; past both budgets and a margin, something outside them hangs: leave anyway.
    const force = setTimeout(() => {
      app.log.error({ signal }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, 2 * STOP_BUDGET_MS + 5_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '127.0.0.1' ? 'localhost' : config.HOST;
  app.log.info(
    `CSAI ${version} is running on http://${host}:${port} (data in ${config.dataDir}). ` +
      `Sign up in the browser, or create the first administrator with: npm run user -- create --admin --email you@example.com --name 管理员`,
  );
}

function readPackageVersion(): string {
  for (const candidate of ['../../package.json', '../package.json', './package.json']) {
    try {
      return (JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { version: string }).version;
    } catch {
      // try the next location: the bundle and the sources sit at different depths
    }
  }
  return '0.0.0';
}

void main().catch((err: unknown) => {
  // A database that cannot be opened is a configuration matter: one line, no stack trace.
  if (err instanceof DatabaseOpenError) {
    console.error(`CSAI failed to start: ${err.message}`);
    process.exit(2);
  }
  console.error('CSAI failed to start:', err);
  process.exit(1);
});
