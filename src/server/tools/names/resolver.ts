import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../../../contract/names';
import type { ChatCompletion } from '../../llm/chat';
import type { ChemService } from '../../chem/service';
import { declaredAtoms } from '../../chem/atom-count';
import { ChemInputError } from '../../chem/engine';
import { MOL_LIMITS } from '../../../contract/mol';
import type { Config } from '../../config';
import { safeFetch, type SafeFetchOptions } from '../../net/safe-fetch';
import { ToolInputError, type NameResolver, type ResolvedName, type ToolAvailability } from '../types';
import { createDictionary, type Dictionary } from './dictionary';
import { createOpsin, OpsinUnavailableError, type Opsin, type OpsinOptions } from './opsin';


/** What the resolver logs to (Fastify's logger fits). */
export interface NameLog {
  warn(obj: object, msg: string): void;
}

export interface NameResolverDeps {
  config: Config;
  chem: ChemService;
  log: NameLog | FastifyBaseLogger;
  /** A configured model: proposes systematic names that OPSIN must confirm. */
  chat?: ChatCompletion;
  /** OPSIN process options (tests: a missing jar, a short timeout). */
  opsin?: OpsinOptions;
  /** Outbound policy for the PubChem service (tests widen it to their 127.0.0.1 server). */
  fetchOptions?: Pick<SafeFetchOptions, 'isAllowedAddress'>;
  /** Longest the model may take for one name (default 20 s). */
  modelTimeoutMs?: number;
  /** Longest PubChem may take for one name (default 10 s). */
  pubchemTimeoutMs?: number;
}

