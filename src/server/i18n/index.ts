/**
 * The language of what the server writes to a user: Chinese by default (SPEC §1, its
 * messages verbatim), English for a user who chose English. One i18next instance with the
 * resources of ./en.ts: keyed texts with values, and Chinese messages as natural-language keys,
 * so a message thrown anywhere in Chinese is said in English at the edge (the error handler, the
 * tool list, a tool's result) without every module knowing the language.
 */
import i18next, { type TFunction } from 'i18next';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/database';
import { answerTexts, moreMessages } from './answer-en';
import { keyed, messages, toolsEn } from './en';
import { progressMessages, PROGRESS_PATTERNS } from './progress-en';
import { SERVICE_SHAPES } from './service-en';
import { TOOL_SHAPES, toolMessages } from './tool-en';

export type Lang = 'zh' | 'en';

const instance = i18next.createInstance();
void instance.init({
  initAsync: false,
  lng: 'zh',
  fallbackLng: false,
  // Chinese messages are keys: no separators inside them, and a missing key is said as written.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  resources: {
    zh: { translation: { ...keyed.zh, ...answerTexts.zh } },
    en: { translation: { ...messages, ...progressMessages, ...toolMessages, ...moreMessages, ...keyed.en, ...answerTexts.en } },
  },
});

/** The texts with values (./en.ts `keyed`, ./answer-en.ts) in one language. */
export type ServerKey = keyof typeof keyed.zh | keyof typeof answerTexts.zh;
export const serverT = (lang: Lang = 'zh'): ((key: ServerKey, values?: Record<string, unknown>) => string) => {
  const t: TFunction = instance.getFixedT(lang);
  return (key, values) => t(key, values ?? {});
};

/**
 * Message shapes with values, Chinese → English: the whole pattern, and what the values become
 * (each captured Chinese part is said again through localizeMessage).
 */
const PATTERNS: Array<[RegExp, (m: RegExpMatchArray, again: (s: string) => string) => string]> = [
  [/^缺少参数 (.+)$/u, (m) => `Missing parameter ${m[1]}`],
  [/^缺少参数(.+)$/u, (m) => `Missing parameter ${m[1]!.replace(/^参数 ?/, '')}`],
  [/^参数 (\S+) 类型不正确(?:，应为(.+))?$/u, (m) => `Parameter ${m[1]} has the wrong type${m[2] ? ` (expected ${TYPE_NAMES[m[2]] ?? m[2]})` : ''}`],
  [/^参数 (\S+) 至少需要 (\d+) 个字符$/u, (m) => `Parameter ${m[1]} needs at least ${m[2]} characters`],
  [/^参数 (\S+) 不能超过 (\d+) 个字符$/u, (m) => `Parameter ${m[1]} must not exceed ${m[2]} characters`],
  [/^参数 (\S+) 不能小于 (.+)$/u, (m) => `Parameter ${m[1]} must not be less than ${m[2]}`],
  [/^参数 (\S+) 不能大于 (.+)$/u, (m) => `Parameter ${m[1]} must not be greater than ${m[2]}`],
  [/^参数 (\S+) 的取值不在允许范围内$/u, (m) => `Parameter ${m[1]} is not one of the allowed values`],
  [/^参数 (\S+) 格式不正确$/u, (m) => `Parameter ${m[1]} has the wrong format`],
  [/^参数 (\S+) (?:无效|过短|过长)$/u, (m) => `Parameter ${m[1]} is invalid`],
  [/^(请求体|查询参数)应为 JSON 对象$/u, (m) => `The ${m[1] === '请求体' ? 'request body' : 'query'} must be a JSON object`],
  [/^不支持的参数：(.+)$/u, (m) => `Unsupported parameter: ${m[1]}`],
  [/^工具运行超时（超过(\d+)秒），已停止$/u, (m) => `The tool ran longer than ${m[1]} s and was stopped`],
  [/^没有名为“(.+)”的工具$/u, (m) => `There is no tool named “${m[1]}”`],
  [/^未安装 (.+?)。(.+)$/u, (m, again) => `${m[1]!.split('、').join(', ')} not installed. ${again(m[2]!)}`],
  [/^未找到(.+?)。(.+)$/u, (m, again) => `${m[1]!.trim()} not found. ${again(m[2]!)}`],
  [/^“(.+)”不可用：管理员已为单位目录（LDAP）账号停用此工具，如需使用请联系管理员。$/u, (m) => serverT('en')('tool.ldap_disabled', { label: englishLabel(m[1]!) })],
  [/^“(.+?)”不可用：(.+)$/u, (m, again) => `“${englishLabel(m[1]!)}” is unavailable: ${again(m[2]!)}`],
  [/^无法识别“(.+)”：既不是有效的 SMILES，也不是已知的化合物名称$/u, (m) => serverT('en')('admet.unknown', { text: m[1] })],
  [/^工具参数过大（超过(\d+) KB），请减少输入内容$/u, (m) => `The tool arguments are too large (over ${m[1]} KB); please send less`],
  ...PROGRESS_PATTERNS,
  ...TOOL_SHAPES,
];
/** A tool's label in English, from its Chinese label (the catalog's), or as written. */
const englishLabel = (label: string) => {
  const name = Object.entries(CATALOG_LABELS).find(([, zh]) => zh === label)?.[0];
  return (name && toolsEn.labels[name]) || label;
};
const CATALOG_LABELS: Record<string, string> = {
  intelligence_search: '情报数据库检索',
  web_search: '联网搜索',
  page_crawl: '网页抓取',
  admet: 'ADMET计算',
  patent_search: '分子专利检索',
  name_to_smiles: '化学名转SMILES',
  smiles_completion: 'SMILES补全',
  docking_submit: '对接任务提交',
  task_query: '任务查询',
  code_execution: '代码生成与执行',
};
const TYPE_NAMES: Record<string, string> = { 字符串: 'string', 数字: 'number', 整数: 'integer', 布尔值: 'boolean', 对象: 'object', 数组: 'array' };

