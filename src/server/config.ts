import { z } from 'zod';
import path from 'node:path';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

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

/**
 * Every environment variable the server reads, with its default. README lists the same table;
 * `tests/server/config.test.ts` fails when the two drift apart.
 */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  CSAI_DATA_DIR: z.string().trim().min(1).default('./data'),
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
  /** SPEC §6 alternate tool list: ADMET disabled, docking submission and task query omitted. */
  CSAI_TOOLS_RESTRICTED: flag,
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
  /** Docking (issue 13 §1): the largest exhaustiveness a request may ask for. */
  CSAI_DOCKING_MAX_EXHAUSTIVENESS: z.coerce.number().int().min(1).max(256).default(32),
  /** CPU threads one Vina run may use (never more than the machine has). */
  CSAI_DOCKING_CPUS: z.coerce.number().int().min(1).max(256).default(2),
  /** Longest one docking job may run, in seconds, preparation included. */
  CSAI_DOCKING_TIMEOUT_S: z.coerce.number().int().min(10).max(7 * 24 * 3600).default(1800),
  /** Docking jobs one user may have queued or running at once. */
  CSAI_DOCKING_MAX_ACTIVE_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Docking jobs the server runs at once (each with up to CSAI_DOCKING_CPUS threads). */
  CSAI_DOCKING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
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
  // hand reset links to anyone (issue 16 #9). It is for local trials and tests only.
  if (c.CSAI_DEV_OUTBOX && (c.CSAI_TRUST_PROXY || c.CSAI_COOKIE_SECURE)) {
    throw new Error('Invalid configuration:\n  CSAI_DEV_OUTBOX: not allowed with CSAI_TRUST_PROXY=1 or CSAI_COOKIE_SECURE=1 (a deployment behind a proxy or HTTPS); use SMTP_URL there');
  }
  return { ...c, dataDir: path.resolve(c.CSAI_DATA_DIR), webDir: path.resolve(c.CSAI_WEB_DIR) };
}
