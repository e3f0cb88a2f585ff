// Two real server processes over one PostgreSQL and one data folder, as behind a load balancer:
// the set-up of multinode.test.ts and multinode-queue.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startFakeLlm } from './answering-helpers';
import { fileDatabase } from './postgres-harness';
import { exited, freePort, startServerProcess } from './server-process';

export type ServerNode = Awaited<ReturnType<typeof startServerProcess>>;

export interface TwoNodes {
  a: ServerNode;
  b: ServerNode;
  /** A connection of the test to the nodes' database. */
  sql: pg.Client;
  /** The model both nodes talk to (LLM_BASE_URL, model `fake`). */
  llm: Awaited<ReturnType<typeof startFakeLlm>>;
  /** Releases held model requests, kills both nodes, removes the database and the data folder. */
  close: () => Promise<void>;
}

/**
 * A fresh PostgreSQL database (`name`, postgres-harness.ts fileDatabase), a fake model and two
 * nodes on free ports sharing one data folder; `env` is added to both nodes' environment. Node A
 * starts first (it migrates the database). Whatever started is stopped again if a step fails.
 */
export async function startTwoNodes(opts: { name: string; env?: Record<string, string> }): Promise<TwoNodes> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `csai-${opts.name}-`));
  const nodes: ServerNode[] = [];
  let database: Awaited<ReturnType<typeof fileDatabase>> | undefined;
  let llm: Awaited<ReturnType<typeof startFakeLlm>> | undefined;
  let sql: pg.Client | undefined;
  const close = async () => {
    llm?.release();
    for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => exited(n.child)));
    await sql?.end();
    await llm?.close();
    database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    database = await fileDatabase(opts.name);
    llm = await startFakeLlm();
    const env = { DATABASE_URL: database.url, LLM_BASE_URL: llm.url, LLM_MODEL: 'fake', CSAI_LOG_LEVEL: 'error', ...opts.env };
    for (let i = 0; i < 2; i++) nodes.push(await startServerProcess({ dataDir, port: await freePort(), env }));
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    return { a: nodes[0]!, b: nodes[1]!, sql, llm, close };
  } catch (err) {
    await close();
    throw err;
  }
}
