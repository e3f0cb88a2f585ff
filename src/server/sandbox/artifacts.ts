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
  return {
    /** Writes the files, then their rows; returns them in the given order. */
    async save(owner: ArtifactOwner, files: readonly SandboxFile[]): Promise<CodeArtifact[]> {
      if (!files.length) return [];
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
