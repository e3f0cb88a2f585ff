import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Cluster } from '../db/cluster';
import type { Db } from '../db/database';
import { answerService } from './answers';
import type { AnswerEngine, AnswerSink } from './engine';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { memoryEventBus } from './events';
import { pgEventBus } from './pg-bus';
import { openAiEngine } from './openai-engine';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import type { ToolRegistry } from '../tools/registry';
import type { OnlineSources } from '../online/sources';
import type { ReadPage } from './online-search';

/**
 * Test-only pacing (CSAI_LOCAL_ENGINE_DELAY_MS): the engine's output is replayed to the sink with a
 * pause before each piece, so a browser test can reload while an answer is still streaming. A stop
 * (the run's abort signal) ends the replay.
 */
export function paced(engine: AnswerEngine, ms: number): AnswerEngine {
  if (ms <= 0) return engine;
  return {
    name: engine.name,
    async answer(input, sink, tools) {
      const calls: (() => void)[] = [];
      const buffered: AnswerSink = {
        notice: (m) => calls.push(() => sink.notice(m)),
        thinking: (t) => calls.push(() => sink.thinking(t)),
        delta: (t) => calls.push(() => sink.delta(t)),
        toolCall: (c) => calls.push(() => sink.toolCall(c)),
        toolResult: (r) => calls.push(() => sink.toolResult(r)),
        citation: (c) => calls.push(() => sink.citation(c)),
        researchStep: (s) => calls.push(() => sink.researchStep(s)),
      };
      await engine.answer(input, buffered, tools);
      for (const call of calls) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (input.signal.aborted) return;
        call();
      }
    },
  };
}

/** DESIGN §4: the `openai` engine when LLM_BASE_URL is set; undefined means the local engine answers. */
export function modelEngine(config: Config): AnswerEngine | undefined {
  if (!config.LLM_BASE_URL) return undefined;
  return openAiEngine({
    baseURL: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    reasoningModel: config.LLM_REASONING_MODEL,
    idleTimeoutMs: config.LLM_IDLE_TIMEOUT_MS,
  });
}

/** Wires answering together over the runtime's engine, knowledge port and tools: event bus, answer jobs. */
export async function startAnswering({
  db,
  config,
  cluster,
  log,
  engine,
  knowledge,
  tools,
  online = {},
  readPage,
}: {
  db: Db;
  config: Config;
  /** Several nodes over PostgreSQL: the shared event log, its bus and a node lease. */
  cluster: Cluster;
  log: FastifyBaseLogger;
  engine: AnswerEngine;
  knowledge: KnowledgePort;
  tools: ToolRegistry;
  online?: OnlineSources;
  readPage?: ReadPage;
}) {
  // PostgreSQL: this process is one node of possibly several: events fan out over
  // LISTEN/NOTIFY, and a lease lets the other nodes finish its answers if it dies.
  // The node id is the host and port, the same when the node starts again (so it takes its own
  // interrupted answers over at once, without waiting for its old lease); random on port 0.
  const nodeId = config.PORT ? `${os.hostname()}:${config.PORT}` : randomUUID();
  const node = cluster.several ? { id: nodeId, leaseMs: config.CSAI_NODE_LEASE_MS } : undefined;
  const shared = node && cluster.several ? { ...node, bus: pgEventBus({ url: cluster.databaseUrl, db, nodeId: node.id, log }) } : undefined;
  const bus = shared?.bus ?? memoryEventBus();
  const answers = answerService({
    db,
    log,
    engine,
    tools,
    knowledge,
    bus,
    maxPerUser: config.CSAI_MAX_ANSWERS_PER_USER,
    researchBudgetMs: config.CSAI_DEEP_RESEARCH_MINUTES * 60_000,
    online,
    ...(readPage ? { readPage } : {}),
    ...(shared ? { node: shared } : {}),
  });
  await answers.start();
  return { engine, bus, tools, answers };
}
