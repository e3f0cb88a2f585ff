import type { PatentHit, PatentSource } from '../../../contract/patents';

/** A structure to search: RDKit's canonical SMILES and/or a standard InChIKey. */
export interface StructureQuery {
  smiles?: string;
  inchiKey?: string;
}

/** One patent service. Failures throw a `ServiceError` (Chinese, names the service); nothing found is `[]`. */
export interface PatentAdapter {
  source: PatentSource;
  /** The service's name as readers know it. */
  site: string;
  byStructure(query: StructureQuery, limit: number, signal: AbortSignal): Promise<PatentHit[]>;
  byText(text: string, limit: number, signal: AbortSignal): Promise<PatentHit[]>;
}
