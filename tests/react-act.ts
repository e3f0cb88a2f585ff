// React's `act` for the browser tests that render a tree themselves. React only accepts `act` in a
// test environment (IS_REACT_ACT_ENVIRONMENT), and in one it reports every update made outside
// `act` as a console error, which fails a browser test (STYLE). The flag is therefore set only
// while `act` runs: the elements' own asynchronous updates (fetches, timers) stay quiet.
import { act as reactAct } from 'react';

const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

/** Runs `fn` (and the updates it causes) to completion before returning, as React's `act`. */
export async function act(fn: () => unknown): Promise<void> {
  env.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    await reactAct(async () => {
      await fn();
    });
  } finally {
    env.IS_REACT_ACT_ENVIRONMENT = false;
  }
}
