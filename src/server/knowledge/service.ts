import type { Db } from '../db/database';
import type { FileStore } from '../files/file-store';
import { knowledgeDocuments } from './document-actions';
import { knowledgeFolders } from './folders';
import { knowledgeSharing } from './sharing';
import { knowledgeStore, type KnowledgeServiceOptions } from './store';
import { knowledgeUploads } from './uploads';

export type { IncomingFile } from './uploads';
export type { KnowledgeServiceOptions } from './store';

/**
 * Knowledge bases: folders, documents, uploads, shares, each a part of its own over the steps
 * they share (store.ts). Knows nothing of HTTP; every id-taking operation goes through canAccess.
 * Files and rows change together under one serialiser so that a file is never removed while a
 * new row is about to refer to it.
 */
export function knowledgeService(db: Db, files: FileStore, options: KnowledgeServiceOptions = {}) {
  const store = knowledgeStore(db, files, options);
  return {
    ...knowledgeUploads(db, store),
    ...knowledgeFolders(db, store),
    ...knowledgeDocuments(db, store),
    ...knowledgeSharing(db),
  };
}

export type KnowledgeService = ReturnType<typeof knowledgeService>;
