import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { artifactParams, artifactsDeleted, codeExecutionResult, codeRunBody, looseArtifacts } from '../../contract/code';
import { AppError, notFound } from '../errors';
import { contentDisposition } from '../knowledge/names';
import { artifactStore } from '../sandbox/artifacts';
import { codeRunStore } from '../sandbox/runs';
import { canAccessQuestion } from '../channels/service';
import { isQuotaMessage, isRateMessage } from '../tools/code-execution';
import { artifactQuota } from '../sandbox/service';
import { ok, type App, type Services } from './types';

const tags = ['tools'];
const ARTIFACT_NOT_FOUND = '文件不存在';
const ANSWER_NOT_DONE = '回答完成后才能运行其中的代码';

/**
 * POST /api/v1/code/run: the "运行" button of a code block (answer or question box), without a
 * model, in the same sandbox as the code_execution tool; with a question and block, the run is
 * kept as that block's last run. GET /api/v1/code/artifacts/{id}: a file a run kept, to whoever
 * may read the question it was made for (a run without a question: only its user).
 */
export default async function codeRoutes(app: App, { db, config, runtime }: Services) {
  const artifacts = artifactStore(db, config.dataDir);
  const runs = codeRunStore(db, config.dataDir);

  app.post('/run', {
    schema: {
      tags,
      summary: 'Run Python in the sandbox (no network, read-only system, time/memory/output limits); documents in doc_ids are mounted read-only under /input',
      body: codeRunBody,
      response: { 200: okSchema(codeExecutionResult), ...errorResponses, 503: errorResponses[400] },
    },
  }, async (req) => {
    const { userId } = await req.requireUser();
    const { question_id: questionId, block } = req.body;
    if (questionId !== undefined) {
      const question = await canAccessQuestion(db, { userId }, questionId);
      if (question.status === 'queued' || question.status === 'running') throw new AppError(409, 'answer_running', ANSWER_NOT_DONE);
    }
    const groups = runtime.tools.groups();
    const entry = groups.flatMap((g) => g.tools).find((t) => t.value === 'code_execution');
    if (!entry?.enabled) throw new AppError(503, 'tool_disabled', entry?.description ?? '代码执行不可用');
    // The run stops when the caller goes away.
    const gone = new AbortController();
    const onClose = () => gone.abort();
    req.raw.socket.on('close', onClose);
    try {
      const input = { code: req.body.code, ...(req.body.doc_ids.length ? { files: req.body.doc_ids } : {}) };
      const result = await runtime.tools.run('code_execution', input, { viewer: { userId }, docIds: req.body.doc_ids, signal: gone.signal, questionId });
      // The per-user limits are the tool's (they hold for MCP and answers too); here they are a 429,
      // and a full file quota a 403: nothing ran, nothing was written.
      if (!result.ok && isRateMessage(result.content)) throw new AppError(429, 'too_many_runs', result.content);
      if (!result.ok && isQuotaMessage(result.content)) throw new AppError(403, 'artifact_quota', result.content);
      if (!result.ok) throw new AppError(400, 'run_failed', result.content);
      const out = codeExecutionResult.parse(result.data);
      // Kept as the block's last run, shown under it when the channel is opened again.
      if (questionId !== undefined && block !== undefined && !(await runs.keep({ questionId, block, userId, code: req.body.code, result: out }))) {
        throw notFound('问题不存在');
      }
      return ok(out, result.content.split('\n')[0] ?? '');
    } finally {
      req.raw.socket.off('close', onClose);
    }
  });

  const quota = artifactQuota(config);
  const ttlMs = config.CSAI_ARTIFACT_TTL_HOURS * 3600_000;

  app.get('/artifacts', {
    schema: { tags, summary: "The caller's files of runs without a question (removed after CSAI_ARTIFACT_TTL_HOURS), and what all their kept run files take against the per-user quota", response: { 200: okSchema(looseArtifacts), ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    const [rows, used] = await Promise.all([artifacts.listLoose(userId), artifacts.usage(userId)]);
    return ok({
      artifacts: rows.map((r) => ({ id: r.id, name: r.name, mime: r.mime, size: r.size, kind: r.kind, created_at: r.created_at, expires_at: new Date(Date.parse(r.created_at) + ttlMs).toISOString() })),
      used_bytes: used.bytes,
      used_files: used.files,
      quota_bytes: quota.bytes,
      quota_files: quota.files,
    });
  });

  app.delete('/artifacts', {
    schema: { tags, summary: "Deletes all the caller's files of runs without a question (files kept with an answer go with their question or channel)", response: { 200: okSchema(artifactsDeleted), ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    return ok({ deleted: await artifacts.removeLoose(userId) }, '已删除');
  });

  app.delete('/artifacts/:id', {
    schema: { tags, summary: "Deletes one of the caller's files of a run without a question", params: artifactParams, response: { 200: okSchema(artifactsDeleted), ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    const deleted = await artifacts.removeLoose(userId, req.params.id);
    if (!deleted) throw notFound(ARTIFACT_NOT_FOUND);
    return ok({ deleted }, '已删除');
  });

  app.get('/artifacts/:id', {
    schema: { tags, summary: 'A file a sandboxed run kept (picture or download); for whoever may read the question it was made for, else only the user whose run made it', params: artifactParams },
  }, async (req, reply) => {
    const viewer = await req.requireUser();
    const found = await artifacts.open(req.params.id, async (row) => {
      if (row.question_id === null) return row.user_id === viewer.userId;
      // The question's access check (DESIGN §9): whoever may read the answer may read its files.
      return canAccessQuestion(db, viewer, row.question_id).then(
        () => true,
        () => false,
      );
    });
    if (!found) throw notFound(ARTIFACT_NOT_FOUND);
    const { row, stream } = found;
    reply
      .header('Content-Type', row.mime)
      .header('Content-Length', String(row.size))
      .header('X-Content-Type-Options', 'nosniff')
      // An SVG opened on its own runs no script and loads nothing.
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
      .header('Cache-Control', 'private, max-age=86400, immutable');
    if (row.kind !== 'image') reply.header('Content-Disposition', contentDisposition(row.name.split('/').pop() ?? row.name));
    return reply.send(stream);
  });
}
