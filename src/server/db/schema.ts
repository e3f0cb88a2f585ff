import type { ColumnType, Generated } from 'kysely';

export interface DepartmentTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UserTable {
  id: string;
  email: string | null;
  phone: string | null;
  name: string;
  password_hash: string;
  department_id: string | null;
  is_admin: number;
  status: 'pending' | 'active' | 'disabled';
  /** The interface language chosen in the user menu, 'zh' or 'en'; null when never chosen (migration 0026). */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  activated_at: string | null;
  /** 'ldap': made or linked by a directory sign-in; the password is the directory's (migration 0017). */
  auth_source: Generated<'local' | 'ldap'>;
  /** The directory's account attribute (LDAP_ATTR_ACCOUNT) of an 'ldap' account. */
  directory_account: Generated<string | null>;
}

export interface SessionTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: string;
  purpose: 'activate' | 'reset';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OtpCodeTable {
  id: Generated<number>;
  user_id: string;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  attempts: number;
}

export interface OutboxTable {
  id: Generated<number>;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  kind: string;
  status: 'pending' | 'sent' | 'logged' | 'failed';
  created_at: string;
}

export interface AlertTable {
  id: Generated<number>;
  is_show: number;
  content: string;
  content_type: 'info' | 'warning' | 'error' | 'success';
  updated_at: string;
  updated_by: string | null;
}

export interface KbFolderTable {
  id: string;
  owner_id: string;
  name: string;
  is_public: number;
  created_at: string;
  updated_at: string;
}

/** SPEC §3: type 1 pdf, 3 image, 5 sdf, 6 pdb ("above 4 = molecule or other"); 7 a web page saved as markdown. */
export type DocumentType = 1 | 3 | 5 | 6 | 7;
/** SPEC §4: 1 parsing, 2 done, 3 failed. */
export type ParseStatus = 1 | 2 | 3;

