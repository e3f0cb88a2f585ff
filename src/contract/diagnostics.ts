import { z } from 'zod';

/** GET /api/v1/diagnostics: what the /test page shows. Names what is configured, never a secret. */
export const diagnostics = z.object({
  version: z.string(),
  /** DESIGN §4: `openai` when LLM_BASE_URL is set, else the built-in `local` engine. */
  answer_engine: z.enum(['local', 'openai']),
  /** The configured model names (not secrets), or null. */
  llm_model: z.string().nullable(),
  llm_reasoning_model: z.string().nullable(),
  /** The embedding model fused with BM25 in retrieval (DESIGN §5), or null when embeddings are off. */
  embedding_model: z.string().nullable(),
  /** The database in use; the data folder (files, and the SQLite file) is shown to administrators only. */
  storage: z.object({ kind: z.enum(['sqlite', 'postgresql']), data_dir: z.string().nullable() }),
  services: z.object({ smtp: z.boolean(), llm: z.boolean(), embeddings: z.boolean(), dev_outbox: z.boolean() }),
  /** Every tool of the registry with its group and state; a disabled one says why and how to enable it. */
  tools: z.array(z.object({ value: z.string(), label: z.string(), group: z.string(), enabled: z.boolean(), description: z.string() })),
  /** The online sources; what to configure for a missing one is told to administrators only. */
  online: z
    .object({
      web: z.boolean(),
      literature: z.boolean(),
      patents: z.boolean(),
      setup: z.object({ web: z.string().optional(), literature: z.string().optional(), patents: z.string().optional() }),
    })
    .optional(),
  /** What reads images and scanned PDF pages in the parse processes: PP-OCR, tesseract where PP-OCR's models do not load, or nothing. */
  ocr_engine: z.enum(['ppocr', 'tesseract', 'none']),
  /** Why that engine (models, languages, the reason PP-OCR is not in use); administrators only, else null. */
  ocr_detail: z.string().nullable(),
  /** What reads chemical structures in drawings: OSRA's version, or null when `osra` is not installed. */
  structure_recognition: z.object({ osra: z.string().nullable() }),
  /** Where MCP clients connect (with an API token). */
  mcp_path: z.string(),
  node_version: z.string(),
  uptime_seconds: z.number().int(),
});
export type Diagnostics = z.infer<typeof diagnostics>;
