import initRDKitModule, { type MainModule, type Mol } from '@rdkit/rdkit';

let loading: Promise<MainModule> | undefined;

/** Loads the RDKit WebAssembly module once per thread (~150 ms), on first use; logging off. */
export function loadRdkit(): Promise<MainModule> {
  loading ??= initRDKitModule().then((rdkit) => {
    // RDKit prints parse errors to stderr; callers get them as typed errors instead.
    rdkit.disable_logging();
    return rdkit;
  });
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Runs `fn` on a molecule and always frees it (the WASM heap does not collect garbage). */
export function using<T>(mol: Mol, fn: (mol: Mol) => T): T {
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

/**
 * Reads `input` (SMILES, molblock or RDKit JSON): the molecule, which the caller frees, or null when
 * RDKit cannot read it or reads it as invalid.
 */
export function validMol(rdkit: MainModule, input: string): Mol | null {
  let mol: Mol | null;
  try {
    mol = rdkit.get_mol(input);
  } catch {
    return null;
  }
  if (!mol) return null;
  if (mol.is_valid()) return mol;
  mol.delete();
  return null;
}

/** Reads `input` as {@link validMol} does and runs `fn` on the molecule, freed afterwards; null when it is none. */
export function withValidMol<T>(rdkit: MainModule, input: string, fn: (mol: Mol) => T): T | null {
  const mol = validMol(rdkit, input);
  return mol ? using(mol, fn) : null;
}
