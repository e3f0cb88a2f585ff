import { z } from 'zod';
import { pageQuery } from './envelope';
import { isPlainName } from './text';
import { codeRunRecord } from './code';

/** SPEC §9: a channel is named after the first 50 characters of its first question. */
export const CHANNEL_NAME_LENGTH = 50;
/** SPEC §9: files per question. */
export const MAX_FILES_PER_QUESTION = 6;
/** SPEC §9: knowledge bases per question. */
export const MAX_KNOWLEDGE_BASES_PER_QUESTION = 2;

/** SPEC §5 / §8 messages for sending a question, verbatim. */
export const questionMessages = {
  tooManyFiles: '最多只能选择6个文件',
  tooManyKnowledgeBases: '最多只能选择2个知识库',
  filesThenKnowledge: '已经选择文件，不能选择知识库',
  knowledgeThenFiles: '已经选择知识库，不能选择文件',
  fileParsing: '文件正在解析中，请等待上传完成',
  knowledgeParsing: '知识库解析中，请等待解析完成',
  emptyQuestion: '问题不能为空',
} as const;

/** The first 50 characters (code points, so no surrogate pair is cut) of a trimmed text. */
export const channelNameOf = (text: string) => [...text.trim()].slice(0, CHANNEL_NAME_LENGTH).join('').trim();

const id = (what: string) => z.string({ error: `请提供${what}` }).trim().min(1, `请提供${what}`).max(100, `${what}无效`);
const ids = (what: string) => z.array(id(what), { error: `${what}列表应为数组` });

const channelName = z
  .string({ error: '请输入频道名称' })
  .max(20_000, '频道名称过长')
  .transform(channelNameOf)
  .refine((s) => s.length > 0, '频道名称不能为空')
  .refine(isPlainName, '频道名称不能包含控制字符或不可见的格式字符');

/** POST /channel and PUT /channel/{id}: the name is trimmed and cut to its first 50 characters. */
export const channelNameBody = z.object({ name: channelName }).strict();

/** GET /channel: page, size and an optional literal search in the names. */
export const channelListQuery = pageQuery.extend({
  search: z.string().trim().max(100, '搜索关键词不能超过100个字符').optional(),
});

