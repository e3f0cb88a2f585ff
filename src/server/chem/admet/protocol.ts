import { z } from 'zod';
import { ADMET_SOURCES, admetMolecule } from '../../../contract/admet';
import { CHEM_ERROR_CODES } from '../engine';

/** One molecule sent to the worker: a SMILES or a molfile, and how the user named it. */
export const admetItem = z.object({
  input: z.union([z.object({ smiles: z.string() }), z.object({ molfile: z.string() })]),
  /** What the user typed or where it came from (shown in the table). */
  label: z.string(),
  name: z.string(),
  source: z.enum(ADMET_SOURCES),
});
export type AdmetItem = z.infer<typeof admetItem>;

/** A computed row, or why this one molecule could not be computed (a ChemInputError's code and message). */
export const admetOutcome = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), row: admetMolecule }),
  z.object({ ok: z.literal(false), code: z.enum(CHEM_ERROR_CODES), message: z.string() }),
]);
export type AdmetOutcome = z.infer<typeof admetOutcome>;

/** The worker request of the `admet` op (its own module so the op stays apart from the others). */
export interface AdmetRequest {
  id: number;
  op: 'admet';
  items: AdmetItem[];
}
