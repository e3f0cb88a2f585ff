import { z } from 'zod';
import type { i18n as I18n } from 'i18next';
import type { ToastStore } from './toast';

/** SPEC §4: the build environment schema. It is empty on purpose: no variable is required. */
export const envSchema = z.object({});

/**
 * SPEC §4 start-up check: validates the build environment; on failure logs
 * "Invalid environment variables" and shows the destructive 'Env error' toast with the issues
 * as formatted JSON. Returns whether the environment passed.
 */
export function checkEnvironment(
  env: unknown,
  deps: { toasts: ToastStore; i18n: I18n; log?: (message: string, detail: unknown) => void },
  schema: z.ZodType = envSchema,
): boolean {
  const result = schema.safeParse(env);
  if (result.success) return true;
  const issues = result.error.issues;
  (deps.log ?? ((m, d) => console.error(m, d)))('❌ Invalid environment variables:', issues);
  deps.toasts.toast({
    variant: 'destructive',
    title: deps.i18n.t('core:env_error_title'),
    description: JSON.stringify(issues, null, 2),
  });
  return false;
}
