import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { channelService } from '../channels/service';
import { answerService } from './answers';
import type { AnswerEngine } from './engine';
import { memoryEventBus } from './events';
import { localEngine } from './local-engine';
import { openAiEngine } from './openai-engine';
import { knowledgePort } from './retrieval-port';
import { toolRegistry } from './tools';

/** DESIGN §4: `openai` when LLM_BASE_URL is set, else `local`. */
export function engineFor(config: Config): AnswerEngine {
  if (!config.LLM_BASE_URL) return localEngine();
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
  const knowledge = knowledgePort(db);
  const tools = toolRegistry();
  const answers = answerService({ db, log, engine, tools, knowledge, bus, maxPerUser: config.CSAI_MAX_ANSWERS_PER_USER });
  const channels = channelService(db, knowledge, answers, engine.name);
  await answers.start();
  return { engine, bus, tools, answers, channels };
}
