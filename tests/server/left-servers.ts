/**
 * In-process servers started (helpers.ts startServer) and not closed yet, each by its close and
 * address. Files share a worker (vitest.config.ts, isolate: false), so a server a file leaves
 * running would go on polling its queues, and starting timers, during the next files: file-setup.ts
 * closes them after each file. Kept apart from helpers.ts so the setup file does not import the server.
 */
export const leftServers = new Map<() => Promise<void>, string>();

/** Closes the servers left running; returns their addresses. */
export async function closeLeftServers(): Promise<string[]> {
  const entries = [...leftServers];
  await Promise.allSettled(entries.map(([close]) => close()));
  return entries.map(([, url]) => url);
}
