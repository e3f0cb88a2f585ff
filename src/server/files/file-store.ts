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
  /** Where the staged bytes are: a temp path (disk) or a temp object key (S3). */
  ref: string;
  size: number;
  sha256: string;
  /** The first HEAD_BYTES bytes, for sniffing. */
  head: Buffer;
}

/** A byte range of a stored file, both ends included (as HTTP Range counts). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one place uploaded files live (DESIGN §5): named by the SHA-256 of their content, never the
 * user's name. Bytes are staged first and made visible by `commit` only once complete, so an
 * aborted upload leaves nothing a document refers to; `sweep` removes what a crash left behind.
 * Two implementations: local disk (`diskFileStore`, the default) and S3-compatible object storage
 * (`s3FileStore` in `s3-file-store.ts`, CSAI_STORAGE=s3).
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Streams a file into the temp area, hashing it and keeping its head. Leaves nothing behind on failure. */
  stage(source: Readable): Promise<StagedFile>;
  /** Moves a staged file to its content-addressed place (an identical file may already be there); returns the storage name. */
  commit(staged: StagedFile): Promise<string>;
  /** Drops a staged file that will not be committed. */
  discard(staged: StagedFile): Promise<void>;
  /** Deletes a stored file (gone already is fine). */
  remove(storageName: string): Promise<void>;
  /** The stored bytes as a stream (all, or one range). */
  read(storageName: string, range?: ByteRange): Promise<Readable>;
  /** The stored bytes in memory: only for files the caller knows to be small (structures, images). */
  readAll(storageName: string): Promise<Buffer>;
  /**
   * Runs `use` with a path on this machine holding the file (parse workers read paths): the file
   * itself on disk; a temp copy downloaded from the bucket with S3, removed when `use` is done.
   */
  withLocalPath<T>(storageName: string, use: (filePath: string) => Promise<T>): Promise<T>;
  /**
   * Clean-up after a crash or a failed upload: temp files, and stored files no document refers to
   * (`isReferenced` answers for one storage name). With S3 only what is older than `olderThanMs`
   * (default 1 hour) goes, so uploads under way on other nodes are left alone.
   */
  sweep(isReferenced: (storageName: string) => Promise<boolean>, opts?: { olderThanMs?: number }): Promise<number>;
  /** Releases connections (S3). */
  close(): void;
}

const WRITE_BUFFER_BYTES = 1024 * 1024;

/** A storage name is the hex SHA-256 of the content. */
export function checkStorageName(storageName: string): string {
  if (!/^[0-9a-f]{64}$/.test(storageName)) throw new Error(`bad storage name ${storageName}`);
  return storageName;
}

/**
 * A pass-through that hashes, counts and keeps the head of what flows through it.
 * `result()` is valid once the stream has ended.
 */
export function contentTap() {
  const hash = createHash('sha256');
  const headParts: Buffer[] = [];
  let headLen = 0;
  let size = 0;
  const stream = new Transform({
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
  return { stream, result: () => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(headParts) }) };
}

/**
 * Uploaded files on local disk under CSAI_DATA_DIR/files (two-character fan-out folders). Bytes
 * arrive in files/.tmp and are renamed into place only once complete.
 */
export function diskFileStore(dataDir: string): FileStore {
  const root = path.join(dataDir, 'files');
  const tmp = path.join(root, '.tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const pathOf = (storageName: string) => path.join(root, storageName.slice(0, 2), checkStorageName(storageName));

  return {
    kind: 'disk',

    async stage(source) {
      const tempPath = path.join(tmp, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
      const tap = contentTap();
      try {
        // A 1 MB write buffer: the request's many small chunks go to disk in a few writev calls
        // instead of one write each, with the socket paused after every one (bench/knowledge.bench.ts,
        // 150 MB upload: 160-270 MB/s before, 300-345 MB/s after).
        await pipeline(source, tap.stream, fs.createWriteStream(tempPath, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES }));
      } catch (err) {
        await fsp.rm(tempPath, { force: true });
        throw err;
      }
      return { ref: tempPath, ...tap.result() };
    },

    async commit(staged) {
      const target = pathOf(staged.sha256);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(staged.ref, target);
      return staged.sha256;
    },

    discard: (staged) => fsp.rm(staged.ref, { force: true }),

    remove: (storageName) => fsp.rm(pathOf(storageName), { force: true }),

    read: async (storageName, range) => fs.createReadStream(pathOf(storageName), range ? { start: range.start, end: range.end } : {}),

    readAll: (storageName) => fsp.readFile(pathOf(storageName)),

    withLocalPath: (storageName, use) => use(pathOf(storageName)),

    // One process owns the data folder: at start-up every temp file is a leftover.
    async sweep(isReferenced) {
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

    close: () => undefined,
  };
}
