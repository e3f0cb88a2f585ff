// Uploads: received files become documents with their parse jobs, after the SPEC §5 name rules.
import type { Db } from '../db/database';
import { now } from '../db/database';
import { randomToken } from '../auth/crypto';
import { DomainError } from '../errors';
import { jobQueue } from '../jobs/queue';
import { PARSE_JOB, type ParseJobPayload } from '../parsing/parse-job';
import { uploadMessages } from '../../contract/knowledge';
import { type Viewer } from '../access/access';
import type { StagedFile } from '../files/file-store';
import { nextFreeName } from './names';
import { documentTypeOf, isImage, mimeOf, type FileKind } from './sniff';
import type { KnowledgeStore } from './store';

/** A file received in full and checked, waiting to become a document. */
export interface IncomingFile {
  title: string;
  kind: FileKind;
  staged: StagedFile;
  /** A page or paper saved from the web: where it came from and when (ISO); it is renamed _1, _2 on a clash instead of refused. */
  source?: { url: string; fetchedAt: string };
}

/** The uploads part of the knowledge service. */
export function knowledgeUploads(db: Db, store: KnowledgeStore) {
  const { files, serial, thenWake, titlesIn, dropUnreferenced, writableFolder } = store;
  return {
    /** Refuses an upload target the viewer may not write to, before any bytes are read. */
    checkUploadTarget: (viewer: Viewer, folderId: string) => writableFolder(viewer, folderId),

    /**
     * Turns received files into documents in one transaction with their parse jobs, after the
     * SPEC §5 name rules. Staged files are committed or discarded, never left behind.
     */
    async addDocuments(viewer: Viewer, folderId: string, incoming: IncomingFile[]) {
      try {
        const target = await writableFolder(viewer, folderId);
        return await thenWake(serial(async () => {
          const taken = await titlesIn(db, viewer.userId, target);
          const batch = new Set<string>();
          const named = incoming.map((file) => {
            // SPEC §5: images are renamed _1, _2 instead of rejected; so are pages saved from the web.
            if (isImage(file.kind) || file.source) {
              const title = nextFreeName(file.title, (n) => taken.has(n) || batch.has(n));
              batch.add(title);
              return { ...file, title };
            }
            // Question files pile up over time: there only the batch itself must be free of repeats.
            if (batch.has(file.title) || (target !== null && taken.has(file.title))) throw new DomainError('duplicate_name', uploadMessages.duplicateName);
            batch.add(file.title);
            return file;
          });
          for (const file of named) await files.commit(file.staged);
          const t = now();
          const insert = db.transaction().execute(async (tx) => {
            const out = [];
            // A file uploaded into a question box again (same name, same bytes) is the
            // document already there, not a second copy parsed again; one that failed to parse is
            // uploaded anew. (The bytes are stored once anyway: stored names are content addresses.)
            const sameFile = (sha256: string, title: string) => `${sha256}/${title}`;
            const held = new Map<string, string>();
            if (target === null) {
              const rows = await tx
                .selectFrom('kb_documents')
                .select(['id', 'title', 'sha256'])
                .where('owner_id', '=', viewer.userId)
                .where('folder_id', 'is', null)
                .where('sha256', 'in', named.map((f) => f.staged.sha256))
                .where('parse_status', '!=', 3)
                .orderBy('created_at')
                .execute();
              for (const r of rows) if (!held.has(sameFile(r.sha256, r.title))) held.set(sameFile(r.sha256, r.title), r.id);
            }
            for (const file of named) {
              const same = held.get(sameFile(file.staged.sha256, file.title));
              if (same) {
                out.push({ name: file.title, docId: same });
                continue;
              }
              const id = randomToken(12);
              await tx
                .insertInto('kb_documents')
                .values({
                  id,
                  owner_id: viewer.userId,
                  folder_id: target,
                  title: file.title,
                  type: documentTypeOf(file.kind),
                  mime: mimeOf(file.kind),
                  size: file.staged.size,
                  sha256: file.staged.sha256,
                  storage_name: file.staged.sha256,
                  parse_status: 1,
                  parse_progress: 0,
                  progress_texts: JSON.stringify(['已上传，等待解析']),
                  page_count: null,
                  markdown: null,
                  created_at: t,
                  updated_at: t,
                  source_url: file.source?.url ?? null,
                  fetched_at: file.source?.fetchedAt ?? null,
                })
                .execute();
              await jobQueue(tx).enqueue(PARSE_JOB, { docId: id } satisfies ParseJobPayload);
              out.push({ name: file.title, docId: id });
            }
            if (target) await tx.updateTable('kb_folders').set({ updated_at: t }).where('id', '=', target).execute();
            return { name_id: out };
          });
          // Rows and files change together: if the rows could not be written, no file stays behind.
          return insert.catch(async (err: unknown) => {
            await dropUnreferenced(named.map((f) => f.staged.sha256));
            throw err;
          });
        }));
      } finally {
        // Committed files were renamed away already; this removes only what is still staged.
        await Promise.all(incoming.map((f) => files.discard(f.staged)));
      }
    },
  };
}
