import fs from 'node:fs';
import path from 'node:path';

/** How a response body is encoded: a pre-compressed copy the build wrote, or the file itself. */
type Encoding = 'br' | 'gzip' | 'identity';

/** One answer kept in memory: the body of one encoding of one built file, with its headers. */
export interface MemoryAsset {
  body: Buffer;
  encoding: Encoding;
  type: string;
  lastModified: string;
  etag: string;
}

const TYPES: Record<string, string> = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };
/** A built script or stylesheet: one file name under /assets/, nothing that could leave the folder. */
const ASSET_PATH = /^\/assets\/[\w-][\w.-]*\.(js|css)$/;

/** The encodings an Accept-Encoding header allows, best first (brotli, gzip, then the plain file). */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  const allowed = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    allowed.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (allowed.get(name) ?? allowed.get('*') ?? 0) > 0;
  const out: Encoding[] = [];
  if (ok('br')) out.push('br');
  if (ok('gzip')) out.push('gzip');
  // The plain file is acceptable unless the header refuses it explicitly.
  if ((allowed.get('identity') ?? (allowed.get('*') === 0 ? 0 : 1)) > 0) out.push('identity');
  return out;
}

/**
 * The built site's scripts and stylesheets (content-hashed, so never changed under their name),
 * answered from memory: a page's first load asks for several at once, and each answer from the
 * file system costs several trips through libuv's thread pool (a stat per pre-compressed copy,
 * open, read, close), which on a busy machine kept every script of the page waiting.
 * A file is read on its first request (that request is answered from disk) or when the page
 * that names it is read ({@link warm}); {@link clear} drops everything (a new build).
 * Memory is bounded by `maxBytes`; past it, files are answered from disk as before.
 */
export function assetMemory(webDir: string, { maxBytes = 48 * 1024 * 1024, maxFileBytes = 4 * 1024 * 1024 } = {}) {
  // `${encoding}:${urlPath}` → the answer; 'absent' when the build wrote no such copy (the next
  // encoding is tried, as from disk); 'disk' when it is too large to keep.
  let entries = new Map<string, MemoryAsset | 'absent' | 'disk'>();
  const loading = new Set<string>();
  let bytes = 0;
  let generation = 0;

  const load = async (urlPath: string, encoding: Encoding) => {
    const key = `${encoding}:${urlPath}`;
    if (entries.has(key) || loading.has(key)) return;
    loading.add(key);
    const started = generation;
    try {
      const plain = path.join(webDir, urlPath);
      // Nothing is remembered about a file the build did not write (any name may be asked for).
      if (!(await fs.promises.stat(plain).catch(() => undefined))?.isFile()) return;
      const file = plain + SUFFIX[encoding];
      const stat = await fs.promises.stat(file).catch(() => undefined);
      let entry: MemoryAsset | 'absent' | 'disk' = stat?.isFile() ? 'disk' : 'absent';
      if (stat?.isFile() && stat.size <= maxFileBytes && bytes + stat.size <= maxBytes) {
        const body = await fs.promises.readFile(file);
        entry = {
          body,
          encoding,
          type: TYPES[path.extname(urlPath)]!,
          lastModified: stat.mtime.toUTCString(),
          etag: `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
        };
      }
      // A build replaced the folder meanwhile: what was read may be gone from it.
      if (started !== generation) return;
      if (typeof entry === 'object') bytes += entry.body.length;
      entries.set(key, entry);
    } catch {
      // Unreadable now (a build is replacing it): the next request reads it from disk.
    } finally {
      loading.delete(key);
    }
  };

  return {
    /**
     * The answer for a request path and Accept-Encoding header when memory has it; otherwise
     * undefined (answer from disk), and the file is read for the next request.
     */
    get(url: string, acceptEncoding: string | undefined): MemoryAsset | undefined {
      const urlPath = url.split('?')[0]!;
      if (!ASSET_PATH.test(urlPath)) return undefined;
      for (const encoding of acceptedEncodings(acceptEncoding)) {
        const key = `${encoding}:${urlPath}`;
        const entry = entries.get(key);
        if (entry === 'absent') continue;
        if (entry === undefined) void load(urlPath, encoding); // read for the next request
        return entry === 'disk' ? undefined : entry;
      }
      return undefined;
    },
    /** Reads the scripts and stylesheets a page names (its `/assets/…` URLs), for its first visitor. */
    warm(html: string, encodings: Encoding[] = ['br', 'gzip']) {
      for (const [url] of html.matchAll(/\/assets\/[\w-][\w.-]*\.(?:js|css)(?=["'])/g)) for (const encoding of encodings) void load(url, encoding);
    },
    /** Forgets every file (a new build replaced the folder). */
    clear() {
      entries = new Map();
      bytes = 0;
      generation++;
    },
  };
}
