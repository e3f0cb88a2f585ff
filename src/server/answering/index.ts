import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { channelService } from '../channels/service';
import { answerService } from './answers';
import type { AnswerEngine, AnswerSink } from './engine';
import { memoryEventBus } from './events';
import { localEngine } from './local-engine';
import { openAiEngine } from './openai-engine';
import { knowledgePort } from './retrieval-port';
import { embeddingClient, embeddingSettings } from '../retrieval/embeddings';
import { toolRegistry } from './tools';

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

/** DESIGN §4: `openai` when LLM_BASE_URL is set, else `local`. */
export function engineFor(config: Config): AnswerEngine {
  if (!config.LLM_BASE_URL) return paced(localEngine(), config.CSAI_LOCAL_ENGINE_DELAY_MS);
  return openAiEngine({
    baseURL: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    reasoningModel: config.LLM_REASONING_MODEL,
    idleTimeoutMs: config.LLM_IDLE_TIMEOUT_MS,
  });
}

/** Wires answering together: engine, tools, knowledge port, event bus, answer jobs, channels. */
export async function startAnswering({ db, config, log }: { db: Db; config: Config; log: FastifyBaseLogger }) {
  const engine = engineFor(config);
  const bus = memoryEventBus();
  const embedding = embeddingSettings(config);
  const knowledge = knowledgePort(db, embedding ? { embeddings: embeddingClient(embedding), queryTimeoutMs: embedding.queryTimeoutMs, log } : {});
  const tools = toolRegistry();
  const answers = answerService({ db, log, engine, tools, knowledge, bus, maxPerUser: config.CSAI_MAX_ANSWERS_PER_USER });
  const channels = channelService(db, knowledge, answers, engine.name);
  await answers.start();
  return { engine, bus, tools, answers, channels };
}
