import initRDKitModule, { type MainModule } from '@rdkit/rdkit';

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