/**
 * A message the server wrote in Chinese, in the user's language: as written for Chinese; for
 * English its translation (./en.ts), or the shape it has (PATTERNS); a message without either
 * stays as written.
 */
export function localizeMessage(message: string, lang: Lang): string {
  if (lang === 'zh' || !/\p{Script=Han}/u.test(message)) return message;
  if (instance.exists(message, { lng: 'en' })) return instance.t(message, { lng: 'en' });
  for (const [pattern, english] of [...PATTERNS, ...SERVICE_SHAPES]) {
    const m = message.match(pattern);
    if (m) return english(m, (s) => localizeMessage(s, lang));
  }
  return message;
}

/** The tool catalog's group label, tool label or description in English (null: none written). */
export const toolText = (kind: keyof typeof toolsEn, id: string): string | null => toolsEn[kind][id] ?? null;

/** 'en' for a language tag (or Accept-Language list) that starts with English, else 'zh'. */
export const languageOfTag = (tag: string | undefined): Lang => (tag && /^\s*en\b/i.test(tag) ? 'en' : 'zh');

const known = new WeakMap<FastifyRequest, Promise<Lang>>();

/**
 * The language to write to the one asking: the language the signed-in user chose (users.language,
 * PUT /auth/me/language), else the request's Accept-Language (the site's client sends the language
 * it shows), else Chinese. Found once per request.
 */
export function requestLanguage(req: FastifyRequest, db: Executor): Promise<Lang> {
  let lang = known.get(req);
  if (!lang) {
    lang = (async () => {
      try {
        const auth = await req.auth();
        if (auth.kind === 'user') {
          const row = await db.selectFrom('users').select('language').where('id', '=', auth.userId).executeTakeFirst();
          if (row?.language === 'en' || row?.language === 'zh') return row.language;
        }
      } catch {
        // No session on this request (a route outside the API): the header decides.
      }
      return languageOfTag(req.headers['accept-language']);
    })();
    known.set(req, lang);
  }
  return lang;
}

/** The language a user chose (users.language), Chinese when none. */
export async function userLanguage(db: Executor, userId: string): Promise<Lang> {
  const row = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return row?.language === 'en' ? 'en' : 'zh';
}
