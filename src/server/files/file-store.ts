import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** How much of the start of a file is kept in memory for content sniffing. */
export const HEAD_BYTES = 64 * 1024;

/** A file received completely into the temp area, not yet visible to anyone. */
export interface StagedFile {
  tempPath: string;
  size: number;
  sha256: string;
  /** The first HEAD_BYTES bytes, for sniffing. */
  head: Buffer;
}

/**
 * Uploaded files on local disk under CSAI_DATA_DIR/files, named by the SHA-256 of their content
 * (DESIGN §5: never the user's name). Bytes arrive in files/.tmp and are renamed into place only
 * once complete, so an aborted or crashed upload leaves nothing but temp files that `sweep`
 * removes at start-up.
 */
export function fileStore(dataDir: string) {
  const root = path.join(dataDir, 'files');
  const tmp = path.join(root, '.tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const pathOf = (storageName: string) => {
    if (!/^[0-9a-f]{64}$/.test(storageName)) throw new Error(`bad storage name ${storageName}`);
    return path.join(root, storageName.slice(0, 2), storageName);
  };

  return {
    root,
    pathOf,

    /** Streams a file into the temp area, hashing it and keeping its head. Deletes the temp file on failure. */
    async stage(source: Readable): Promise<StagedFile> {
      const tempPath = path.join(tmp, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
      const hash = createHash('sha256');
      const headParts: Buffer[] = [];
      let headLen = 0;
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          if (headLen < HEAD_BYTES) {
            const piece = chunk.subarray(0, HEAD_BYTES - headLen);
            headParts.push(piece);
            headLen += piece.length;
          }
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, tap, fs.createWriteStream(tempPath, { flags: 'wx' }));
      } catch (err) {
        await fsp.rm(tempPath, { force: true });
        throw err;
      }
      return { tempPath, size, sha256: hash.digest('hex'), head: Buffer.concat(headParts) };
    },

    /** Moves a staged file to its content-addressed place (an identical file may already be there). */
    async commit(staged: StagedFile): Promise<string> {
      const target = pathOf(staged.sha256);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(staged.tempPath, target);
      return staged.sha256;
    },

    discard: (staged: StagedFile) => fsp.rm(staged.tempPath, { force: true }),

    remove: (storageName: string) => fsp.rm(pathOf(storageName), { force: true }),

    /**
     * Start-up clean-up after a crash: removes temp files and every stored file no document
     * refers to. `isReferenced` answers for one storage name.
     */
    async sweep(isReferenced: (storageName: string) => Promise<boolean>): Promise<number> {
      let removed = 0;
      for (const entry of await fsp.readdir(tmp)) {
        await fsp.rm(path.join(tmp, entry), { force: true, recursive: true });
        removed++;
      }
      for (const dir of await fsp.readdir(root)) {
        if (dir === '.tmp' || !/^[0-9a-f]{2}$/.test(dir)) continue;
        for (const name of await fsp.readdir(path.join(root, dir))) {
          if (/^[0-9a-f]{64}$/.test(name) && !(await isReferenced(name))) {
            await fsp.rm(path.join(root, dir, name), { force: true });
            removed++;
          }
        }
      }
      return removed;
    },
  };
}

export type FileStore = ReturnType<typeof fileStore>;
