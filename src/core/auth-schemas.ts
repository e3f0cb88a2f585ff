// Answers of the account calls that have no schema in the contract, loaded with their first call
// (`lazySchema`): importing zod's module namespace with `import()` would bundle all of zod.
import { z } from 'zod';

/** DELETE auth/tokens/{id}: how many tokens were removed. */
export const revokedTokens = z.object({ deleted: z.number().int() });
