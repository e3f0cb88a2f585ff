/**
 * Waits for `work` to settle (fulfilled or rejected alike), for at most `ms`: true when it settled
 * in time, false when the time ran out first. The timer goes with the wait, whichever ends it, so a
 * stop that finished early leaves nothing pending that would hold the process (or a test's check
 * for timers) until it fires.
 */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(settled, settled), late]);
  } finally {
    clearTimeout(timer);
  }
}

const settled = () => true as const;
