import { z } from 'zod';

/** Limits of the code execution input. */
export const CODE_LIMITS = {
  /** Characters of Python source in one run. */
  code: 64_000,
  /** Documents mounted read-only under /input in one run. */
  files: 6,
} as const;

export const codeMessages = {
  empty: '请提供要运行的 Python 代码',
  tooLong: `代码不能超过${CODE_LIMITS.code}个字符`,
  tooManyFiles: `一次最多挂载${CODE_LIMITS.files}个文件`,
  badFile: '文件标识无效',
  badQuestion: '问题标识无效',
  badBlock: '代码块编号无效',
  blockWithoutQuestion: '代码块编号需要和问题标识一起提供',
} as const;

/** Python blocks of one answer that can keep a run (their index is 0 … MAX_BLOCKS - 1). */
export const MAX_CODE_BLOCKS = 100;

const code = z
  .string({ error: codeMessages.empty })
  .max(CODE_LIMITS.code, codeMessages.tooLong)
  .refine((s) => s.trim().length > 0, codeMessages.empty);
const fileRef = z.string({ error: codeMessages.badFile }).trim().min(1, codeMessages.badFile).max(300, codeMessages.badFile);

/**
 * Input of the `code_execution` tool: Python source, and optionally which of the question's
 * documents to mount (ids or titles; absent: all of them).
 */
export const codeExecutionInput = z
  .object({
    code,
    files: z.array(fileRef).max(CODE_LIMITS.files, codeMessages.tooManyFiles).optional(),
  })
  .strict();
export type CodeExecutionInput = z.infer<typeof codeExecutionInput>;

/**
 * POST /api/v1/code/run: run code typed or shown in an answer, with documents the caller may read.
 * With `question_id` and `block` (the index of the Python block among the answer's Python blocks)
 * the run is kept with that answer — its last run per block is shown again when the channel is
 * opened — and its files belong to the question.
 */
export const codeRunBody = z
  .object(
    {
      code,
      doc_ids: z.array(fileRef).max(CODE_LIMITS.files, codeMessages.tooManyFiles).default([]),
      question_id: z.string({ error: codeMessages.badQuestion }).trim().min(1, codeMessages.badQuestion).max(64, codeMessages.badQuestion).optional(),
      block: z
        .number({ error: codeMessages.badBlock })
        .int(codeMessages.badBlock)
        .min(0, codeMessages.badBlock)
        .max(MAX_CODE_BLOCKS - 1, codeMessages.badBlock)
        .optional(),
    },
    { error: '请求体必须是 JSON 对象' },
  )
  .strict()
  .refine((b) => (b.question_id === undefined) === (b.block === undefined), { message: codeMessages.blockWithoutQuestion, path: ['block'] });
export type CodeRunBody = z.infer<typeof codeRunBody>;

/** A file the code left in its work directory, kept with the answer (served by GET /api/v1/code/artifacts/{id}). */
export const codeArtifact = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  /** image: a PNG or SVG shown in the answer; file: offered for download. */
  kind: z.enum(['image', 'file']),
});
export type CodeArtifact = z.infer<typeof codeArtifact>;

/** How a run ended: normal exit (`ok` / `error` by exit code) or stopped by the sandbox. */
export const CODE_RUN_STATUSES = ['ok', 'error', 'timeout', 'output_limit', 'memory_limit', 'stopped', 'lost'] as const;

export const codeExecutionResult = z.object({
  status: z.enum(CODE_RUN_STATUSES),
  exit_code: z.number().int().nullable(),
  /** One Chinese sentence on how the run ended. */
  message: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  stdout_truncated: z.boolean(),
  stderr_truncated: z.boolean(),
  /** Names of the documents mounted under /input. */
  inputs: z.array(z.string()),
  artifacts: z.array(codeArtifact),
  /** Files left in the work directory but not kept (over the count or size limit). */
  skipped_files: z.array(z.object({ name: z.string(), size: z.number().int() })),
  duration_ms: z.number().int(),
});
export type CodeExecutionResult = z.infer<typeof codeExecutionResult>;

/** The last 运行 of one Python block of an answer, kept with its question (GET /channel/questions lists them). */
export const codeRunRecord = z.object({
  /** Index of the block among the answer's Python blocks. */
  block: z.number().int(),
  code: z.string(),
  result: codeExecutionResult,
  created_at: z.string(),
});
export type CodeRunRecord = z.infer<typeof codeRunRecord>;

export const artifactParams = z.object({ id: z.string().max(64, '文件不存在').regex(/^[A-Za-z0-9_-]{8,64}$/, '文件不存在') }).strict();

/** GET /api/v1/code/artifacts: the caller's files of runs without a question (they expire), and what their kept files take against the quota. */
export const looseArtifacts = z.object({
  artifacts: z.array(codeArtifact.extend({ created_at: z.string(), expires_at: z.string() })),
  used_bytes: z.number().int(),
  used_files: z.number().int(),
  quota_bytes: z.number().int(),
  quota_files: z.number().int(),
});
export type LooseArtifacts = z.infer<typeof looseArtifacts>;
export const artifactsDeleted = z.object({ deleted: z.number().int() });
