/**
 * English for the first line of a tool's result text (tools/*.ts `summarize`), which the answer
 * written without a model quotes after each tool it ran (answering/local-tools.ts toolRunLines).
 * The tools keep writing their text in Chinese (the model reads it; stored answers keep it); the
 * local engine says its line in the asker's language through localizeMessage, as progress texts
 * are (./progress-en.ts). Fixed lines in `toolMessages`, lines with values as shapes; a line
 * without either stays as written.
 */
type Shape = [RegExp, (m: RegExpMatchArray, again: (s: string) => string) => string];

/** Fixed lines, Chinese → English. */
export const toolMessages: Record<string, string> = {
  // name_to_smiles sources (tools/name-to-smiles.ts SOURCE_NAMES).
  'OPSIN 系统命名解析': 'OPSIN systematic name parsing',
  内置药物与试剂词典: 'the built-in dictionary of drugs and reagents',
  '语言模型给出系统名，经 OPSIN 确认': 'a systematic name from the language model, confirmed by OPSIN',
  'PubChem 查询服务': 'the PubChem lookup service',
  // smiles_completion (tools/names/completion.ts).
  '已是有效的 SMILES，已转换为规范形式': 'Already a valid SMILES; turned into its canonical form',
  '有效的 SMILES 片段（含连接点 *），另附封端后的分子': 'A valid SMILES fragment (with * attachment points); the capped molecule is given as well',
  '无法补全为有效的结构，请检查 SMILES': 'Cannot be completed into a valid structure; please check the SMILES',
  // task_query (tools/docking.ts).
  '你还没有提交过后台任务。': 'You have not submitted any background task yet.',
  '你最近的任务：': 'Your recent tasks:',
  // intelligence_search without documents or passages.
  '没有找到相关段落。': 'No related passage was found.',
  // code_execution (sandbox/service.ts) when the run finished.
  运行完成: 'Run finished',
  运行已被停止: 'The run was stopped',
};

const DOCKING_STATES: Record<string, string> = { 排队中: 'queued', 运行中: 'running', 已完成: 'done', 失败: 'failed', 已取消: 'cancelled' };
/** "1（MW<200，TPSA>140）" (a rule's violations) → "1 (MW<200, TPSA>140)". */
const violations = (s: string) => s.replace(/（(.*)）$/u, (_, list: string) => ` (${list.split('，').join(', ')})`);

export const TOOL_SHAPES: Shape[] = [
  // name_to_smiles
  [/^(.+)：SMILES (\S+)，InChIKey (\S+)（来源：(.+)）$/u, (m, again) => `${m[1]}: SMILES ${m[2]}, InChIKey ${m[3]} (source: ${again(m[4]!)})`],
  [/^未找到“(.+)”对应的结构：系统命名解析、内置词典(（OPSIN 未安装）)?及已配置的查询服务均无结果$/u,
    (m) => `No structure was found for “${m[1]}”: systematic name parsing, the built-in dictionary${m[2] ? ' (OPSIN is not installed)' : ''} and the configured lookup services found nothing`],
  // admet: a molecule's drug-likeness rules, the first line after the table.
  [/^(.+)：Ghose (.+?)；Veber (.+?)；Egan (.+?)；Muegge (.+?)；先导化合物相似性 (.+)$/u,
    (m) => `${m[1]}: Ghose ${violations(m[2]!)}; Veber ${violations(m[3]!)}; Egan ${violations(m[4]!)}; Muegge ${violations(m[5]!)}; lead-likeness ${violations(m[6]!)}`],
  // intelligence_search
  [/^在用户可读的 (\d+) 篇文档中检索“(.*)”。$/su, (m) => `Searched “${m[2]}” in the ${m[1]} documents you may read.`],
  // smiles_completion
  [/^SMILES 无效，找到 (\d+) 个可能的补全$/u, (m) => `Invalid SMILES; ${m[1]} possible completions found`],
  // web_search
  [/^联网搜索“(.*)”没有找到结果。$/su, (m) => `The web search for “${m[1]}” found nothing.`],
  [/^联网搜索“(.*)”找到 (\d+) 条结果：$/su, (m) => `The web search for “${m[1]}” found ${m[2]} results:`],
  // patent_search
  [/^与结构 (\S+) 相关的专利 (\d+) 件：$/u, (m) => `${m[2]} patents related to the structure ${m[1]}:`],
  [/^与“(.*)”相关的专利 (\d+) 件：$/su, (m) => `${m[2]} patents related to “${m[1]}”:`],
  [/^未找到与结构 (\S+) 相关的专利(?:（部分来源失败：(.+)）)?$/u, (m, again) => `No patent related to the structure ${m[1]} was found${m[2] ? ` (some sources failed: ${m[2].split('；').map(again).join('; ')})` : ''}`],
  [/^未找到与“(.*)”相关的专利(?:（部分来源失败：(.+)）)?$/su, (m, again) => `No patent related to “${m[1]}” was found${m[2] ? ` (some sources failed: ${m[2].split('；').map(again).join('; ')})` : ''}`],
  [/^专利检索未能完成：(.+)$/su, (m, again) => `The patent search could not finish: ${m[1]!.split('；').map(again).join('; ')}`],
  [/^(SureChEMBL|PubChem) 检索失败$/u, (m) => `${m[1]} search failed`],
  // page_crawl
  [/^《(.*)》（(.+?)，(\S+)，抓取于 ([^，）]+)(?:，PDF 共 (\d+) 页)?）$/su, (m) => `“${m[1]}” (${m[2]}, ${m[3]}, read at ${m[4]}${m[5] ? `, a PDF of ${m[5]} pages` : ''})`],
  // code_execution
  [/^(.+)（退出码 (\S+)，用时 (\S+) 秒）$/su, (m, again) => `${again(m[1]!)} (exit code ${m[2]}, ${m[3]} s)`],
  // task_query / docking_submit
  [/^任务 (\S+)（对接：(.+)）：(\S+?)(?:，进度 (\d+)%)?(?:，(.+))?$/u,
    (m, again) => `Task ${m[1]} (docking: ${m[2]}): ${DOCKING_STATES[m[3]!] ?? m[3]}${m[4] ? `, ${m[4]}% done` : ''}${m[5] ? `, ${again(m[5])}` : ''}`],
  [/^批次 (\S+)（(.+)）：(\S+?)，(\d+) 个分子中已完成 (\d+) 个(.*)。$/u,
    (m) => `Batch ${m[1]} (${m[2]}): ${DOCKING_STATES[m[3]!] ?? m[3]}, ${m[5]} of ${m[4]} molecules done${m[6]!.replace(/、失败 (\d+) 个/u, ', $1 failed').replace(/、取消 (\d+) 个/u, ', $1 cancelled').replace(/、运行中 (\d+) 个/u, ', $1 running').replace(/、排队 (\d+) 个/u, ', $1 queued')}.`],
];
