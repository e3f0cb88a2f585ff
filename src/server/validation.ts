import type { ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';

const hasChinese = (s: string) => /[\u4e00-\u9fff]/.test(s);

const TYPE_NAMES: Record<string, string> = {
  string: '字符串',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
};

interface IssueParams {
  keys?: string[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** A Chinese sentence for zod's own (English) issue kinds; `where` names the field or the body. */
function describe(keyword: string | undefined, message: string, params: IssueParams, where: string, isRoot: boolean): string {
  switch (keyword) {
    case 'invalid_type': {
      if (isRoot) return `${where}应为 JSON 对象`;
      if (/received undefined/.test(message)) return `缺少参数 ${where}`;
      const expected = params.expected ? TYPE_NAMES[params.expected] ?? params.expected : undefined;
      return expected ? `参数 ${where} 类型不正确，应为${expected}` : `参数 ${where} 类型不正确`;
    }
    case 'too_small':
      if (params.origin === 'string') return `参数 ${where} 至少需要 ${String(params.minimum)} 个字符`;
      if (params.origin === 'number') return `参数 ${where} 不能小于 ${String(params.minimum)}`;
      return `参数 ${where} 过短`;
    case 'too_big':
      if (params.origin === 'string') return `参数 ${where} 不能超过 ${String(params.maximum)} 个字符`;
      if (params.origin === 'number') return `参数 ${where} 不能大于 ${String(params.maximum)}`;
      return `参数 ${where} 过长`;
    case 'invalid_value':
      return `参数 ${where} 的取值不在允许范围内`;
    case 'invalid_format':
      return `参数 ${where} 格式不正确`;
    default:
      return `参数 ${where} 无效`;
  }
}

/**
 * Turns the first schema issue into the 400 envelope's message and field. Messages written in
 * the contract (Chinese) are used as they are; zod's own English ones become Chinese sentences.
 * A problem with the whole body or query names `body` / `querystring` as the field.
 */
export function validationFailure(issues: ZodFastifySchemaValidationError[], context?: string): { message: string; field: string } {
  const first = issues[0];
  const params = (first?.params ?? {}) as IssueParams;
  let field = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (first?.keyword === 'unrecognized_keys' && params.keys?.length) {
    field = [field, params.keys[0]].filter(Boolean).join('.');
    return { field, message: `不支持的参数：${field}` };
  }
  const isRoot = field === '';
  const where = field || (context === 'body' ? '请求体' : context === 'querystring' ? '查询参数' : '参数');
  const text = first?.message ?? '';
  return {
    field: field || (context ?? 'body'),
    message: hasChinese(text) ? text : describe(first?.keyword, text, params, where, isRoot),
  };
}
