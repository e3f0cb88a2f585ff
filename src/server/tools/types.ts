import type { FileStore } from '../files/file-store';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { ToolGroup } from '../../contract/channel';
import { toolCatalogEntry, type ToolCatalogEntry, type ToolName, type ToolResultPayload } from '../../contract/tools';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { ChemService } from '../chem/service';
import type { Viewer } from '../access/access';
import type { ChatCompletion } from '../llm/chat';
import type { KnowledgePort } from '../retrieval/knowledge-port';
import type { TaskService } from '../docking/tasks';
import type { OnlineServices } from '../online/sources';

/** Whether a tool can run on this server; when not, a Chinese reason saying what is missing and how to enable it. */
/** A usable tool may add a note on how it runs here (shown with its description on /tools and /test, not to the model). */
export type ToolAvailability = { enabled: true; note?: string } | { enabled: false; reason: string };

/** A chemical name resolved to a structure (name → SMILES, SPEC §9). */
export interface ResolvedName {
  name: string;
  canonicalSmiles: string;
  inchiKey: string;
  /** Where the structure came from: 'opsin' | 'dictionary' | 'model+opsin' | 'pubchem'. */
  source: string;
}

/** Name → structure, shared by the name_to_smiles tool and the tools that accept names (ADMET). */
export interface NameResolver {
  /** null when the name is not known: never an invented structure. */
  resolve(name: string, signal: AbortSignal): Promise<ResolvedName | null>;
  availability(): ToolAvailability;
  close(): Promise<void>;
}

/** Built once at start-up and handed to every tool factory. */
export interface ToolServices {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  chem: ChemService;
  knowledge: KnowledgePort;
  names: NameResolver;
  /** The uploaded files (disk or bucket); tools that hand a file to a program use `withLocalPath`. */
  files: FileStore;
  /** A plain model completion when a model is configured. */
  chat?: ChatCompletion;
  /** Durable docking tasks (docking_submit, task_query); absent where the runtime did not start them. */
  tasks?: TaskService;
  /** Aborted when the runtime stops: a tool's timers end with it. */
  stopping?: AbortSignal;
  /** The configured online services (web search, literature, patents), built once by the runtime. */
  online?: OnlineServices;
}

/** One call of a tool: who asks, for which question's documents, until when. */
export interface ToolContext {
  viewer: Viewer;
  /** The readable documents the question chose (files or knowledge bases); may be empty. */
  docIds: string[];
  /**
   * What a tool's `files` may name: `attached` (default) only `docIds`; `readable` any document the
   * viewer may read, by id or title — a call over MCP has no question to attach documents to.
   */
  fileScope?: 'attached' | 'readable';
  signal: AbortSignal;
  /** The question the call is made for (its answer, or a 运行 of one of its blocks): files the tool keeps belong to it. */
  questionId?: string | undefined;
}

/**
 * A built tool: zod input and output schemas (in src/contract), a run, and the text the model
 * reads of a result. Bad input throws `ToolInputError` (its Chinese message goes into the card).
 */
export interface Tool<I = unknown, O = unknown> {
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  /** Shown to the model and in GET /tools (Chinese, one or two sentences). */
  description: string;
  availability(): ToolAvailability;
  run(input: I, ctx: ToolContext): Promise<O>;
  /** The result as text for the model: compact, with the figures it needs to answer. */
  summarize(output: O): string;
  /** Longest a call may run (default 30 s). */
  timeoutMs?: number;
}

/** Builds a tool from the start-up services. */
export type ToolFactory<I = any, O = any> = (services: ToolServices) => Tool<I, O>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A tool declared once: its catalogue entry (`TOOL_CATALOG` in src/contract: name, group, label,
 * icon, card) and its factory. `tools/index.ts` registers the definitions; the registry, GET /tools,
 * the engines and MCP derive from them.
 */
export interface ToolDefinition<I = any, O = any> extends ToolCatalogEntry { // eslint-disable-line @typescript-eslint/no-explicit-any
  build: ToolFactory<I, O>;
}

/** A tool's definition: its catalogue entry under `name` and the factory that builds it. */
export function defineTool<I, O>(name: ToolName, build: ToolFactory<I, O>): ToolDefinition<I, O> {
  return { ...toolCatalogEntry(name), build };
}

/** A definition built from the start-up services: what the registry runs. */
export type BuiltTool<I = any, O = any> = ToolCatalogEntry & Tool<I, O>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Input a user or model can fix: the message is shown as is (Chinese). */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

/**
 * Tools that come and go while the server runs (MCP servers added by an administrator),
 * beside the SPEC §9 catalogue. Their names are dynamic (`mcp__<server>__<tool>`), never a `ToolName`.
 */
export interface ToolSource {
  /** Their groups for GET /tools (a tool not usable now is listed with `enabled: false` and why). */
  groups(): ToolGroup[];
  /** The usable tools with their JSON Schema, as the model and MCP are offered them. */
  offered(): Array<{ name: string; label: string; description: string; inputSchema: Record<string, unknown> & { type: 'object' } }>;
  /** Whether `name` belongs to this source (usable or not). */
  has(name: string): boolean;
  /** Longest a call of `name` may run. */
  timeoutMs(name: string): number;
  /**
   * Runs a tool. Failures the reader should see come back as `{ok: false, content: <Chinese>}`;
   * only a stop through `signal` throws.
   */
  call(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResultPayload>;
}