/** A channel (SPEC §3): one conversation of the signed-in user. */
export const channel = z.object({
  id: z.string(),
  name: z.string(),
  question_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Channel = z.infer<typeof channel>;

/** Path parameter {channel_id}. */
export const channelIdParams = z.object({ channel_id: id('频道') });
/** Path parameter {question_id}. */
export const questionIdParams = z.object({ question_id: id('问题') });
/** Path parameter {id} (channel_docs/{id}: a channel; stop_questions/{id}: a question). */
export const channelRefParams = z.object({ id: id('编号') });

/**
 * POST /channel/init_questions: the question request of SPEC §3. `user_id` is accepted and
 * ignored (the session decides who asks). Files (`docIdList`) and knowledge bases (`kb_ids`,
 * `knowledgeCSAIDefault`, `docIdListKnowledge`) are mutually exclusive (SPEC §5).
 */
export const questionRequest = z
  .object({
    question: z
      .string({ error: questionMessages.emptyQuestion })
      .max(20_000, '问题不能超过20000个字符')
      .transform((s) => s.trim())
      .refine((s) => s.length > 0, questionMessages.emptyQuestion),
    channel_id: id('频道'),
    docIdList: ids('文件').max(MAX_FILES_PER_QUESTION, questionMessages.tooManyFiles).default([]),
    /** Documents picked one by one inside knowledge bases. */
    docIdListKnowledge: ids('知识库文档').max(100, '一次最多选择100篇知识库文档').default([]),
    kb_ids: ids('知识库').max(MAX_KNOWLEDGE_BASES_PER_QUESTION, questionMessages.tooManyKnowledgeBases).default([]),
    /** Default knowledge bases chosen for the user (public folders); they count towards the limit of 2. */
    knowledgeCSAIDefault: ids('知识库').max(MAX_KNOWLEDGE_BASES_PER_QUESTION, questionMessages.tooManyKnowledgeBases).default([]),
    client: z.string().trim().max(50, 'client 不能超过50个字符').optional(),
    user_id: z.union([z.string().max(100), z.number(), z.null()]).optional(),
    /** SPEC §4: online search is on unless the asker turns it off. */
    if_search_online: z.boolean().default(true),
    search_type: z
      .string()
      .trim()
      .max(30, 'search_type 无效')
      .regex(/^[a-z_]*$/, 'search_type 无效')
      .transform((s) => s || 'all')
      .default('all'),
    /** SPEC §4: thinking is on unless the asker turns it off. */
    if_thinking: z.boolean().default(true),
    deepresearch: z.boolean().default(false),
    /** The tools the answer may use (tool values). Absent: every tool (SPEC §4: all on by default); []: none. */
    tools_name: z.array(z.string().trim().min(1, '工具名称不能为空').max(100, '工具名称无效'), { error: 'tools_name 应为数组' }).max(50, '工具过多').optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    const kbs = new Set([...q.kb_ids, ...q.knowledgeCSAIDefault]);
    if (kbs.size > MAX_KNOWLEDGE_BASES_PER_QUESTION) ctx.addIssue({ code: 'custom', message: questionMessages.tooManyKnowledgeBases, path: ['kb_ids'] });
    if (q.docIdList.length && (kbs.size || q.docIdListKnowledge.length)) ctx.addIssue({ code: 'custom', message: questionMessages.filesThenKnowledge, path: ['kb_ids'] });
  });
export type QuestionRequest = z.infer<typeof questionRequest>;

/** init_questions answer: the new question's id; its answer starts at once or waits as `queued`. */
export const initQuestionResult = z.object({ question_id: z.string(), channel_id: z.string(), status: z.enum(['queued', 'running']) });

/** DESIGN §3: an answer's life. */
export const answerStatus = z.enum(['queued', 'running', 'done', 'stopped', 'failed']);
export type AnswerStatus = z.infer<typeof answerStatus>;

/** A document citation (DESIGN §3): `page` counted from 1 as pdf.js counts, `bbox` in PDF points on that page. */
export const docCitation = z.object({
  n: z.number().int().min(1),
  docId: z.string(),
  title: z.string(),
  page: z.number().int().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  text: z.string(),
});
export type DocCitation = z.infer<typeof docCitation>;
/**
 * An online citation: a web page, paper or patent found by online search. `site` is
 * the site's or source's name shown with it; `fetchedAt` when it was found (ISO time); `kind`
 * which source found it. Opens `url` in a new tab.
 */
export const webCitation = z.object({
  n: z.number().int().min(1),
  url: z.string().regex(/^https?:\/\//i),
  title: z.string(),
  site: z.string(),
  snippet: z.string(),
  fetchedAt: z.string(),
  kind: z.enum(['web', 'literature', 'patent']),
});
export type WebCitation = z.infer<typeof webCitation>;
/** A citation of an answer: a document passage or an online result (told apart by `url`). */
export const citation = z.union([docCitation, webCitation]);
export type Citation = z.infer<typeof citation>;
/** Whether a citation is an online result (a web page, paper or patent). */
export const isWebCitation = (c: Citation): c is WebCitation => 'url' in c;

/** `status`: the answer's state; with a message, a notice (running) or why it waits (queued). */
export const statusEventData = z.object({ status: answerStatus, message: z.string().optional() });
/** `delta` (answer text) and `thinking` (reasoning text): a piece to append. */
export const textEventData = z.object({ text: z.string() });
/** `tool_call`: the model calls a tool with JSON arguments. */
export const toolCallEventData = z.object({ call_id: z.string(), name: z.string(), arguments: z.string() });
/**
 * `tool_result`: what the tool gave back — `content` the text the model read (on a failure, the
 * Chinese message shown in the card), `data` the tool's structured output the card renders.
 */
export const toolResultEventData = z.object({ call_id: z.string(), name: z.string(), ok: z.boolean(), content: z.string(), data: z.unknown().optional() });
/**
 * `research_step`: a step of deep research. `step` is its kind (`plan`, `search`, `web`, `read`,
 * `write`, `resume`); `index` the sub-question (from 1) a search step is about; `progress` the
 * steps done of all steps (plan, one search per sub-question, read, write); `plan` the
 * sub-questions, on the `plan` step.
 */
export const researchStepEventData = z.object({
  step: z.string(),
  title: z.string(),
  detail: z.string().optional(),
  index: z.number().int().min(1).optional(),
  progress: z.object({ current: z.number().int().min(0), total: z.number().int().min(1) }).optional(),
  plan: z.array(z.string()).optional(),
});
export type ResearchStep = z.infer<typeof researchStepEventData>;
/** `done`: the answer ended normally or was stopped; the stream ends. */
export const doneEventData = z.object({ status: z.enum(['done', 'stopped']) });
/** `error`: the answer failed, with a message for the asker; the stream ends. */
export const errorEventData = z.object({ status: z.literal('failed'), message: z.string() });

/**
 * One SSE event of an answer (GET /channel/questions/{question_id}/events): `id` increments per
 * question (send it back as Last-Event-ID to resume); `done` or `error` is the last event.
 */
export const answerEvent = z.discriminatedUnion('event', [
  z.object({ id: z.number().int(), event: z.literal('status'), data: statusEventData }),
  z.object({ id: z.number().int(), event: z.literal('thinking'), data: textEventData }),
  z.object({ id: z.number().int(), event: z.literal('delta'), data: textEventData }),
  z.object({ id: z.number().int(), event: z.literal('tool_call'), data: toolCallEventData }),
  z.object({ id: z.number().int(), event: z.literal('tool_result'), data: toolResultEventData }),
  z.object({ id: z.number().int(), event: z.literal('citation'), data: citation }),
  z.object({ id: z.number().int(), event: z.literal('research_step'), data: researchStepEventData }),
  z.object({ id: z.number().int(), event: z.literal('done'), data: doneEventData }),
  z.object({ id: z.number().int(), event: z.literal('error'), data: errorEventData }),
]);
export type AnswerEvent = z.infer<typeof answerEvent>;
export type AnswerEventName = AnswerEvent['event'];

/** A step shown above the answer: a tool call, its result, a research step or a notice. */
export const answerStep = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tool_call'), ...toolCallEventData.shape }),
  z.object({ type: z.literal('tool_result'), ...toolResultEventData.shape }),
  z.object({ type: z.literal('research_step'), ...researchStepEventData.shape }),
  z.object({ type: z.literal('notice'), message: z.string() }),
]);
export type AnswerStep = z.infer<typeof answerStep>;

/** One question of a channel with its answer so far. */
export const question = z.object({
  question_id: z.string(),
  channel_id: z.string(),
  question: z.string(),
  status: answerStatus,
  answer: z.string(),
  thinking: z.string(),
  steps: z.array(answerStep),
  citations: z.array(citation),
  error: z.string().nullable(),
  effect: z.enum(['like', 'dislike']).nullable(),
  effect_comment: z.string().nullable(),
  docIdList: z.array(z.string()),
  docIdListKnowledge: z.array(z.string()),
  kb_ids: z.array(z.string()),
  if_search_online: z.boolean(),
  search_type: z.string(),
  if_thinking: z.boolean(),
  deepresearch: z.boolean(),
  tools_name: z.array(z.string()),
  engine: z.string(),
  /** The id of the newest event so far: open the event stream with Last-Event-ID set to it to get only what follows. */
  last_event_id: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** The last 运行 of each Python block of the answer, shown under its block (the server always sends it). */
  code_runs: z.array(codeRunRecord).optional(),
});
export type Question = z.infer<typeof question>;

/** GET /channel/questions/{channel_id}: newest first (page 1 holds the latest questions). */
export const questionListQuery = pageQuery;

/** POST answer/effect: like, dislike (optionally with a comment) or clear. */
export const effectBody = z
  .object({
    question_id: id('问题'),
    effect: z.enum(['like', 'dislike', 'clear'], { error: 'effect 只能是 like、dislike 或 clear' }),
    comment: z.string().trim().max(1000, '评论不能超过1000个字符').optional(),
  })
  .strict();

/** The feedback as stored. */
export const effectResult = z.object({ question_id: z.string(), effect: z.enum(['like', 'dislike']).nullable(), effect_comment: z.string().nullable() });
/** PUT stop_questions/{id}: the status after stopping (`stopped`, or how it had already ended). */
export const stopResult = z.object({ question_id: z.string(), status: answerStatus });
/** Deletions: how many were removed. */
export const deletedResult = z.object({ deleted: z.number().int() });

/** A tool entry (SPEC §3). Tools not implemented yet are listed with enabled:false and say so. */
export const toolEntry = z.object({
  id: z.string(),
  label: z.string(),
  value: z.string(),
  description: z.string(),
  icon: z.string(),
  enabled: z.boolean(),
  ldap_disabled: z.boolean(),
});
export type ToolEntry = z.infer<typeof toolEntry>;
/** A group of tools (SPEC §9 tool groups). */
export const toolGroup = z.object({ id: z.string(), label: z.string(), tools: z.array(toolEntry) });
export type ToolGroup = z.infer<typeof toolGroup>;
