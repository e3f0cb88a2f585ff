import { z } from 'zod';

/**
 * The success envelope every JSON call answers with (DESIGN §3).
 * @example ok(z.object({ id: z.string() })) // { success: true, data: { id }, message: '' }
 */
export const ok = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, message: z.string() });

/** The failure envelope: a human message, a stable machine code, and the offending field for 400s. */
export const failure = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
});
export type Failure = z.infer<typeof failure>;

/** A paged list (DESIGN §3): page counts from 1, size is at most 100. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });

/** Query parameters of a paged list call. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

/** The standard error responses every route may give, for OpenAPI. */
export const errorResponses = {
  400: failure,
  401: failure,
  403: failure,
  404: failure,
  409: failure,
  429: failure,
} as const;
