import type { AdmetRequest } from './admet/protocol';
import type { ChemErrorCode, DepictOptions, MolInput } from './engine';
import type { MoleculeTask } from './molecule-task';

/** A request from the main thread to the chemistry worker. */
export type ChemRequest =
  | { id: number; op: 'describe'; input: MolInput }
  | { id: number; op: 'descriptors'; input: MolInput }
  | { id: number; op: 'molfile'; input: MolInput }
  | { id: number; op: 'identify'; smiles: string[] }
  | { id: number; op: 'depict'; input: MolInput; options: DepictOptions }
  | { id: number; op: 'molecules'; task: MoleculeTask }
  | AdmetRequest;

/** The worker's answer: a result, a refusal of the input, or an internal failure. */
export type ChemResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; kind: 'input'; code: ChemErrorCode; message: string; field?: string }
  | { id: number; ok: false; kind: 'internal'; message: string };

/** What the worker says once RDKit is loaded: a call's time limit runs from then on. */
export type ChemReady = { ready: true };