export interface KbDocumentTable {
  id: string;
  owner_id: string;
  /** null: the owner's built-in question-files folder. */
  folder_id: string | null;
  title: string;
  type: DocumentType;
  mime: string;
  size: number;
  sha256: string;
  storage_name: string;
  parse_status: ParseStatus;
  parse_progress: number;
  /** JSON array of Chinese step texts. */
  progress_texts: string;
  page_count: number | null;
  markdown: string | null;
  created_at: string;
  updated_at: string;
  /** The chunking/indexing version of its passages (parsing/reindex.ts INDEX_VERSION); 0 before it was recorded. */
  index_version: Generated<number>;
  /** The title its passages were made with (file-name words are indexed); null when unknown. */
  indexed_title: string | null;
  /** Where a page or paper saved from the web came from; null for uploads. */
  source_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** When it was fetched (ISO time); null for uploads. */
  fetched_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface KbShareTable {
  id: string;
  resource_type: 'folder' | 'doc';
  resource_id: string;
  target_type: 'user' | 'department';
  target_id: string;
  shared_by: string;
  created_at: string;
}

/** A user's long-running task (docking); its work is the `jobs` row `job_id`. */
export interface TaskTable {
  id: string;
  user_id: string;
  kind: string;
  job_id: number | null;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: number;
  message: string;
  title: string;
  /** JSON: the prepared request (kind-specific). */
  input: string;
  /** JSON: the result (kind-specific), when done. */
  result: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /** The batch this task docks one molecule of, and its place there (from 1). */
  batch_id?: string | null;
  batch_index?: number | null;
}

/** A batch of docking tasks: one receptor, box and settings for up to 50 molecules. */
export interface DockingBatchTable {
  id: string;
  user_id: string;
  title: string;
  /** JSON: receptor label, box and settings shared by the batch's tasks. */
  input: string;
  created_at: string;
  updated_at: string;
}

export interface JobTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_until: string | null;
  heartbeat_at: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface KbChunkTable {
  id: Generated<number>;
  doc_id: string;
  ordinal: number;
  page: number | null;
  /** JSON [x0, y0, x1, y1] in PDF points on that page, or null. */
  bbox: string | null;
  text: string;
  segmented: string;
}

/** A passage of a document's navigation: its table of contents, or its back-of-book index. */
export interface KbOutlineTable extends KbChunkTable {
  kind: ColumnType<'toc' | 'index', 'toc' | 'index' | undefined, never>;
}

export interface KbMoleculeTable {
  id: Generated<number>;
  doc_id: string;
  idx: number;
  name: string | null;
  smiles: string | null;
  molfile: string;
  /** JSON object of the SDF data fields. */
  properties: string;
}

export interface ChannelTable {
  id: string;
  user_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export type AnswerStatus = 'queued' | 'running' | 'done' | 'stopped' | 'failed';

export interface QuestionTable {
  id: string;
  channel_id: string;
  user_id: string;
  question: string;
  /** JSON of the question request's options (documents, knowledge bases, toggles). */
  request: string;
  engine: string;
  status: AnswerStatus;
  /** The final answer, thinking, steps (JSON) and citations (JSON), written when the answer ends. */
  answer: string | null;
  thinking: string | null;
  steps: string | null;
  citations: string | null;
  error: string | null;
  effect: 'like' | 'dislike' | null;
  effect_comment: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The node running the answer (migration 0023; set on PostgreSQL only). */
  node_id: string | null;
  /** When the 排队中 notice was written for the answer's current wait (migration 0024; set on PostgreSQL only). */
  queued_notice_at: string | null;
}

export interface QuestionEventTable {
  question_id: string;
  /** Increments per question from 1; the SSE id. */
  seq: number;
  type: string;
  /** JSON payload of the event. */
  data: string;
  created_at: string;
}

/**
 * Events of answers still being written (migration 0008), appended in the order stored: rows go
 * to the end of the table, so a commit touches a page or two however many answers stream. When
 * an answer ends its events move to question_events; the log is emptied from its start.
 */
export interface AnswerEventLogTable {
  id: Generated<number>;
  question_id: string;
  seq: number;
  type: string;
  data: string;
  created_at: string;
  /** The node that wrote the row (migration 0023; PostgreSQL only, null on SQLite). */
  node_id: Generated<string | null>;
}

/** An app node (migration 0023): alive while `expires_at` (renewed by the node) is in the future. */
export interface NodeTable {
  id: string;
  started_at: string;
  expires_at: string;
}

/** A rate-limit or cooldown counter shared by the nodes (migration 0023; used on PostgreSQL). */
export interface RateLimitTable {
  key: string;
  count: number;
  /** Epoch milliseconds. */
  window_start: number;
  reset_at: number;
}

/** A passage's embedding (migration 0005): Float32 little-endian, L2-normalised. */
export interface KbChunkVectorTable {
  chunk_id: number;
  doc_id: string;
  model: string;
  dims: number;
  vector: Buffer;
}

/** The durable state of a deep-research answer (migration 0006). */
export interface ResearchRunTable {
  question_id: string;
  /** The last finished step. */
  completed: 'none' | 'plan' | 'search' | 'read' | 'write';
  /** JSON array of sub-questions, null until planned. */
  plan: string | null;
  /** JSON: one list of passages per searched sub-question, in plan order. */
  findings: string;
  /** How often the run was resumed after a restart. */
  resumes: Generated<number>;
  updated_at: string;
}

/** A personal API token (migration 0009): sent as `Authorization: Bearer`, stored as its hash. */
export interface ApiTokenTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  /** The token's first characters, shown so the owner can tell tokens apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** One molecule of the molecule database (migration 0010, src/server/molecules). */
export interface MoleculeTable {
  id: Generated<number>;
  doc_id: string;
  source: 'sdf' | 'pdb' | 'text' | 'figure';
  ordinal: number;
  page: number | null;
  name: string | null;
  canonical_smiles: string;
  /** '' when InChI cannot describe the structure. */
  inchikey: string;
  heavy_atoms: number;
  morgan_fp: Buffer;
  pattern_fp: Buffer;
  pickle: Buffer;
  /** The standardised parent's key (migration 0025): largest organic fragment, neutralised; '' before re-indexing. */
  parent_key: Generated<string>;
  /** The parent's canonical SMILES when it differs from the molecule (a salt, a mixture, a charged form). */
  parent_smiles: string | null;
  /** A figure molecule's structure row (doc_structures, migration 0027); null for other sources. */
  structure_id: number | null;
}

/** A structure read from a document's drawing (migration 0027). */
export interface DocStructureTable {
  id: Generated<number>;
  doc_id: string;
  page: number;
  /** JSON [x0, y0, x1, y1] in PDF points on the page, origin bottom-left. */
  bbox: string;
  /** Recognised, RDKit canonical. */
  smiles: string;
  confidence: number;
  method: string;
  label: string | null;
  /** A reader's correction (canonical SMILES); wins over `smiles`. */
  corrected_smiles: string | null;
  corrected_by: string | null;
  corrected_at: string | null;
}

/** A document whose molecules are in the molecule table, and by which version. */
export interface MoleculeDocTable {
  doc_id: string;
  version: number;
  doc_index_version: number;
  molecules: number;
  indexed_at: string;
}

/** A change of one document's molecules, in order (seq); read by the in-memory fingerprint index. */
export interface MoleculeChangeTable {
  seq: Generated<number>;
  doc_id: string;
  changed_at: string;
}

/** A file sandboxed code left (migration 0012); its bytes are under CSAI_DATA_DIR/artifacts/<id>. */
export interface ArtifactTable {
  id: string;
  user_id: string;
  name: string;
  mime: string;
  kind: 'image' | 'file';
  size: number;
  created_at: string;
  /** The question whose answer or 运行 button made it (migration 0021); null: only its user may read it. */
  question_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The last 运行 of one Python block of an answer (migration 0021); `result` is a CodeExecutionResult as JSON. */
export interface CodeRunTable {
  question_id: string;
  block: number;
  user_id: string;
  code: string;
  result: string;
  created_at: string;
}

/** An activity read from a document (migration 0028, src/server/chemdocs); linked to structures by (doc_id, label). */
export interface DocActivityTable {
  id: Generated<number>;
  doc_id: string;
  page: number | null;
  /** JSON [x0, y0, x1, y1] in PDF points (origin bottom-left), or null. */
  bbox: string | null;
  /** The compound's label key (parsing/chemistry/labels.ts). */
  label: string | null;
  target: string | null;
  measure: 'IC50' | 'Ki' | 'Kd' | 'EC50' | 'inhibition';
  relation: '=' | '<' | '>' | '~' | '<=' | '>=';
  value: number;
  unit: string;
  value_nm: number | null;
  concentration: string | null;
  source: 'table' | 'text';
  text: string;
}

/** The whole database as Kysely sees it. */
/** An MCP server added by an administrator. */
export interface McpServerTable {
  id: string;
  /** Short machine name, part of its tools' names (`mcp__<name>__<tool>`). */
  name: string;
  /** What people read (the MCP group's label). */
  title: string;
  transport: 'http' | 'sse';
  url: string;
  created_at: string;
  created_by: string | null;
  /** How CSAI authenticates to it (migration 0019): null when it needs nothing. */
  auth_type: 'bearer' | 'header' | null;
  /** The header the secret is sent in (`Authorization` for a Bearer token). */
  auth_header: string | null;
  /** The token or header value, sealed by `tools/mcp/secret-box.ts`; never sent to a browser. */
  auth_secret: string | null;
}

export interface Database {
  departments: DepartmentTable;
  users: UserTable;
  sessions: SessionTable;
  auth_tokens: AuthTokenTable;
  otp_codes: OtpCodeTable;
  outbox: OutboxTable;
  alerts: AlertTable;
  kb_folders: KbFolderTable;
  kb_documents: KbDocumentTable;
  kb_shares: KbShareTable;
  jobs: JobTable;
  kb_chunks: KbChunkTable;
  /** A document's tables of contents and indexes (migrations 0031, 0032), shaped like its passages but out of the full-text index: searched only for outline questions. */
  kb_outline: KbOutlineTable;
  kb_molecules: KbMoleculeTable;
  channels: ChannelTable;
  questions: QuestionTable;
  question_events: QuestionEventTable;
  answer_event_log: AnswerEventLogTable;
  nodes: NodeTable;
  rate_limits: RateLimitTable;
  kb_chunk_vectors: KbChunkVectorTable;
  research_runs: ResearchRunTable;
  api_tokens: ApiTokenTable;
  molecules: MoleculeTable;
  doc_structures: DocStructureTable;
  molecule_docs: MoleculeDocTable;
  molecule_changes: MoleculeChangeTable;
  mcp_servers: McpServerTable;
  artifacts: ArtifactTable;
  code_runs: CodeRunTable;
  tasks: TaskTable;
  docking_batches: DockingBatchTable;
  doc_activities: DocActivityTable;
}
