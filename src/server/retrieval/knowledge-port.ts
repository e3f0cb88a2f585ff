import { sql } from 'kysely';
import type { Db } from '../db/database';
import { DomainError } from '../errors';
import { canAccess, docReadable, folderReadable, type Viewer } from '../access/access';
import { hybridSearch, type HybridOptions } from './fusion';
import { questionMessages } from '../../contract/channel';

/** The documents a question draws on: chosen files, or knowledge bases and documents picked inside them. */
export interface QuestionSources {
  docIds: string[];
  kbIds: string[];
  kbDocIds: string[];
}

/** A retrieved passage with its document's title. */
export interface RetrievedPassage {
  docId: string;
  title: string;
  page: number | null;
  bbox: [number, number, number, number] | null;
  text: string;
  score: number;
  /** Share of the question's weighted words the passage holds (retrieval/rerank.ts), 0–1; absent when not reranked. */
  coverage?: number;
  /** A passage of a table of contents, found for a question about the document's outline (retrieval/outline.ts). */
  outline?: boolean;
}

/** What answering needs from the knowledge side: access checks, the documents to search, search. */
export interface KnowledgePort {
  /** Throws 404 for anything the viewer may not read, 409 (SPEC §8) while something is still parsing. */
  checkSources(viewer: Viewer, sources: QuestionSources): Promise<void>;
  /** Every readable document the sources stand for (files, picked documents, documents of the knowledge bases). */
  documentsOf(viewer: Viewer, sources: QuestionSources): Promise<string[]>;
  search(docIds: string[], query: string, k: number): Promise<RetrievedPassage[]>;
}

/**
 * The port over the knowledge-base tables and the BM25 index (src/server/knowledge, src/server/retrieval),
 * fused with embeddings when `retrieval.embeddings` is given (DESIGN §5).
 */
export function knowledgePort(db: Db, retrieval: HybridOptions = {}): KnowledgePort {
  return {
    async checkSources(viewer, { docIds, kbIds, kbDocIds }) {
      const files = [];
      for (const id of new Set(docIds)) files.push(await canAccess(db, viewer, { type: 'doc', id }, 'read'));
      for (const id of new Set(kbIds)) await canAccess(db, viewer, { type: 'folder', id }, 'read');
      const picked = [];
      for (const id of new Set(kbDocIds)) picked.push(await canAccess(db, viewer, { type: 'doc', id }, 'read'));
      if (files.some((d) => d.parse_status === 1)) throw new DomainError('file_parsing', questionMessages.fileParsing);
      const parsingInKb = kbIds.length
        ? await db.selectFrom('kb_documents').select('id').where('folder_id', 'in', kbIds).where('parse_status', '=', 1).limit(1).executeTakeFirst()
        : undefined;
      if (parsingInKb || picked.some((d) => d.parse_status === 1)) throw new DomainError('knowledge_parsing', questionMessages.knowledgeParsing);
    },

    async documentsOf(viewer, { docIds, kbIds, kbDocIds }) {
      const direct = [...new Set([...docIds, ...kbDocIds])];
      const readable = direct.length
        ? (await db.selectFrom('kb_documents').select('id').where('id', 'in', direct).where(docReadable(viewer.userId)).execute()).map((r) => r.id)
        : [];
      const inKbs = kbIds.length
        ? (
            await db
              .selectFrom('kb_documents')
              .innerJoin('kb_folders', 'kb_folders.id', 'kb_documents.folder_id')
              .select('kb_documents.id')
              .where('kb_documents.folder_id', 'in', kbIds)
              .where(folderReadable(viewer.userId))
              .orderBy('kb_documents.created_at')
              .execute()
          ).map((r) => r.id)
        : [];
      return [...new Set([...readable, ...inKbs])];
    },

    async search(docIds, query, k) {
      const passages = await hybridSearch(db, docIds, query, k, retrieval);
      if (!passages.length) return [];
      const ids = [...new Set(passages.map((p) => p.docId))];
      const titles = new Map(
        (await db.selectFrom('kb_documents').select(['id', 'title']).where('id', 'in', ids).execute()).map((r) => [r.id, r.title]),
      );
      return passages.map((p) => ({ ...p, title: titles.get(p.docId) ?? '' }));
    },
  };
}

/** Whether any passage exists for the documents (used to tell "nothing matched" from "nothing indexed"). */
export async function hasPassages(db: Db, docIds: string[]) {
  if (!docIds.length) return false;
  const row = await sql<{ n: number }>`select exists (select 1 from kb_chunks where doc_id in (${sql.join(docIds)})) as n`.execute(db);
  return row.rows[0]?.n === 1;
}
