import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { checkStorageName, contentTap, type FileStore, type StagedFile } from './file-store';

/** Settings of the bucket (CSAI_STORAGE=s3). */
export interface S3Settings {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * Size of one part of a multipart upload: S3 wants at least 5 MiB for every part but the last.
 * One part is the most an upload holds in memory.
 */
export const PART_BYTES = 8 * 1024 * 1024;
/** What `sweep` leaves alone by default: temp objects and unreferenced files younger than this may belong to an upload under way on another node. */
const SWEEP_AGE_MS = 60 * 60_000;
const TMP_PREFIX = 'tmp/';
const FILES_PREFIX = 'files/';

const keyOf = (storageName: string) => `${FILES_PREFIX}${storageName.slice(0, 2)}/${checkStorageName(storageName)}`;

/** The S3 SDK answers a missing object with NotFound (HEAD) or NoSuchKey (GET). */
const isMissing = (err: unknown) => err instanceof Error && (err.name === 'NotFound' || err.name === 'NoSuchKey' || ('$metadata' in err && (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404));

/**
 * Uploaded files in an S3-compatible bucket, under `files/ab/<sha256>`. An upload is
 * streamed into a temp object (`tmp/…`) as it arrives — a multipart upload, one part (8 MiB) in
 * memory at a time, so a 150 MB file is never held whole — and copied to its content-addressed key
 * by `commit`. A failed upload aborts its multipart upload; `sweep` removes temp objects, stale
 * multipart uploads and unreferenced files a crash left. Parse workers read paths: `withLocalPath`
 * downloads to a temp file under CSAI_DATA_DIR/s3-cache for the parse and removes it afterwards.
 */
export function s3FileStore(settings: S3Settings, dataDir: string): FileStore {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
  });
  const Bucket = settings.bucket;
  const cache = path.join(dataDir, 's3-cache');
  // Downloads for parses are this process's own: any left at start-up are from a crash.
  fs.rmSync(cache, { recursive: true, force: true });
  fs.mkdirSync(cache, { recursive: true });

  async function getObject(key: string, range?: { start: number; end: number }) {
    const res = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
    if (!(res.Body instanceof Readable)) throw new Error(`no body for ${key}`);
    return res.Body;
  }

  async function exists(key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  const remove = async (key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
  };

  /** Every object under a prefix, page by page. */
  async function* list(prefix: string) {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, modified: o.LastModified ?? new Date(0) };
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return {
    kind: 's3',

    async stage(source) {
      const key = `${TMP_PREFIX}${Date.now()}-${randomBytes(8).toString('hex')}`;
      const tap = contentTap();
      const counted = source.pipe(tap.stream);
      source.once('error', (err) => counted.destroy(err));
      let uploadId: string | undefined;
      const parts: CompletedPart[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const sendPart = async () => {
        const body = Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key }))).UploadId;
        const PartNumber = parts.length + 1;
        const res = await client.send(new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: body, ContentLength: body.length }));
        parts.push({ ETag: res.ETag, PartNumber });
      };
      try {
        // `for await` pulls one chunk at a time: while a part is being sent, the upload waits (backpressure).
        for await (const chunk of counted) {
          const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
          pending.push(buf);
          pendingBytes += buf.length;
          if (pendingBytes >= PART_BYTES) await sendPart();
        }
        if (uploadId) {
          if (pendingBytes > 0) await sendPart();
          await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
        } else {
          // Smaller than one part: one plain PUT.
          const body = Buffer.concat(pending);
          await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length }));
        }
      } catch (err) {
        source.destroy();
        // Nothing of a failed upload stays: the parts sent so far go with the aborted upload.
        if (uploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
        await remove(key).catch(() => undefined);
        throw err;
      }
      return { ref: key, ...tap.result() };
    },

    async commit(staged: StagedFile) {
      const target = keyOf(staged.sha256);
      // Content-addressed: an identical file already stored is the same bytes.
      if (!(await exists(target))) {
        await client.send(new CopyObjectCommand({ Bucket, Key: target, CopySource: `${Bucket}/${staged.ref}` }));
      }
      await remove(staged.ref);
      return staged.sha256;
    },

    discard: (staged) => remove(staged.ref),

    remove: (storageName) => remove(keyOf(storageName)),

    read: (storageName, range) => getObject(keyOf(storageName), range),

    async readAll(storageName) {
      const chunks: Buffer[] = [];
      for await (const chunk of await getObject(keyOf(storageName))) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks);
    },

    async withLocalPath(storageName, use) {
      const dir = await fsp.mkdtemp(path.join(cache, 'parse-'));
      const filePath = path.join(dir, checkStorageName(storageName));
      try {
        await pipeline(await getObject(keyOf(storageName)), fs.createWriteStream(filePath, { flags: 'wx' }));
        return await use(filePath);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    async sweep(isReferenced, { olderThanMs = SWEEP_AGE_MS } = {}) {
      const before = Date.now() - olderThanMs;
      let removed = 0;
      for await (const o of list(TMP_PREFIX)) {
        if (o.modified.getTime() > before) continue;
        await remove(o.key);
        removed++;
      }
      try {
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: TMP_PREFIX }));
        for (const u of uploads.Uploads ?? []) {
          if (!u.Key || !u.UploadId || (u.Initiated && u.Initiated.getTime() > before)) continue;
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
          removed++;
        }
      } catch (err) {
        // Some S3-compatible stores cannot list multipart uploads; a lifecycle rule
        // (AbortIncompleteMultipartUpload) cleans them there (README).
        if (!(err instanceof Error && err.name === 'NotImplemented')) throw err;
      }
      for await (const o of list(FILES_PREFIX)) {
        const name = o.key.slice(o.key.lastIndexOf('/') + 1);
        if (!/^[0-9a-f]{64}$/.test(name) || o.modified.getTime() > before) continue;
        if (await isReferenced(name)) continue;
        await remove(o.key);
        removed++;
      }
      return removed;
    },

    close: () => client.destroy(),
  };
}