/** Names with characters OPSIN never parses (Chinese, Japanese, Korean) go straight to the dictionary. */
const CJK = /[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A name as a tool or route accepts it, or a ToolInputError with a Chinese message. */
export function checkName(raw: string): string {
  const name = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (!name) throw new ToolInputError('化学名称不能为空');
  if (raw.length > NAME_MAX_LENGTH * 4 || name.length > NAME_MAX_LENGTH) throw new ToolInputError(`化学名称不能超过${NAME_MAX_LENGTH}个字符`);
  if (CONTROL.test(raw)) throw new ToolInputError('化学名称包含不允许的控制字符');
  return name;
}

const MODEL_PROMPT = [
  'You convert chemical names (trade names, trivial names, INN, Chinese names, abbreviations) into one English IUPAC systematic name.',
  'Reply with the systematic name only, on one line, with no explanation, quotes or formatting.',
  'If you do not know the compound with certainty, reply exactly: UNKNOWN',
].join('\n');

/** PUG REST's property table; newer services name the isomeric SMILES `SMILES`, older ones `IsomericSMILES`. */
const pugProperties = z.object({
  PropertyTable: z.object({
    Properties: z
      .array(
        z.object({
          SMILES: z.string().optional(),
          IsomericSMILES: z.string().optional(),
          CanonicalSMILES: z.string().optional(),
          ConnectivitySMILES: z.string().optional(),
        }),
      )
      .min(1),
  }),
});

/**
 * Name → structure (SPEC §9 name_to_smiles), in this order: OPSIN (systematic and CAS
 * index names), the bundled dictionary (trade, trivial and Chinese names), a configured model's
 * systematic name confirmed by OPSIN, a configured PubChem-compatible service. Every answer is
 * canonicalised by RDKit with its InChIKey; a name none of them knows is null, never a guess.
 */
export function createNameResolver(deps: NameResolverDeps): NameResolver & { dictionary: Dictionary; opsin: Opsin } {
  const { config, chem, log, chat } = deps;
  const opsin = createOpsin({ log, ...deps.opsin });
  const dictionary = createDictionary();
  const modelTimeoutMs = deps.modelTimeoutMs ?? 20_000;
  const pubchemTimeoutMs = deps.pubchemTimeoutMs ?? 10_000;

  async function identified(name: string, smiles: string, source: string): Promise<ResolvedName | null> {
    const atoms = declaredAtoms(smiles, 'smiles');
    if (atoms > MOL_LIMITS.atoms) throw new ChemInputError('too_many_atoms', `该名称对应的结构过大：含 ${atoms} 个原子，上限为 ${MOL_LIMITS.atoms} 个`, 'name');
    const [id] = await chem.identify([smiles]);
    if (!id) {
      log.warn({ name: name.slice(0, 200), source }, 'name resolved to a SMILES RDKit cannot read');
      return null;
    }
    return { name, canonicalSmiles: id.canonicalSmiles, inchiKey: id.inchiKey, source };
  }

  /** OPSIN's SMILES for a name, or undefined (not a systematic name, or OPSIN not running). */
  async function viaOpsin(name: string, signal: AbortSignal): Promise<string | undefined> {
    if (!opsin.availability().enabled) return undefined;
    try {
      const answer = await opsin.parse(name, signal);
      return 'smiles' in answer ? answer.smiles : undefined;
    } catch (err) {
      if (signal.aborted) throw err;
      if (!(err instanceof OpsinUnavailableError)) throw err;
      log.warn({ err: err.message }, 'opsin unavailable for a name');
      return undefined;
    }
  }

  async function viaModel(name: string, signal: AbortSignal): Promise<string | undefined> {
    if (!chat || !opsin.availability().enabled) return undefined;
    const limit = AbortSignal.any([signal, AbortSignal.timeout(modelTimeoutMs)]);
    let reply: string;
    try {
      reply = await chat({ messages: [{ role: 'system', content: MODEL_PROMPT }, { role: 'user', content: name }], thinking: false, signal: limit }, {});
    } catch (err) {
      if (signal.aborted) throw err;
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'model name lookup failed');
      return undefined;
    }
    const proposed =
      reply
        .replace(/<think>[\s\S]*?<\/think>/g, '')
        .split('\n')
        .map((line) => line.replace(/^[`"'“”*\s]+|[`"'“”*.。\s]+$/g, '').trim())
        .find((line) => line !== '') ?? '';
    if (!proposed || /^unknown$/i.test(proposed) || proposed.length > NAME_MAX_LENGTH || CJK.test(proposed)) return undefined;
    // The model only proposes: OPSIN must turn its name into a structure, or nothing is returned.
    return viaOpsin(proposed, signal);
  }

  async function viaPubchem(name: string, signal: AbortSignal): Promise<string | undefined> {
    const base = config.CSAI_PUBCHEM_URL;
    if (!base || signal.aborted) return undefined;
    const url = `${base}/compound/name/${encodeURIComponent(name)}/property/IsomericSMILES,InChIKey/JSON`;
    try {
      const res = await safeFetch(url, { timeoutMs: pubchemTimeoutMs, maxBytes: 1024 * 1024, headers: { accept: 'application/json' }, ...deps.fetchOptions });
      if (res.status === 404) return undefined;
      if (res.status !== 200) {
        log.warn({ status: res.status }, 'pubchem name lookup failed');
        return undefined;
      }
      const parsed = pugProperties.safeParse(safeJson(res.text()));
      if (!parsed.success) {
        log.warn({ body: res.text().slice(0, 200) }, 'pubchem answered something that is not a property table');
        return undefined;
      }
      const p = parsed.data.PropertyTable.Properties[0]!;
      return p.SMILES ?? p.IsomericSMILES ?? p.CanonicalSMILES ?? p.ConnectivitySMILES;
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'pubchem name lookup failed');
      return undefined;
    }
  }

  return {
    dictionary,
    opsin,
    async resolve(raw, signal) {
      const name = checkName(raw);
      const latin = !CJK.test(name);
      if (latin) {
        const smiles = await viaOpsin(name, signal);
        const found = smiles && (await identified(name, smiles, 'opsin'));
        if (found) return found;
      }
      const entry = dictionary.lookup(name);
      if (entry) {
        const found = await identified(name, entry.smiles, 'dictionary');
        if (found) return found;
      }
      const proposed = await viaModel(name, signal);
      const byModel = proposed && (await identified(name, proposed, 'model+opsin'));
      if (byModel) return byModel;
      const fetched = await viaPubchem(name, signal);
      const byPubchem = fetched && (await identified(name, fetched, 'pubchem'));
      if (byPubchem) return byPubchem;
      return null;
    },
    availability(): ToolAvailability {
      return opsin.availability();
    },
    close: () => opsin.close(),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
