import { z } from 'zod';

/** GET /api/v1/prompt/get_alert: the server banner (SPEC §3 Alert). */
export const alert = z.object({
  is_show: z.boolean(),
  content: z.string(),
  content_type: z.enum(['info', 'warning', 'error', 'success']),
});
export type Alert = z.infer<typeof alert>;

/** PUT /api/v1/prompt/alert (administrators): set the banner. */
export const alertBody = z
  .object({
    is_show: z.boolean(),
    content: z.string().trim().max(2000, '公告内容不能超过2000个字符'),
    content_type: alert.shape.content_type.default('warning'),
  })
  .strict();

/** GET /api/v1/: the ping. */
export const ping = z.object({
  name: z.literal('csai'),
  version: z.string(),
  time: z.string(),
  /** Whether a language model answers (the home page offers questions this server can answer). */
  model: z.boolean().optional(),
});

/** A department (GET /api/v1/departments). */
export const department = z.object({ id: z.string(), name: z.string(), member_count: z.number().int() });

/** GET /api/v1/search_person_department?keyword= */
export const personSearchQuery = z.object({
  keyword: z.string().trim().min(1, '请输入搜索关键词').max(50, '搜索关键词不能超过50个字符'),
});

/** One person found by the people search; the e-mail and phone are masked. */
export const personHit = z.object({ id: z.string(), name: z.string(), show_name: z.string(), department_name: z.string() });

export const personSearchResult = z.object({
  people: z.array(personHit),
  departments: z.array(department),
});
