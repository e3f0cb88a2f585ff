import { codeExecutionInput, codeExecutionResult, type CodeExecutionInput, type CodeExecutionResult } from '../../contract/code';
import { docReadable } from '../access/access';
import type { FileStore } from '../files/file-store';
import { artifactStore, quotaFullMessage } from '../sandbox/artifacts';
import { artifactQuota, createSandbox } from '../sandbox/service';
import { describeMemoryCap, memoryCap } from '../sandbox/cgroup';
import { ToolInputError, type ToolContext, type ToolServices, type Tool, defineTool } from './types';

/** SPEC §3 document types and the extension a mounted copy gets. */
const EXTENSIONS: Record<number, string> = { 1: '.pdf', 3: '', 5: '.sdf', 6: '.pdb' };

/** A document title as a plain file name under /input (no slash, no leading dot), with its type's extension. */
export function inputName(title: string, type: number, taken: Set<string>): string {
  const ext = EXTENSIONS[type] ?? '';
  let base = title.normalize('NFC').replace(/[^\p{L}\p{N}._ -]+/gu, '_').replace(/^[.\s_-]+/, '').trim().slice(0, 80) || 'file';
  if (ext && base.toLowerCase().endsWith(ext)) base = base.slice(0, -ext.length) || 'file';
  let name = `${base}${ext}`;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base}_${i}${ext}`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * The readable documents of the call, mounted read-only under /input. `files` picks some by id or
 * title: among the question's documents, or (over MCP, `fileScope: 'readable'`) among every
 * document the viewer may read — the most recently updated when titles repeat.
 */
async function inputsOf(services: ToolServices, ctx: ToolContext, files: readonly string[] | undefined): Promise<Array<{ name: string; storageName: string }>> {
  const anyReadable = ctx.fileScope === 'readable' && !!files?.length;
  const ids = [...new Set(ctx.docIds)];
  if (!ids.length && !anyReadable) {
    if (files?.length) throw new ToolInputError(`文件“${files[0]}”不在所附的文档中`);
    return [];
  }
  const refs = [...new Set(files ?? [])];
  const lowered = [...new Set(refs.map((r) => r.toLowerCase()))];
  const rows = await services.db
    .selectFrom('kb_documents')
    .select(['kb_documents.id', 'kb_documents.title', 'kb_documents.type', 'kb_documents.storage_name'])
    .where((eb) => (anyReadable ? eb.or([eb('kb_documents.id', 'in', refs), eb(eb.fn('lower', ['kb_documents.title']), 'in', lowered)]) : eb('kb_documents.id', 'in', ids)))
    .where(docReadable(ctx.viewer.userId))
    .orderBy(anyReadable ? 'kb_documents.updated_at' : 'kb_documents.title', anyReadable ? 'desc' : 'asc')
    .execute();
  let chosen = rows;
  if (files?.length) {
    chosen = [];
    for (const ref of files) {
      const row = rows.find((r) => r.id === ref) ?? rows.find((r) => r.title === ref) ?? rows.find((r) => r.title.toLowerCase() === ref.toLowerCase());
      if (!row) throw new ToolInputError(anyReadable ? `文件“${ref}”不存在，或你无权读取` : `文件“${ref}”不在所附的文档中，或你无权读取`);
      if (!chosen.includes(row)) chosen.push(row);
    }
  }
  const taken = new Set<string>();
  return chosen.map((r) => ({ name: inputName(r.title, r.type, taken), storageName: r.storage_name }));
}

/** Runs `use` with a local path for each stored file (a temp download with S3, removed afterwards). */
async function withLocalPaths<T>(store: FileStore, names: readonly string[], use: (paths: string[]) => Promise<T>): Promise<T> {
  const [first, ...rest] = names;
  if (first === undefined) return use([]);
  return store.withLocalPath(first, (p) => withLocalPaths(store, rest, (ps) => use([p, ...ps])));
}

const DESCRIPTION =
  '在隔离沙箱中运行 Python 3 代码（无网络，可用 RDKit、numpy、pandas、matplotlib 与标准库；工作目录 /work，提问附带的文档以只读方式挂载在 /input，例如 /input/xxx.sdf）。用 print 输出结果；用 matplotlib 画图并 plt.savefig("图名.png") 保存到工作目录，图片会显示在回答中。单次运行有时间、内存和输出上限。';

/** The text the model reads of a run. */
export function summarizeRun(out: CodeExecutionResult): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}\n…（已截断）` : s);
  const lines = [`${out.message}（退出码 ${String(out.exit_code)}，用时 ${(out.duration_ms / 1000).toFixed(1)} 秒）`];
  if (out.inputs.length) lines.push(`挂载的文件：${out.inputs.map((n) => `/input/${n}`).join('、')}`);
  if (out.stdout) lines.push(`stdout:\n${cut(out.stdout, 8000)}`);
  if (out.stderr) lines.push(`stderr:\n${cut(out.stderr, 4000)}`);
  if (out.artifacts.length) lines.push(`生成的文件（已在回答中显示）：${out.artifacts.map((a) => a.name).join('、')}`);
  return lines.join('\n');
}

