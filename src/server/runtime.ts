import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/database';
import { modelEngine, paced, startAnswering } from './answering';
import { localEngine } from './answering/local-engine';
import { knowledgePort } from './retrieval/knowledge-port';
import { channelService, type ChannelService } from './channels/service';
import { createChemService, type ChemService } from './chem/service';
import type { FileStore } from './files/file-store';
import { openFileStore } from './files/open-file-store';
import { startMoleculeIndexing } from './molecules/indexing';
import { startParsing } from './parsing/parse-job';
import { knowledgeService, type KnowledgeService } from './knowledge/service';
import type { Cluster } from './db/cluster';
import { embeddingClient, embeddingSettings, startEmbeddingIndexer, type EmbeddingIndexer } from './retrieval/embeddings';
import { toolDefinitions } from './tools';
import { createNameResolver } from './tools/names/resolver';
import { startMcpManager, type McpManager } from './tools/mcp/manager';
import { buildTools, createToolRegistry, type ToolRegistry } from './tools/registry';
import type { NameResolver, ToolDefinition } from './tools/types';
import { readPage as crawlPage } from './online/crawl/read-page';
import { onlineServices, onlineSources, type OnlineServices, type OnlineSources } from './online/sources';
import type { ReadPage } from './answering/online-search';
import { startTaskService, type TaskService } from './docking/tasks';
import { settleWithin } from './settle-within';

/**
 * Everything the server runs besides HTTP, started once in app.ts and handed to the routes
 * (which are only HTTP adapters): the parse pipeline and its job runners, the embedding indexer,
 * the chemistry workers, the name resolver, the tool registry and answering.
 */
