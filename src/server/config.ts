import { z } from 'zod';
import path from 'node:path';
import { isAllowListEntry } from './net/guarded-fetch';
import { TOOL_NAMES } from '../contract/tools';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

/** A flag that is on unless set to 0/false. */
const flagOn = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('1')
  .transform((v) => v !== '0' && v !== 'false');

const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.url().optional())
  .optional();

const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** A comma-separated list of origins (`https://eln.example.com`), trailing slashes dropped. */
const originList = z
  .string()
  .default('')
  .transform((s) => s.split(',').map((o) => o.trim().replace(/\/+$/, '')).filter((o) => o !== ''))
  .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s?#]+$/, 'each origin must look like https://host[:port], without a path')));

/** Base URL of a PubChem-compatible PUG REST service (…/rest/pug), asked last by name → SMILES. */
const pubchemUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s.replace(/\/+$/, '')))
  .pipe(z.string().regex(/^https?:\/\/[^\s?#]+$/, 'must be an http(s) URL without query, e.g. https://pubchem.ncbi.nlm.nih.gov/rest/pug').optional())
  .optional();

/** Base URL of an outside service (no query or fragment), trailing slashes dropped; '' is unset. */
const serviceBase = (example: string) =>
  z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s.replace(/\/+$/, '')))
    .pipe(z.string().regex(/^https?:\/\/[^\s?#]+$/, `must be an http(s) URL without query, e.g. ${example}`).optional())
    .optional();

/** Literature services in the order they are asked. */
export const LITERATURE_SOURCES = ['pubmed', 'europepmc', 'openalex'] as const;
const literatureOrder = z
  .string()
  .default('pubmed,europepmc,openalex')
  .transform((s) => s.split(',').map((x) => x.trim().toLowerCase()).filter((x) => x !== ''))
  .pipe(z.array(z.enum(LITERATURE_SOURCES, { error: 'each entry must be pubmed, europepmc or openalex' })));

/**
 * Every environment variable the server reads, with its default. README lists the same table;
 * `tests/server/config.test.ts` fails when the two drift apart.
 */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  CSAI_DATA_DIR: z.string().trim().min(1).default('./data'),
  /** Unset: SQLite in CSAI_DATA_DIR. `postgres://user:pass@host:5432/db`: PostgreSQL instead. */
  DATABASE_URL: z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(z.string().regex(/^postgres(ql)?:\/\/[^\s]+$/, 'must be a postgres:// (or postgresql://) URL, e.g. postgres://csai:secret@db.example.com:5432/csai').optional())
    .optional(),
  CSAI_WEB_DIR: z.string().trim().min(1).default('./dist/web'),
  CSAI_SECRET: optionalText,
  CSAI_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CSAI_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(24 * 14),
  CSAI_PASSWORD_COST: z.coerce.number().int().min(10).max(20).default(17),
  CSAI_PUBLIC_URL: optionalUrl,
  CSAI_COOKIE_SECURE: flag,
  CSAI_TRUST_PROXY: flag,
  CSAI_DEV_OUTBOX: flag,
  CSAI_CORS_ORIGINS: originList,
  CSAI_ALERT_CONTENT: optionalText,
  CSAI_ALERT_TYPE: z.enum(['info', 'warning', 'error', 'success']).default('warning'),
  SMTP_URL: optionalUrl,
  SMTP_FROM: optionalText,
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  LLM_REASONING_MODEL: optionalText,
  /** A streamed answer from the LLM silent for this long is given up as stalled. */
  LLM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Optional embeddings (DESIGN §5): any OpenAI-compatible `/embeddings` API; unset, retrieval is BM25 only. */
  EMBEDDING_BASE_URL: optionalUrl,
  EMBEDDING_API_KEY: optionalText,
  /** Required with EMBEDDING_BASE_URL; vectors are stored per model, so changing it re-embeds every document. */
  EMBEDDING_MODEL: optionalText,
  /** Asks the model for vectors of this size (models that support `dimensions`); unset, the model's own size. */
  EMBEDDING_DIMENSIONS: z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(z.coerce.number<string | undefined>().int().min(1).max(8192).optional())
    .optional(),
  /** Passages sent in one `/embeddings` call while indexing. */
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(32),
  /** How long a question's embedding may take before the search goes on with BM25 alone. */
  EMBEDDING_QUERY_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  /** Test-only: the local engine pauses this long before each streamed piece (0, the default: none), so an end-to-end test can reload mid-answer. */
  CSAI_LOCAL_ENGINE_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** Answers one user may have running at once; the rest wait as `queued` (DESIGN §4). */
  CSAI_MAX_ANSWERS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** The time a deep-research run may take (SPEC: about 10–20 minutes); with a model, follow-up searches stop at 60 % of it. 0: no follow-up rounds. */
  CSAI_DEEP_RESEARCH_MINUTES: z.coerce.number().min(0).max(120).default(15),
  /** Several nodes over PostgreSQL: a node silent this long is taken for dead and its answers are finished elsewhere. */
  CSAI_NODE_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** SPEC §6 alternate tool list: ADMET disabled, docking submission and task query omitted. */
  CSAI_TOOLS_RESTRICTED: flag,
  /** Structures read from PDF and image drawings with osra after the text: CPU-heavy, so it can be turned off. */
  CSAI_STRUCTURE_RECOGNITION: flagOn,
  /** URL template of a PDB mirror for structures not in the user's documents; `{id}` becomes the PDB id. */
  CSAI_PDB_MIRROR: z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(
      z
        .string()
        .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
        .refine((s) => s.includes('{id}'), 'must contain {id}, e.g. https://files.rcsb.org/download/{id}.pdb')
        .optional(),
    )
    .optional(),
  CSAI_PUBCHEM_URL: pubchemUrl,
  /** Base URL of the SureChEMBL REST API for patent_search. */
  SURECHEMBL_URL: z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s.replace(/\/+$/, '')))
    .pipe(z.string().regex(/^https?:\/\/[^\s?#]+$/, 'must be an http(s) URL without query, e.g. https://www.surechembl.org/api').optional())
    .optional(),
  /** Order in which patent_search lists its sources' hits (comma-separated: surechembl, pubchem). */
  PATENT_ORDER: z
    .string()
    .default('surechembl,pubchem')
    .transform((s) => [...new Set(s.split(',').map((o) => o.trim().toLowerCase()).filter((o) => o !== ''))])
    .pipe(z.array(z.enum(['surechembl', 'pubchem'], { error: 'each entry must be surechembl or pubchem' })).min(1, 'list at least one of surechembl, pubchem')),
  /** Host names, IP addresses or CIDR ranges on the intranet that MCP server URLs may reach. */
  CSAI_MCP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((o) => o.trim()).filter((o) => o !== ''))
    .pipe(z.array(z.string().refine(isAllowListEntry, 'each entry must be a host name, an IP address or a CIDR range (e.g. mcp.corp.local, 10.0.0.5, 10.1.0.0/16)'))),
  /** A JSON file of MCP servers the administrator configures outside the browser (stdio commands only here). */
  CSAI_MCP_CONFIG: optionalText,
  /** Code execution sandbox (src/server/sandbox): programs and limits of one run. */
  CSAI_SANDBOX_BWRAP: z.string().trim().min(1).default('bwrap'),
  CSAI_SANDBOX_PYTHON: z.string().trim().min(1).default('/usr/bin/python3'),
  CSAI_SANDBOX_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  CSAI_SANDBOX_CPU_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  CSAI_SANDBOX_MEMORY_MB: z.coerce.number().int().min(128).max(65_536).default(512),
  CSAI_SANDBOX_PROCESSES: z.coerce.number().int().min(8).max(4096).default(64),
  CSAI_SANDBOX_FILE_SIZE_MB: z.coerce.number().int().min(1).max(1024).default(16),
  CSAI_SANDBOX_DISK_MB: z.coerce.number().int().min(1).max(4096).default(64),
  CSAI_SANDBOX_OUTPUT_KB: z.coerce.number().int().min(1).max(65_536).default(1024),
  /** Files code runs may keep for one user at most, in MB and in number; a run past either is refused. */
  CSAI_ARTIFACT_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(500),
  CSAI_ARTIFACT_QUOTA_FILES: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Hours the files of a run not kept with an answer (no question) are kept; then they are removed. */
  CSAI_ARTIFACT_TTL_HOURS: z.coerce.number().positive().max(100_000).default(24),
  /** Pages and papers one user may save from the web (crawl, literature) in all, in MB and in number. */
  CSAI_WEB_DOCS_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  CSAI_WEB_DOCS_QUOTA_FILES: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  /** Code runs one user may start per minute (beyond the two at once), by every way in. */
  CSAI_CODE_RUNS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Local sign-up (e-mail or phone); 0 turns it off, e.g. when everyone signs in through the directory. */
  CSAI_LOCAL_SIGNUP: flagOn,
  /** Directory sign-in: ldap://host:389 or ldaps://host:636; unset, only local accounts. */
  LDAP_URL: z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(z.string().regex(/^ldaps?:\/\/[^\s/?#]+\/?$/, 'must be ldap://host[:port] or ldaps://host[:port]').optional())
    .optional(),
  /** The service account that searches for users; unset, the search is anonymous. */
  LDAP_BIND_DN: optionalText,
  LDAP_BIND_PASSWORD: optionalText,
  /** Where users are searched (subtree), e.g. ou=people,dc=example,dc=com. Required with LDAP_URL. */
  LDAP_USER_BASE: optionalText,
  /** The search filter; `{account}` becomes what the user typed, escaped per RFC 4515. */
  LDAP_USER_FILTER: z
    .string()
    .trim()
    .default('(uid={account})')
    .pipe(z.string().regex(/^\(.*\)$/, 'must be an LDAP filter in parentheses').refine((s) => s.includes('{account}'), 'must contain {account}, e.g. (uid={account})')),
  LDAP_ATTR_ACCOUNT: z.string().trim().min(1).default('uid'),
  LDAP_ATTR_NAME: z.string().trim().min(1).default('cn'),
  LDAP_ATTR_EMAIL: z.string().trim().min(1).default('mail'),
  LDAP_ATTR_DEPARTMENT: z.string().trim().min(1).default('ou'),
  /** Upgrade an ldap:// connection with StartTLS before anything is sent. */
  LDAP_STARTTLS: flag,
  /** A PEM file of the CA that signed the directory's certificate (LDAPS and StartTLS); unset, the system CAs. */
  LDAP_TLS_CA: optionalText,
  /** How long one directory sign-in (connect, search, bind) may take before the user is told the directory is unreachable. */
  LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** SPEC §6: comma-separated tool values greyed out (ldap_disabled) for directory users, e.g. `code_execution,docking_submit`. */
  LDAP_DISABLED_TOOLS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((t) => t.trim()).filter((t) => t !== ''))
    .pipe(z.array(z.enum(TOOL_NAMES, { error: `each tool must be one of ${TOOL_NAMES.join(', ')}` }))),
  /** Where uploaded files live: `disk` under CSAI_DATA_DIR/files, or `s3` in the S3_* bucket. */
  CSAI_STORAGE: z.enum(['disk', 's3']).default('disk'),
  /** An S3-compatible endpoint (MinIO, Ceph, OSS, COS…); unset, AWS S3 of S3_REGION. */
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalText,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** Keys; unset, the AWS SDK's own chain (environment, instance role). */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** `1` addresses the bucket as https://endpoint/bucket/key (most self-hosted stores) instead of bucket.endpoint. */
  S3_FORCE_PATH_STYLE: flag,
  /** Web search: a SearXNG instance with its JSON format enabled, e.g. http://127.0.0.1:8888. */
  SEARXNG_URL: optionalUrl,
  TAVILY_API_KEY: optionalText,
  TAVILY_BASE_URL: z.string().trim().pipe(z.url()).default('https://api.tavily.com'),
  /** 博查 web search API key (for users in China). */
  BOCHA_API_KEY: optionalText,
  BOCHA_BASE_URL: z.string().trim().pipe(z.url()).default('https://api.bochaai.com'),
  /** A custom web search endpoint speaking the README's request/response shape. */
  WEB_SEARCH_CUSTOM_URL: optionalUrl,
  WEB_SEARCH_CUSTOM_KEY: optionalText,
  /** The order web search services are tried in (the configured ones; the next on an error, 429 or timeout). */
  WEB_SEARCH_ORDER: z
    .string()
    .default('searxng,tavily,bocha,custom')
    .transform((s) => s.split(',').map((x) => x.trim().toLowerCase()).filter((x) => x !== ''))
    .pipe(z.array(z.enum(['searxng', 'tavily', 'bocha', 'custom'], { error: 'each entry must be searxng, tavily, bocha or custom' }))),
  /** How long one web search service may take before the next one is tried. */
  WEB_SEARCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Literature search: each service is used only when its base URL is set. */
  PUBMED_URL: serviceBase('https://eutils.ncbi.nlm.nih.gov/entrez/eutils'),
  PUBMED_API_KEY: optionalText,
  EUROPEPMC_URL: serviceBase('https://www.ebi.ac.uk/europepmc/webservices/rest'),
  OPENALEX_URL: serviceBase('https://api.openalex.org'),
  OPENALEX_MAILTO: optionalText,
  LITERATURE_ORDER: literatureOrder,
  /** Docking: the largest exhaustiveness a request may ask for. */
  CSAI_DOCKING_MAX_EXHAUSTIVENESS: z.coerce.number().int().min(1).max(256).default(32),
  /** CPU threads one Vina run may use (never more than the machine has). */
  CSAI_DOCKING_CPUS: z.coerce.number().int().min(1).max(256).default(2),
  /**
   * Scoring evaluations each of Vina's Monte Carlo runs may make (its --max_evals); 0 leaves the
   * length to Vina's heuristic, which grows with the ligand. The default keeps a drug-sized ligand
   * within about half a minute on two cores; bench/docking.bench.ts measures what it costs in scores.
   */
  CSAI_DOCKING_MAX_EVALS: z.coerce.number().int().min(0).max(1_000_000_000).default(500_000),
  /** Longest one docking job may run, in seconds, preparation included. */
  CSAI_DOCKING_TIMEOUT_S: z.coerce.number().int().min(10).max(7 * 24 * 3600).default(1800),
  /** Docking jobs one user may have queued or running at once. */
  CSAI_DOCKING_MAX_ACTIVE_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Docking jobs the server runs at once (each with up to CSAI_DOCKING_CPUS threads). */
  CSAI_DOCKING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Docking tasks (with their files) one user may keep; a submission past it is refused until some are deleted or expire. */
  CSAI_DOCKING_MAX_TASKS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Days an ended docking task (done, failed, cancelled) and its files are kept; then they are removed. */
  CSAI_DOCKING_TASK_TTL_DAYS: z.coerce.number().positive().max(100_000).default(30),
});

export type Config = z.infer<typeof configSchema> & { dataDir: string; webDir: string };

/** Parses the environment; throws a readable error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.EMBEDDING_BASE_URL && !c.EMBEDDING_MODEL) throw new Error('Invalid configuration:\n  EMBEDDING_MODEL: required when EMBEDDING_BASE_URL is set');
  // Behind a proxy every request comes from the machine itself: the outbox's loopback check would
  // hand reset links to anyone. It is for local trials and tests only.
  if (c.CSAI_DEV_OUTBOX && (c.CSAI_TRUST_PROXY || c.CSAI_COOKIE_SECURE)) {
    throw new Error('Invalid configuration:\n  CSAI_DEV_OUTBOX: not allowed with CSAI_TRUST_PROXY=1 or CSAI_COOKIE_SECURE=1 (a deployment behind a proxy or HTTPS); use SMTP_URL there');
  }
  if (c.CSAI_STORAGE === 's3' && !c.S3_BUCKET) throw new Error('Invalid configuration:\n  S3_BUCKET: required when CSAI_STORAGE=s3');
  if (!!c.S3_ACCESS_KEY_ID !== !!c.S3_SECRET_ACCESS_KEY) throw new Error('Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  if (c.LDAP_URL && !c.LDAP_USER_BASE) throw new Error('Invalid configuration:\n  LDAP_USER_BASE: required when LDAP_URL is set');
  if (c.LDAP_BIND_DN && c.LDAP_BIND_PASSWORD === undefined) throw new Error('Invalid configuration:\n  LDAP_BIND_PASSWORD: required when LDAP_BIND_DN is set');
  if (c.LDAP_STARTTLS && c.LDAP_URL?.startsWith('ldaps:')) throw new Error('Invalid configuration:\n  LDAP_STARTTLS: use either ldaps:// or StartTLS over ldap://, not both');
  return { ...c, dataDir: path.resolve(c.CSAI_DATA_DIR), webDir: path.resolve(c.CSAI_WEB_DIR) };
}
