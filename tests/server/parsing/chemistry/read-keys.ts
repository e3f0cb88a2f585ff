import { loadRdkit } from '../../../../src/server/chem/rdkit-loader';
import { imageStructures } from '../../../../src/server/parsing/chemistry/document';
import { inchiKeyOf } from '../../../../src/server/parsing/chemistry/judge';

/** A SMILES's standard InChIKey, as the product computes it ('' when RDKit cannot read it). */
export async function keyOf(smiles: string): Promise<string> {
  const rdkit = await loadRdkit();
  const mol = rdkit.get_mol(smiles);
  try {
    return mol ? inchiKeyOf(rdkit, mol) : '';
  } finally {
    mol?.delete();
  }
}

/** The structures the product reads in an image file: their InChIKeys, and what was read (for a failure's message). */
export async function readImageKeys(file: string): Promise<{ keys: string[]; read: string }> {
  const { structures } = await imageStructures(file, () => {});
  return { keys: await Promise.all(structures.map((s) => keyOf(s.smiles))), read: structures.map((s) => `${s.smiles} (${s.method})`).join(' ') };
}