/** Sandboxed runs one user may have going at once, by every way in (the 运行 button, MCP, an answer's tool call). */
export const MAX_RUNS_PER_USER = 2;
export const TOO_MANY_RUNS = `同时运行的代码最多${MAX_RUNS_PER_USER}个，请等待之前的运行结束`;
/** The message of a user past CSAI_CODE_RUNS_PER_MINUTE (the route answers 429 with it). */
export const runsPerMinuteMessage = (n: number) => `代码运行过于频繁（每分钟最多 ${n} 次），请稍后再试`;
/** Messages the route answers with a 4xx other than 400: too many at once or per minute (429), files over the quota (403). */
export const isRateMessage = (text: string) => text === TOO_MANY_RUNS || text.startsWith('代码运行过于频繁（');
export const isQuotaMessage = (text: string) => text.startsWith('你保存的代码运行文件已达上限');

/** SPEC §9 code_execution: Python in the bubblewrap sandbox; never unconfined. */
export const codeExecutionTool = defineTool('code_execution', (services): Tool<CodeExecutionInput, CodeExecutionResult> => {
  const running = new Map<string, number>();
  /** Start times of each user's runs in the last minute (CSAI_CODE_RUNS_PER_MINUTE; counted on this node). */
  const recent = new Map<string, number[]>();
  const perMinute = services.config.CSAI_CODE_RUNS_PER_MINUTE;
  const artifacts = artifactStore(services.db, services.config.dataDir);
  const sandbox = createSandbox(services.config, artifacts);
  const quota = artifactQuota(services.config);
  // Files of runs without a question expire after CSAI_ARTIFACT_TTL_HOURS; files no row names any
  // more (their question, channel or user was deleted meanwhile) go too. At start, then periodically.
  const ttlMs = services.config.CSAI_ARTIFACT_TTL_HOURS * 3600_000;
  const clean = async () => {
    const t = Date.now();
    for (const [user, starts] of recent) if (!starts.some((s) => t - s < 60_000)) recent.delete(user);
    const removed = (await artifacts.sweep()) + (await artifacts.expire(ttlMs));
    if (removed) services.log.info({ removed }, 'expired or orphaned run files removed');
  };
  const cleanNow = () => void clean().catch((err: unknown) => services.log.warn({ err }, 'artifact sweep failed'));
  cleanNow();
  const sweeping = setInterval(cleanNow, Math.max(1000, Math.min(3600_000, ttlMs / 4)));
  sweeping.unref();
  services.stopping?.addEventListener('abort', () => clearInterval(sweeping), { once: true });
  // Which memory cap runs get here: one cgroup per run (all its processes together) or prlimit per process.
  const cap = memoryCap();
  const capNote = describeMemoryCap(cap, sandbox.limits.memoryBytes);
  services.log.info({ memoryCap: cap.kind, ...(cap.kind === 'prlimit' ? { reason: cap.reason } : { parent: cap.parent }) }, `sandbox ${capNote}`);
  return {
    input: codeExecutionInput,
    output: codeExecutionResult,
    description: DESCRIPTION,
    availability() {
      const state = sandbox.availability();
      return state.ok ? { enabled: true, note: capNote } : { enabled: false, reason: state.reason };
    },
    // The sandbox's own limit stops the code; the rest is Python's start and keeping the files.
    timeoutMs: services.config.CSAI_SANDBOX_TIMEOUT_MS + 15_000,
    async run(input, ctx) {
      const { userId } = ctx.viewer;
      const count = running.get(userId) ?? 0;
      if (count >= MAX_RUNS_PER_USER) throw new ToolInputError(TOO_MANY_RUNS);
      const t = Date.now();
      const starts = (recent.get(userId) ?? []).filter((s) => t - s < 60_000);
      if (starts.length >= perMinute) throw new ToolInputError(runsPerMinuteMessage(perMinute));
      if (await artifacts.full(userId, quota)) throw new ToolInputError(quotaFullMessage(quota));
      if ((running.get(userId) ?? 0) >= MAX_RUNS_PER_USER) throw new ToolInputError(TOO_MANY_RUNS);
      starts.push(t);
      recent.set(userId, starts);
      running.set(userId, (running.get(userId) ?? 0) + 1);
      try {
        const inputs = await inputsOf(services, ctx, input.files);
        return await withLocalPaths(services.files, inputs.map((i) => i.storageName), (paths) =>
          sandbox.run({ userId, questionId: ctx.questionId }, input.code, inputs.map((i, k) => ({ name: i.name, hostPath: paths[k]! })), ctx.signal),
        );
      } finally {
        const left = (running.get(userId) ?? 1) - 1;
        if (left > 0) running.set(userId, left);
        else running.delete(userId);
      }
    },
    summarize: summarizeRun,
  };
});
