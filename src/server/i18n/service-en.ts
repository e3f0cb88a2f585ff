/**
 * The messages of net/service.ts (an outside service failed) in English: the Chinese shapes and
 * what they become. Used by localizeMessage (./index.ts) with the other message shapes.
 */
type Shape = [RegExp, (m: RegExpMatchArray, again: (s: string) => string) => string];

const NAMES: Record<string, string> = { 博查: 'Bocha', 自定义搜索服务: 'the custom search service', 联网搜索: 'Web search', 文献检索: 'Literature search', 专利检索: 'Patent search' };
const name = (s: string) => NAMES[s] ?? s;
const detail = (d: string | undefined) => (d ? `: ${d}` : '');

export const SERVICE_SHAPES: Shape[] = [
  [/^(联网搜索|文献检索|专利检索)失败：(.+)$/u, (m, again) => `${name(m[1]!)} failed: ${m[2]!.split('；').map(again).join('; ')}`],
  [/^(.+?) 拒绝了请求（(\d+)），请检查 API 密钥或服务设置(?:：(.+))?$/u, (m) => `${name(m[1]!)} refused the request (${m[2]}); check the API key or the service's settings${detail(m[3])}`],
  [/^(.+?) 请求过于频繁或额度已用完（429），请稍后再试(?:：(.+))?$/u, (m) => `${name(m[1]!)} got too many requests or its quota is used up (429); try again later${detail(m[2])}`],
  [/^(.+?) 暂时不可用（(\d+)），请稍后再试$/u, (m) => `${name(m[1]!)} is unavailable for now (${m[2]}); try again later`],
  [/^(.+?) 返回了重定向(?:（(\d+)）)?，请检查配置的服务地址$/u, (m) => `${name(m[1]!)} answered with a redirect${m[2] ? ` (${m[2]})` : ''}; check the configured address`],
  [/^(.+?) 返回错误（(.+?)）(?:：(.+))?$/u, (m) => `${name(m[1]!)} answered with an error (${m[2]})${detail(m[3])}`],
  [/^(.+?) 请求超时（超过 (\d+) 秒）$/u, (m) => `${name(m[1]!)} did not answer within ${m[2]} s`],
  [/^(.+?) 返回的数据过大，已放弃$/u, (m) => `${name(m[1]!)} sent too much data; it was not read`],
  [/^(.+?) 返回的数据不是有效的 JSON$/u, (m) => `${name(m[1]!)} answered with something other than JSON`],
  [/^(.+?) 返回的数据格式无法识别$/u, (m) => `${name(m[1]!)} answered in a shape that was not recognised`],
  [/^(.+?) 报告错误：(.+)$/u, (m) => `${name(m[1]!)} reported an error: ${m[2]}`],
  [/^(.+?) 出错：(.+)$/u, (m, again) => `${name(m[1]!)} failed: ${again(m[2]!)}`],
  [/^无法连接 (.+?)：(.+)$/u, (m, again) => `Cannot reach ${name(m[1]!)}: ${again(m[2]!)}`],
];
