import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { engineOf } from './dialect';
import { FOLD_FROM, FOLD_TO } from './fulltext-words';

// What differs on PostgreSQL; on SQLite each gives exactly what the migration always made.
type Column = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
/** `integer primary key autoincrement` (SQLite) or an identity column (PostgreSQL). */
const autoId = (db: Kysely<unknown>): Column =>
  engineOf(db) === 'postgres' ? (c) => c.primaryKey().generatedByDefaultAsIdentity() : (c) => c.primaryKey().autoIncrement();
/** `integer primary key` (SQLite's rowid, numbered when not given) or an identity column. */
const rowidKey = (db: Kysely<unknown>): Column =>
  engineOf(db) === 'postgres' ? (c) => c.primaryKey().generatedByDefaultAsIdentity() : (c) => c.primaryKey();
const blob = (db: Kysely<unknown>) => (engineOf(db) === 'postgres' ? 'bytea' : 'blob');
const real = (db: Kysely<unknown>) => (engineOf(db) === 'postgres' ? 'double precision' : 'real');

/**
 * Ordered migrations. Never edit one that has shipped: add the next.
 * Each runs in its own transaction (Kysely's Migrator), so a crash leaves the schema whole.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('departments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('phone', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('department_id', 'text', (c) => c.references('departments.id').onDelete('set null'))
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending','active','disabled')`))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('activated_at', 'text')
        .addCheckConstraint('users_has_account', sql`email is not null or phone is not null`)
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('auth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('activate','reset')`))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('otp_codes')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('otp_codes_user').on('otp_codes').column('user_id').execute();
      await db.schema
        .createTable('outbox')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('alerts')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('is_show', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .execute();
    },
  },
  '0002_knowledge': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('kb_folders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('kb_folders_owner_name').on('kb_folders').columns(['owner_id', 'name']).unique().execute();
      await db.schema
        .createTable('kb_documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // null: the owner's built-in question-files folder (folder_for_question_channel)
        .addColumn('folder_id', 'text', (c) => c.references('kb_folders.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull().check(sql`type in (1, 3, 5, 6)`))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('storage_name', 'text', (c) => c.notNull())
        .addColumn('parse_status', 'integer', (c) => c.notNull().defaultTo(1).check(sql`parse_status in (1, 2, 3)`))
        .addColumn('parse_progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_texts', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('page_count', 'integer')
        .addColumn('markdown', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('kb_documents_owner_folder').on('kb_documents').columns(['owner_id', 'folder_id']).execute();
      await db.schema.createIndex('kb_documents_folder').on('kb_documents').column('folder_id').execute();
      await db.schema.createIndex('kb_documents_storage').on('kb_documents').column('storage_name').execute();
      await db.schema
        .createTable('kb_shares')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('resource_type', 'text', (c) => c.notNull().check(sql`resource_type in ('folder','doc')`))
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull().check(sql`target_type in ('user','department')`))
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('shared_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('kb_shares_unique')
        .on('kb_shares')
        .columns(['resource_type', 'resource_id', 'target_type', 'target_id'])
        .unique()
        .execute();
      await db.schema.createIndex('kb_shares_target').on('kb_shares').columns(['target_type', 'target_id']).execute();
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued','running','done','failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
        .addColumn('run_after', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('heartbeat_at', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'run_after']).execute();
      await db.schema
        .createTable('kb_chunks')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('ordinal', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer')
        .addColumn('bbox', 'text')
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('segmented', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('kb_chunks_doc').on('kb_chunks').columns(['doc_id', 'ordinal']).execute();
      if (engineOf(db) === 'postgres') {
        // The same words as FTS5's unicode61 over the segmented text (db/fulltext-words.ts), as a tsvector of the 'simple' configuration (no stemming, no stop
        // words) with a GIN index, and the passage's length in words for BM25 (retrieval/fulltext-postgres.ts).
        const words = sql`translate(segmented, ${sql.lit(FOLD_FROM)}, ${sql.lit(FOLD_TO)})`;
        await sql`alter table kb_chunks add column fts tsvector generated always as (to_tsvector('simple', ${words})) stored`.execute(db);
        await sql`alter table kb_chunks add column fts_len integer generated always as
          (coalesce(array_length(regexp_split_to_array(nullif(btrim(${words}), ''), ' +'), 1), 0)) stored`.execute(db);
        await sql`create index kb_chunks_fts on kb_chunks using gin (fts)`.execute(db);
      } else {
        // BM25 over the pre-segmented text (DESIGN §5); kept in step with kb_chunks by triggers.
        await sql`create virtual table kb_chunks_fts using fts5(segmented, content='kb_chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(db);
        await sql`create trigger kb_chunks_ai after insert on kb_chunks begin
        insert into kb_chunks_fts(rowid, segmented) values (new.id, new.segmented); end`.execute(db);
        await sql`create trigger kb_chunks_ad after delete on kb_chunks begin
        insert into kb_chunks_fts(kb_chunks_fts, rowid, segmented) values ('delete', old.id, old.segmented); end`.execute(db);
      }
      await db.schema
        .createTable('kb_molecules')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('smiles', 'text')
        .addColumn('molfile', 'text', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('kb_molecules_doc').on('kb_molecules').columns(['doc_id', 'idx']).execute();
    },
  },
  '0003_channels': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('channels')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('channels_user_updated').on('channels').columns(['user_id', 'updated_at']).execute();
      // A question is also its answer job: status is the durable queue state (DESIGN §4 queue control).
      await db.schema
        .createTable('questions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel_id', 'text', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued','running','done','stopped','failed')`))
        // Written when the answer ends; while it runs the answer so far is folded from its events.
        .addColumn('answer', 'text')
        .addColumn('thinking', 'text')
        .addColumn('steps', 'text')
        .addColumn('citations', 'text')
        .addColumn('error', 'text')
        .addColumn('effect', 'text', (c) => c.check(sql`effect in ('like','dislike')`))
        .addColumn('effect_comment', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      // SQLite's rowid orders questions asked in the same millisecond; PostgreSQL gets a column of that name.
      if (engineOf(db) === 'postgres') await sql`alter table questions add column rowid bigint generated always as identity`.execute(db);
      await db.schema.createIndex('questions_channel').on('questions').columns(['channel_id', 'created_at']).execute();
      await db.schema.createIndex('questions_status').on('questions').columns(['status', 'created_at']).execute();
      await db.schema
        .createTable('question_events')
        .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('question_events_pk', ['question_id', 'seq'])
        .execute();
    },
  },
  '0005_embeddings': {
    async up(db: Kysely<unknown>) {
      // Optional embeddings (DESIGN §5): one vector per passage and model, gone with its passage.
      await db.schema
        .createTable('kb_chunk_vectors')
        .addColumn('chunk_id', 'integer', (c) => c.primaryKey().references('kb_chunks.id').onDelete('cascade'))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('dims', 'integer', (c) => c.notNull())
        // Float32 little-endian, L2-normalised, so cosine similarity is a dot product.
        .addColumn('vector', blob(db), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('kb_chunk_vectors_doc').on('kb_chunk_vectors').columns(['doc_id', 'model']).execute();
    },
  },
  '0006_deep_research': {
    async up(db: Kysely<unknown>) {
      // The durable state of a deep-research answer (DESIGN §4): what each finished step found, so a
      // run interrupted by a restart resumes after its last finished step. Gone with its question.
      await db.schema
        .createTable('research_runs')
        .addColumn('question_id', 'text', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
        .addColumn('completed', 'text', (c) => c.notNull().check(sql`completed in ('none','plan','search','read','write')`))
        // JSON: the sub-questions (null until planned) and the passages found per searched sub-question.
        .addColumn('plan', 'text')
        .addColumn('findings', 'text', (c) => c.notNull())
        .addColumn('resumes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0007_index_version': {
    async up(db: Kysely<unknown>) {
      // Which version of the chunking and indexing made a document's passages, and under which
      // title (its file-name words are indexed): an older version or another title is re-indexed
      // in the background from the stored file (parsing/reindex.ts). 0: before this was recorded.
      await db.schema.alterTable('kb_documents').addColumn('index_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('kb_documents').addColumn('indexed_title', 'text').execute();
    },
  },
  '0008_answer_event_log': {
    async up(db: Kysely<unknown>) {
      // Events of answers being written, in the order stored (see AnswerEventLogTable). No index and
      // no foreign key: a row is only ever appended, read back at start-up, or deleted from the start.
      await db.schema
        .createTable('answer_event_log')
        .addColumn('id', 'integer', rowidKey(db))
        .addColumn('question_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0009_api_tokens': {
    async up(db: Kysely<unknown>) {
      // Personal API tokens (DESIGN §3 programmatic access): only the SHA-256 of a token is kept;
      // `prefix` (its first characters) lets the owner tell tokens apart. Revoking deletes the row.
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
    },
  },
  '0010_molecules': {
    async up(db: Kysely<unknown>) {
      // The molecule database (src/server/molecules): every molecule of a parsed SDF, PDB
      // ligand and SMILES of a document's text, with its exact key and fingerprints; gone with its document.
      await db.schema
        .createTable('molecules')
        .addColumn('id', 'integer', rowidKey(db))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('sdf','pdb','text')`))
        // The SDF record's idx (kb_molecules.idx), the ligand's or the text occurrence's order.
        .addColumn('ordinal', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer')
        .addColumn('name', 'text')
        .addColumn('canonical_smiles', 'text', (c) => c.notNull())
        // '' when InChI cannot describe the structure; exact search then compares canonical SMILES.
        .addColumn('inchikey', 'text', (c) => c.notNull())
        .addColumn('heavy_atoms', 'integer', (c) => c.notNull())
        // 2048-bit Morgan (radius 2) and RDKit pattern fingerprints, 256 bytes each; RDKit's binary molecule.
        .addColumn('morgan_fp', blob(db), (c) => c.notNull())
        .addColumn('pattern_fp', blob(db), (c) => c.notNull())
        .addColumn('pickle', blob(db), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('molecules_doc').on('molecules').columns(['doc_id', 'ordinal']).execute();
      await db.schema.createIndex('molecules_inchikey').on('molecules').column('inchikey').execute();
      await db.schema.createIndex('molecules_smiles').on('molecules').column('canonical_smiles').execute();
      // Which documents are indexed, by which molecule-index version and at which passage version.
      await db.schema
        .createTable('molecule_docs')
        .addColumn('doc_id', 'text', (c) => c.primaryKey().references('kb_documents.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('doc_index_version', 'integer', (c) => c.notNull())
        .addColumn('molecules', 'integer', (c) => c.notNull())
        .addColumn('indexed_at', 'text', (c) => c.notNull())
        .execute();
      // One row per change of a document's molecules: the in-memory fingerprints of every process
      // catch up from it (no foreign key: it outlives the document on purpose).
      await db.schema
        .createTable('molecule_changes')
        .addColumn('seq', 'integer', rowidKey(db))
        .addColumn('doc_id', 'text', (c) => c.notNull())
        .addColumn('changed_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0011_docking': {
    async up(db: Kysely<unknown>) {
      // A user's long-running task (docking): what they see and own. The work itself is a row of
      // `jobs` (job_id), so it survives restarts; the task keeps the state shown to the user.
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('job_id', 'integer')
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued','running','done','failed','cancelled')`))
        .addColumn('progress', real(db), (c) => c.notNull().defaultTo(0))
        .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tasks_user').on('tasks').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('tasks_state').on('tasks').column('state').execute();
    },
  },
  '0012_artifacts': {
    async up(db: Kysely<unknown>) {
      // Files sandboxed code left (plots, tables), kept with the answer that shows them (src/server/sandbox);
      // the bytes are under CSAI_DATA_DIR/artifacts/<id>, readable only by the user whose run made them.
      await db.schema
        .createTable('artifacts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('image','file')`))
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('artifacts_user').on('artifacts').columns(['user_id', 'created_at']).execute();
    },
  },
  '0014_web_documents': {
    async up(db: Kysely<unknown>) {
      // Pages saved from page crawl become documents of type 7 (SPEC §3: "above 4 =
      // molecule or other"), stored as markdown, with the URL they came from and when they were
      // read. SQLite cannot change a CHECK in place: the table is rebuilt as its docs describe
      // (foreign keys off so the drop cascades nothing, the same columns copied, its indexes remade).
      // The Migrator runs SQLite migrations outside a transaction, so the pragma takes effect.
      if (engineOf(db) === 'postgres') {
        // PostgreSQL changes the check in place (this migration runs in a transaction there).
        await sql`alter table kb_documents drop constraint kb_documents_type_check`.execute(db);
        await sql`alter table kb_documents add constraint kb_documents_type_check check (type in (1, 3, 5, 6, 7))`.execute(db);
        await db.schema.alterTable('kb_documents').addColumn('source_url', 'text').execute();
        await db.schema.alterTable('kb_documents').addColumn('fetched_at', 'text').execute();
        return;
      }
      await sql`pragma foreign_keys = off`.execute(db);
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
      if (fk.rows[0]?.foreign_keys !== 0) throw new Error('0014_web_documents: foreign keys could not be switched off; refusing to rebuild kb_documents');
      try {
        await db.transaction().execute(async (tx) => {
          const table = await sql<{ sql: string }>`select sql from sqlite_schema where type = 'table' and name = 'kb_documents'`.execute(tx);
          const create = table.rows[0]?.sql ?? '';
          const check = /type in \(1, 3, 5, 6\)/;
          if (!check.test(create)) throw new Error('0014_web_documents: kb_documents has an unexpected type check');
          const dependents = await sql<{ sql: string }>`select sql from sqlite_schema where tbl_name = 'kb_documents' and type in ('index', 'trigger') and sql is not null`.execute(tx);
          await sql.raw(create.replace(check, 'type in (1, 3, 5, 6, 7)').replace(/^create table\s+("?)kb_documents\1/i, 'create table "kb_documents_0014"')).execute(tx);
          await sql`insert into kb_documents_0014 select * from kb_documents`.execute(tx);
          await sql`drop table kb_documents`.execute(tx);
          // Other tables' references name kb_documents and bind to the new table once it has the name.
          await sql`pragma legacy_alter_table = on`.execute(tx);
          await sql`alter table kb_documents_0014 rename to kb_documents`.execute(tx);
          await sql`pragma legacy_alter_table = off`.execute(tx);
          for (const d of dependents.rows) await sql.raw(d.sql).execute(tx);
          await sql`alter table kb_documents add column source_url text`.execute(tx);
          await sql`alter table kb_documents add column fetched_at text`.execute(tx);
          const broken = await sql`pragma foreign_key_check`.execute(tx);
          if (broken.rows.length) throw new Error(`0014_web_documents: ${broken.rows.length} broken foreign keys after the rebuild`);
        });
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  },
  '0015_mcp_servers': {
    async up(db: Kysely<unknown>) {
      // MCP servers an administrator added in the browser: Streamable HTTP or SSE URLs
      // only; stdio servers come from the server's configuration file, never from here.
      await db.schema
        .createTable('mcp_servers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('transport', 'text', (c) => c.notNull().check(sql`transport in ('http','sse')`))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .execute();
    },
  },
  '0017_directory': {
    async up(db: Kysely<unknown>) {
      // Directory sign-in: an account made or linked by an LDAP sign-in says so, and
      // keeps the directory's stable account attribute; its password lives in the directory only.
      await db.schema
        .alterTable('users')
        .addColumn('auth_source', 'text', (c) => c.notNull().defaultTo('local').check(sql`auth_source in ('local','ldap')`))
        .execute();
      await db.schema.alterTable('users').addColumn('directory_account', 'text').execute();
      await db.schema.createIndex('users_directory_account').on('users').column('directory_account').unique().execute();
    },
  },
  '0019_online': {
    async up(db: Kysely<unknown>) {
      // MCP servers may require authentication: a Bearer token or one header of the
      // administrator's choosing. The secret is stored sealed (AES-256-GCM under the server secret).
      await db.schema.alterTable('mcp_servers').addColumn('auth_type', 'text', (c) => c.check(sql`auth_type in ('bearer','header')`)).execute();
      await db.schema.alterTable('mcp_servers').addColumn('auth_header', 'text').execute();
      await db.schema.alterTable('mcp_servers').addColumn('auth_secret', 'text').execute();
    },
  },
  '0021_code_runs': {
    async up(db: Kysely<unknown>) {
      // Files a sandboxed run left belong to the question whose answer (or 运行 button) made them;
      // gone with it. Null for runs that belong to no question (only their user may read those).
      await db.schema.alterTable('artifacts').addColumn('question_id', 'text', (c) => c.references('questions.id').onDelete('cascade')).execute();
      await db.schema.createIndex('artifacts_question').on('artifacts').column('question_id').execute();
      // The last 运行 of each Python block of an answer (block = its index among the answer's Python blocks),
      // shown under the block when the channel is opened again.
      await db.schema
        .createTable('code_runs')
        .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
        .addColumn('block', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('code_runs_pk', ['question_id', 'block'])
        .execute();
    },
  },
  '0023_nodes': {
    async up(db: Kysely<unknown>) {
      // Several app nodes over one PostgreSQL. Each process is a node with a lease it
      // renews; a live node finishes the answers of a node whose lease ran out (answering/node-lease.ts).
      await db.schema
        .createTable('nodes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      // Which node runs an answer, and which node wrote a log row (null: written by a single-node server).
      await db.schema.alterTable('questions').addColumn('node_id', 'text').execute();
      await db.schema.alterTable('answer_event_log').addColumn('node_id', 'text').execute();
      // Counters of the rate limits and cooldowns shared by the nodes (one row per limit and key).
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('window_start', real(db), (c) => c.notNull())
        .addColumn('reset_at', real(db), (c) => c.notNull())
        .execute();
      if (engineOf(db) === 'postgres') {
        // Every node reads the log by question (another node's answers are in it too); SQLite keeps
        // its log index-free (one process, rows found through the writer's memory).
        await db.schema.createIndex('answer_event_log_question').on('answer_event_log').columns(['question_id', 'seq']).execute();
        await db.schema.createIndex('questions_running_node').on('questions').column('node_id').where(sql.ref('status'), '=', 'running').execute();
        // Log ids now come from the identity sequence (several writers); the single-node writer gave them itself.
        await sql`select setval(pg_get_serial_sequence('answer_event_log', 'id'), (select coalesce(max(id), 0) + 1 from answer_event_log), false)`.execute(db);
      }
    },
  },
  '0024_answer_claims': {
    async up(db: Kysely<unknown>) {
      // Several app nodes: when the 排队中 notice was written for the answer's current
      // wait. Set by one conditional UPDATE, so of two nodes finding the answer waiting only one
      // writes the notice; cleared when the answer is claimed (a deep-research answer that goes back
      // to the queue is told again).
      await db.schema.alterTable('questions').addColumn('queued_notice_at', 'text').execute();
    },
  },
  '0025_molecule_parents': {
    async up(db: Kysely<unknown>) {
      // A salt or mixture is found by its parent: the key (InChIKey, or canonical SMILES
      // without InChI) of the molecule's largest organic fragment, neutralised, and that parent's SMILES
      // when it differs. Rows from before are filled by indexing every document again at the next start
      // (MOLECULE_INDEX_VERSION 2); '' until then, when exact search still matches the structure itself.
      await db.schema.alterTable('molecules').addColumn('parent_key', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('molecules').addColumn('parent_smiles', 'text').execute();
      await db.schema.createIndex('molecules_parent_key').on('molecules').column('parent_key').execute();
    },
  },
  '0026_user_language': {
    async up(db: Kysely<unknown>) {
      // The interface language a user chose in the user menu ('zh' or 'en'); null: not chosen.
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
    },
  },
  '0027_doc_structures': {
    async up(db: Kysely<unknown>) {
      // Structures read from a document's drawings, with their page and box (PDF points,
      // origin bottom-left, JSON [x0, y0, x1, y1]), RDKit's canonical SMILES, a confidence 0–1 and how
      // they were read; a reader's correction (canonical SMILES) wins over the recognition for everyone.
      await db.schema
        .createTable('doc_structures')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('bbox', 'text', (c) => c.notNull())
        .addColumn('smiles', 'text', (c) => c.notNull())
        .addColumn('confidence', real(db), (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('corrected_smiles', 'text')
        .addColumn('corrected_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('corrected_at', 'text')
        .execute();
      await db.schema.createIndex('doc_structures_doc').on('doc_structures').columns(['doc_id', 'page']).execute();
      // Figure molecules join the molecule table with a link to their structure row.
      if (engineOf(db) === 'postgres') {
        await sql`alter table molecules drop constraint if exists molecules_source_check`.execute(db);
        await sql`alter table molecules add constraint molecules_source_check check (source in ('sdf','pdb','text','figure'))`.execute(db);
        await sql`alter table molecules add column structure_id integer references doc_structures(id) on delete cascade`.execute(db);
      } else {
        // SQLite cannot change a CHECK: the table is rebuilt (nothing references it).
        await db.schema
          .createTable('molecules_new')
          .addColumn('id', 'integer', rowidKey(db))
          .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
          .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('sdf','pdb','text','figure')`))
          .addColumn('ordinal', 'integer', (c) => c.notNull())
          .addColumn('page', 'integer')
          .addColumn('name', 'text')
          .addColumn('canonical_smiles', 'text', (c) => c.notNull())
          .addColumn('inchikey', 'text', (c) => c.notNull())
          .addColumn('heavy_atoms', 'integer', (c) => c.notNull())
          .addColumn('morgan_fp', blob(db), (c) => c.notNull())
          .addColumn('pattern_fp', blob(db), (c) => c.notNull())
          .addColumn('pickle', blob(db), (c) => c.notNull())
          .addColumn('parent_key', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('parent_smiles', 'text')
          .addColumn('structure_id', 'integer', (c) => c.references('doc_structures.id').onDelete('cascade'))
          .execute();
        await sql`insert into molecules_new (id, doc_id, source, ordinal, page, name, canonical_smiles, inchikey, heavy_atoms, morgan_fp, pattern_fp, pickle, parent_key, parent_smiles)
          select id, doc_id, source, ordinal, page, name, canonical_smiles, inchikey, heavy_atoms, morgan_fp, pattern_fp, pickle, parent_key, parent_smiles from molecules`.execute(db);
        await db.schema.dropTable('molecules').execute();
        await sql`alter table molecules_new rename to molecules`.execute(db);
        await db.schema.createIndex('molecules_doc').on('molecules').columns(['doc_id', 'ordinal']).execute();
        await db.schema.createIndex('molecules_inchikey').on('molecules').column('inchikey').execute();
        await db.schema.createIndex('molecules_smiles').on('molecules').column('canonical_smiles').execute();
        await db.schema.createIndex('molecules_parent_key').on('molecules').column('parent_key').execute();
      }
    },
  },
  '0028_doc_activities': {
    async up(db: Kysely<unknown>) {
      // Activities read from a document's tables and sentences (parsing/chemistry/activities.ts),
      // linked to its structures by (doc_id, label); gone with the document.
      await db.schema
        .createTable('doc_activities')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('page', 'integer')
        .addColumn('bbox', 'text')
        .addColumn('label', 'text')
        .addColumn('target', 'text')
        .addColumn('measure', 'text', (c) => c.notNull().check(sql`measure in ('IC50','Ki','Kd','EC50','inhibition')`))
        .addColumn('relation', 'text', (c) => c.notNull().check(sql`relation in ('=','<','>','~','<=','>=')`))
        .addColumn('value', real(db), (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('value_nm', real(db))
        .addColumn('concentration', 'text')
        .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('table','text')`))
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('doc_activities_doc_label').on('doc_activities').columns(['doc_id', 'label']).execute();
      await db.schema.createIndex('doc_activities_measure').on('doc_activities').columns(['measure', 'value_nm']).execute();
    },
  },
  '0029_docking_batches': {
    async up(db: Kysely<unknown>) {
      // A batch docks up to 50 molecules into one receptor with one set of settings; each
      // molecule is a task of its own (row, job, folder) that names its batch and its place in the list.
      await db.schema
        .createTable('docking_batches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('docking_batches_user').on('docking_batches').columns(['user_id', 'created_at']).execute();
      await db.schema.alterTable('tasks').addColumn('batch_id', 'text').execute();
      await db.schema.alterTable('tasks').addColumn('batch_index', 'integer').execute();
      await db.schema.createIndex('tasks_batch').on('tasks').column('batch_id').execute();
    },
  },
  '0030_molecules_skeleton': {
    async up(db: Kysely<unknown>) {
      // Exact search for a structure given without stereo also finds its stereoisomers (a double
      // bond read as E from a drawing, a resolved enantiomer): the InChIKey's first block is the
      // skeleton (connectivity without stereo or isotopes), indexed as an expression.
      await db.schema.createIndex('molecules_skeleton').on('molecules').expression(sql`substr(inchikey, 1, 14)`).execute();
    },
  },
  '0031_kb_outline': {
    async up(db: Kysely<unknown>) {
      // A document's tables of contents (parsing/navigation.ts 'toc' passages), kept out of
      // kb_chunks and its full-text index so they change no other question's BM25 statistics, and
      // searched only for a question about the document's outline (retrieval/outline.ts).
      await db.schema
        .createTable('kb_outline')
        .addColumn('id', 'integer', autoId(db))
        .addColumn('doc_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
        .addColumn('ordinal', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer')
        .addColumn('bbox', 'text')
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('segmented', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('kb_outline_doc').on('kb_outline').columns(['doc_id', 'ordinal']).execute();
    },
  },
  '0032_kb_outline_kind': {
    async up(db: Kysely<unknown>) {
      // Back-of-book indexes join the tables of contents in kb_outline, told apart by kind: an index
      // is searched only for a question about the index ("书后索引里 ebb 指向第几页").
      await db.schema.alterTable('kb_outline').addColumn('kind', 'text', (c) => c.notNull().defaultTo('toc')).execute();
    },
  },
};
