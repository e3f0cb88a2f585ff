import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CodeArtifact } from '../../contract/code';
import type { Db } from '../db/database';
import type { SandboxFile } from './runner';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What a file is shown as: a PNG or SVG picture (checked by content, not only by name) or a download. */
export function classify(name: string, data: Buffer): { mime: string; kind: 'image' | 'file' } {
  const lower = name.toLowerCase();
  if (lower.endsWith('.png') && data.subarray(0, 8).equals(PNG)) return { mime: 'image/png', kind: 'image' };
  if (lower.endsWith('.svg') && /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(data.subarray(0, 4096).toString('utf8'))) {
    return { mime: 'image/svg+xml', kind: 'image' };
  }
  if (/\.(txt|csv|tsv|json|md|log|py|sdf|mol|pdb|smi|xyz)$/.test(lower)) return { mime: 'text/plain; charset=utf-8', kind: 'file' };
  return { mime: 'application/octet-stream', kind: 'file' };
}

/** Whose run made the files: the user, and the question they belong to (its answer or a 运行 of one of its blocks). */
export interface ArtifactOwner {
  userId: string;
  questionId?: string | undefined;
}

/** How many files, and how many bytes, one user's runs may keep (CSAI_ARTIFACT_QUOTA_*). */
export interface ArtifactQuota {
  bytes: number;
  files: number;
}

const MB = 2 ** 20;
const sizeText = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** The Chinese message of a user whose kept files reached the quota (the run is refused before it starts). */
export const quotaFullMessage = (quota: ArtifactQuota) =>
  `你保存的代码运行文件已达上限（共 ${sizeText(quota.bytes)} 或 ${quota.files} 个文件），请先删除不再需要的运行文件，或等待未随回答保存的文件过期后再运行`;

/** Per-user locks: a quota check and the write it allows happen together. */
const userLocks = new Map<string, Promise<unknown>>();
async function withUserLock<T>(userId: string, work: () => Promise<T>): Promise<T> {
  const before = userLocks.get(userId) ?? Promise.resolve();
  const mine = before.then(work, work);
  const tail = mine.catch(() => undefined);
  userLocks.set(userId, tail);
  try {
    return await mine;
  } finally {
    if (userLocks.get(userId) === tail) userLocks.delete(userId);
  }
}

/**
 * Files sandboxed code left, kept on disk under CSAI_DATA_DIR/artifacts with a row naming their
 * user and, when they were made for a question, that question: then whoever may read the question
 * may read them, and they go with it. Without a question only their user may read them.
 */
