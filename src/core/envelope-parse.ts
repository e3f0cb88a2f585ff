// The response parsing of the API client, loaded on the first call rather than with the page:
// it holds zod and the envelope schemas, which a page's first paint does not need.
import { z } from 'zod';
import { failure, ok } from '../contract/envelope';

const anyEnvelope = ok(z.unknown());

/** Parses a success envelope and its `data` with `schema`; undefined when either does not match. */
export function parseEnvelope<T extends z.ZodType>(payload: unknown, schema: T): { data: z.output<T>; message: string } | undefined {
  const outer = anyEnvelope.safeParse(payload);
  if (!outer.success) return undefined;
  const parsed = schema.safeParse(outer.data.data);
  return parsed.success ? { data: parsed.data, message: outer.data.message } : undefined;
}

/** Parses a failure envelope (message, code, field); undefined when the body is not one. */
export function parseFailure(body: unknown): z.output<typeof failure> | undefined {
  const parsed = failure.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/** `data: null`, the answer of calls that only succeed or fail (sign-out). */
export const nullData = z.null();
