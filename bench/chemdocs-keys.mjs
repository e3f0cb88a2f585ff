// InChIKeys as the product computes them (@rdkit/rdkit, as src/server/chem/engine.ts): the chemdocs
// bench and its generator (bench/chemdocs-gen.py; Debian's python3-rdkit is built without InChI)
// key ground truth, the product's structures and plain OSRA's output with this one function.
// CLI: SMILES lines on stdin → InChIKey lines on stdout ('' for a SMILES RDKit cannot read).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** @param {string[]} smiles @returns {Promise<string[]>} */
export async function inchiKeys(smiles) {
  const rdkit = await require('@rdkit/rdkit')();
  return smiles.map((s) => {
    const text = s.trim();
    if (!text) return '';
    const mol = rdkit.get_mol(text);
    if (!mol) return '';
    try {
      if (!mol.is_valid()) return '';
      const inchi = mol.get_inchi();
      return inchi ? rdkit.get_inchikey_for_inchi(inchi) : '';
    } finally {
      mol.delete();
    }
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let input = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) input += chunk;
  const keys = await inchiKeys(input.split('\n').filter((l, i, all) => i < all.length - 1 || l !== ''));
  process.stdout.write(keys.map((k) => `${k}\n`).join(''));
}
