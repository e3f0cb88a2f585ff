import { Readable } from 'node:stream';
import { AppError } from '../errors';
import type { Viewer } from '../access/access';
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

/** Characters of a title kept (a page's title can be a paragraph). */
const TITLE_CHARS = 150;

/**
 * Stores a page or paper from the web in a folder of the viewer's (write permission checked by the
 * knowledge service), through the same path as an upload: staged under its content hash, one row
 * and its parse job, so it is parsed, indexed and searchable like any document. The URL and fetch
 * time are kept with it; a clashing title gets _1, _2.
 */
export async function saveWebDocument(kb: KnowledgeService, files: FileStore, viewer: Viewer, folderId: string, doc: WebDocument) {
  const base = cleanTitle(doc.title).replace(/[\\/]+/g, ' ').trim().slice(0, TITLE_CHARS) || '网页';
  const kind = doc.format === 'pdf' ? 'pdf' : 'web';
  const title = base.toLowerCase().endsWith(`.${kind === 'pdf' ? 'pdf' : 'md'}`) ? base : `${base}.${kind === 'pdf' ? 'pdf' : 'md'}`;
  const staged = await files.stage(Readable.from([doc.body]));
  if (!contentMatches(kind, staged.head) || staged.size === 0) {
    await files.discard(staged);
    throw new AppError(422, 'not_a_pdf', kind === 'pdf' ? '该链接返回的不是 PDF 文件（可能需要登录或付费才能下载）' : '网页内容无法保存');
  }
  const result = await kb.addDocuments(viewer, folderId, [{ title, kind, staged, source: { url: doc.url, fetchedAt: doc.fetchedAt } }]);
  const saved = result.name_id[0]!;
  return { name: saved.name, docId: saved.docId, url: doc.url, fetchedAt: doc.fetchedAt };
}
