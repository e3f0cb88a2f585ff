// Documents of the knowledge bases: lists, reading (record, file, parsed text, image), delete, move and copy.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { now } from '../db/database';
import { DomainError } from '../errors';
import { isStale, queueReindex } from '../parsing/reindex';
import { QUESTION_FOLDER_ID } from '../../contract/knowledge';
import { canAccess, sharedWith, type Viewer } from '../access/access';
import { docView, pageOf, selectDocs, titleLike, type DocRow } from './documents';
import { nextFreeName } from './names';
import type { KnowledgeStore, ListArgs } from './store';

/** The documents part of the knowledge service. */
export function knowledgeDocuments(db: Db, store: KnowledgeStore) {
  const { files, serial, thenWake, titlesIn, dropUnreferenced, deleteSharesOf, writableFolder, copyDocument } = store;
  return {
    async listFolderDocs(viewer: Viewer, folderId: string, args: ListArgs) {
      let q = selectDocs(db);
      if (folderId === QUESTION_FOLDER_ID) {
        q = q.where('kb_documents.owner_id', '=', viewer.userId).where('kb_documents.folder_id', 'is', null);
      } else {
        await canAccess(db, viewer, { type: 'folder', id: folderId }, 'read');
        q = q.where('kb_documents.folder_id', '=', folderId);
      }
      return this.pageDocs(viewer, q, args);
    },

    /** Documents the viewer uploaded with questions, plus (show_my_kb) those in their own knowledge bases. */
    async allDocs(viewer: Viewer, args: ListArgs & { show_my_kb: boolean }) {
      let q = selectDocs(db).where('kb_documents.owner_id', '=', viewer.userId);
      if (!args.show_my_kb) q = q.where('kb_documents.folder_id', 'is', null);
      return this.pageDocs(viewer, q, args);
    },

    /** Documents shared with the viewer one by one (not through a folder). */
    async sharedDocs(viewer: Viewer, args: ListArgs) {
      const q = selectDocs(db)
        .where('kb_documents.owner_id', '!=', viewer.userId)
        .where(sharedWith('doc', 'kb_documents.id', viewer.userId));
      return this.pageDocs(viewer, q, args);
    },

    async pageDocs(viewer: Viewer, q: ReturnType<typeof selectDocs>, args: ListArgs) {
      if (args.search) q = q.where(titleLike('kb_documents.title', args.search));
      const total = await db.selectFrom(q.as('x')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .orderBy('kb_documents.created_at', 'desc')
        .orderBy('kb_documents.id')
        .limit(args.size)
        .offset((args.page - 1) * args.size)
        .execute();
      return pageOf(rows.map((r) => docView(r, viewer.userId, viewer.lang)), total.n, args.page, args.size);
    },

    async getDoc(viewer: Viewer, docId: string) {
      await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      const row = await selectDocs(db).where('kb_documents.id', '=', docId).executeTakeFirstOrThrow();
      return docView(row, viewer.userId, viewer.lang);
    },

    /** The document row after a read check, with its bytes as a stream. */
    async openDoc(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      return { doc, body: await files.read(doc.storage_name) };
    },

    async markdown(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      if (doc.parse_status === 1) throw new DomainError('still_parsing', '文档正在解析中，请稍后再试');
      if (doc.parse_status === 3) throw new DomainError('parse_failed', '文档解析失败，没有可显示的内容');
      return { docId, markdown: doc.markdown ?? '' };
    },

    async imageBase64(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      if (doc.type !== 3) throw new DomainError('not_an_image', '该文档不是图片', 'id');
      const bytes = await files.readAll(doc.storage_name);
      return { docId, img_base64: bytes.toString('base64'), mime: doc.mime };
    },

    async deleteDoc(viewer: Viewer, docId: string) {
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'write');
      return serial(async () => {
        await db.transaction().execute(async (tx) => {
          await deleteSharesOf(tx, 'doc', [docId]);
          await tx.deleteFrom('kb_documents').where('id', '=', docId).execute();
        });
        await dropUnreferenced([doc.storage_name]);
        return { deleted: 1 };
      });
    },

    /** Moves the viewer's documents into one of their folders (or the question-files folder). */
    async moveDocs(viewer: Viewer, docIds: string[], folderId: string) {
      const target = await writableFolder(viewer, folderId);
      const docs: DocRow[] = [];
      for (const id of [...new Set(docIds)]) docs.push(await canAccess(db, viewer, { type: 'doc', id }, 'write'));
      await db.transaction().execute(async (tx) => {
        const taken = await titlesIn(tx, viewer.userId, target);
        for (const doc of docs) {
          if (doc.folder_id === target) continue;
          const title = nextFreeName(doc.title, (n) => taken.has(n));
          taken.add(title);
          await tx.updateTable('kb_documents').set({ folder_id: target, title, updated_at: now() }).where('id', '=', doc.id).execute();
          // Renamed to a free name: its file-name words in the index must follow.
          if (isStale({ ...doc, title })) await queueReindex(tx, doc.id, title);
        }
      });
      return { moved: docs.length };
    },

    /** Copies a readable document into a folder of the viewer's (copy_doc, add_doc_to_kb). */
    async copyDoc(viewer: Viewer, docId: string, folderId: string) {
      const target = await writableFolder(viewer, folderId);
      const source = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      return thenWake(
        serial(() => db.transaction().execute(async (tx) => copyDocument(tx, source, viewer, target, await titlesIn(tx, viewer.userId, target)))),
      );
    },

    /**
     * es_copy_doc_to_question_channel: copies readable documents into the viewer's question files.
     * A document whose file is already among them (the same bytes: stored names are content
     * addresses) is not copied again, so choosing one document for questions twice gives one file.
     */
    async copyToQuestionFiles(viewer: Viewer, docIds: string[]) {
      const sources: DocRow[] = [];
      for (const id of [...new Set(docIds)]) sources.push(await canAccess(db, viewer, { type: 'doc', id }, 'read'));
      return thenWake(serial(() =>
        db.transaction().execute(async (tx) => {
          const taken = await titlesIn(tx, viewer.userId, null);
          const out = [];
          for (const source of sources) {
            const held =
              source.owner_id === viewer.userId && source.folder_id === null
                ? source
                : await tx
                    .selectFrom('kb_documents')
                    .select(['id', 'title'])
                    .where('owner_id', '=', viewer.userId)
                    .where('folder_id', 'is', null)
                    .where('storage_name', '=', source.storage_name)
                    .orderBy('created_at')
                    .executeTakeFirst();
            if (held) out.push({ name: held.title, docId: held.id });
            else out.push(await copyDocument(tx, source, viewer, null, taken));
          }
          return { name_id: out };
        }),
      ));
    },
  };
}
