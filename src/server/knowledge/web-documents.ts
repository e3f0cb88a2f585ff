import { Readable } from 'node:stream';
import { DomainError } from '../errors';
import type { Viewer } from '../access/access';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { FileStore } from '../files/file-store';
import { cleanTitle } from './names';
import type { KnowledgeService } from './service';
import { contentMatches } from './sniff';

/** A page or paper read from the web, to be kept as a document. */
export interface WebDocument {
  /** The title shown in the knowledge base (an extension is added: `.md` for a page, `.pdf` for a PDF). */
  title: string;
  /** A page as markdown, or a PDF's own bytes. */
  format: 'markdown' | 'pdf';
  body: Buffer;
  url: string;
  fetchedAt: string;
}

/** What one user may keep of documents saved from the web (README table, CSAI_WEB_DOCS_QUOTA_*). */
export interface WebQuota {
  bytes: number;
  files: number;
}
export const webQuota = (config: Config): WebQuota => ({ bytes: config.CSAI_WEB_DOCS_QUOTA_MB * 2 ** 20, files: config.CSAI_WEB_DOCS_QUOTA_FILES });

/**
 * Refuses (403, in Chinese) when the user's documents saved from the web, with `adding` bytes more,
 * would pass the quota. Called before anything is fetched (adding 0) and again before the document
 * is stored, so nothing is half-written. Deleting such documents in the knowledge base frees room.
 */
export async function checkWebQuota(db: Db, userId: string, quota: WebQuota, adding = 0): Promise<void> {
  const row = await db
    .selectFrom('kb_documents')
    .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes')])
    .where('owner_id', '=', userId)
    .where('source_url', 'is not', null)
    .executeTakeFirstOrThrow();
  const files = Number(row.files) + (adding ? 1 : 0);
  const bytes = Number(row.bytes) + adding;
  if (files > quota.files || bytes > quota.bytes || (!adding && (files >= quota.files || bytes >= quota.bytes))) {
    throw new DomainError('web_docs_quota', `你从网页保存的文档已达上限（共 ${Math.round(quota.bytes / 2 ** 20)} MB 或 ${quota.files} 个），请先在知识库中删除不再需要的网页文档后再保存`);
  }
}

/** Characters of a title kept (a page's title can be a paragraph). */
const TITLE_CHARS = 150;

/**
 * Stores a page or paper from the web in a folder of the viewer's (write permission checked by the
 * knowledge service), through the same path as an upload: staged under its content hash, one row
 * and its parse job, so it is parsed, indexed and searchable like any document. The URL and fetch
 * time are kept with it; a clashing title gets _1, _2.
 */
export async function saveWebDocument(kb: KnowledgeService, files: FileStore, viewer: Viewer, folderId: string, doc: WebDocument, limit?: { db: Db; quota: WebQuota }) {
  if (limit) await checkWebQuota(limit.db, viewer.userId, limit.quota, Math.max(1, doc.body.length));
  const base = cleanTitle(doc.title).replace(/[\\/]+/g, ' ').trim().slice(0, TITLE_CHARS) || '网页';
  const kind = doc.format === 'pdf' ? 'pdf' : 'web';
  const title = base.toLowerCase().endsWith(`.${kind === 'pdf' ? 'pdf' : 'md'}`) ? base : `${base}.${kind === 'pdf' ? 'pdf' : 'md'}`;
  const staged = await files.stage(Readable.from([doc.body]));
  if (!contentMatches(kind, staged.head) || staged.size === 0) {
    await files.discard(staged);
    throw new DomainError('not_a_pdf', kind === 'pdf' ? '该链接返回的不是 PDF 文件（可能需要登录或付费才能下载）' : '网页内容无法保存');
  }
  const result = await kb.addDocuments(viewer, folderId, [{ title, kind, staged, source: { url: doc.url, fetchedAt: doc.fetchedAt } }]);
  const saved = result.name_id[0]!;
  return { name: saved.name, docId: saved.docId, url: doc.url, fetchedAt: doc.fetchedAt };
}