export interface Runtime {
  files: FileStore;
  chem: ChemService;
  /** Knowledge bases (folders, documents, sharing); adding a document wakes the parse job runners itself. */
  kb: KnowledgeService;
  names: NameResolver;
  /** Durable docking tasks. */
  tasks: TaskService;
  tools: ToolRegistry;
  /** The MCP servers whose tools the registry offers. */
  mcp: McpManager;
  /** The configured online services (web search, literature, patents), built once: the tools and routes use these. */
  onlineServices: OnlineServices;
  /** The same services as answering searches them (the search-type menu), with any sources the options added. */
  online: OnlineSources;
  /** Answering (event bus, answer jobs) and the channels that ask it. */
  /** `hasModel`: a language model answers (else the local engine: no model configured). */
  answering: Awaited<ReturnType<typeof startAnswering>> & { channels: ChannelService; hasModel: boolean };
  /** Stops everything, answers first (they use the rest). */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** The server secret (MCP servers' authentication is stored encrypted under it). */
  secret: Buffer;
  /** Whether this node is one of several over one database (decided once, in app.ts). */
  cluster: Cluster;
  /** The tools to register (default: every definition of src/server/tools/index.ts). */
  tools?: readonly ToolDefinition[];
  /** Online sources besides the configured web search (literature, patents), and a page reader for deep research. */
  online?: OnlineSources;
  readPage?: ReadPage;
  /**
   * Parts the caller runs beside the runtime (a program embedding the server, a test), handed over to
   * be stopped with it: in reverse order, before the runtime's own parts (they may use them), each
   * with the same stop budget; also when the start fails part-way.
   */
  parts?: readonly RuntimePart[];
  /** How long one part may take to stop before it is logged and the rest stop (default STOP_BUDGET_MS, 15 s). */
  stopBudgetMs?: number;
}

/** A part that takes longer than this to stop is named in the log. */
const SLOW_STOP_MS = 5000;
/**
 * Longest the runtime waits for one part to stop (default of RuntimeOptions.stopBudgetMs): a part
 * stuck past it is logged as an error and the stop goes on with the next part, so one stuck part
 * cannot hold the server's shutdown (or a restart by the service manager) indefinitely.
 */
export const STOP_BUDGET_MS = 15_000;

/** Something that runs beside the server and stops with it; `name` is what the log calls it. */
export interface RuntimePart {
  name: string;
  stop(): Promise<unknown>;
}

/**
 * Stops the parts one at a time, in the order given: each is given `budgetMs`; one that throws or is
 * still stopping after it is logged as an error naming it, and the next one stops all the same.
 * One still stopping after a third of its budget (at most 5 s) is named in a warning.
 */
export async function stopParts(parts: readonly RuntimePart[], log: FastifyBaseLogger, budgetMs: number): Promise<void> {
  for (const each of parts) {
    const part = each.name;
    const slow = setTimeout(() => log.warn({ part }, 'runtime part is slow to stop'), Math.min(SLOW_STOP_MS, budgetMs / 3));
    // A stop that throws before returning its promise is a failed stop too, not the end of the others.
    const stopped = Promise.resolve()
      .then(() => each.stop())
      .catch((err: unknown) => log.error({ err, part }, 'runtime part did not stop cleanly'));
    const inTime = await settleWithin(stopped, budgetMs).finally(() => clearTimeout(slow));
    if (!inTime) log.error({ part, budgetMs }, 'runtime part did not stop in time; stopping the rest');
  }
}

/** Starts the runtime; on a failure part-way, what was started is stopped again. */
export async function startRuntime({ config, cluster, db, log, secret, tools: definitions = toolDefinitions, online: extraSources = {}, readPage, parts = [], stopBudgetMs = STOP_BUDGET_MS }: RuntimeOptions): Promise<Runtime> {
  // Each part with its name, stopped in reverse order: the caller's parts first (they run beside the
  // rest and may use it, and are stopped too when the start fails part-way), answering next, the files last.
  const stops: RuntimePart[] = [];
  const handed = [...parts];
  const close = () => stopParts([...stops.splice(0), ...handed.splice(0)].reverse(), log, stopBudgetMs);
  try {
    const files = openFileStore(config);
    stops.push({ name: 'files', stop: async () => files.close() });
    const chem = createChemService();
    stops.push({ name: 'chemistry', stop: () => chem.close() });

    // Optional embeddings (DESIGN §5): parsed documents are queued for their vectors; the indexer
    // starts after the parse pipeline's crash recovery, which would otherwise re-queue its jobs.
    let indexer: EmbeddingIndexer | undefined;
    // The molecule database is filled after each parse or re-index.
    const molecules = await startMoleculeIndexing({ db, files, log });
    stops.push({ name: 'molecule indexing', stop: () => molecules.stop() });
    const parsing = await startParsing({
      db,
      files,
      log,
      structures: config.CSAI_STRUCTURE_RECOGNITION,
      onParsed: (docId) => {
        void indexer?.enqueue(docId);
        molecules.enqueue(docId);
      },
      // The structures read from its drawings join the molecule database.
      onStructures: (docId) => molecules.enqueue(docId),
    });
    stops.push({ name: 'parsing', stop: () => parsing.stop() });
    const kb = knowledgeService(db, files, { wake: () => parsing.wake() });
    const embedding = embeddingSettings(config);
    if (embedding) {
      const started = startEmbeddingIndexer({ db, settings: embedding, log });
      indexer = started;
      stops.push({ name: 'embeddings', stop: () => started.stop() });
    }
    const knowledge = knowledgePort(db, embedding ? { embeddings: embeddingClient(embedding), queryTimeoutMs: embedding.queryTimeoutMs, log } : {});

    // The model (when configured) also serves the tools that ask it something (names → SMILES).
    const model = modelEngine(config);
    const chat = model?.chat;
    const names = createNameResolver({ config, chem, log, ...(chat ? { chat } : {}) });
    stops.push({ name: 'name resolver', stop: () => names.close() });
    // Docking tasks start after the parse pipeline's crash recovery has put interrupted jobs back in the queue.
    const tasks = startTaskService({ config, db, log, files, chem });
    await tasks.start();
    stops.push({ name: 'docking tasks', stop: () => tasks.stop() });
    // Aborted when the runtime stops: tools end their timers (periodic clean-ups) with it.
    const stopping = new AbortController();
    stops.push({ name: 'tool timers', stop: async () => stopping.abort() });
    // 联网搜索: the web, literature and patent services of the configuration, built once.
    const searches = onlineServices(config, log);
    const services = { config, db, log, chem, knowledge, names, files, tasks, online: searches, stopping: stopping.signal, ...(chat ? { chat } : {}) };
    const mcp = await startMcpManager({ config, db, log, secret });
    stops.push({ name: 'MCP', stop: () => mcp.close() });
    const tools = createToolRegistry(buildTools(definitions, services), {
      restricted: config.CSAI_TOOLS_RESTRICTED,
      log,
      sources: [mcp.source],
      // SPEC §6: LDAP_DISABLED_TOOLS are greyed out and refused for accounts that sign in through the directory.
      ldapDisabled: config.LDAP_DISABLED_TOOLS,
      isDirectoryUser: async (userId) =>
        (await db.selectFrom('users').select('auth_source').where('id', '=', userId).executeTakeFirst())?.auth_source === 'ldap',
    });

    const engine = model ?? paced(localEngine({ chem, names, db }), config.CSAI_LOCAL_ENGINE_DELAY_MS);
    const online: OnlineSources = { ...onlineSources(searches), ...extraSources };
    // Deep research reads the best pages through page crawl (robots.txt, SSRF-safe, readable text).
    const started = await startAnswering({ db, config, cluster, log, knowledge, tools, engine, online, readPage: readPage ?? crawlPage });
    stops.push({ name: 'answering', stop: () => started.answers.close() });
    const answering = { ...started, channels: channelService(db, knowledge, started.answers, engine.name, config.dataDir), hasModel: !!model };
    return { files, chem, kb, names, tasks, tools, mcp, onlineServices: searches, online, answering, close };
  } catch (err) {
    await close();
    throw err;
  }
}
