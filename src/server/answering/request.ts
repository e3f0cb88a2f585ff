import { z } from 'zod';
import type { QuestionRequest } from '../../contract/channel';
import { TOOL_NAMES } from '../../contract/tools';
import type { QuestionSources } from '../retrieval/knowledge-port';

/**
 * The options of a question as stored with it (questions.request). A stored request without the
 * two SPEC §4 toggles (written before they were stored) reads them as their defaults: on.
 */
export const storedRequest = z.object({
  docIdList: z.array(z.string()),
  docIdListKnowledge: z.array(z.string()),
  kb_ids: z.array(z.string()),
  knowledgeCSAIDefault: z.array(z.string()),
  client: z.string().nullable(),
  if_search_online: z.boolean().default(true),
  search_type: z.string(),
  if_thinking: z.boolean().default(true),
  deepresearch: z.boolean(),
  tools_name: z.array(z.string()),
});
export type StoredRequest = z.infer<typeof storedRequest>;

const unique = (list: string[]) => [...new Set(list)];

export const toStoredRequest = (q: QuestionRequest): StoredRequest => ({
  docIdList: unique(q.docIdList),
  docIdListKnowledge: unique(q.docIdListKnowledge),
  kb_ids: unique(q.kb_ids),
  knowledgeCSAIDefault: unique(q.knowledgeCSAIDefault),
  client: q.client ?? null,
  if_search_online: q.if_search_online,
  search_type: q.search_type,
  if_thinking: q.if_thinking,
  deepresearch: q.deepresearch,
  // SPEC §4: tools are all on unless the request says which.
  tools_name: q.tools_name ? unique(q.tools_name) : [...TOOL_NAMES],
});

/** The documents and knowledge bases a question draws on. */
export const sourcesOf = (r: Pick<StoredRequest, 'docIdList' | 'docIdListKnowledge' | 'kb_ids' | 'knowledgeCSAIDefault'>): QuestionSources => ({
  docIds: unique(r.docIdList),
  kbIds: unique([...r.kb_ids, ...r.knowledgeCSAIDefault]),
  kbDocIds: unique(r.docIdListKnowledge),
});
