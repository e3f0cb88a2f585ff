import { startPostgres, SUITE_SERVER_ENV, type PostgresServer } from './postgres-harness';

/**
 * vitest globalSetup of the server suite on PostgreSQL (CSAI_TEST_DB=postgres): one real
 * PostgreSQL for the run; each test's data folder gets its own database (postgres-harness.ts).
 */
let server: PostgresServer | undefined;

export async function setup() {
  server = await startPostgres();
  process.env[SUITE_SERVER_ENV] = server.base;
}

export function teardown() {
  server?.stop();
}
