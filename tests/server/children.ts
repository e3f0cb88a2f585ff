import type { ChildProcess } from 'node:child_process';

// The server processes a test file started (process-helpers.ts spawnServerProcess), killed after
// the file by file-setup.ts. The hook lives in a setup file, not beside this set: where a worker
// runs several files without isolation (vitest.config.ts), a module is evaluated once, so a hook
// at its top level would be registered for the first of those files only.
const children = new Set<ChildProcess>();

export const trackChild = (child: ChildProcess) => void children.add(child);

/** SIGKILL to every tracked process still running. */
export function killLeftChildren() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}
