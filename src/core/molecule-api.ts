// The structure calls of SPEC §7 the molecule elements make (RDKit drawings, molfiles of parsed SDF
// documents, PDB entries) and a docking task's result files, every answer parsed by the contract.
import { dockingTask } from '../contract/docking';
import { drawSvgResult, molString, pdbString, type DrawSvgResult } from '../contract/mol';
import type { ApiClient, CallOptions } from './api';

/** What POST mol/draw_svg draws: a SMILES or a molfile, its size and the atoms and bonds to highlight. */
export type DrawRequest = ({ smiles: string } | { molfile: string }) & { width: number; height: number; highlight?: { atoms: number[]; bonds: number[] } };

/** The result files of a docking task (GET tasks/{id}/download?format=…). */
export type DockingFile = 'receptor' | 'sdf';

/**
 * The structure calls bound to one API client (the page's, at the element's `api-base`).
 * @example const { svg } = await createMoleculeApi(api()).drawSvg({ smiles: 'CCO', width: 240, height: 180 });
 */
export function createMoleculeApi(client: ApiClient) {
  const enc = encodeURIComponent;
  return {
    /** GET mol/get_mol_string: one molecule of a parsed SDF document (`docId:index`). */
    molString: (molKey: string, opts: CallOptions = {}) => client.get(`/mol/get_mol_string?mol_key=${enc(molKey)}`, molString, opts),
    /** POST mol/draw_svg: a 2D drawing by RDKit. */
    drawSvg: (request: DrawRequest): Promise<DrawSvgResult> => client.post('/mol/draw_svg', request, drawSvgResult),
    /** GET mol/get_pdb_string: a PDB entry by id, or one of the user's PDB documents. */
    pdbString: (id: string, opts: CallOptions = {}) => client.get(`/mol/get_pdb_string?pdb_id=${enc(id)}`, pdbString, opts),
    /** POST mol/admet/export: the ADMET predictions of some molecules as a CSV or SDF file. */
    admetExport: (request: { smiles: string[]; names: string[]; format: 'csv' | 'sdf' }, opts: CallOptions = {}) => client.download('/mol/admet/export', { ...opts, body: request }),
    /** GET tasks/{id}: a docking task with its result. */
    dockingTask: (taskId: string, opts: CallOptions = {}) => client.get(`/tasks/${enc(taskId)}`, dockingTask, opts),
    /** A docking task's prepared receptor (PDB) or its poses (SDF). */
    dockingFile: (taskId: string, format: DockingFile, opts: CallOptions = {}) => client.download(`/tasks/${enc(taskId)}/download?format=${format}`, opts),
  };
}
/** The structure calls. */
export type MoleculeApi = ReturnType<typeof createMoleculeApi>;
