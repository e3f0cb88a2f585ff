import type { ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';

const hasChinese = (s: string) => /[\u4e00-\u9fff]/.test(s);

/**
 * Turns the first schema issue into the 400 envelope's message and field. Messages written in
 * the contract (Chinese) are used as they are; zod's own English ones are wrapped.
 */
export function validationFailure(issues: ZodFastifySchemaValidationError[], context?: string): { message: string; field: string } {
  const first = issues[0];
  const params = (first?.params ?? {}) as { keys?: string[] };
  let field = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (first?.keyword === 'unrecognized_keys' && params.keys?.length) {
    field = [field, params.keys[0]].filter(Boolean).join('.');
    return { field, message: `不支持的参数：${field}` };
  }
  const where = field || (context === 'body' ? '请求体' : context === 'querystring' ? '查询参数' : '参数');
  const text = first?.message ?? '参数无效';
  return { field: field || (context ?? ''), message: hasChinese(text) ? text : `参数 ${where} 无效（${text}）` };
}
