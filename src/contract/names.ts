import { z } from 'zod';
import { MOL_LIMITS } from './mol';

/** Longest chemical name accepted by name → SMILES (systematic names of drugs reach about 400 characters). */
export const NAME_MAX_LENGTH = 500;
/** Candidates offered by SMILES completion at most. */
export const COMPLETION_MAX_CANDIDATES = 5;

const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * Input of the name_to_smiles tool and of POST /api/v1/mol/name_to_smiles.
 * @example { name: '阿司匹林' } // or 'imatinib', '2-acetyloxybenzoic acid', 'Benzoic acid, 2-(acetyloxy)-'
 */
export const nameToSmilesInput = z
  .object({
    name: z
      .string({ error: '化学名称必须是字符串' })
      .max(NAME_MAX_LENGTH * 4, `化学名称不能超过${NAME_MAX_LENGTH}个字符`)
      .refine((s) => !CONTROL_CHARS.test(s), '化学名称包含不允许的控制字符')
      .transform((s) => s.normalize('NFKC').replace(/\s+/g, ' ').trim())
      .pipe(z.string().min(1, '化学名称不能为空').max(NAME_MAX_LENGTH, `化学名称不能超过${NAME_MAX_LENGTH}个字符`)),
  }, { error: '请求体必须是 JSON 对象' })
  .strict();
export type NameToSmilesInput = z.infer<typeof nameToSmilesInput>;

/** Where a structure came from: OPSIN, the bundled dictionary, a model's name confirmed by OPSIN, a PubChem service. */
export const nameSource = z.enum(['opsin', 'dictionary', 'model+opsin', 'pubchem']);
export type NameSource = z.infer<typeof nameSource>;

/** A name's structure (canonical SMILES by RDKit, standard InChIKey), or `found: false` with the reason: never a guess. */
export const nameToSmilesOutput = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    name: z.string(),
    canonical_smiles: z.string(),
    inchi_key: z.string(),
    source: nameSource,
  }),
  z.object({
    found: z.literal(false),
    name: z.string(),
    message: z.string(),
  }),
]);
export type NameToSmilesOutput = z.infer<typeof nameToSmilesOutput>;

/**
 * Input of the smiles_completion tool and of POST /api/v1/mol/smiles_completion: a partial or malformed SMILES.
 * @example { smiles: 'c1ccccc1C(=O' }
 */
export const smilesCompletionInput = z
  .object({
    smiles: z
      .string({ error: 'SMILES 必须是字符串' })
      .max(MOL_LIMITS.smilesLength * 4, `SMILES 不能超过${MOL_LIMITS.smilesLength}个字符`)
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1, 'SMILES 不能为空')
          .max(MOL_LIMITS.smilesLength, `SMILES 不能超过${MOL_LIMITS.smilesLength}个字符`)
          .regex(/^[\x21-\x7e]+$/, 'SMILES 只能包含可打印的 ASCII 字符，不能有空格、中文或控制字符'),
      ),
  }, { error: '请求体必须是 JSON 对象' })
  .strict();
export type SmilesCompletionInput = z.infer<typeof smilesCompletionInput>;

/** One proposed molecule: canonical SMILES, InChIKey ('' where InChI cannot express it) and what was changed (Chinese). */
export const completionCandidate = z.object({
  smiles: z.string(),
  inchi_key: z.string(),
  changes: z.array(z.string()),
});
export type CompletionCandidate = z.infer<typeof completionCandidate>;

/**
 * The completion: `valid` when the input already was a SMILES (then `candidates[0]` is its canonical
 * form with no changes); up to 5 candidates, best first; `message` says what happened in one line.
 */
export const smilesCompletionOutput = z.object({
  input: z.string(),
  valid: z.boolean(),
  candidates: z.array(completionCandidate).max(COMPLETION_MAX_CANDIDATES),
  message: z.string(),
});
export type SmilesCompletionOutput = z.infer<typeof smilesCompletionOutput>;
