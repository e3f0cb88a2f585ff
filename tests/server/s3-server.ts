import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ListBucketsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './ldap-server';

export const S3_BUCKET = 'csai-test';

/** The s3rver command (devDependency), spawned by path so that killing the child stops the server. */
const S3RVER = path.resolve('node_modules/.bin/s3rver');

/**
 * A local S3-compatible server (s3rver, in its own process so the test process measures only the
 * app's memory) on a free 127.0.0.1 port with one bucket, its objects in a temp folder; `env` is
 * what the app needs to use it, `keys()` lists the bucket.
 */
export async function startS3() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-s3-'));
  const port = await freePort();
  const child = spawn(S3RVER, ['-d', directory, '-a', '127.0.0.1', '-p', String(port), '--silent', '--configure-bucket', S3_BUCKET], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed test credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`s3rver exited (${child.exitCode}): ${stderr}`);
    const ready = await client.send(new ListBucketsCommand({})).then((r) => (r.Buckets ?? []).some((b) => b.Name === S3_BUCKET), () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`s3rver did not start on ${endpoint}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint,
    env: {
      CSAI_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    settings: { endpoint, bucket: S3_BUCKET, region: 'us-east-1', forcePathStyle: true, ...credentials },
    client,
    /** Every key in the bucket, sorted. */
    async keys(prefix = ''): Promise<string[]> {
      const out: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: prefix, ContinuationToken }));
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out.sort();
    },
    async stop() {
      client.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