export function artifactStore(db: Db, dataDir: string) {
  const root = path.join(dataDir, 'artifacts');
  const pathOf = (id: string) => {
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(id)) throw new Error(`bad artifact id ${id}`);
    return path.join(root, id);
  };
  const write = async (owner: ArtifactOwner, files: readonly SandboxFile[]): Promise<CodeArtifact[]> => {
    await fsp.mkdir(root, { recursive: true });
    const out: CodeArtifact[] = [];
    const now = new Date().toISOString();
    for (const file of files) {
      const id = randomBytes(16).toString('base64url');
      const { mime, kind } = classify(file.name, file.data);
      const tmp = `${pathOf(id)}.part`;
      await fsp.writeFile(tmp, file.data, { flag: 'wx' });
      await fsp.rename(tmp, pathOf(id));
      out.push({ id, name: file.name.slice(0, 200), mime, size: file.data.length, kind });
    }
    try {
      await db.insertInto('artifacts').values(out.map((a) => ({ id: a.id, user_id: owner.userId, question_id: owner.questionId ?? null, name: a.name, mime: a.mime, kind: a.kind, size: a.size, created_at: now }))).execute();
    } catch (err) {
      await Promise.all(out.map((a) => fsp.rm(pathOf(a.id), { force: true })));
      throw err;
    }
    return out;
  };
  const usage = async (userId: string) => {
    const row = await db
      .selectFrom('artifacts')
      .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes')])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { files: Number(row.files), bytes: Number(row.bytes) };
  };
  /** A user's runs without a question: these expire, and the user may delete them. */
  const ownLoose = (userId: string) => db.selectFrom('artifacts').where('user_id', '=', userId).where('question_id', 'is', null);
  return {
    /** What the user's kept files take: their number and bytes. */
    usage,

    /** Whether the user's kept files already reach the quota (then a run is refused before it starts). */
    async full(userId: string, quota: ArtifactQuota): Promise<boolean> {
      const used = await usage(userId);
      return used.bytes >= quota.bytes || used.files >= quota.files;
    },

    /**
     * Writes the files, then their rows; returns them in the given order. With a quota, files that
     * would take the user past it are not kept, none of them (`overQuota` says so).
     */
    async save(owner: ArtifactOwner, files: readonly SandboxFile[], quota?: ArtifactQuota): Promise<{ saved: CodeArtifact[]; overQuota: boolean }> {
      if (!files.length) return { saved: [], overQuota: false };
      return withUserLock(owner.userId, async () => {
        if (quota) {
          const used = await usage(owner.userId);
          const bytes = files.reduce((n, f) => n + f.data.length, 0);
          if (used.bytes + bytes > quota.bytes || used.files + files.length > quota.files) return { saved: [], overQuota: true };
        }
        return { saved: await write(owner, files), overQuota: false };
      });
    },

    /** The user's runs without a question, newest first. */
    listLoose: (userId: string) => ownLoose(userId).select(['id', 'name', 'mime', 'size', 'kind', 'created_at']).orderBy('created_at', 'desc').execute(),

    /** Removes the user's files of runs without a question (one by id, or all); returns how many went. */
    async removeLoose(userId: string, id?: string): Promise<number> {
      let q = ownLoose(userId).select('id');
      if (id !== undefined) q = q.where('id', '=', id);
      const ids = (await q.execute()).map((r) => r.id);
      await removeArtifacts(db, dataDir, ids);
      return ids.length;
    },

    /** Removes files of runs without a question made more than `ttlMs` ago; returns how many went. */
    async expire(ttlMs: number, now = Date.now()): Promise<number> {
      const ids = (
        await db
          .selectFrom('artifacts')
          .select('id')
          .where('question_id', 'is', null)
          .where('created_at', '<', new Date(now - ttlMs).toISOString())
          .execute()
      ).map((r) => r.id);
      await removeArtifacts(db, dataDir, ids);
      return ids.length;
    },


    /**
     * Start-up clean-up: removes files no row names any more (their user was deleted) and
     * unfinished writes, when older than an hour (a run may be saving right now). Returns the count.
     */
    async sweep(now = Date.now()): Promise<number> {
      let names: string[];
      try {
        names = await fsp.readdir(root);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const file = path.join(root, name);
        const stat = await fsp.stat(file).catch(() => undefined);
        if (!stat?.isFile() || now - stat.mtimeMs < 3600_000) continue;
        const id = name.replace(/\.part$/, '');
        const known = name === id && /^[A-Za-z0-9_-]{8,64}$/.test(id) && (await db.selectFrom('artifacts').select('id').where('id', '=', id).executeTakeFirst());
        if (known) continue;
        await fsp.rm(file, { force: true });
        removed++;
      }
      return removed;
    },

    /**
     * The artifact and a stream of its bytes when `mayRead` allows the row (the caller decides:
     * the question's readers, or the user of a run without a question); undefined otherwise
     * (never says whether it exists).
     */
    async open(id: string, mayRead: (row: { user_id: string; question_id: string | null }) => Promise<boolean>) {
      const row = await db.selectFrom('artifacts').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || !(await mayRead(row))) return undefined;
      const file = pathOf(row.id);
      if (!fs.existsSync(file)) return undefined;
      return { row, stream: fs.createReadStream(file) };
    },
  };
}

/** Removes artifacts' rows and then their files (e.g. those of a run that a newer run of the same block replaced). */
export async function removeArtifacts(db: Db, dataDir: string, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('artifacts').where('id', 'in', [...ids]).execute();
  const root = path.join(dataDir, 'artifacts');
  await Promise.all(ids.filter((id) => /^[A-Za-z0-9_-]{8,64}$/.test(id)).map((id) => fsp.rm(path.join(root, id), { force: true })));
}

export type ArtifactStore = ReturnType<typeof artifactStore>;
